"""The store's marker row and its witness beside the file (issue 32: no silent loss).

The `marker` table (schema migration 8) holds one row: the store's id (random, made with the
file), a write generation bumped by every write transaction, and the row count of each tier, kept
by triggers in the same transaction as the rows themselves, whatever code wrote them. After every
commit the row is copied to `<file>.marker` beside the file, a small JSON witness written by
atomic rename. The witness can only ever lag the file (it is written after the commit), so:

- the file's generation below the witness's: committed writes are gone (a lost write-ahead log,
  or an older copy of the file put in place);
- another store id: the file was replaced (deleted and made anew, truncated to nothing, or
  another store copied in by hand).

Both are reported at open (`Database(verify=True)`), never served as an empty or shorter memory.
`memory restore` and `memory check --accept` write the witness for the store they put in place.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

TIER_TABLES = ("episodes", "facts", "procedures", "confirmations")  # counted in the marker row


def _count_triggers(table: str) -> tuple[str, ...]:
    return (
        f"CREATE TRIGGER {table}_counted_in AFTER INSERT ON {table} BEGIN "
        f"UPDATE marker SET {table} = {table} + 1 WHERE id = 1; END",
        f"CREATE TRIGGER {table}_counted_out AFTER DELETE ON {table} BEGIN "
        f"UPDATE marker SET {table} = {table} - 1 WHERE id = 1; END",
    )


MARKER_MIGRATION: tuple[str, ...] = (
    f"""CREATE TABLE marker (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        store TEXT NOT NULL, generation INTEGER NOT NULL,
        {", ".join(f"{table} INTEGER NOT NULL" for table in TIER_TABLES)})""",
    f"INSERT INTO marker (id, store, generation, {', '.join(TIER_TABLES)}) VALUES (1, lower(hex(randomblob(16))), 0, "
    + ", ".join(f"(SELECT count(*) FROM {table})" for table in TIER_TABLES) + ")",
    *(statement for table in TIER_TABLES for statement in _count_triggers(table)),
)

BUMP_SQL = "UPDATE marker SET generation = generation + 1 WHERE id = 1"
READ_SQL = f"SELECT store, generation, {', '.join(TIER_TABLES)} FROM marker WHERE id = 1"


@dataclass(frozen=True)
class Marker:
    store: str
    generation: int
    counts: dict[str, int]

    @classmethod
    def read(cls, conn: sqlite3.Connection) -> Marker | None:
        row = conn.execute(READ_SQL).fetchone()
        if row is None:
            return None
        return cls(store=row[0], generation=int(row[1]), counts=dict(zip(TIER_TABLES, map(int, row[2:]), strict=True)))

    def describe(self) -> str:
        return ", ".join(f"{count} {table}" for table, count in self.counts.items())


def witness_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".marker")


def read_witness(db_path: Path) -> Marker | None:
    """The witness beside the file, or None when there is none (a new folder, an older version)
    or it cannot be read (then it is rewritten at the next write)."""
    try:
        data = json.loads(witness_path(db_path).read_text())
        return Marker(store=str(data["store"]), generation=int(data["generation"]),
                      counts={table: int(data["counts"].get(table, 0)) for table in TIER_TABLES})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


WITNESS_BYTES = 512  # the witness is rewritten in place, padded to this size


def write_witness(db_path: Path, marker: Marker) -> None:
    """Rewrite the witness in place (owner-only), padded to a fixed size so a shorter record
    leaves no tail. Not by rename: replacing a file by rename makes ext4 flush it first
    (`auto_da_alloc`), a synchronous write on every memory write (adds/s fell by a quarter).
    A torn witness (a crash mid-write) reads as none and is rewritten at the next open; a failure
    (read-only folder) is not a failed write: the witness then lags, which can only weaken the
    check, never raise a false alarm."""
    data = json.dumps(asdict(marker)).encode()
    with contextlib.suppress(OSError):
        fd = os.open(witness_path(db_path), os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, data.ljust(max(WITNESS_BYTES, len(data)), b" "), 0)
        finally:
            os.close(fd)


def lost(db_path: Path, current: Marker | None, witness: Marker | None, *, new_file: bool) -> str | None:
    """One line saying what the file lost against its witness, or None when nothing is."""
    if witness is None or not any(witness.counts.values()):  # nothing was held, nothing can be lost
        return None
    name = db_path.name
    fix = ("restore a backup (contract-review memory restore BACKUP), or accept the loss "
           "(contract-review memory check --accept)")
    held = f"this folder last held {witness.describe()}"
    if current is None or new_file or current.store != witness.store and not any(current.counts.values()):
        return f"memory file {db_path} was missing or empty, but {held}: {fix}"
    if current.store != witness.store:
        return (f"memory file {db_path} is not the store this folder last wrote ({held}; the file holds "
                f"{current.describe()}): it was replaced; {fix}")
    if current.generation < witness.generation:
        return (f"memory file {db_path} is behind what this folder last wrote (write {current.generation} of "
                f"{witness.generation}; {held}, the file {current.describe()}): committed writes were lost "
                f"(a deleted {name}-wal, or an older copy put in place); {fix}")
    return None


def truncated(db_path: Path) -> str | None:
    """A main file shorter than its own header says (cheap: 100 bytes read): one line, or None."""
    try:
        with db_path.open("rb") as handle:
            header = handle.read(100)
        size = db_path.stat().st_size
    except OSError:
        return None
    if size == 0:
        return None  # made anew: the witness says whether memory was expected
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        return f"memory file {db_path} is not an SQLite database (its header is damaged or cut): restore a backup"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the header's page count is current
    if valid and pages and size < pages * page_size:
        return f"memory file {db_path} is truncated ({size} of {pages * page_size} bytes): restore a backup"
    return None
