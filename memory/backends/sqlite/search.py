"""Hybrid search over one SQLite table of vectors: an in-process matrix cache plus FTS5 BM25.

Each (namespace, embedding model) gets a float32 matrix of its WHOLE history, loaded once and
kept current cheaply: new rows are appended by id (`id > last seen`), and any delete or replace
bumps a generation counter in the file, which makes every process reload. Only vectors of the
query's model are loaded, so vectors of different models are never compared. The lexical side
is an FTS5 query confined to the namespace's scope token; `memory.retrieval` fuses the two.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.backends.sqlite.schema import Database
from memory.errors import MemoryBackendError
from memory.retrieval import Candidate, bm25, identifiers, lexical_terms, rank_hybrid, words
from memory.stores import VectorQuery

LEXICAL_WEIGHTS = (0.0, 1.0, 4.0)  # bm25 weights of (scope, body, idents): identifiers count more


def as_blob(vector: Sequence[float]) -> bytes:
    """A unit-length float32 blob; refuses empty or non-finite vectors."""
    array = np.asarray(vector, dtype=np.float32)
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise MemoryBackendError("an embedding must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    return (array / norm if norm else array).tobytes()


@dataclass
class _Matrix:
    generation: int = -1
    last_id: int = 0
    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    vectors: np.ndarray | None = None
    expires: np.ndarray = field(default_factory=lambda: np.zeros(0))
    preferred: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    recency: np.ndarray = field(default_factory=lambda: np.zeros(0))
    labels: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))


@dataclass(frozen=True)
class TableSpec:
    """How one table is read: `rows_sql` selects (id, vector, expires, preferred, recency, label)
    for `scope_params + (model, after_id)`, ordered by id."""

    table: str
    fts: str
    rows_sql: str


class HybridIndex:
    """Search one vector table; `generation_scope` names the counter that invalidates caches."""

    def __init__(self, db: Database, spec: TableSpec) -> None:
        self._db = db
        self._spec = spec
        self._cache: dict[tuple[str, str], _Matrix] = {}
        self._lock = threading.Lock()

    def _matrix(self, conn: sqlite3.Connection, scope: str, scope_params: tuple[str, ...], model: str) -> _Matrix:
        generation = self._db.generation(conn, scope)
        with self._lock:
            matrix = self._cache.get((scope, model))
            if matrix is None or matrix.generation != generation:
                matrix = _Matrix(generation=generation)
            rows = conn.execute(self._spec.rows_sql, (*scope_params, model, matrix.last_id)).fetchall()
            if rows:
                matrix = self._append(matrix, rows)
            self._cache[(scope, model)] = matrix
            return matrix

    @staticmethod
    def _append(matrix: _Matrix, rows: list[tuple]) -> _Matrix:
        ids, blobs, expires, preferred, recency, labels = zip(*rows, strict=True)
        vectors = np.stack([np.frombuffer(blob, dtype=np.float32) for blob in blobs]) if len(
            {len(b) for b in blobs}
        ) == 1 else None
        if vectors is None or (matrix.vectors is not None and matrix.vectors.shape[1] != vectors.shape[1]):
            raise MemoryBackendError("stored vectors of one embedding model differ in dimension: re-embed them")
        return _Matrix(
            generation=matrix.generation,
            last_id=int(ids[-1]),
            ids=np.concatenate([matrix.ids, np.asarray(ids, dtype=np.int64)]),
            vectors=vectors if matrix.vectors is None else np.concatenate([matrix.vectors, vectors]),
            expires=np.concatenate([matrix.expires, [math.inf if e is None else e for e in expires]]),
            preferred=np.concatenate([matrix.preferred, np.asarray(preferred, dtype=bool)]),
            recency=np.concatenate([matrix.recency, np.asarray(recency, dtype=float)]),
            labels=np.concatenate([matrix.labels, np.asarray(labels, dtype=object)]),
        )

    def search(
        self, scope: str, scope_params: tuple[str, ...], query: VectorQuery
    ) -> list[tuple[int, float]]:
        """(row id, cosine) of the best results, best first.

        Candidates are the best cosines plus the rows sharing an identifier with the query; only
        those are BM25-scored (against the whole index's statistics), which keeps a search fast
        however large the namespace. Mode "lexical" instead ranks the full-text index directly.
        """
        if query.k <= 0:
            return []
        pool = max(50, 10 * query.k)
        with self._db.snapshot() as conn:
            matrix = self._matrix(conn, scope, scope_params, query.embedding_model)
            if matrix.vectors is None:
                return []
            live = matrix.expires > query.now.timestamp()
            if query.domain is not None:
                live &= matrix.labels == query.domain
            cosines = self._cosines(matrix, query)
            query_idents = identifiers(query.text, query=True)
            candidates: dict[int, Candidate] = {}

            def consider(row_id: int) -> Candidate | None:
                index = int(np.searchsorted(matrix.ids, row_id))
                if index >= len(matrix.ids) or matrix.ids[index] != row_id or not live[index]:
                    return None  # another model's vector, expired, or another domain
                return candidates.setdefault(index, self._candidate(matrix, index, cosines))

            if query.mode == "lexical":
                match = self._match(scope, lexical_terms(query.text), query_idents)
                for row_id, relevance in self._ranked(conn, match, pool * 4):
                    if (candidate := consider(row_id)) is not None:
                        candidate.lexical = relevance
            else:
                masked = np.where(live, cosines, -np.inf)
                top = np.argpartition(-masked, min(pool, len(masked) - 1))[:pool]
                for index in top[np.isfinite(masked[top])]:
                    candidates[int(index)] = self._candidate(matrix, int(index), cosines)
                if query.mode == "hybrid":
                    for row_id in self._sharing_identifiers(conn, scope, query_idents, pool):
                        consider(row_id)
                    self._score_lexically(conn, matrix, candidates, query.text, query_idents)
        ranked = rank_hybrid(candidates.values(), min_score=query.min_score, k=query.k, mode=query.mode)
        return [(int(matrix.ids[c.key]), c.cosine) for c in ranked]

    @staticmethod
    def _cosines(matrix: _Matrix, query: VectorQuery) -> np.ndarray:
        assert matrix.vectors is not None
        vector = np.asarray(query.vector, dtype=np.float32)
        if vector.shape != (matrix.vectors.shape[1],):
            raise MemoryBackendError(
                f"query vector has {vector.size} dimensions but {query.embedding_model!r} vectors "
                f"are stored with {matrix.vectors.shape[1]}"
            )
        norm = float(np.linalg.norm(vector))
        # einsum, not `@`: BLAS threads slow a matrix-vector product ~15x on a busy small machine
        return np.einsum("ij,j->i", matrix.vectors, vector / norm if norm else vector)

    @staticmethod
    def _candidate(matrix: _Matrix, index: int, cosines: np.ndarray) -> Candidate:
        return Candidate(
            key=index,
            cosine=float(cosines[index]),
            preferred=bool(matrix.preferred[index]),
            recency=float(matrix.recency[index]),
        )

    @staticmethod
    def _match(scope: str, terms: list[str], idents: set[str]) -> str | None:
        """An FTS5 query confined to the scope token; terms are plain words, so quoting is safe."""
        def any_of(tokens: list[str]) -> str:
            return " OR ".join('"' + token + '"' for token in tokens)

        clauses = [f"body : ({any_of(terms)})"] if terms else []
        clauses += [f"idents : ({any_of(sorted(idents))})"] if idents else []
        return f'scope : "{scope}" AND ({" OR ".join(clauses)})' if clauses else None

    def _ranked(self, conn: sqlite3.Connection, match: str | None, limit: int) -> list[tuple[int, float]]:
        if match is None:
            return []
        fts = self._spec.fts
        weights = ", ".join(str(w) for w in LEXICAL_WEIGHTS)
        rows = conn.execute(
            f"SELECT rowid, -bm25({fts}, {weights}) FROM {fts} WHERE {fts} MATCH ? "
            f"ORDER BY bm25({fts}, {weights}) LIMIT ?",
            (match, limit),
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def _sharing_identifiers(
        self, conn: sqlite3.Connection, scope: str, idents: set[str], limit: int
    ) -> set[int]:
        """Rows sharing the query's identifiers: the newest `limit` holding all of them, and the
        newest `limit` holding each one. Newest-first stops early in FTS5 (rowid order), where
        ranking every holder of a common name by BM25 would not."""
        fts = self._spec.fts
        groups = [sorted(idents)] if len(idents) > 1 else []
        groups += [[ident] for ident in sorted(idents)[:8]]
        rows: set[int] = set()
        for group in groups:
            match = f'scope : "{scope}" AND ' + " AND ".join(f'idents : "{ident}"' for ident in group)
            rows.update(r[0] for r in conn.execute(
                f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? ORDER BY rowid DESC LIMIT ?", (match, limit)
            ))
        return rows

    def _score_lexically(
        self, conn: sqlite3.Connection, matrix: _Matrix, candidates: dict[int, Candidate], text: str,
        query_idents: set[str],
    ) -> None:
        """BM25 of the candidates, with document frequencies taken over the candidate pool: they
        re-rank what the vectors and identifiers found, and stay cheap at any namespace size
        (FTS5 counts a term's documents by walking its whole posting list)."""
        terms = lexical_terms(text)
        ident_terms = sorted(query_idents)
        if not candidates or not (terms or ident_terms):
            return
        fts = self._spec.fts
        by_row = {int(matrix.ids[index]): candidate for index, candidate in candidates.items()}
        rows = conn.execute(
            f"SELECT rowid, body, idents FROM {fts} WHERE rowid IN ({', '.join('?' * len(by_row))})", list(by_row)
        ).fetchall()
        bodies = [words(r[1]) for r in rows]
        idents = [r[2].split() for r in rows]
        doc_freq: Counter[str] = Counter()
        for tokens in (*bodies, *idents):
            doc_freq.update(set(tokens))
        body_scores = bm25(bodies, terms, doc_freq, len(rows))
        ident_scores = bm25(idents, ident_terms, doc_freq, len(rows))
        for (row_id, _, _), held, body, ident in zip(rows, idents, body_scores, ident_scores, strict=True):
            candidate = by_row[int(row_id)]
            relevance = LEXICAL_WEIGHTS[1] * body + LEXICAL_WEIGHTS[2] * ident
            candidate.lexical = relevance if relevance > 0 else None
            candidate.identifier_hits = len(query_idents & set(held))


def index_text(conn: sqlite3.Connection, fts: str, row_id: int, scope: str, text: str) -> None:
    """Add one row's text (and its identifiers) to the namespace-scoped lexical index."""
    conn.execute(
        f"INSERT INTO {fts} (rowid, scope, body, idents) VALUES (?, ?, ?, ?)",
        (row_id, scope, text, " ".join(sorted(identifiers(text)))),
    )
