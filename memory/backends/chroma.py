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
Collections, tenant isolation and search are described in `memory.backends.chroma_search`.
Tenant erasure (`memory forget`) and near-duplicate merging are not implemented here.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from memory.backends.chroma_search import (
    Collections,
    all_of,
    hybrid_search,
    ident_metadata,
    rows_of,
    unit_vector,
)
from memory.backends.sqlite import SqliteMemory
from memory.errors import MemoryBackendError, MemoryConfigError
from memory.records import Episode, Fact, Namespace, Outcome, Scored
from memory.stores import VectorQuery

__all__ = ["ChromaEpisodeStore", "ChromaFactStore", "ChromaMemory", "open_chroma_memory"]


def _add(collections: Collections, scope: tuple[str, ...], model: str, record_id: str, vector: Sequence[float],
         document: str, metadata: dict[str, Any]) -> None:
    unit = unit_vector(vector)
    collection = collections.for_model(scope, model, dimension=len(unit))
    stored = int((collection.metadata or {}).get("dimension") or len(unit))
    if stored != len(unit):
        raise MemoryBackendError(
            f"{model!r} vectors of this namespace have {stored} dimensions, got {len(unit)}: re-embed them"
        )
    collection.add(ids=[record_id], embeddings=[unit], documents=[document], metadatas=[metadata])


def _ids_in(collection: Any, ids: Sequence[str], where: dict[str, Any]) -> list[str]:
    return list(collection.get(ids=list(ids), where=where, include=[])["ids"])


class ChromaEpisodeStore:
    """Episodes of one tenant + agent, in that namespace's collections (one per embedding model)."""

    def __init__(self, client: Any) -> None:
        self._collections = Collections(client, "episodes", ("tenant", "agent"))
        self._lock = threading.Lock()  # check-then-add of a run id is atomic within the process

    @staticmethod
    def _scope(ns: Namespace) -> tuple[str, str]:
        return ns.tenant, ns.agent

    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        scope = self._scope(ns)
        metadata = {
            "tenant": ns.tenant, "agent": ns.agent, "run_id": episode.run_id, "outcome": episode.outcome.value,
            "completed": episode.outcome == Outcome.COMPLETED, "created_at": episode.created_at.timestamp(),
            "expires_at": episode.expires_at.timestamp(), "record": episode.model_dump_json(),
            **ident_metadata(episode.embedding_text()),
        }
        with self._lock:
            if self.get(ns, episode.run_id) is not None:
                return False
            _add(self._collections, scope, episode.embedding_model, episode.run_id, vector,
                 episode.embedding_text(), metadata)
        return True

    def get(self, ns: Namespace, run_id: str) -> Episode | None:
        scope = self._scope(ns)
        for collection in self._collections.all(scope):
            rows = rows_of(collection.get(ids=[run_id], where=self._collections.scope_where(scope),
                                          include=["metadatas"]))
            if rows:
                return Episode.model_validate_json(rows[0].metadata["record"])
        return None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        scope = self._scope(ns)
        collection = self._collections.for_model(scope, query.embedding_model)
        if collection is None:
            return []
        where = all_of(self._collections.scope_where(scope), {"expires_at": {"$gt": query.now.timestamp()}})
        hits = hybrid_search(collection, where, query, preferred_key="completed", recency_key="created_at")
        return [Scored[Episode](item=Episode.model_validate_json(row.metadata["record"]), score=score)
                for row, score in hits]

    def list(self, ns: Namespace, *, limit: int = 50, outcome: Outcome | None = None) -> list[Episode]:
        scope = self._scope(ns)
        where = all_of(self._collections.scope_where(scope), {"outcome": outcome.value} if outcome else None)
        rows = [row for c in self._collections.all(scope) for row in rows_of(c.get(where=where, include=["metadatas"]))]
        rows.sort(key=lambda r: (-float(r.metadata["created_at"]), r.id))
        return [Episode.model_validate_json(r.metadata["record"]) for r in rows[:limit]]

    def delete(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        if not run_ids:
            return 0
        scope = self._scope(ns)
        deleted: set[str] = set()
        for collection in self._collections.all(scope):
            present = _ids_in(collection, run_ids, self._collections.scope_where(scope))
            if present:
                collection.delete(ids=present)
                deleted.update(present)
        return len(deleted)

    def scopes(self) -> list[tuple[str, ...]]:
        return self._collections.scopes()


class ChromaFactStore:
    """Facts are tenant-wide: `ns.agent` is ignored, every agent of the tenant shares them."""

    def __init__(self, client: Any) -> None:
        self._collections = Collections(client, "facts", ("tenant",))
        self._lock = threading.Lock()

    @staticmethod
    def _scope(ns: Namespace) -> tuple[str]:
        return (ns.tenant,)

    def put(self, ns: Namespace, fact: Fact, vector: Sequence[float]) -> None:
        scope = self._scope(ns)
        metadata = {
            "tenant": ns.tenant, "fact_id": fact.fact_id, "domain": fact.domain,
            "updated_at": fact.updated_at.timestamp(), "record": fact.model_dump_json(), **ident_metadata(fact.text),
        }
        unit_vector(vector)  # validate before removing the old version
        with self._lock:  # replace = remove from every model's collection, then add
            self.delete(ns, [fact.fact_id])
            _add(self._collections, scope, fact.embedding_model, fact.fact_id, vector, fact.text, metadata)

    def get(self, ns: Namespace, fact_id: str) -> Fact | None:
        scope = self._scope(ns)
        for collection in self._collections.all(scope):
            rows = rows_of(collection.get(ids=[fact_id], where=self._collections.scope_where(scope),
                                          include=["metadatas"]))
            if rows:
                return Fact.model_validate_json(rows[0].metadata["record"])
        return None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]:
        scope = self._scope(ns)
        collection = self._collections.for_model(scope, query.embedding_model)
        if collection is None:
            return []
        where = all_of(self._collections.scope_where(scope),
                       {"domain": query.domain} if query.domain is not None else None)
        hits = hybrid_search(collection, where, query, preferred_key=None, recency_key="updated_at")
        return [Scored[Fact](item=Fact.model_validate_json(row.metadata["record"]), score=score)
                for row, score in hits]

    def list(self, ns: Namespace, *, domain: str | None = None, limit: int = 50) -> list[Fact]:
        scope = self._scope(ns)
        where = all_of(self._collections.scope_where(scope), {"domain": domain} if domain is not None else None)
        rows = [row for c in self._collections.all(scope) for row in rows_of(c.get(where=where, include=["metadatas"]))]
        rows.sort(key=lambda r: (-float(r.metadata["updated_at"]), r.id))
        return [Fact.model_validate_json(r.metadata["record"]) for r in rows[:limit]]

    def delete(self, ns: Namespace, fact_ids: Sequence[str]) -> int:
        if not fact_ids:
            return 0
        scope = self._scope(ns)
        deleted: set[str] = set()
        for collection in self._collections.all(scope):
            present = _ids_in(collection, fact_ids, self._collections.scope_where(scope))
            if present:
                collection.delete(ids=present)
                deleted.update(present)
        return len(deleted)


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
