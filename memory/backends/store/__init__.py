"""The memory backend over LangGraph's long-term store (`BaseStore`).

`StoreMemory(store)` keeps all four durable tiers in any `BaseStore`: `InMemoryStore`,
`PostgresStore` (`open_memory("postgresql://...")` opens one, for a team that already runs it),
or the store LangGraph Platform and `langgraph dev` hand a served graph (`runtime.store`; the
graph's `langgraph-store://` memory). Layout and tenant isolation: `.layout`.

A `BaseStore` offers get, put, delete, search and list only: no atomic increment and no
conditional write. So nothing is counted in place: the confirmation gate keeps one item per
(fact, run) and counts them; a procedure keeps one item per use and counts those
(`.procedures`). Concurrent writers then write different keys and no update is lost. What stays
last-writer-wins is harmless by construction: an episode added twice at once (same run, same
content), a person's status decision, a fact re-stored with its growing list of runs.

Semantic search uses the store's index when it is configured for this backend's vectors
(`.index`), else scans the namespace; both follow `memory.retrieval`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memory.backends.store.forget import StoreErasure
from memory.backends.store.index import decode_stored_vectors, indexed_dims, vector_index
from memory.backends.store.layout import ROOT, tenant_prefix, unlabel
from memory.backends.store.procedures import StoreProcedureStore
from memory.backends.store.stores import StoreConfirmationLog, StoreEpisodeStore, StoreFactStore
from memory.errors import MemoryBackendError, MemoryConfigError
from memory.records import Namespace

__all__ = [
    "StoreMemory", "decode_stored_vectors", "open_postgres_memory", "tenant_prefix", "vector_index",
]


class StoreMemory:
    """The four stores over one LangGraph `BaseStore`.

    `index_dims`: the dimension of the store's vector index when it indexes this backend's
    vectors; by default read from the store's own index configuration (`.index.indexed_dims`).
    """

    concurrent_reads = True  # a store such as PostgreSQL answers over the network: the bootstrap overlaps reads

    def __init__(self, store: Any, *, index_dims: int | None = None, on_close: Callable[[], None] | None = None):
        self.store = store
        dims = index_dims if index_dims is not None else indexed_dims(store)
        self.episodes = StoreEpisodeStore(store, dims)
        self.facts = StoreFactStore(store, dims)
        self.procedures = StoreProcedureStore(store)
        self.confirmations = StoreConfirmationLog(store)
        self.erasure = StoreErasure(store)  # memory.forget: tenant erasure, run quarantine
        self._on_close = on_close

    def namespaces(self) -> list[Namespace]:
        """Every tenant/agent namespace holding episodes or procedures (for decay)."""
        found: set[tuple[str, str]] = set()
        offset = 0
        while True:
            page = self.store.list_namespaces(prefix=(ROOT,), max_depth=4, limit=1000, offset=offset)
            for namespace in page:
                if len(namespace) == 4 and namespace[2] in ("episodes", "procedures"):
                    found.add((unlabel(namespace[1]), unlabel(namespace[3])))
            if len(page) < 1000:
                break
            offset += len(page)
        return [Namespace(tenant=tenant, agent=agent) for tenant, agent in sorted(found)]

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        """Erase every item of `tenant` from the store (see `.forget`)."""
        return self.erasure.forget_tenant(tenant)

    def close(self) -> None:
        if self._on_close is not None:
            self._on_close()

    def __enter__(self) -> StoreMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_postgres_memory(url: str, *, pool_size: int = 4) -> StoreMemory:
    """`StoreMemory` over LangGraph's `PostgresStore` at `url` (`postgresql://user:pass@host/db`).

    Creates the store's tables on first use (`PostgresStore.setup`, its own migrations); needs the
    `postgres` extra. No vector index is configured here (pgvector may be absent): the backend
    scans. A deployment with pgvector gets the index through LangGraph's store configuration.
    """
    try:
        from langgraph.store.postgres import PostgresStore
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool
    except ImportError as exc:
        raise MemoryConfigError(
            f"the PostgreSQL memory backend needs langgraph-checkpoint-postgres and psycopg ({exc}): "
            "pip install 'contract-memory-agent[postgres]'"
        ) from exc
    import psycopg

    try:  # one direct connection first: a wrong host, port or password fails now, with its reason
        psycopg.connect(url, connect_timeout=10).close()
        pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=True, timeout=30,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        )
        pool.wait(timeout=30)
    except Exception as exc:  # psycopg_pool.PoolTimeout, psycopg.OperationalError: the server is unreachable
        raise MemoryBackendError(f"cannot connect to PostgreSQL at {_redacted(url)}: {exc}") from exc
    store = PostgresStore(pool)
    try:
        store.setup()
    except psycopg.Error as exc:
        pool.close()
        raise MemoryBackendError(f"cannot set up LangGraph's store tables in {_redacted(url)}: {exc}") from exc
    return StoreMemory(store, on_close=pool.close)


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))
