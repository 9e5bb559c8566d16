"""Episodes, facts and the confirmation log as items of a LangGraph store (layout: `.layout`).

The confirmation log needs no increment: each (fact, run) is its own item keyed by the run id,
so a run observing twice writes the same key, concurrent writers write different keys, and the
count is the number of items. A writer always sees its own write, so of several runs that
observe a fact at once, at least the last to write sees the full count: the gate can never be
missed, and never passed by fewer distinct runs than it needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memory.backends.store.index import VECTOR_FIELD
from memory.backends.store.layout import (
    confirmations_ns,
    decode_vector,
    encode_vector,
    episodes_ns,
    every_item,
    facts_ns,
    ident_keys,
    moment,
)
from memory.backends.store.search import SearchSpec, hybrid_search
from memory.errors import UnknownRecordError
from memory.records import Episode, Fact, Namespace, Outcome, Scored
from memory.retrieval import identifiers
from memory.stores import VectorQuery

__all__ = ["StoreConfirmationLog", "StoreEpisodeStore", "StoreFactStore"]


class _VectorItems:
    """Writes of records that carry a vector: indexed by the store only when its index is ours
    and of the vector's dimension (other stores' indexes would embed our fields as text)."""

    def __init__(self, store: Any, index_dims: int | None) -> None:
        self._store = store
        self._index_dims = index_dims

    def put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], vector: Sequence[float],
            text: str) -> None:
        encoded = encode_vector(vector)
        indexed = [VECTOR_FIELD] if self._index_dims == len(vector) else False
        value = {**value, VECTOR_FIELD: encoded, "text": text, **ident_keys(identifiers(text))}
        self._store.put(namespace, key, value, index=indexed)


class StoreEpisodeStore:
    _SPEC = SearchSpec(
        live=lambda query: {"expires_at": {"$gt": moment(query.now)}},
        preferred=lambda value: value.get("outcome") == Outcome.COMPLETED.value,
        recency="created_ts",
    )

    def __init__(self, store: Any, index_dims: int | None = None) -> None:
        self._store = store
        self._items = _VectorItems(store, index_dims)
        self._index_dims = index_dims

    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        # The store has no insert-if-absent: a concurrent add of the same run id may both return
        # True; both write the same run's episode, so the store still holds one.
        namespace = episodes_ns(ns)
        if self._store.get(namespace, episode.run_id) is not None:
            return False
        value = {
            "record": episode.model_dump(mode="json"), "embedding_model": episode.embedding_model,
            "outcome": episode.outcome.value, "created_at": moment(episode.created_at),
            "created_ts": episode.created_at.timestamp(), "expires_at": moment(episode.expires_at),
        }
        self._items.put(namespace, episode.run_id, value, vector, episode.embedding_text())
        return True

    def get(self, ns: Namespace, run_id: str) -> Episode | None:
        item = self._store.get(episodes_ns(ns), run_id)
        return Episode.model_validate(item.value["record"]) if item else None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        hits = hybrid_search(self._store, episodes_ns(ns), query, self._SPEC, index_dims=self._index_dims)
        return [Scored[Episode](item=Episode.model_validate(item.value["record"]), score=score) for item, score in hits]

    def list(self, ns: Namespace, *, limit: int = 50, outcome: Outcome | None = None) -> list[Episode]:
        where = {"outcome": outcome.value} if outcome is not None else None
        items = sorted(every_item(self._store, episodes_ns(ns), filter=where),
                       key=lambda item: (-item.value["created_ts"], item.key))
        return [Episode.model_validate(item.value["record"]) for item in items[:limit]]

    def delete(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        return _delete(self._store, episodes_ns(ns), run_ids)

    def retime(self, ns: Namespace, run_id: str, created_at: datetime, expires_at: datetime) -> bool:
        """Re-date an episode (decay's clamp of a timestamp written by a clock running ahead)."""
        namespace = episodes_ns(ns)
        item = self._store.get(namespace, run_id)
        if item is None:
            return False
        episode = Episode.model_validate(item.value["record"]).model_copy(
            update={"created_at": created_at, "expires_at": expires_at})
        fits = self._index_dims is not None and decode_vector(item.value[VECTOR_FIELD]).size == self._index_dims
        self._store.put(namespace, run_id, {
            **item.value, "record": episode.model_dump(mode="json"), "created_at": moment(created_at),
            "created_ts": created_at.timestamp(), "expires_at": moment(expires_at),
        }, index=[VECTOR_FIELD] if fits else False)
        return True

    def record_merge(self, ns: Namespace, run_id: str, merged: Sequence[str]) -> Episode:
        """Add `merged` run ids to the episode's `merged_from` (decay's near-duplicate merge)."""
        namespace = episodes_ns(ns)
        item = self._store.get(namespace, run_id)
        if item is None:
            raise UnknownRecordError(f"no episode {run_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
        episode = Episode.model_validate(item.value["record"])
        episode.merged_from = list(dict.fromkeys([*episode.merged_from, *merged]))
        # Rewritten with the same indexing it had: indexed when its vector fits our index.
        fits = self._index_dims is not None and decode_vector(item.value[VECTOR_FIELD]).size == self._index_dims
        self._store.put(namespace, run_id, {**item.value, "record": episode.model_dump(mode="json")},
                        index=[VECTOR_FIELD] if fits else False)
        return episode


def _delete(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> int:
    deleted = 0
    for key in dict.fromkeys(keys):
        if store.get(namespace, key) is not None:
            store.delete(namespace, key)
            deleted += 1
    return deleted


class StoreFactStore:
    """Facts are tenant-wide: `ns.agent` is ignored, every agent of the tenant shares them."""

    _SPEC = SearchSpec(live=lambda query: {}, preferred=lambda value: False, recency="updated_ts")

    def __init__(self, store: Any, index_dims: int | None = None) -> None:
        self._store = store
        self._items = _VectorItems(store, index_dims)
        self._index_dims = index_dims

    def put(self, ns: Namespace, fact: Fact, vector: Sequence[float]) -> None:
        value = {
            "record": fact.model_dump(mode="json"), "embedding_model": fact.embedding_model, "domain": fact.domain,
            "updated_ts": fact.updated_at.timestamp(),
        }
        self._items.put(facts_ns(ns), fact.fact_id, value, vector, fact.text)

    def get(self, ns: Namespace, fact_id: str) -> Fact | None:
        item = self._store.get(facts_ns(ns), fact_id)
        return Fact.model_validate(item.value["record"]) if item else None

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]:
        domain = {"domain": query.domain} if query.domain is not None else None
        hits = hybrid_search(self._store, facts_ns(ns), query, self._SPEC, index_dims=self._index_dims,
                             extra_filter=domain)
        return [Scored[Fact](item=Fact.model_validate(item.value["record"]), score=score) for item, score in hits]

    def list(self, ns: Namespace, *, domain: str | None = None, limit: int = 50) -> list[Fact]:
        where = {"domain": domain} if domain is not None else None
        items = sorted(every_item(self._store, facts_ns(ns), filter=where),
                       key=lambda item: (-item.value["updated_ts"], item.key))
        return [Fact.model_validate(item.value["record"]) for item in items[:limit]]

    def delete(self, ns: Namespace, fact_ids: Sequence[str]) -> int:
        return _delete(self._store, facts_ns(ns), fact_ids)


class StoreConfirmationLog:
    """Tenant-wide, like the facts it gates: one item per (fact, run), counted."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def observe(self, ns: Namespace, fact_key: str, run_id: str, source: str | None = None) -> int:
        namespace = confirmations_ns(ns, fact_key)
        if self._store.get(namespace, run_id) is None:  # keep the first observation's time and source
            now = datetime.now(UTC)
            self._store.put(namespace, run_id, {"observed_ts": now.timestamp(), "source": source or run_id},
                            index=False)
        # distinct sources: runs over one contract confirm once
        return len({item.value.get("source") or item.key for item in every_item(self._store, namespace)})

    def runs(self, ns: Namespace, fact_key: str) -> list[str]:
        items = every_item(self._store, confirmations_ns(ns, fact_key))
        return [item.key for item in sorted(items, key=lambda item: (item.value["observed_ts"], item.key))]
