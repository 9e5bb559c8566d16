"""The checkpoint key: where it is kept, made once, and never beside the data (issue 31).

SQLite checkpoints are AES-encrypted. A key kept in the data folder decrypts them for anyone who
gets a copy of the folder (a backup, a support bundle), so the key comes, in this order, from:

1. `CONTRACT_AGENT_CHECKPOINT_KEY` (hex; from a secret store);
2. with `checkpoint_key_store = keyring`, the OS keyring (the `keyring` package), one entry per
   data folder;
3. the key file of the data folder: `checkpoint_key_file`, else
   `<checkpoint_key_folder>/<folder name>-<hash of the folder's path>.key` in the user's config
   folder (`$XDG_CONFIG_HOME/contract-agent/keys`), created once, 0600 in a 0700 folder.

A key file or keyring entry is made only while no checkpoint needs an earlier key (issue 32: a
lost key is never silently replaced). A `checkpoint.key` left in the data folder by an earlier
version is moved out on first use, with a one-line notice, and its bytes overwritten; when it
holds another key than the one in use, the command stops and says what to do.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import sys
from pathlib import Path

from agent.errors import ConfigurationError, MemoryStoreError
from agent.settings import Settings

KEY_BYTES = (16, 24, 32)
LEGACY_NAME = "checkpoint.key"  # the key file in the data folder, before issue 31
KEYRING_SERVICE = "contract-agent"
STORES = ("file", "keyring")


def notice(message: str) -> None:
    """A one-line notice on stderr: a key moved is said even under --quiet (it happens once)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def data_folder(settings: Settings) -> Path:
    """The data folder, created owner-only (0700) if it does not exist yet."""
    try:
        settings.home.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise MemoryStoreError(f"cannot create the data folder {settings.home}: {exc.strerror or exc}") from exc
    return settings.home


def _folder_id(home: Path) -> str:
    """`<folder name>-<16 hex digits of the hash of its absolute path>`: one key per data folder,
    and a name an operator can recognise."""
    where = str(home.expanduser().resolve())
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", home.name).strip("._") or "data"
    return f"{name[:40]}-{hashlib.sha256(where.encode()).hexdigest()[:16]}"


def key_folder(settings: Settings) -> Path:
    if settings.checkpoint_key_folder is not None:
        return settings.checkpoint_key_folder
    config = os.environ.get("XDG_CONFIG_HOME", "").strip()
    base = Path(config) if config and Path(config).is_absolute() else Path.home() / ".config"
    return base / "contract-agent" / "keys"


def key_file(settings: Settings) -> Path:
    """The key file of the data folder (whether it exists or not)."""
    return settings.checkpoint_key_file or key_folder(settings) / f"{_folder_id(settings.home)}.key"


def legacy_key_file(settings: Settings) -> Path:
    return settings.home / LEGACY_NAME


def key_source(settings: Settings) -> str:
    """Where the key of this data folder comes from, for messages: never the key itself."""
    if settings.checkpoint_key:
        return "CONTRACT_AGENT_CHECKPOINT_KEY"
    if settings.checkpoint_key_store == "keyring":
        return f"the OS keyring entry {KEYRING_SERVICE}/{_keyring_user(settings)}"
    return f"the key file {key_file(settings)}"


def _inside(path: Path, folder: Path) -> bool:
    return path.expanduser().resolve().is_relative_to(folder.expanduser().resolve())


def _parse(value: bytes, where: str) -> bytes:
    if len(value) not in KEY_BYTES:
        raise ConfigurationError(f"the checkpoint key in {where} is damaged ({len(value)} bytes); restore it "
                                 "(its checkpoints cannot be read without it) or remove it with them")
    return value


def _read_key(path: Path) -> bytes | None:
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigurationError(f"cannot read the checkpoint key file {path}: {exc.strerror or exc}") from exc
    return _parse(key, f"the file {path}")


def _create_file(path: Path, key: bytes) -> bytes:
    """Write `key` to `path` unless it exists; return the key the file then holds.

    The file appears whole or not at all: the key is written to a private temporary file that is
    then hard-linked to its name (an atomic create-if-absent), so processes starting at once all
    read the one key that won, never an empty or half-written file."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise MemoryStoreError(f"cannot create the key folder {path.parent}: {exc.strerror or exc}") from exc
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(8)}")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process won: use its key
            os.link(temporary, path)
    except OSError as exc:
        raise MemoryStoreError(f"cannot create the checkpoint key file {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    stored = _read_key(path)
    if stored is None:
        raise MemoryStoreError(f"the checkpoint key file {path} vanished while it was being created")
    return stored


def erase_file(path: Path) -> None:
    """Take a key file away: renamed first (another process sees the whole file or none), then
    its bytes overwritten with zeros and synced, then unlinked. (A copy-on-write or journalled
    filesystem may still keep the old blocks, which is why the key must not be written into the
    data folder in the first place.)"""
    doomed = path.with_name(f".{path.name}.erased.{os.getpid()}.{secrets.token_hex(8)}")
    try:
        os.rename(path, doomed)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise MemoryStoreError(f"cannot remove the checkpoint key {path}: {exc.strerror or exc}") from exc
    try:
        with doomed.open("r+b") as handle:
            handle.write(b"\0" * doomed.stat().st_size)
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        with contextlib.suppress(OSError):
            doomed.unlink()


# ---------------------------------------------------------------- the OS keyring

def _keyring_user(settings: Settings) -> str:
    return f"checkpoint-key:{settings.home.expanduser().resolve()}"


def _keyring():
    """The `keyring` module with a usable backend, else a clear error (never a silent fallback to
    a file the user did not choose)."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        raise ConfigurationError("checkpoint_key_store is 'keyring' but the keyring package is not installed: "
                                 "pip install 'contract-agent[keyring]', or use checkpoint_key_store=file") from None
    backend = keyring.get_keyring()
    usable = not isinstance(backend, fail.Keyring) and getattr(backend, "priority", 0) > 0
    if not usable:
        raise ConfigurationError(f"checkpoint_key_store is 'keyring' but no usable OS keyring was found "
                                 f"({type(backend).__module__}): start one (e.g. a Secret Service on Linux) or "
                                 "use checkpoint_key_store=file")
    return keyring


def _keyring_read(settings: Settings) -> bytes | None:
    value = _keyring().get_password(KEYRING_SERVICE, _keyring_user(settings))
    if value is None:
        return None
    try:
        key = bytes.fromhex(value)
    except ValueError:
        key = b""
    return _parse(key, f"the OS keyring entry {KEYRING_SERVICE}/{_keyring_user(settings)}")


def _keyring_create(settings: Settings, key: bytes) -> bytes:
    ring = _keyring()
    try:
        ring.set_password(KEYRING_SERVICE, _keyring_user(settings), key.hex())
    except Exception as exc:  # the backends raise their own errors (D-Bus, Keychain ...)
        raise ConfigurationError(f"cannot store the checkpoint key in the OS keyring: {exc}") from exc
    stored = _keyring_read(settings)
    if stored is None:
        raise ConfigurationError("the OS keyring accepted the checkpoint key but does not give it back")
    return stored


# ---------------------------------------------------------------- the key

def _stored(settings: Settings) -> bytes | None:
    if settings.checkpoint_key_store == "keyring":
        return _keyring_read(settings)
    return _read_key(key_file(settings))


def _store(settings: Settings, key: bytes) -> bytes:
    if settings.checkpoint_key_store == "keyring":
        return _keyring_create(settings, key)
    return _create_file(key_file(settings), key)


def _environment_key(settings: Settings) -> bytes:
    try:
        key = bytes.fromhex(settings.checkpoint_key)
    except ValueError:
        key = b""
    if len(key) not in KEY_BYTES:
        raise ConfigurationError("CONTRACT_AGENT_CHECKPOINT_KEY must be 32, 48 or 64 hex digits")
    return key


def _migrate(settings: Settings, current: bytes | None) -> bytes | None:
    """Move a `checkpoint.key` left in the data folder out of it. Returns the key in use after
    the move (None: there was nothing to move and no key yet)."""
    legacy = legacy_key_file(settings)
    if not legacy.exists():
        return current
    old = _read_key(legacy)
    if old is None:  # gone meanwhile (another process moved it)
        return current if current is not None else _stored(settings)
    if current is not None and current != old:
        raise ConfigurationError(
            f"{legacy} holds another checkpoint key than {key_source(settings)}, and a key must not be kept beside "
            f"the data: move it out of the data folder (e.g. mv {legacy} ~/{settings.home.name}-old-checkpoint.key) "
            "or delete it if no checkpoints need it")
    if current is None:
        current = _store(settings, old)
        if current != old:  # another process stored a key first: keep the folder's file for the user
            raise ConfigurationError(f"{legacy} and {key_source(settings)} hold different checkpoint keys: "
                                     f"keep the one its checkpoints were written with and delete the other")
        notice(f"moved the checkpoint key out of the data folder: {legacy} -> {key_source(settings)}")
    else:
        notice(f"removed the copy of the checkpoint key kept in the data folder ({legacy}): the key in use is "
               f"{key_source(settings)}")
    erase_file(legacy)
    return current


def checkpoint_key(settings: Settings) -> bytes:
    """The AES key for checkpoints (see the module's docstring for where it comes from)."""
    if settings.checkpoint_key_store not in STORES:
        raise ConfigurationError(f"unknown checkpoint_key_store {settings.checkpoint_key_store!r}: "
                                 "use 'file' or 'keyring'")
    data_folder(settings)
    if settings.checkpoint_key:
        key = _environment_key(settings)
        _migrate(settings, key)
        return key
    if settings.checkpoint_key_store == "file" and _inside(key_file(settings), settings.home):
        raise ConfigurationError(f"the checkpoint key file {key_file(settings)} is inside the data folder "
                                 f"{settings.home}: a key must not be kept beside the data it decrypts; "
                                 "choose a file outside it (checkpoint_key_file)")
    key = _migrate(settings, _stored(settings))
    if key is not None:
        return key
    from graphs.checkpoints import checkpoint_threads

    threads = checkpoint_threads(settings.checkpoint_path)
    if threads:  # a new key would silently leave them unreadable (issue 32)
        raise ConfigurationError(
            f"the checkpoint key is missing ({key_source(settings)} does not exist) but "
            f"{settings.checkpoint_path.name} holds {threads} checkpoint thread(s) written with it: restore the key "
            "(if the data folder was moved or renamed, its key file is in "
            f"{key_folder(settings)} under the old folder's name: set CONTRACT_AGENT_CHECKPOINT_KEY_FILE to it), "
            f"or set CONTRACT_AGENT_CHECKPOINT_KEY to that key, or delete {settings.checkpoint_path} to discard them")
    return _store(settings, secrets.token_bytes(32))


def key_status(settings: Settings, *, move: bool = True) -> dict[str, object]:
    """Where the checkpoint key of the data folder is kept, never the key: `{"source", "location",
    "exists"}`. With `move`, a `checkpoint.key` left in the data folder is moved out first (the
    same move a review makes); no new key is made here."""
    if move and legacy_key_file(settings).exists():
        checkpoint_key(settings)
    if settings.checkpoint_key:
        return {"source": "environment", "location": "CONTRACT_AGENT_CHECKPOINT_KEY", "exists": True}
    if settings.checkpoint_key_store == "keyring":
        return {"source": "keyring", "location": f"{KEYRING_SERVICE}/{_keyring_user(settings)}",
                "exists": _keyring_read(settings) is not None}
    where = key_file(settings)
    return {"source": "file", "location": str(where), "exists": where.exists()}
