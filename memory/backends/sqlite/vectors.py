"""Nearest-neighbour indexes beside the SQLite file: one per namespace and embedding model.

SQLite stays the record. Every change to a stored vector is journalled in `vector_log` by
triggers (schema migration 4), whatever made it: a store write, decay, forget, a re-embedding
switch, a bulk loader. An index is a usearch HNSW graph (chosen on figures measured here, see
docs/BENCHMARKS.md) saved as `<file>.vectors/<stem>-<seq>.usearch`, where `seq` is the journal
entry it covers, and registered in `vector_indexes`. One index holds one namespace's vectors of
one model (episodes: tenant + agent; facts: tenant), so a search can never meet another tenant's
vectors or another model's.

A process opens a snapshot memory-mapped (no vector is read row by row) and keeps it current by
replaying the journal past `seq` before each search: vectors added since are kept in a small
delta scanned exactly, removed ones as tombstones. When the delta outgrows `max(min_delta,
delta_share x snapshot)`, the next write merges it into a new snapshot (usearch add/remove on a
copy), saves it beside the old one, swaps the registry row in one short transaction (compare
and swap: a concurrent compaction wins or loses whole) and prunes the journal it covers. A
namespace smaller than `min_delta` never gets a graph: its delta is the exact search.

An index file that is missing, unreadable, or whose sidecar disagrees with the registry (another
model, another journal position, another count: a copied or stale file) is rebuilt from the
table, reporting progress; so is a namespace journalled before migration 4 (no registry row and
more rows than the delta holds).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memory.backends.sqlite.schema import Database
from memory.errors import MemoryBackendError

log = logging.getLogger(__name__)

MIN_DELTA = 2_000  # vectors searched exactly before a namespace gets a graph
DELTA_SHARE = 0.02  # the delta may grow to this share of the snapshot before a merge
CONNECTIVITY = 16  # HNSW graph degree
EXPANSION_ADD = 128  # candidate list while building (quality of the graph)
EXPANSION_SEARCH = 100  # candidate list while searching (recall@10 0.99 against exact at 100k, see BENCHMARKS)
# The graph keeps its vectors as float16 (the embeddings' own precision: WordLlama's token table
# is float16): half the memory of float32, and a search at 100k took 0.51 ms instead of 0.85 ms
# with recall@10 0.993 against 0.992 (docs/BENCHMARKS.md). Candidates are re-scored with the
# float32 vectors of the table, so reported cosines are exact. An index saved as float32 by an
# earlier version stays usable: the dtype travels in the file.
SCALAR = "f16"
_PAGE = 20_000  # rows read per page while rebuilding from the table
_CHUNK = 8 << 20  # bytes read at a time while checksumming an index file

# progress(what, done, total): a rebuild from the table reports through it
Progress = Callable[[str, int, int], None]


def by_id_only(column: str) -> str:
    """The column in a condition that must not choose the index of a lookup by row id: without
    statistics SQLite reads `tenant = ? AND agent = ? AND id IN (...)` through the (tenant,
    agent, ...) index, every row of the namespace (40 ms at 100k), instead of the few rows by
    id. A unary plus keeps the condition and takes it out of index selection."""
    return f"+{column}"


@dataclass(frozen=True)
class IndexKey:
    """Which vectors one index holds: a table, a namespace (agent "" for tenant-wide facts), a model."""

    kind: str
    tenant: str
    agent: str
    model: str

    @property
    def stem(self) -> str:
        """File name stem: a hash, so tenant ids and model names never shape a path."""
        return hashlib.sha256("\x00".join((self.kind, self.tenant, self.agent, self.model)).encode()).hexdigest()[:32]

    def where(self, *, by_id: bool = False) -> tuple[str, tuple[str, ...]]:
        """The table rows of this index, as SQL and parameters. `by_id`: for rows picked by
        `id IN (...)`, the namespace only checks them (`by_id_only`)."""
        columns = ("tenant", "agent", "model") if self.kind == "episodes" else ("tenant", "model")
        params = (self.tenant, self.agent, self.model) if self.kind == "episodes" else (self.tenant, self.model)
        return " AND ".join(f"{by_id_only(column) if by_id else column} = ?" for column in columns), params

    def describe(self) -> str:
        owner = f"agent {self.agent!r} of tenant {self.tenant!r}" if self.agent else f"tenant {self.tenant!r}"
        return f"{self.kind} of {owner} ({self.model})"


def _log_progress(what: str, done: int, total: int) -> None:
    if done == total or done % (_PAGE * 5) == 0:
        log.info("rebuilding the vector index of %s: %d/%d", what, done, total)


@dataclass
class _Live:
    """One index as this process sees it: the mapped snapshot plus the journal replayed since."""

    key: IndexKey
    snapshot: Any = None  # usearch Index, memory-mapped (read-only)
    file: str | None = None
    count: int = 0  # vectors in the snapshot
    seen: int = 0  # journal position replayed up to
    delta: dict[int, np.ndarray] = field(default_factory=dict)  # row id -> unit vector
    tombstones: set[int] = field(default_factory=set)  # snapshot keys removed since
    dim: int | None = None
    loaded: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    _matrix: tuple[np.ndarray, np.ndarray] | None = None

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        if self._matrix is None:
            ids = np.fromiter(self.delta, dtype=np.int64, count=len(self.delta))
            vectors = (np.stack(list(self.delta.values())) if self.delta
                       else np.zeros((0, self.dim or 1), dtype=np.float32))
            self._matrix = (ids, vectors)
        return self._matrix

    def changed(self) -> None:
        self._matrix = None


class VectorIndexes:
    """The nearest-neighbour indexes of one SQLite memory file."""

    def __init__(self, db: Database, tables: dict[str, str], *, min_delta: int = MIN_DELTA,
                 delta_share: float = DELTA_SHARE, progress: Progress | None = None) -> None:
        self._db = db
        self._tables = tables  # kind -> table holding (id, tenant, [agent], model, vector)
        self.folder = db.path.with_name(db.path.name + ".vectors")
        self.min_delta = min_delta
        self.delta_share = delta_share
        self._progress = progress or _log_progress
        self._live: dict[IndexKey, _Live] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ search

    def nearest(self, conn: sqlite3.Connection, key: IndexKey, vector: np.ndarray, count: int) -> list[int]:
        """Row ids of the (approximately) `count` nearest vectors, nearest first. `conn` must hold
        a read transaction (`Database.snapshot`): the journal and the rows are read in it."""
        live = self._current(conn, key)
        with live.lock:
            if live.dim is not None and vector.shape != (live.dim,):
                raise MemoryBackendError(
                    f"query vector has {vector.size} dimensions but {key.model!r} vectors are stored with {live.dim}")
            found: list[tuple[float, int]] = []
            if live.snapshot is not None and live.count:
                want = min(live.count, count + len(live.tombstones))
                matches = live.snapshot.search(vector, want, threads=1)
                found += [(float(d), int(k)) for k, d in zip(matches.keys, matches.distances, strict=True)
                          if int(k) not in live.tombstones]
            ids, vectors = live.matrix()
            if len(ids):
                cosines = np.einsum("ij,j->i", vectors, vector)
                top = np.argpartition(-cosines, min(count, len(ids) - 1))[:count] if len(ids) > count else \
                    np.arange(len(ids))
                found += [(1.0 - float(cosines[i]), int(ids[i])) for i in top]
        found.sort()
        return [row_id for _, row_id in found[:count]]

    def size(self, conn: sqlite3.Connection, key: IndexKey) -> int:
        live = self._current(conn, key)
        return live.count - len(live.tombstones) + len(live.delta)

    # ------------------------------------------------------------------ keeping current

    def _current(self, conn: sqlite3.Connection, key: IndexKey) -> _Live:
        with self._lock:
            live = self._live.setdefault(key, _Live(key))
        with live.lock:
            registry = conn.execute(
                "SELECT file, seq, count, dim FROM vector_indexes WHERE kind = ? AND tenant = ? AND agent = ? "
                "AND model = ?", (key.kind, key.tenant, key.agent, key.model)).fetchone()
            if not live.loaded or (registry[0] if registry else None) != live.file:
                self._reopen(conn, live, registry)  # first use, or another process merged or erased it
            self._replay(conn, live)
        return live

    def _reopen(self, conn: sqlite3.Connection, live: _Live, registry: tuple | None) -> None:
        live.snapshot, live.file, live.count, live.delta, live.tombstones = None, None, 0, {}, set()
        live.loaded = False
        live.changed()
        if registry is not None:
            file, seq, count, dim = registry
            snapshot, problem = self._open_snapshot(live.key, file, seq, count, dim)
            if snapshot is None:
                log.warning("the vector index of %s %s: rebuilding it from the memory file", live.key.describe(),
                            problem)
                raise NeedsBuild(live.key)
            live.snapshot, live.file, live.count, live.seen, live.dim = snapshot, file, count, seq, dim
            live.loaded = True
            return
        # no snapshot: the table is the whole truth; a small namespace is simply the exact delta
        table = self._tables[live.key.kind]
        where, params = live.key.where()
        seen = conn.execute("SELECT coalesce(max(seq), 0) FROM vector_log").fetchone()[0]
        rows = conn.execute(f"SELECT id, vector FROM {table} WHERE {where} LIMIT ?",
                            (*params, self.min_delta + 1)).fetchall()
        if len(rows) > self.min_delta:
            raise NeedsBuild(live.key)  # journalled before migration 4, or a bulk load: build the graph
        for row_id, blob in rows:
            self._put(live, int(row_id), blob)
        live.seen = seen
        live.loaded = True

    def _open_snapshot(self, key: IndexKey, file: str, seq: int, count: int, dim: int) -> tuple[Any, str]:
        """(the mapped snapshot, "") or (None, what is wrong with the file, for one line)."""
        from usearch.index import Index

        path = self.folder / file
        problem = self.verify_file(key, file, seq, count, dim)
        if problem:
            return None, problem
        try:
            index = Index.restore(str(path), view=True)
        except (OSError, ValueError, RuntimeError):
            index = None
        if index is None:
            return None, "cannot be read"
        index.expansion_search = EXPANSION_SEARCH
        return index, ""

    def verify_file(self, key: IndexKey, file: str, seq: int, count: int, dim: int) -> str:
        return verify_index_file(self.folder, key, file, seq, count, dim)

    def _put(self, live: _Live, row_id: int, blob: bytes) -> None:
        vector = np.frombuffer(blob, dtype=np.float32)
        if live.dim is None:
            live.dim = vector.size
        elif vector.size != live.dim:
            raise MemoryBackendError(
                f"stored {live.key.describe()} vectors differ in dimension ({vector.size} vs {live.dim}): re-embed them")
        live.delta[row_id] = vector
        live.changed()

    def _replay(self, conn: sqlite3.Connection, live: _Live) -> None:
        """Apply the journal entries written since this process last looked (usually none)."""
        key = live.key
        rows = conn.execute(
            "SELECT seq, row_id, op FROM vector_log WHERE kind = ? AND tenant = ? AND agent = ? AND model = ? "
            "AND seq > ? ORDER BY seq", (key.kind, key.tenant, key.agent, key.model, live.seen)).fetchall()
        if not rows:
            return
        added = [row_id for _, row_id, op in rows if op]
        table = self._tables[key.kind]
        where, params = key.where(by_id=True)
        blobs: dict[int, bytes] = {}
        for start in range(0, len(added), 500):
            chunk = added[start:start + 500]
            blobs.update(conn.execute(
                f"SELECT id, vector FROM {table} WHERE id IN ({', '.join('?' * len(chunk))}) AND {where}",
                (*chunk, *params)).fetchall())
        for _, row_id, op in rows:  # in journal order: a reused row id is removed, then added again
            if live.snapshot is not None and row_id not in live.tombstones and live.snapshot.contains(row_id):
                live.tombstones.add(row_id)  # the snapshot's copy is gone or superseded
            if live.delta.pop(row_id, None) is not None:
                live.changed()
            if op and row_id in blobs:
                self._put(live, row_id, blobs[row_id])
        live.seen = rows[-1][0]

    # ------------------------------------------------------------------ merging and rebuilding

    def due(self, key: IndexKey) -> bool:
        """Whether the journal since the snapshot has outgrown the delta (checked after writes)."""
        with self._db.snapshot() as conn:
            registry = conn.execute(
                "SELECT seq, count FROM vector_indexes WHERE kind = ? AND tenant = ? AND agent = ? AND model = ?",
                (key.kind, key.tenant, key.agent, key.model)).fetchone()
            if registry is None:
                table = self._tables[key.kind]
                where, params = key.where()
                rows = conn.execute(f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {where} LIMIT ?)",
                                    (*params, self.min_delta + 1)).fetchone()[0]
                return rows > self.min_delta
            seq, count = registry
            limit = max(self.min_delta, int(self.delta_share * count))
            pending = conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM vector_log WHERE kind = ? AND tenant = ? AND agent = ? "
                "AND model = ? AND seq > ? LIMIT ?)", (key.kind, key.tenant, key.agent, key.model, seq, limit + 1),
            ).fetchone()[0]
            return pending > limit

    def after_write(self, key: IndexKey) -> None:
        """Merge the delta into a new snapshot when it has grown too large (the write path pays)."""
        if self.due(key):
            self.build(key)

    def build(self, key: IndexKey, *, full: bool = False) -> int:
        """Write a new snapshot of `key` (merging the journal into the current one, or from the
        whole table when there is none, it is unusable, or `full`); returns its vector count."""
        from usearch.index import Index

        started = time.perf_counter()
        with self._db.snapshot() as conn:
            registry = conn.execute(
                "SELECT file, seq, count, dim FROM vector_indexes WHERE kind = ? AND tenant = ? AND agent = ? "
                "AND model = ?", (key.kind, key.tenant, key.agent, key.model)).fetchone()
            upto = conn.execute("SELECT coalesce(max(seq), 0) FROM vector_log").fetchone()[0]
            base = None
            if registry is not None and not full and self._open_snapshot(key, *registry)[0] is not None:
                changes = self._changes(conn, key, registry[1])
                if sum(1 for op in changes.values() if not op) <= registry[2] // 4:  # else the graph thins: rebuild
                    base = Index.restore(str(self.folder / registry[0]), view=False)
            if base is not None:
                index = base
                self._merge(conn, key, index, changes)
            else:
                index = self._from_table(conn, key)
        if index is None or len(index) == 0:
            self._register(key, registry, None, upto, 0, 0)
            return 0
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # vectors of contracts: the owner's alone
        file = f"{key.stem}-{upto}.usearch"
        path = self.folder / file
        tmp = path.with_name(path.name + f".{os.getpid()}.{threading.get_ident()}.tmp")
        index.save(str(tmp))
        os.chmod(tmp, 0o600)
        checksum = file_checksum(tmp)
        os.replace(tmp, path)
        count, dim = len(index), index.ndim
        meta = path.with_suffix(".json")
        with contextlib.suppress(FileExistsError):
            os.close(os.open(meta, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        meta.write_text(json.dumps(
            {"key": key.stem, "model": key.model, "seq": upto, "count": count, "dim": dim, "kind": key.kind,
             "crc32": checksum, "built_seconds": round(time.perf_counter() - started, 2)}))
        if not self._register(key, registry, file, upto, count, dim):
            self._remove_files(file)  # another process merged first: keep its snapshot
        return count

    @staticmethod
    def _changes(conn: sqlite3.Connection, key: IndexKey, since: int) -> dict[int, int]:
        """Row id -> its last journalled operation after `since` (1 = has a vector now, 0 = gone)."""
        final: dict[int, int] = {}
        for row_id, op in conn.execute(
                "SELECT row_id, op FROM vector_log WHERE kind = ? AND tenant = ? AND agent = ? AND model = ? "
                "AND seq > ? ORDER BY seq", (key.kind, key.tenant, key.agent, key.model, since)):
            final[row_id] = op
        return final

    def _merge(self, conn: sqlite3.Connection, key: IndexKey, index: Any, changes: dict[int, int]) -> None:
        table = self._tables[key.kind]
        where, params = key.where(by_id=True)
        stale = [row_id for row_id in changes if index.contains(row_id)]  # removed or replaced
        if stale:
            index.remove(np.asarray(stale, dtype=np.uint64))
        added = [row_id for row_id, op in changes.items() if op]
        for start in range(0, len(added), 500):
            chunk = added[start:start + 500]
            pairs = conn.execute(
                f"SELECT id, vector FROM {table} WHERE id IN ({', '.join('?' * len(chunk))}) AND {where}",
                (*chunk, *params)).fetchall()
            if pairs:
                self._add(index, pairs)

    def _from_table(self, conn: sqlite3.Connection, key: IndexKey) -> Any:
        table = self._tables[key.kind]
        where, params = key.where()
        total = conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", params).fetchone()[0]
        if total == 0:
            return None
        index = None
        done, after = 0, 0
        self._progress(key.describe(), 0, total)
        while True:
            pairs = conn.execute(f"SELECT id, vector FROM {table} WHERE {where} AND id > ? ORDER BY id LIMIT ?",
                                 (*params, after, _PAGE)).fetchall()
            if not pairs:
                break
            if index is None:
                index = self._new_index(len(pairs[0][1]) // 4)
            self._add(index, pairs)
            done += len(pairs)
            after = pairs[-1][0]
            self._progress(key.describe(), done, total)
        return index

    @staticmethod
    def _new_index(dim: int) -> Any:
        from usearch.index import Index

        return Index(ndim=dim, metric="cos", dtype=SCALAR, connectivity=CONNECTIVITY, expansion_add=EXPANSION_ADD,
                     expansion_search=EXPANSION_SEARCH)

    @staticmethod
    def _add(index: Any, pairs: Sequence[tuple[int, bytes]]) -> None:
        sizes = {len(blob) for _, blob in pairs}
        if sizes != {index.ndim * 4}:
            raise MemoryBackendError("stored vectors of one embedding model differ in dimension: re-embed them")
        keys = np.fromiter((row_id for row_id, _ in pairs), dtype=np.uint64, count=len(pairs))
        vectors = np.frombuffer(b"".join(blob for _, blob in pairs), dtype=np.float32).reshape(len(pairs), -1)
        index.add(keys, vectors, threads=os.cpu_count() or 1)

    def _register(self, key: IndexKey, before: tuple | None, file: str | None, seq: int, count: int,
                  dim: int) -> bool:
        """Swap the registry row if nobody else did since `before` was read; prune the journal."""
        ident = (key.kind, key.tenant, key.agent, key.model)
        with self._db.write() as conn:
            now = conn.execute(
                "SELECT file, seq, count, dim FROM vector_indexes WHERE kind = ? AND tenant = ? AND agent = ? "
                "AND model = ?", ident).fetchone()
            if (now and tuple(now)) != (before and tuple(before)):
                return False
            if file is None:
                conn.execute("DELETE FROM vector_indexes WHERE kind = ? AND tenant = ? AND agent = ? AND model = ?",
                             ident)
            else:
                conn.execute(
                    "INSERT OR REPLACE INTO vector_indexes (kind, tenant, agent, model, file, seq, count, dim, built_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*ident, file, seq, count, dim, time.time()))
            conn.execute("DELETE FROM vector_log WHERE kind = ? AND tenant = ? AND agent = ? AND model = ? "
                         "AND seq <= ?", (*ident, seq))
        if before is not None and before[0] != file:
            self._remove_files(before[0])
        return True

    def _remove_files(self, file: str, *, scrub: bool = False) -> None:
        path = self.folder / file
        for victim in (path, path.with_suffix(".json")):
            with contextlib.suppress(FileNotFoundError):
                if scrub:  # erasure: overwrite before unlinking, as SQLite's secure_delete zeroes pages
                    size = victim.stat().st_size
                    with victim.open("r+b") as handle:
                        handle.write(b"\0" * size)
                        handle.flush()
                        os.fsync(handle.fileno())
                victim.unlink()

    # ------------------------------------------------------------------ operations

    def keys(self, *, tenant: str | None = None) -> list[IndexKey]:
        with self._db.read() as conn:
            sql = "SELECT kind, tenant, agent, model FROM vector_indexes"
            rows = conn.execute(sql + (" WHERE tenant = ?" if tenant else ""), (tenant,) if tenant else ()).fetchall()
        return [IndexKey(*row) for row in rows]

    def forget_tenant(self, tenant: str, registered: Iterable[tuple[IndexKey, str]]) -> None:
        """After a tenant erasure: scrub its index files and drop what this process holds."""
        for _, file in registered:
            self._remove_files(file, scrub=True)
        with self._lock:
            for key in [k for k in self._live if k.tenant == tenant]:
                del self._live[key]

    def files_of(self, tenant: str) -> list[tuple[IndexKey, str]]:
        with self._db.read() as conn:
            rows = conn.execute("SELECT kind, tenant, agent, model, file FROM vector_indexes WHERE tenant = ?",
                                (tenant,)).fetchall()
        return [(IndexKey(*row[:4]), row[4]) for row in rows]

    def rebuild(self, *, progress: Progress | None = None) -> dict[str, int]:
        """Rebuild every index from the table (the `memory reindex` command)."""
        before, self._progress = self._progress, progress or self._progress
        try:
            with self._db.read() as conn:
                found = set()
                for kind, table in self._tables.items():
                    agent = "agent" if kind == "episodes" else "''"
                    found |= {IndexKey(kind, *row) for row in conn.execute(
                        f"SELECT DISTINCT tenant, {agent}, model FROM {table}")}
            counts = {}
            for key in sorted(found | set(self.keys()), key=lambda k: (k.kind, k.tenant, k.agent, k.model)):
                counts[key.describe()] = self.build(key, full=True)
            return counts
        finally:
            self._progress = before


def verify_index_file(folder: Path, key: IndexKey, file: str, seq: int, count: int, dim: int) -> str:
    """What is wrong with an index file against its registry row ("" if nothing): missing or
    unreadable, written for another namespace, model or journal position (a copied or stale
    file), or its bytes differ from the checksum taken when it was saved (issue 32: random bytes
    flipped inside a snapshot silently lost search results). A file saved before checksums
    existed cannot be trusted either: it is rebuilt once."""
    from usearch.index import Index

    path = folder / file
    try:
        sidecar = json.loads(path.with_suffix(".json").read_text())
        meta = Index.metadata(str(path))
    except FileNotFoundError:
        return "is missing"
    except (OSError, ValueError, RuntimeError):
        return "is unreadable or has a damaged header"
    expected = {"key": key.stem, "model": key.model, "seq": seq, "count": count, "dim": dim}
    if not isinstance(sidecar, dict) or not meta or {k: sidecar.get(k) for k in expected} != expected or \
            meta.get("dimensions") != dim or meta.get("count_present") != count:
        return "does not match the memory file (stale, copied or damaged header)"
    if "crc32" not in sidecar:
        return "has no checksum (saved by an older version)"
    try:
        checksum = file_checksum(path)
    except OSError:
        return "is unreadable"
    if checksum != sidecar["crc32"]:
        return "is damaged (its checksum does not match its bytes)"
    return ""


def file_checksum(path: os.PathLike | str) -> int:
    """CRC-32 of a whole file (2 GB/s here: 50 ms for a 100 MB index), read in chunks."""
    checksum = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            checksum = zlib.crc32(chunk, checksum)
    return checksum


class NeedsBuild(Exception):
    """A namespace has no usable snapshot and too many rows to search exactly: build one."""

    def __init__(self, key: IndexKey) -> None:
        super().__init__(key.describe())
        self.key = key
