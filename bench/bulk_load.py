"""The benchmarks' bulk loader: generated memory written straight into the SQLite schema, fast.

The rows it writes are the stores' rows (tests/test_bulk_load.py loads a small file both ways and
compares every table and a search over each); only the way they get there differs:

- The schema is made by the backend itself (`SqliteMemory` runs its migrations), then one plain
  connection writes with `executemany` in a few large transactions, with explicit row ids in
  insertion order (the ids SQLite gives the stores' one-row inserts on the same file).
- The text goes into the full-text table and the namespace-keyed name index through
  `search.index_rows`, the stores' own helper; the vector journal (`vector_log`) is written by the
  schema's own triggers.
- While it loads, the file runs with `synchronous = OFF`, `journal_mode = OFF`, an exclusive lock,
  temporary tables in memory and a 1 GiB page cache: nothing is written twice (no WAL, no rollback
  journal) and nothing waits for the disk. A crash in the middle leaves a file to throw away, so
  `fill.json` says a load is under way until it ends and the next run starts over. The file is
  put back in WAL mode (the backend's mode) when the load ends. This is for bench data only.
- The own tenant's episodes are generated and embedded in worker processes (`os.cpu_count()`),
  a batch each, while this process writes the batch before: the embeddings are the CPU cost.
- Vector indexes are not built here: `bench.bootstrap.ensure_indexes` builds the own namespace's
  with the backend's own build (usearch batch add, from the table), as `memory reindex` would.
  Other tenants' namespaces get theirs from the backend on their first search, like any file
  whose index is missing; no bench search reads them.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

LOAD_PRAGMAS = ("PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF", "PRAGMA locking_mode = EXCLUSIVE",
                "PRAGMA temp_store = MEMORY", "PRAGMA cache_size = -1048576")  # 1 GiB


class BulkWriter:
    """One connection to a memory file whose schema the backend made, tuned for loading.

    `write()` is one transaction, like `Database.write`; `timings` adds up the seconds each named
    step took (`timed`), for the build report."""

    def __init__(self, path: Path, *, log: Callable[[str], None] | None = None, every: int = 200_000) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None)
        for pragma in LOAD_PRAGMAS:
            self.conn.execute(pragma)
        self.timings: dict[str, float] = {}
        self._log, self._every = log, every
        self._rows, self._started = 0, time.perf_counter()

    def added(self, rows: int) -> None:
        """Count rows written; every `every` rows, say how far the load is (a 1M build is long)."""
        before, self._rows = self._rows, self._rows + rows
        if self._log and before // self._every != self._rows // self._every:
            seconds = time.perf_counter() - self._started
            self._log(f"    {self._rows:,} rows loaded in {seconds:.0f} s ({self._rows / seconds:,.0f} rows/s)")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    @contextmanager
    def timed(self, step: str) -> Iterator[None]:
        tick = time.perf_counter()
        try:
            yield
        finally:
            self.timings[step] = self.timings.get(step, 0.0) + time.perf_counter() - tick

    def take_run_seqs(self, conn: sqlite3.Connection, count: int) -> int:
        """The first of `count` numbers of the store's run counter (memory.clock), taken in the
        batch's transaction as the episode store takes one per episode; the counter moves past them."""
        from memory.backends.sqlite.stores import RUN_COUNTER

        row = conn.execute("SELECT value FROM generations WHERE scope = ?", (RUN_COUNTER,)).fetchone()
        first = (int(row[0]) if row else 0) + 1
        conn.execute("INSERT INTO generations (scope, value) VALUES (?, ?) "
                     "ON CONFLICT (scope) DO UPDATE SET value = excluded.value", (RUN_COUNTER, first + count - 1))
        return first

    def next_id(self, table: str) -> int:
        return (self.conn.execute(f"SELECT max(id) FROM {table}").fetchone()[0] or 0) + 1

    def close(self) -> None:
        """Back to the backend's WAL mode, the load's pages on disk."""
        self.conn.execute("PRAGMA locking_mode = NORMAL")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.close()

    def __enter__(self) -> BulkWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_WORKER: dict[str, Any] = {}  # what a forked worker inherits: the producer function


def _produce(lo: int, hi: int) -> Any:
    return _WORKER["produce"](lo, hi)


def in_workers(produce: Callable[[int, int], Any], start: int, stop: int, batch: int, *,
               workers: int | None = None) -> Iterator[Any]:
    """`produce(lo, hi)` for consecutive batches of [start, stop), run in forked worker processes
    and yielded in order, a few batches ahead of the consumer (memory stays bounded). `produce`
    (and what it holds, e.g. a loaded embedding model) reaches the workers by fork, not pickling.
    With one core, or one batch, it runs here."""
    ranges = [(lo, min(stop, lo + batch)) for lo in range(start, stop, batch)]
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(ranges) <= 1:
        yield from (produce(lo, hi) for lo, hi in ranges)
        return
    _WORKER["produce"] = produce
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
            ahead = 2 * workers
            pending: list[Future] = [pool.submit(_produce, lo, hi) for lo, hi in ranges[:ahead]]
            for n in range(len(ranges)):
                result = pending.pop(0).result()
                if n + ahead < len(ranges):
                    pending.append(pool.submit(_produce, *ranges[n + ahead]))
                yield result
    finally:
        _WORKER.clear()
