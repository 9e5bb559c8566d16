"""The Chroma memory backend: episodes and facts in ChromaDB, procedures and confirmations in SQLite.

`open_chroma_memory(url)`:
- `chroma:///relative/dir`, `chroma:////absolute/dir`: ChromaDB embedded in this process
  (`chromadb.PersistentClient`) storing under the folder; the procedural tier, the confirmation
  log and retrieval telemetry go to `state.sqlite` in the same folder.
- `chroma://host:port?state=/path/state.sqlite[&ssl=true]`: a Chroma server (e.g. the one
  infrastructure/docker-compose.yml starts); `state` names the local SQLite file for the rest.

Why the split: Chroma is a vector store. It has no atomic counters and no conditional writes, so
the tiers that need them (procedure success counts, the distinct-run confirmation gate) stay on
SQLite, which counts exactly across threads and processes; the vector tiers live in Chroma.
Collections, tenant isolation and search are described in `memory.backends.chroma.search`.
Tenant erasure (`memory forget`) and near-duplicate merging are not implemented here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from memory.backends.chroma.stores import ChromaEpisodeStore, ChromaFactStore
from memory.backends.sqlite import SqliteMemory
from memory.errors import MemoryBackendError, MemoryConfigError
from memory.records import Namespace

__all__ = ["ChromaEpisodeStore", "ChromaFactStore", "ChromaMemory", "open_chroma_memory"]


class ChromaMemory:
    """Episodes and facts in Chroma; procedures, confirmations and telemetry in a SQLite file."""

    def __init__(self, client: Any, state_path: str | Path) -> None:
        self.client = client
        self.state = SqliteMemory(state_path)
        self.episodes = ChromaEpisodeStore(client)
        self.facts = ChromaFactStore(client)
        self.procedures = self.state.procedures
        self.confirmations = self.state.confirmations
        self.telemetry = self.state.telemetry

    def namespaces(self) -> list[Namespace]:
        """Every tenant/agent namespace holding episodes or procedures (for decay)."""
        found = {(ns.tenant, ns.agent) for ns in self.state.namespaces()}
        found.update((tenant, agent) for tenant, agent in self.episodes.scopes())
        return [Namespace(tenant=tenant, agent=agent) for tenant, agent in sorted(found)]

    def close(self) -> None:
        self.state.close()

    def __enter__(self) -> ChromaMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _chromadb() -> Any:
    try:
        import chromadb
    except ImportError as exc:
        raise MemoryConfigError(
            f"the Chroma memory backend needs chromadb ({exc}): pip install 'contract-memory-agent[chroma]'"
        ) from exc
    return chromadb


def open_chroma_memory(url: str) -> ChromaMemory:
    """Open the backend a `chroma://` URL names (see the module docstring)."""
    parts = urlsplit(url.strip())
    if parts.scheme != "chroma":
        raise MemoryConfigError(f"not a chroma URL: {url!r}")
    options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    chromadb = _chromadb()
    from chromadb.config import Settings as ChromaSettings

    settings = ChromaSettings(anonymized_telemetry=False)
    if not parts.netloc:  # chroma:///dir (relative) or chroma:////abs/dir, as sqlite URLs
        raw = parts.path[1:] if parts.path.startswith("/") else parts.path
        if not raw:
            raise MemoryConfigError(f"memory URL {url!r} names no folder: use 'chroma:///path/to/folder'")
        folder = Path(raw)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            client = chromadb.PersistentClient(path=str(folder), settings=settings)
        except Exception as exc:
            raise MemoryBackendError(f"cannot open the Chroma store in {folder}: {exc}") from exc
        return ChromaMemory(client, Path(options.get("state") or folder / "state.sqlite"))
    if not options.get("state"):
        raise MemoryConfigError(
            f"memory URL {url!r} needs a local file for procedures and confirmations: add ?state=/path/state.sqlite"
        )
    try:
        port = parts.port or 8000
    except ValueError as exc:
        raise MemoryConfigError(f"memory URL {url!r} has an invalid port") from exc
    try:
        client = chromadb.HttpClient(host=parts.hostname or "localhost", port=port,
                                     ssl=options.get("ssl", "false").lower() == "true", settings=settings)
    except Exception as exc:
        raise MemoryBackendError(f"cannot reach the Chroma server at {parts.hostname}:{port}: {exc}") from exc
    return ChromaMemory(client, Path(options["state"]))
