"""API keys of the served graph: which tenant each key acts for, configured by the operator.

A key is a random secret (`new_key()`); only its SHA-256 digest is kept, on a line
`<tenant> <key name> sha256:<hex>` in the file `CONTRACT_AGENT_API_KEYS_FILE` (default:
`api-keys` in the data folder) and/or in `CONTRACT_AGENT_API_KEYS` (lines separated by newlines or ';'). '#' starts a comment. Keys carry
256 random bits, so a plain digest is safe to store (no slow hash needed), and a leaked keys
file gives no key away. `contract-review keys add --tenant acme --name ci` makes a key, appends
its line and prints the key once.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from agent.errors import ConfigurationError
from agent.settings import Settings

KEY_PREFIX = "cra_"  # recognisable in logs and secret scanners
_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,62}$")
_DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def digest(key: str) -> str:
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    tenant: str
    name: str
    digest: str

    @property
    def identity(self) -> str:
        """Who made a request: the key's tenant and name (never the key)."""
        return f"{self.tenant}/{self.name}"

    def line(self) -> str:
        return f"{self.tenant} {self.name} {self.digest}"


def parse_keys(text: str, source: str) -> list[ApiKey]:
    """The keys on `text`'s lines; ConfigurationError names the source and line of a bad one."""
    keys: list[ApiKey] = []
    for number, raw in enumerate(re.split(r"[\n;]", text), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 3 or not _ID.fullmatch(parts[0]) or not _ID.fullmatch(parts[1]) or not _DIGEST.fullmatch(parts[2]):
            raise ConfigurationError(
                f"{source}, entry {number}: expected '<tenant> <key name> sha256:<64 hex digits>' "
                "(tenant and name: a-z, 0-9, '_', '-', '.'); `contract-review keys add` writes such lines"
            )
        keys.append(ApiKey(*parts))
    return keys


class KeyRing:
    """The configured keys, looked up by digest in constant time per entry."""

    def __init__(self, keys: list[ApiKey]) -> None:
        names: dict[tuple[str, str], ApiKey] = {}
        for key in keys:
            if (key.tenant, key.name) in names and names[(key.tenant, key.name)].digest != key.digest:
                raise ConfigurationError(f"API key name {key.name!r} of tenant {key.tenant!r} is configured twice")
            names[(key.tenant, key.name)] = key
        self.keys = list(names.values())

    @property
    def empty(self) -> bool:
        return not self.keys

    def find(self, presented: str) -> ApiKey | None:
        """The key `presented` is, or None. Compares every digest, so timing tells nothing."""
        wanted = digest(presented)
        found = None
        for key in self.keys:
            if hmac.compare_digest(key.digest, wanted):
                found = key
        return found


def keys_file_state(settings: Settings) -> tuple[str, float]:
    """What the key ring depends on (file path and modification time): reload when it changes."""
    path = settings.keys_path
    try:
        return str(path), os.stat(path).st_mtime
    except OSError:
        return str(path), -1.0


def load_key_ring(settings: Settings) -> KeyRing:
    """The keys of CONTRACT_AGENT_API_KEYS and of the keys file. A file that was named must be
    readable; the default one (`api-keys` in the data folder) may be absent."""
    keys = parse_keys(settings.api_keys, "CONTRACT_AGENT_API_KEYS") if settings.api_keys.strip() else []
    path = settings.keys_path
    if settings.api_keys_file is not None or path.exists():
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise ConfigurationError(f"cannot read the API keys file {path}: {exc.strerror}") from exc
        keys += parse_keys(text, str(path))
    return KeyRing(keys)


def add_key(path: Path, tenant: str, name: str) -> str:
    """Make a key for `tenant`, append its line to the keys file (owner-only), return the key."""
    for what, value in (("tenant", tenant), ("key name", name)):
        if not _ID.fullmatch(value):
            raise ConfigurationError(f"invalid {what} {value!r}: use 1-63 of a-z, 0-9, '_', '-', '.', starting with a letter or digit")
    ring = KeyRing(parse_keys(path.read_text(), str(path))) if path.exists() else KeyRing([])
    if any(k.tenant == tenant and k.name == name for k in ring.keys):
        raise ConfigurationError(f"{path} already has a key named {name!r} for tenant {tenant!r}: pick another name")
    key = new_key()
    entry = ApiKey(tenant, name, digest(key))
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new data folder is the owner's alone
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a") as handle:
        handle.write(entry.line() + "\n")
    return key
