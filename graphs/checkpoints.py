"""The SQLite checkpointer as working memory needs it: only what `resume` can use, only while it can.

Working memory ends with its run (docs/DESIGN.md's table; issue 34). LangGraph's `SqliteSaver`
keeps every super-step of every thread forever; each holds the whole contract. `RunCheckpoints`
is that saver with three rules on top:

- **Latest only while a run is live.** Writing a checkpoint deletes the older ones of the same
  thread and namespace, and the pending writes that belonged to them: `resume` reads the latest
  checkpoint and its pending writes, nothing older. (Safe because the review graph's channels keep
  whole values in each checkpoint: none is a `DeltaChannel`, which would replay older writes.)
- **Gone when the run is done.** `finish(thread)` deletes a finished run's thread (the runner
  calls it after a COMPLETED review, when the episode is written), unless a setting keeps finished
  threads for some days.
- **Kept for a while when it may be resumed.** A PARTIAL or FAILED run keeps its latest
  checkpoint; `expire` (run by `memory decay`) deletes threads idle longer than their retention
  and says how many.

Each thread's last write time and whether it finished are kept in `checkpoint_threads` beside
LangGraph's tables, in plain columns (the checkpoints themselves are encrypted). Freed pages go
back to the file (`auto_vacuum=INCREMENTAL`), so the file shrinks when threads are deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

DAY = 86_400.0

_META = "CREATE TABLE IF NOT EXISTS checkpoint_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)"

_THREADS = """
CREATE TABLE IF NOT EXISTS checkpoint_threads (
    thread_id TEXT PRIMARY KEY,
    updated_at REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
)"""


@dataclass(frozen=True)
class CheckpointStats:
    threads: int  # threads with a checkpoint
    finished: int  # of them, runs that ended COMPLETED and are kept by a setting
    bytes: int  # the file's size on disk (main file and write-ahead log)


class RunCheckpoints(SqliteSaver):
    """`SqliteSaver` that keeps the latest checkpoint of a live thread only (see the module)."""

    def setup(self) -> None:
        if self.is_setup:
            return
        # auto_vacuum can only change on an empty file or through VACUUM: a file written before
        # this class (every super-step kept) is compacted once, here.
        mode = self.conn.execute("PRAGMA auto_vacuum").fetchone()[0]
        if mode != 2:  # 2 = INCREMENTAL
            self.conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
            self.conn.execute("VACUUM")
        self.conn.execute("PRAGMA secure_delete = ON")  # a deleted checkpoint's bytes are zeroed
        super().setup()  # called with the saver's lock held (from `cursor`): no lock here
        self.conn.execute(_META)
        self.conn.execute(_THREADS)
        self.conn.commit()

    def put(self, config, checkpoint, metadata, new_versions):  # type: ignore[no-untyped-def]
        saved = super().put(config, checkpoint, metadata, new_versions)
        thread = str(saved["configurable"]["thread_id"])
        namespace = saved["configurable"]["checkpoint_ns"]
        latest = saved["configurable"]["checkpoint_id"]
        with self.cursor() as cur:  # one transaction: the new checkpoint stands before the old go
            cur.execute("DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id != ?",
                        (thread, namespace, latest))
            cur.execute("DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id != ?",
                        (thread, namespace, latest))
            cur.execute("INSERT INTO checkpoint_threads (thread_id, updated_at, finished) VALUES (?, ?, 0) "
                        "ON CONFLICT(thread_id) DO UPDATE SET updated_at = excluded.updated_at, finished = 0",
                        (thread, time.time()))
        return saved

    def delete_thread(self, thread_id: str) -> None:
        super().delete_thread(thread_id)
        with self.cursor() as cur:
            cur.execute("DELETE FROM checkpoint_threads WHERE thread_id = ?", (str(thread_id),))
        self._reclaim()

    def finish(self, thread_id: str, *, keep_days: float = 0.0) -> None:
        """A run of this thread ended COMPLETED: delete its checkpoints now, or mark them to be
        deleted by `expire` after `keep_days`."""
        if keep_days <= 0:
            self.delete_thread(thread_id)
            return
        with self.cursor() as cur:
            cur.execute("UPDATE checkpoint_threads SET finished = 1, updated_at = ? WHERE thread_id = ?",
                        (time.time(), str(thread_id)))

    def expired(self, *, now: float, keep_unfinished_days: float, keep_finished_days: float,
                prefix: str = "") -> list[str]:
        """Threads (whose id starts with `prefix`: `tenant/` or `tenant/agent/`) idle longer than
        their retention: unfinished (PARTIAL, FAILED, interrupted) after `keep_unfinished_days`,
        finished ones after `keep_finished_days`. A thread written before this table existed
        counts as unfinished, idle since the table was made."""
        with self.cursor() as cur:
            cur.execute("INSERT OR IGNORE INTO checkpoint_threads (thread_id, updated_at, finished) "
                        "SELECT DISTINCT thread_id, ?, 0 FROM checkpoints", (now,))
            cur.execute("SELECT thread_id FROM checkpoint_threads WHERE substr(thread_id, 1, ?) = ? AND "
                        "((finished = 0 AND updated_at < ?) OR (finished = 1 AND updated_at < ?)) ORDER BY thread_id",
                        (len(prefix), prefix, now - keep_unfinished_days * DAY, now - keep_finished_days * DAY))
            return [row[0] for row in cur.fetchall()]

    def expire(self, *, now: float, keep_unfinished_days: float, keep_finished_days: float,
               prefix: str = "", dry_run: bool = False) -> list[str]:
        """Delete the expired threads (see `expired`); returns their ids."""
        threads = self.expired(now=now, keep_unfinished_days=keep_unfinished_days,
                               keep_finished_days=keep_finished_days, prefix=prefix)
        if not dry_run:
            for thread in threads:
                self.delete_thread(thread)
        return threads

    def stats(self) -> CheckpointStats:
        with self.cursor(transaction=False) as cur:
            cur.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints")
            threads = int(cur.fetchone()[0])
            cur.execute("SELECT COUNT(*) FROM checkpoint_threads t WHERE finished = 1 AND "
                        "EXISTS (SELECT 1 FROM checkpoints c WHERE c.thread_id = t.thread_id)")
            finished = int(cur.fetchone()[0])
        return CheckpointStats(threads=threads, finished=finished, bytes=file_bytes(self.conn))

    def check_key(self, key: bytes) -> str | None:
        """Whether `key` is the one this file's checkpoints were written with: None if it is (or
        the file holds no checkpoint: the key is adopted), else a one-line explanation. The file
        keeps a keyed digest of the key, never the key."""
        check = hmac.new(key, b"contract-agent checkpoint key", hashlib.sha256).hexdigest()
        with self.cursor() as cur:
            cur.execute("SELECT value FROM checkpoint_meta WHERE name = 'key_check'")
            row = cur.fetchone()
            if row is not None and row[0] != check:
                cur.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints")
                threads = int(cur.fetchone()[0])
                if threads:
                    return f"its {threads} checkpoint thread(s) were written with another key"
            cur.execute("INSERT INTO checkpoint_meta (name, value) VALUES ('key_check', ?) "
                        "ON CONFLICT(name) DO UPDATE SET value = excluded.value", (check,))
        return None

    def _reclaim(self) -> None:
        """Give freed pages back to the file system and fold the log into the file."""
        with self.lock:
            self.conn.execute("PRAGMA incremental_vacuum")
            self.conn.commit()
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Leave one file at rest: the write-ahead log folded into the main file."""
        try:
            with self.lock:
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # a damaged or locked file: closing must not hide the error that got us here


@contextlib.contextmanager
def maintenance(path: Path) -> Iterator[RunCheckpoints | None]:
    """The checkpoint file at `path` for upkeep (stats, expiry): nothing is decrypted, so no key
    is needed. None when there is no such file (the in-memory checkpointer writes none)."""
    if not path.exists():
        yield None
        return
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        saver = RunCheckpoints(conn)
        saver.setup()
        yield saver
        saver.close()
    finally:
        conn.close()


def checkpoint_threads(path: Path) -> int:
    """Threads with a checkpoint in the file at `path` (0 when there is no file or no table)."""
    if not path.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            return int(conn.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints").fetchone()[0])
    except sqlite3.Error:
        return 0


def file_bytes(conn: sqlite3.Connection) -> int:
    """Bytes on disk of the database behind `conn`: the main file and its write-ahead log."""
    row: Any = conn.execute("PRAGMA database_list").fetchone()
    path = Path(row[2]) if row and row[2] else None
    if path is None:
        return 0
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
