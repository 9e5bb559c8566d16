"""The Chroma stores of the episodic and semantic tiers (collections and search: `.search`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from memory.backends.chroma.search import (
    Collections,
    all_of,
    hybrid_search,
    ident_metadata,
    rows_of,
    unit_vector,
)
from memory.errors import MemoryBackendError
from memory.records import Episode, Fact, Namespace, Outcome, Scored
from memory.stores import VectorQuery

__all__ = ["ChromaEpisodeStore", "ChromaFactStore"]


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
