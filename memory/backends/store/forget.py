"""Erasure in the store backend: a whole tenant, or what given runs contributed to the gate.

Everything of a tenant lives under `layout.tenant_prefix(tenant)`, so erasing a tenant is
deleting every item under that prefix, namespace by namespace. The store decides what deleting
means on disk: PostgresStore deletes rows, which PostgreSQL reclaims at its next VACUUM (run
`VACUUM` on the `store` table after an erasure request so no dead tuple keeps the data).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from memory.backends.store.layout import confirmations_ns, every_item, tenant_prefix
from memory.records import Fact, Namespace

_TIERS = ("episodes", "facts", "procedures", "confirmations")
_PAGE = 1000


def _namespaces(store: Any, prefix: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    offset = 0
    while True:
        page = store.list_namespaces(prefix=prefix, limit=_PAGE, offset=offset)
        yield from (tuple(namespace) for namespace in page)
        if len(page) < _PAGE:
            return
        offset += len(page)


class StoreErasure:
    """The erasure operations `memory.forget` uses, bound to one store."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        """Delete every item of `tenant`; returns items removed per tier (side items by their kind)."""
        counts = dict.fromkeys(_TIERS, 0)
        for namespace in list(_namespaces(self._store, tenant_prefix(tenant))):
            kind = namespace[2] if len(namespace) > 2 else "other"
            for item in list(every_item(self._store, namespace)):
                self._store.delete(namespace, item.key)
                counts[kind] = counts.get(kind, 0) + 1
        return counts

    def tenant_run_ids(self, tenant: str) -> set[str]:
        """Every run id the tenant's memory mentions (episodes, observations, procedure sources and uses)."""
        runs: set[str] = set()
        for namespace in _namespaces(self._store, tenant_prefix(tenant)):
            kind = namespace[2] if len(namespace) > 2 else ""
            for item in every_item(self._store, namespace):
                if kind in ("episodes", "confirmations", "procedure_runs") or (
                        kind == "procedure_uses" and not item.key.startswith("u-")):
                    runs.add(item.key)
                elif kind == "facts":
                    runs.update(Fact.model_validate(item.value["record"]).source_runs)
        return runs

    def forget_observations(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        """Remove what `run_ids` contributed to the tenant's confirmation log (every fact key)."""
        wanted, removed = set(run_ids), 0
        for namespace in list(_namespaces(self._store, (*tenant_prefix(ns.tenant), "confirmations"))):
            for run_id in wanted:
                if self._store.get(namespace, run_id) is not None:
                    self._store.delete(namespace, run_id)
                    removed += 1
        return removed

    def discard_fact_key(self, ns: Namespace, fact_key: str) -> int:
        """Drop a fact key's whole observation history: it must be confirmed afresh to return."""
        namespace = confirmations_ns(ns, fact_key)
        items = list(every_item(self._store, namespace))
        for item in items:
            self._store.delete(namespace, item.key)
        return len(items)
