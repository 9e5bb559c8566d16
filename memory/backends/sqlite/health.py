"""Check, back up and restore the embedded store (`contract-review memory check|backup|restore`).

- `check`: the whole file (`integrity_check`, `foreign_key_check`), the header against the file's
  size, the rows of each tier against the marker row, the marker against its witness beside the
  file (marker.py), and every registered vector index file against its checksum. Read-only.
- `backup`: SQLite's online backup API copies one consistent state of the file while other
  processes go on writing; the copy is checked whole, made a self-contained single file
  (rollback journal, no `-wal`), owner-only, and put in place by atomic rename. The vector
  indexes are not copied: the copy's registry is emptied, so a restored store rebuilds them from
  its own table at the first search (a copied index file could describe another state).
- `restore`: the backup is checked first (a damaged, truncated or newer-version file is refused and
  the store is left as it was); it is copied beside the store, and only a finished copy replaces
  the store, by atomic rename. The old store's log is folded and removed, its index files
  dropped, and the witness written for the restored store.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from memory.backends.sqlite.marker import (
    TIER_TABLES,
    Marker,
    lost,
    read_witness,
    truncated,
    write_witness,
)
from memory.backends.sqlite.schema import MIGRATIONS, Database
from memory.backends.sqlite.vectors import IndexKey, verify_index_file
from memory.errors import DamagedBackupError, MemoryBackendError, MemoryConfigError

MAX_LINES = 20  # problems of one kind listed before "... and N more"


@dataclass
class Health:
    """What `check` found: one line per problem (none: healthy), rows per tier, the marker."""

    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    marker: Marker | None = None
    indexes: int = 0  # index files checked

    @property
    def healthy(self) -> bool:
        return not self.problems


def _readonly(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    mode = "ro&immutable=1" if immutable else "ro"
    conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=30)
    conn.text_factory = lambda raw: raw.decode("utf-8", errors="replace")  # a damaged page's text too
    return conn


def _limited(lines: list[str]) -> list[str]:
    return lines if len(lines) <= MAX_LINES else [*lines[:MAX_LINES], f"... and {len(lines) - MAX_LINES} more"]


def _file_problems(conn: sqlite3.Connection, name: str) -> tuple[list[str], Health]:
    """Whole-file checks of an open connection: integrity, foreign keys, rows against the marker."""
    health = Health()
    problems: list[str] = []
    rows = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    if rows != ["ok"]:
        problems += _limited([f"{name} integrity: {row}" for row in rows])
    keys = conn.execute("PRAGMA foreign_key_check").fetchall()
    problems += _limited([f"{name} foreign key: {row[0]} row {row[1]} names a missing {row[2]}" for row in keys])
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        problems.append(f"{name} has memory schema version {version}, newer than this code ({len(MIGRATIONS)})")
        return problems, health
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table in TIER_TABLES:
        if table in tables:
            health.counts[table] = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    if "marker" in tables:
        health.marker = Marker.read(conn)
        if health.marker is None:
            problems.append(f"{name} has lost its marker row")
        else:
            problems += [f"{name} holds {health.counts.get(table, 0)} {table} but its marker counts {count}"
                         for table, count in health.marker.counts.items() if health.counts.get(table, 0) != count]
    return problems, health


def check(path: Path) -> Health:
    """Every check on demand (read-only): see the module's docstring."""
    if not path.is_file():
        witness = read_witness(path)
        problem = lost(path, None, witness, new_file=True)
        return Health(problems=[problem or f"memory file {path} does not exist"])
    cut = truncated(path)
    if cut:
        return Health(problems=[cut])
    try:
        with contextlib.closing(_readonly(path)) as conn:
            problems, health = _file_problems(conn, path.name)
            registry = conn.execute("SELECT kind, tenant, agent, model, file, seq, count, dim FROM vector_indexes"
                                    ).fetchall() if "vector_indexes" in _tables(conn) else []
    except sqlite3.Error as exc:
        return Health(problems=[f"memory file {path} cannot be read: {exc}"])
    folder = path.with_name(path.name + ".vectors")
    for kind, tenant, agent, model, file, seq, count, dim in registry:
        key = IndexKey(kind, tenant, agent, model)
        problem = verify_index_file(folder, key, file, seq, count, dim)
        health.indexes += 1
        if problem:
            problems.append(f"the vector index of {key.describe()} {problem}: the next search rebuilds it "
                            "(or run contract-review memory reindex)")
    witnessed = lost(path, health.marker, read_witness(path), new_file=False) if health.marker else None
    if witnessed:
        problems.append(witnessed)
    health.problems = problems
    return health


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def accept(path: Path) -> Marker:
    """Take the file as it is as what this folder holds (after a loss was reported and judged)."""
    with contextlib.closing(_readonly(path)) as conn:
        marker = Marker.read(conn) if "marker" in _tables(conn) else None
    if marker is None:
        raise MemoryBackendError(f"memory file {path} has no marker row: open it once with this version first")
    write_witness(path, marker)
    return marker


def _owner_only(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy(source: sqlite3.Connection, tmp: Path) -> sqlite3.Connection:
    """An owner-only single-file copy of `source` at `tmp` (online backup API), without the index
    registry (the copy's indexes are rebuilt from its own table)."""
    _owner_only(tmp)
    target = sqlite3.connect(tmp, isolation_level=None)
    source.backup(target)
    target.execute("PRAGMA journal_mode = DELETE")  # self-contained: no -wal beside a backup
    if "vector_indexes" in _tables(target):
        target.execute("DELETE FROM vector_indexes")
    return target


def backup(path: Path, dest: Path) -> Health:
    """Copy the store to `dest` (replacing it if present: the caller asks first); the copy is
    checked whole before it is put in place. Returns the copy's health (rows per tier)."""
    if not path.is_file():
        raise MemoryBackendError(f"memory file {path} does not exist: nothing to back up")
    if dest.exists() and dest.resolve() == path.resolve():
        raise MemoryConfigError(f"{dest} is the memory file itself: name another file")
    if dest.is_dir():
        raise MemoryConfigError(f"{dest} is a folder: name a file, e.g. {dest / 'memory-backup.sqlite'}")
    dest.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        with contextlib.closing(_readonly(path)) as source, contextlib.closing(_copy(source, tmp)) as target:
            problems, health = _file_problems(target, path.name)
        if problems:
            raise MemoryBackendError(f"the memory store is damaged, no backup written: {problems[0]} "
                                     f"({len(problems)} problem(s); run contract-review memory check)")
        _fsync(tmp)
        os.replace(tmp, dest)
    except sqlite3.Error as exc:
        raise MemoryBackendError(f"backup of {path} to {dest} failed: {exc}") from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return health


def verify_backup(src: Path) -> Health:
    """The backup's own health; a DamagedBackupError (one line) when it cannot be restored."""
    if not src.is_file():
        raise DamagedBackupError(f"backup {src} does not exist or is not a file; the memory store was left as it was")
    cut = truncated(src)
    if cut or src.stat().st_size == 0:
        raise DamagedBackupError(f"backup {src} is damaged: {cut or 'it is empty'}; the memory store was left as it was")
    try:
        with contextlib.closing(_readonly(src, immutable=True)) as conn:
            problems, health = _file_problems(conn, src.name)
            if not {"episodes", "facts", "procedures"} <= _tables(conn):
                problems.append("it holds no memory tables (not a memory store)")
    except (sqlite3.Error, ValueError) as exc:
        problems, health = [f"it cannot be read ({exc})"], Health()
    if problems:
        raise DamagedBackupError(f"backup {src} is damaged: {problems[0]} ({len(problems)} problem(s)); "
                                 "the memory store was left as it was")
    return health


def restore(path: Path, src: Path) -> Health:
    """Replace the store by the backup `src`, checked first; atomic: the current store stays in
    place until the checked copy replaces it."""
    health = verify_backup(src)
    if path.exists() and src.resolve() == path.resolve():
        raise MemoryConfigError(f"{src} is the memory file itself: name a backup")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.restore.{os.getpid()}.tmp")
    try:
        with contextlib.closing(_readonly(src, immutable=True)) as source:
            _copy(source, tmp).close()
        _fsync(tmp)
        _quiesce(path)
        os.replace(tmp, path)
    except sqlite3.Error as exc:
        raise MemoryBackendError(f"restore of {src} into {path} failed, the memory store was left as it was: {exc}"
                                 ) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    for suffix in ("-wal", "-shm", "-wal.orphaned"):  # the old store's: never replayed onto the new one
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()
    folder = path.with_name(path.name + ".vectors")
    if folder.is_dir():  # the old store's indexes: the restored one builds its own
        for item in folder.iterdir():
            with contextlib.suppress(OSError):
                item.unlink()
    db = Database(path, verify=False)  # migrates a backup of an older version
    try:
        marker = db.marker()
    finally:
        db.close()
    if marker is not None:
        write_witness(path, marker)
    health.marker = marker
    return health


def _quiesce(path: Path) -> None:
    """Fold the current store's log into it and make sure no other process is using it."""
    if not path.is_file():
        return
    try:
        conn = sqlite3.connect(path, timeout=5)
    except sqlite3.Error:
        return  # a damaged store: nothing to fold
    try:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    except sqlite3.Error as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            busy = 1
        else:
            return
    finally:
        conn.close()
    if busy:
        raise MemoryBackendError(f"another process is using {path}: stop it (or wait for it) and restore again; "
                                 "the memory store was left as it was")
