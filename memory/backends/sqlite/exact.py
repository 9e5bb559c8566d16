"""Exact nearest neighbours: every vector of a namespace in one in-process matrix, scanned whole.

The baseline the nearest-neighbour indexes are measured against (`sqlite:///path?vector_index=exact`,
the bootstrap benchmark's exact-scan figure). Each (namespace, model) matrix is loaded from the
table once, row by row, and kept current cheaply: new rows are appended by id, and any delete or
replace bumps a generation counter in the file, which makes every process reload.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field

import numpy as np

from memory.backends.sqlite.schema import Database, scope_token
from memory.backends.sqlite.vectors import IndexKey
from memory.errors import MemoryBackendError


@dataclass
class _Matrix:
    generation: int = -1
    last_id: int = 0
    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    vectors: np.ndarray | None = None


class ExactVectors:
    """`nearest` by a full cosine scan, over matrices cached per namespace and model."""

    def __init__(self, db: Database, tables: dict[str, str]) -> None:
        self._db = db
        self._tables = tables
        self._cache: dict[IndexKey, _Matrix] = {}
        self._lock = threading.Lock()

    @staticmethod
    def scope(key: IndexKey) -> str:
        return scope_token(key.kind, key.tenant, key.agent) if key.agent else scope_token(key.kind, key.tenant)

    def _matrix(self, conn: sqlite3.Connection, key: IndexKey) -> _Matrix:
        generation = self._db.generation(conn, self.scope(key))
        where, params = key.where()
        with self._lock:
            matrix = self._cache.get(key)
            if matrix is None or matrix.generation != generation:
                matrix = _Matrix(generation=generation)
            rows = conn.execute(
                f"SELECT id, vector FROM {self._tables[key.kind]} WHERE {where} AND id > ? ORDER BY id",
                (*params, matrix.last_id)).fetchall()
            if rows:
                blobs = [blob for _, blob in rows]
                if len({len(b) for b in blobs}) != 1 or (
                        matrix.vectors is not None and matrix.vectors.shape[1] * 4 != len(blobs[0])):
                    raise MemoryBackendError("stored vectors of one embedding model differ in dimension: re-embed them")
                vectors = np.stack([np.frombuffer(blob, dtype=np.float32) for blob in blobs])
                matrix = _Matrix(
                    generation=generation, last_id=int(rows[-1][0]),
                    ids=np.concatenate([matrix.ids, np.asarray([r[0] for r in rows], dtype=np.int64)]),
                    vectors=vectors if matrix.vectors is None else np.concatenate([matrix.vectors, vectors]))
            self._cache[key] = matrix
            return matrix

    def nearest(self, conn: sqlite3.Connection, key: IndexKey, vector: np.ndarray, count: int) -> list[int]:
        matrix = self._matrix(conn, key)
        if matrix.vectors is None:
            return []
        if vector.shape != (matrix.vectors.shape[1],):
            raise MemoryBackendError(f"query vector has {vector.size} dimensions but {key.model!r} vectors "
                                     f"are stored with {matrix.vectors.shape[1]}")
        # einsum, not `@`: BLAS threads slow a matrix-vector product ~15x on a busy small machine
        cosines = np.einsum("ij,j->i", matrix.vectors, vector)
        if len(cosines) > count:
            top = np.argpartition(-cosines, count)[:count]
        else:
            top = np.arange(len(cosines))
        top = top[np.argsort(-cosines[top], kind="stable")]
        return [int(matrix.ids[i]) for i in top]

    def size(self, conn: sqlite3.Connection, key: IndexKey) -> int:
        return len(self._matrix(conn, key).ids)

    def after_write(self, key: IndexKey) -> None:
        """New rows are appended at the next search; nothing to maintain."""
