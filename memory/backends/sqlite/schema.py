"""The SQLite file under the embedded backend: connection, pragmas, numbered schema migrations.

One file holds every durable tier. WAL lets readers run beside one writer; `busy_timeout` makes
concurrent processes wait for the write lock instead of failing; every write is one
`BEGIN IMMEDIATE` transaction. Migrations are a numbered list applied at open (`user_version`).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memory.errors import MemoryBackendError, MemoryConfigError

BUSY_TIMEOUT_MS = 30_000

# Each entry is one schema version; never edit a released entry, append a new one.
MIGRATIONS: list[tuple[str, ...]] = [
    (
        """CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL, agent TEXT NOT NULL, run_id TEXT NOT NULL,
            task_type TEXT NOT NULL, outcome TEXT NOT NULL,
            created_at REAL NOT NULL, expires_at REAL NOT NULL,
            model TEXT NOT NULL, vector BLOB NOT NULL,
            record TEXT NOT NULL,
            UNIQUE (tenant, agent, run_id))""",
        "CREATE INDEX episodes_by_model ON episodes (tenant, agent, model, id)",
        "CREATE INDEX episodes_by_time ON episodes (tenant, agent, created_at)",
        # scope = a hash token of the namespace, so the lexical index is namespace-keyed too
        "CREATE VIRTUAL TABLE episodes_fts USING fts5 (scope, body, idents)",
        """CREATE TABLE facts (
            id INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL, fact_id TEXT NOT NULL, domain TEXT NOT NULL,
            updated_at REAL NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL,
            record TEXT NOT NULL,
            UNIQUE (tenant, fact_id))""",
        "CREATE INDEX facts_by_model ON facts (tenant, model, id)",
        "CREATE VIRTUAL TABLE facts_fts USING fts5 (scope, body, idents)",
        """CREATE TABLE procedures (
            tenant TEXT NOT NULL, agent TEXT NOT NULL, procedure_id TEXT NOT NULL,
            task_type TEXT NOT NULL, status TEXT NOT NULL,
            title TEXT NOT NULL, steps TEXT NOT NULL, validated_by TEXT,
            applications INTEGER NOT NULL DEFAULT 0, successes INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL, updated_at REAL NOT NULL,
            PRIMARY KEY (tenant, agent, procedure_id)) WITHOUT ROWID""",
        "CREATE INDEX procedures_by_type ON procedures (tenant, agent, task_type, status)",
        """CREATE TABLE procedure_runs (
            tenant TEXT NOT NULL, agent TEXT NOT NULL, procedure_id TEXT NOT NULL,
            run_id TEXT NOT NULL, seq INTEGER NOT NULL,
            PRIMARY KEY (tenant, agent, procedure_id, run_id)) WITHOUT ROWID""",
        """CREATE TABLE confirmations (
            tenant TEXT NOT NULL, fact_key TEXT NOT NULL, run_id TEXT NOT NULL,
            observed_at REAL NOT NULL,
            PRIMARY KEY (tenant, fact_key, run_id)) WITHOUT ROWID""",
        # bumped whenever stored vectors are deleted or replaced: readers then reload their cache
        "CREATE TABLE generations (scope TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
    ),
    (  # 2: decay lists FAILED episodes by age; a run counts once per procedure it applied
        "CREATE INDEX episodes_by_outcome ON episodes (tenant, agent, outcome, created_at)",
        """CREATE TABLE procedure_applications (
            tenant TEXT NOT NULL, agent TEXT NOT NULL, procedure_id TEXT NOT NULL,
            run_id TEXT NOT NULL, success INTEGER NOT NULL, applied_at REAL NOT NULL,
            PRIMARY KEY (tenant, agent, procedure_id, run_id)) WITHOUT ROWID""",
    ),
    (  # 3: retrieval telemetry (one row per run and tier) and staged vectors of a re-embedding
        """CREATE TABLE retrievals (
            tenant TEXT NOT NULL, agent TEXT NOT NULL, run_id TEXT NOT NULL, tier TEXT NOT NULL,
            at REAL NOT NULL, latency_ms REAL NOT NULL, hits TEXT NOT NULL,
            PRIMARY KEY (tenant, agent, run_id, tier)) WITHOUT ROWID""",
        "CREATE INDEX retrievals_by_time ON retrievals (tenant, agent, at)",
        # the new model's vector of a row, kept aside until the whole tenant is re-embedded
        """CREATE TABLE staged_vectors (
            kind TEXT NOT NULL, row_id INTEGER NOT NULL, tenant TEXT NOT NULL,
            model TEXT NOT NULL, vector BLOB NOT NULL,
            PRIMARY KEY (kind, row_id)) WITHOUT ROWID""",
        "CREATE INDEX staged_vectors_by_tenant ON staged_vectors (tenant, model)",
        # row ids are reused after a delete: a staged vector must never outlive its row
        """CREATE TRIGGER episodes_unstage AFTER DELETE ON episodes BEGIN
            DELETE FROM staged_vectors WHERE kind = 'episodes' AND row_id = OLD.id; END""",
        """CREATE TRIGGER facts_unstage AFTER DELETE ON facts BEGIN
            DELETE FROM staged_vectors WHERE kind = 'facts' AND row_id = OLD.id; END""",
    ),
]


def scope_token(*parts: str) -> str:
    """A namespace as one alphanumeric FTS token (the ids themselves contain '.', '-', '_')."""
    return "s" + hashlib.sha256("/".join(parts).encode()).hexdigest()[:24]


class Database:
    """One connection shared by the stores of a backend; a lock serialises its use by threads.

    Several processes may open the same file: SQLite's file locks and the busy timeout order them.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) in ("", ":memory:"):
            raise MemoryConfigError("the SQLite memory backend needs a file path, e.g. sqlite:///data/memory.sqlite")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        except (OSError, sqlite3.Error) as exc:
            raise MemoryConfigError(f"cannot open the memory file {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._migrate()

    def _migrate(self) -> None:
        with self.write() as conn:  # IMMEDIATE: two processes opening a new file migrate once
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise MemoryConfigError(
                    f"{self.path} has memory schema version {version}, newer than this code "
                    f"({len(MIGRATIONS)}): upgrade the package"
                )
            for number, statements in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in statements:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")

    @property
    def schema_version(self) -> int:
        with self.read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One atomic write transaction; any error rolls all of it back."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise MemoryBackendError(f"memory file {self.path} is not writable: {exc}") from exc
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._conn.execute("ROLLBACK")
                raise MemoryBackendError(f"memory write to {self.path} failed: {exc}") from exc

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """Reads under the lock; a multi-statement read should use `snapshot` instead."""
        with self._lock:
            yield self._conn

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """Several reads that see one consistent state of the file."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    def bump_generation(self, conn: sqlite3.Connection, scope: str) -> None:
        conn.execute(
            "INSERT INTO generations (scope, value) VALUES (?, 1) "
            "ON CONFLICT (scope) DO UPDATE SET value = value + 1",
            (scope,),
        )

    def generation(self, conn: sqlite3.Connection, scope: str) -> int:
        row = conn.execute("SELECT value FROM generations WHERE scope = ?", (scope,)).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()
