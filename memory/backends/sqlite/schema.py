"""The SQLite file under the embedded backend: connections, pragmas, numbered schema migrations.

One file holds every durable tier. WAL lets readers run beside one writer: writes go through one
connection (a lock orders the threads, `busy_timeout` the processes; every write is one
`BEGIN IMMEDIATE` transaction), and every thread reads through a connection of its own, so the
bootstrap's three tier reads run side by side instead of queueing behind one lock. Migrations are
a numbered list applied at open (`user_version`).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memory.backends.sqlite.marker import (
    BUMP_SQL,
    MARKER_MIGRATION,
    Marker,
    lost,
    read_witness,
    truncated,
    write_witness,
)
from memory.errors import MemoryBackendError, MemoryConfigError, MemoryLostError

BUSY_TIMEOUT_MS = 30_000
# Reads through a memory map of the file (SQLite clamps it to its build's maximum, 2 GB here) and a
# larger page cache per reader: a search reads ~100 rows by id plus FTS5 doclists scattered over a
# file of GBs, and without them each page is a read() call and a copy (issue 18: the row reads of a
# 100k search took 1.5 ms instead of 1.1). The map shares the OS page cache, so it costs no memory of
# its own; the cache grows to its size only with pages a reader really touches.
MMAP_BYTES = 1 << 32
READER_CACHE_KIB = 16 * 1024


FTS_TOKENIZER = "porter unicode61"  # also the tokenizer of the search's candidate-pool table


def _restemmed(fts: str) -> tuple[str, ...]:
    """Rebuild one FTS5 table with the stemming tokenizer, keeping its rows (migration 5)."""
    return (
        f"CREATE VIRTUAL TABLE {fts}_stemmed USING fts5 (scope, body, idents, tokenize = '{FTS_TOKENIZER}')",
        f"INSERT INTO {fts}_stemmed (rowid, scope, body, idents) SELECT rowid, scope, body, idents FROM {fts}",
        f"DROP TABLE {fts}",
        f"ALTER TABLE {fts}_stemmed RENAME TO {fts}",
    )


def _vector_triggers(table: str, new_agent: str, old_agent: str) -> tuple[str, ...]:
    """Journal every vector a row gains or loses into `vector_log` (migration 4)."""
    insert = "INSERT INTO vector_log (kind, tenant, agent, model, row_id, op) VALUES"
    added = f"{insert} ('{table}', NEW.tenant, {new_agent}, NEW.model, NEW.id, 1);"
    removed = f"{insert} ('{table}', OLD.tenant, {old_agent}, OLD.model, OLD.id, 0);"
    return (
        f"CREATE TRIGGER {table}_vectors_added AFTER INSERT ON {table} BEGIN {added} END",
        f"CREATE TRIGGER {table}_vectors_removed AFTER DELETE ON {table} BEGIN {removed} END",
        f"CREATE TRIGGER {table}_vectors_changed AFTER UPDATE OF tenant, model, vector ON {table} "
        f"BEGIN {removed} {added} END",
    )


def _names_index(kind: str) -> tuple[str, ...]:
    """A namespace-keyed index of each row's identifiers (migration 7, `search.name_tokens`):
    "does this namespace hold the name X, in how many rows" is one short doclist, whatever
    other tenants hold, where `scope : S AND idents : X` in the FTS table walks every posting of
    X in any column and namespace (25 ms for a word all 1.1M rows of a 100k bench file have in
    their text). Rows leave it with their table row (trigger), whatever code deletes them."""
    names = f"{kind}_names"
    return (
        f"CREATE VIRTUAL TABLE {names} USING fts5 (names, tokenize = 'unicode61', detail = none)",
        f"INSERT INTO {names} (rowid, names) SELECT rowid, {NAME_TOKENS_SQL} FROM {kind}_fts WHERE idents != ''",
        f"CREATE TRIGGER {kind}_names_removed AFTER DELETE ON {kind} BEGIN "
        f"DELETE FROM {names} WHERE rowid = OLD.id; END",
    )


NAME_SEPARATOR = "x"  # between a scope token (s + hex) and an identifier: one token, never ambiguous
# name tokens from the FTS table's (scope, idents) columns, as `search.name_tokens` makes them
NAME_TOKENS_SQL = f"scope || '{NAME_SEPARATOR}' || replace(idents, ' ', ' ' || scope || '{NAME_SEPARATOR}')"


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
    (  # 4: the vector indexes beside the file (memory.backends.sqlite.vectors): every change to a
        # stored vector is journalled by a trigger, whatever code made it (a store, decay, forget,
        # a re-embedding switch, a bulk loader), and each index records the journal entry it covers
        """CREATE TABLE vector_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, model TEXT NOT NULL,
            row_id INTEGER NOT NULL, op INTEGER NOT NULL)""",  # op 1 = vector added, 0 = removed
        "CREATE INDEX vector_log_by_index ON vector_log (kind, tenant, agent, model, seq)",
        """CREATE TABLE vector_indexes (
            kind TEXT NOT NULL, tenant TEXT NOT NULL, agent TEXT NOT NULL, model TEXT NOT NULL,
            file TEXT NOT NULL, seq INTEGER NOT NULL, count INTEGER NOT NULL, dim INTEGER NOT NULL,
            built_at REAL NOT NULL,
            PRIMARY KEY (kind, tenant, agent, model)) WITHOUT ROWID""",
        *_vector_triggers("episodes", "NEW.agent", "OLD.agent"),
        *_vector_triggers("facts", "''", "''"),
    ),
    (  # 5: the full-text indexes stem English words ("lenses" finds "lens"), queries alike
        *_restemmed("episodes_fts"),
        *_restemmed("facts_fts"),
    ),
    (  # 6: what a run observed a fact in (a contract's content hash): one source confirms once
        "ALTER TABLE confirmations ADD COLUMN source TEXT",
    ),
    (  # 7: identifiers keyed by namespace, so name lookups never read other tenants' postings
        *_names_index("episodes"),
        *_names_index("facts"),
    ),
    MARKER_MIGRATION,  # 8: the marker row: store id, write generation, rows per tier (marker.py)
]
MARKER_VERSION = 8


def _cause(exc: BaseException) -> str:
    """The error as one line: SQLite's message (e.g. "database or disk is full", "attempt to
    write a readonly database") or the operating system's."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def _read_only_note(path: Path) -> str:
    """SQLite says "unable to open database file" when it cannot create its WAL beside the
    file: name the read-only folder, which is what the user has to fix."""
    folder = path.parent
    return f" (the folder {folder} is read-only)" if folder.is_dir() and not os.access(folder, os.W_OK) else ""


def _close_at_exit(ref: weakref.ref) -> None:
    db = ref()
    if db is not None and not db._closed:
        with contextlib.suppress(Exception):
            db.close()


def scope_token(*parts: str) -> str:
    """A namespace as one alphanumeric FTS token (the ids themselves contain '.', '-', '_')."""
    return "s" + hashlib.sha256("/".join(parts).encode()).hexdigest()[:24]


class Database:
    """The SQLite file: one writer connection shared under a lock, one reader per thread.

    Several processes may open the same file: SQLite's file locks and the busy timeout order them.
    `verify` (the default) runs the cheap checks at open (marker.py): a main file shorter than its
    header says, or one holding less than this folder last wrote, is a MemoryLostError. `memory
    check`, `backup` and `restore` open without them and report for themselves.
    """

    def __init__(self, path: str | Path, *, verify: bool = True) -> None:
        self.path = Path(path)
        if str(path) in ("", ":memory:"):
            raise MemoryConfigError("the SQLite memory backend needs a file path, e.g. sqlite:///data/memory.sqlite")
        if self.path.is_dir():
            raise MemoryConfigError(f"the memory path {self.path} is a folder: name a file, e.g. {self.path / 'memory.sqlite'}")
        self._readers: list[sqlite3.Connection] = []
        self._local = threading.local()
        self._lock = threading.RLock()
        self._closed = False
        self._marked = False  # the marker row exists (schema 8): writes bump its generation
        try:
            # a new data folder and memory file are the owner's alone (SQLite gives its -wal and
            # -shm files the mode of the database file)
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            new_file = not self.path.exists() or self.path.stat().st_size == 0
            if new_file:
                self._set_aside_orphaned_log()
            elif verify and (problem := truncated(self.path)):
                raise MemoryLostError(problem)
            with contextlib.suppress(FileExistsError):
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._conn = self._connect()
            self._conn.execute("PRAGMA journal_mode = WAL")
        except (OSError, sqlite3.Error) as exc:
            raise MemoryBackendError(
                f"cannot open the memory file {self.path}: {_cause(exc)}{_read_only_note(self.path)}"
            ) from exc
        try:
            self._migrate()
            if verify:
                self._verify_marker(new_file=new_file)
        except BaseException:
            self._conn.close()
            raise
        # A command ends without closing the memory it opened (cached for the process): close at
        # exit, so the log is emptied too (TRUNCATE). A log left full of pages already copied is
        # harmless while the file stays, but replayed over an older copy put in its place it makes
        # a store that is neither (issue 32).
        atexit.register(_close_at_exit, weakref.ref(self))

    def _set_aside_orphaned_log(self) -> None:
        """A write-ahead log without its main file belongs to a store that is gone: SQLite would
        replay its pages onto the new empty file (a malformed store). Keep it aside, renamed, for
        whoever tries to recover by hand; the witness check then reports the loss."""
        log = self.path.with_name(self.path.name + "-wal")
        if log.exists():
            os.replace(log, log.with_name(f"{log.name}.orphaned"))
        with contextlib.suppress(FileNotFoundError):
            self.path.with_name(self.path.name + "-shm").unlink()

    def _verify_marker(self, *, new_file: bool) -> None:
        with self._lock:  # the writer's connection: opening makes no reader of its own
            current = Marker.read(self._conn)
        witness = read_witness(self.path)
        problem = lost(self.path, current, witness, new_file=new_file)
        if problem:
            raise MemoryLostError(problem)
        if witness is None and current is not None:
            write_witness(self.path, current)

    def marker(self) -> Marker | None:
        """The marker row (store id, write generation, rows per tier) as the file holds it."""
        with self.read() as conn:
            return Marker.read(conn)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        return conn

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
        self._marked = len(MIGRATIONS) >= MARKER_VERSION  # after: migrating is not a write to witness

    @property
    def schema_version(self) -> int:
        with self.read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One atomic write transaction; any error rolls all of it back. A failure of SQLite or
        of the disk (full, read-only, gone) is a MemoryBackendError naming the real cause."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise MemoryBackendError(
                    f"memory file {self.path} is not writable: {_cause(exc)}{_read_only_note(self.path)}"
                ) from exc
            try:
                yield self._conn
                marker = None
                if self._marked:  # the generation moves with every write, in its transaction
                    self._conn.execute(BUMP_SQL)
                    marker = Marker.read(self._conn)
                self._conn.execute("COMMIT")
                self._settle()
                if marker is not None:
                    write_witness(self.path, marker)
            except BaseException as exc:
                self._rollback()
                if isinstance(exc, sqlite3.Error):
                    raise MemoryBackendError(f"memory write to {self.path} failed: {_cause(exc)}") from exc
                raise

    def _settle(self) -> None:
        """Copy what was just committed from the write-ahead log into the main file (issue 32):
        a finished command leaves nothing only in `-wal`, so a lost or damaged log, or a backup
        that copies `memory.sqlite` alone, loses nothing written. PASSIVE never waits for readers;
        what a reader still pins is copied by the next write or at close (TRUNCATE)."""
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _rollback(self) -> None:
        """Roll back what is left of a failed transaction. SQLite may already have rolled it
        back itself (a full disk, an I/O error): then there is nothing to do, and the original
        error, not "no transaction is active", is what the caller must see."""
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")

    @contextmanager
    def maintenance(self) -> Iterator[sqlite3.Connection]:
        """The writer connection outside a transaction, for pragmas, checkpoints and VACUUM."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise MemoryBackendError(f"memory maintenance of {self.path} failed: {_cause(exc)}") from exc

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise MemoryBackendError(f"memory file {self.path} is closed")
            try:
                conn = self._connect()
                conn.execute(f"PRAGMA cache_size = -{READER_CACHE_KIB}")
            except sqlite3.Error as exc:
                raise MemoryBackendError(f"cannot read the memory file {self.path}: {_cause(exc)}") from exc
            self._local.conn = conn
            with self._lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """This thread's read connection; a multi-statement read should use `snapshot` instead."""
        try:
            yield self._reader()
        except sqlite3.Error as exc:
            raise MemoryBackendError(f"memory read from {self.path} failed: {_cause(exc)}") from exc

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """Several reads that see one consistent state of the file (one read transaction)."""
        conn = self._reader()
        if conn.in_transaction:  # nested: the outer snapshot already pins the state
            yield conn
            return
        try:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise MemoryBackendError(f"memory read from {self.path} failed: {_cause(exc)}") from exc

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
            if self._closed:
                return
            self._closed = True
            for conn in self._readers:
                conn.close()
            self._readers.clear()
            with contextlib.suppress(sqlite3.Error):  # one file at rest: the log folded in, emptied
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._conn.close()
