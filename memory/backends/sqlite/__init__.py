"""The embedded memory backend: every durable tier in one SQLite file.

Episodes and procedures are keyed by (tenant, agent); facts and the confirmation log by tenant
(every agent of a tenant shares its domain knowledge). Isolation is in the keys: each statement
binds the namespace, and the lexical index is keyed by a hash token of it. Counters change in SQL
(`applications = applications + 1`) and the confirmation log relies on its primary key
(`INSERT OR IGNORE`), so concurrent threads and processes count exactly.
"""

from __future__ import annotations

from pathlib import Path

from memory.backends.sqlite.exact import ExactVectors
from memory.backends.sqlite.forget import SqliteErasure
from memory.backends.sqlite.ops import SqliteReembedding, SqliteTelemetry
from memory.backends.sqlite.procedures import SqliteProcedureStore
from memory.backends.sqlite.schema import Database
from memory.backends.sqlite.stores import SqliteConfirmationLog, SqliteEpisodeStore, SqliteFactStore
from memory.backends.sqlite.vectors import Progress, VectorIndexes
from memory.errors import MemoryConfigError
from memory.records import Namespace

__all__ = ["SqliteConfirmationLog", "SqliteEpisodeStore", "SqliteFactStore", "SqliteMemory", "SqliteProcedureStore"]


VECTOR_TABLES = {"episodes": "episodes", "facts": "facts"}
VECTOR_INDEX_KINDS = ("ann", "exact")


class SqliteMemory:
    """The four stores over one SQLite file (`open_memory("sqlite:///path")`).

    `vector_index="ann"` (the default) searches vectors through the usearch indexes kept beside
    the file (`<file>.vectors/`); `"exact"` scans every vector of the namespace (the baseline the
    benchmarks compare with). `progress` hears about index rebuilds (default: the log).
    `verify=False` skips the cheap checks at open (`memory check/backup/restore` report themselves).
    """

    def __init__(self, path: str | Path, *, vector_index: str = "ann", progress: Progress | None = None,
                 min_delta: int | None = None, verify: bool = True) -> None:
        if vector_index not in VECTOR_INDEX_KINDS:
            raise MemoryConfigError(f"unknown vector_index {vector_index!r}: use 'ann' or 'exact'")
        self.db = Database(path, verify=verify)
        options = {} if min_delta is None else {"min_delta": min_delta}
        self.vectors = (VectorIndexes(self.db, VECTOR_TABLES, progress=progress, **options)
                        if vector_index == "ann" else ExactVectors(self.db, VECTOR_TABLES))
        self.episodes = SqliteEpisodeStore(self.db, self.vectors)
        self.facts = SqliteFactStore(self.db, self.vectors)
        self.procedures = SqliteProcedureStore(self.db)
        self.confirmations = SqliteConfirmationLog(self.db)
        self.telemetry = SqliteTelemetry(self.db)
        self.reembedding = SqliteReembedding(self.db)
        self.erasure = SqliteErasure(self.db, self.vectors)  # memory.forget: tenant erasure, run quarantine

    def namespaces(self) -> list[Namespace]:
        """Every tenant/agent namespace holding episodes or procedures (for decay)."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT tenant, agent FROM episodes UNION SELECT tenant, agent FROM procedures ORDER BY 1, 2"
            ).fetchall()
        return [Namespace(tenant=tenant, agent=agent) for tenant, agent in rows]

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        """Erase every record of `tenant` from the file (see memory.backends.sqlite.forget)."""
        return self.erasure.forget_tenant(tenant)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SqliteMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
