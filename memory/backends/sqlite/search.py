"""Hybrid search over one SQLite table of vectors: nearest neighbours plus FTS5 BM25.

Candidates come three ways, each bounded however large the namespace grows: the nearest vectors
of the query's model (a usearch index beside the file, `vectors.py`; or a full scan with
`vector_index="exact"`, `exact.py`), the newest rows sharing the query's identifiers, and every
row holding a query word that is rare in the namespace (both found by the full-text index,
confined to the namespace's scope token). Their rows are then read once by id, bound to the
namespace again, for the exact cosine, expiry and tie-breakers. Lexical relevance is FTS5's own
`bm25()`, computed over the candidate pool in a per-connection in-memory FTS5 table, so term
statistics come from the pool, never from other tenants' rows. `memory.retrieval` fuses the lot.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from memory.backends.sqlite.holders import HolderCache, Lookup, ScopeView
from memory.backends.sqlite.schema import FTS_TOKENIZER, NAME_SEPARATOR, Database
from memory.backends.sqlite.vectors import IndexKey, NeedsBuild, VectorIndexes
from memory.errors import MemoryBackendError
from memory.retrieval import (
    Candidate,
    content_words,
    identifiers,
    lexical_terms,
    query_identifiers,
    rank_hybrid,
    rare_name_limit,
)
from memory.stores import VectorQuery

LEXICAL_WEIGHTS = (0.0, 1.0, 4.0)  # bm25 weights of (scope, body, idents): identifiers count more
MAX_RARE_TERMS = 8  # the longest query words are checked for being distinctive (one FTS5 lookup each)


def as_blob(vector: Sequence[float]) -> bytes:
    """A unit-length float32 blob; refuses empty or non-finite vectors."""
    array = np.asarray(vector, dtype=np.float32)
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise MemoryBackendError("an embedding must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    return (array / norm if norm else array).tobytes()


class VectorSource(Protocol):
    """Where the nearest vectors come from: `VectorIndexes` (approximate) or `ExactVectors`."""

    def nearest(self, conn: sqlite3.Connection, key: IndexKey, vector: np.ndarray, count: int) -> list[int]: ...

    def size(self, conn: sqlite3.Connection, key: IndexKey) -> int: ...

    def after_write(self, key: IndexKey) -> None: ...


@dataclass(frozen=True)
class TableSpec:
    """One searchable table: its FTS table and the SQL of (expires, preferred, recency, label)."""

    table: str
    fts: str
    names: str  # the namespace-keyed identifier index (`name_tokens`)
    attributes: str  # e.g. "expires_at, outcome = 'COMPLETED', created_at, NULL"


class HybridIndex:
    """Search one vector table of one backend."""

    def __init__(self, db: Database, spec: TableSpec, vectors: VectorSource) -> None:
        self._db = db
        self._spec = spec
        self._vectors = vectors
        self._known = HolderCache()  # which rows of a namespace hold a word or a name (holders.py)

    def search(self, scope: str, key: IndexKey, query: VectorQuery) -> list[tuple[int, float]]:
        """(row id, cosine) of the best results, best first."""
        if query.k <= 0:
            return []
        for _ in range(2):
            try:
                with self._db.snapshot() as conn:
                    return self._search(conn, scope, key, query)
            except NeedsBuild as need:  # no usable index for a large namespace: build it, then search
                if not isinstance(self._vectors, VectorIndexes):
                    raise
                self._vectors.build(need.key, full=True)
        raise MemoryBackendError(f"the vector index of {key.describe()} could not be rebuilt")

    def _search(self, conn: sqlite3.Connection, scope: str, key: IndexKey, query: VectorQuery) -> list[tuple[int, float]]:
        vector = np.asarray(query.vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        vector = vector / norm if norm else vector
        pool = max(50, 10 * query.k)
        query_idents, tentative = query_identifiers(query.text)
        names_rows = query.mode == "hybrid" or (query.mode == "lexical" and tentative)
        # read once a search: the namespace's size, and the answers about its words still true
        rare = self._rare_limit(conn, key) if names_rows else None
        known = self._known.view(conn, scope) if names_rows else None
        if tentative and query.mode != "vector":
            query_idents |= self._rare_names(conn, scope, key, tentative, rare=rare, known=known)
        terms = lexical_terms(query.text)
        rows: dict[int, Candidate] = {}
        if query.mode == "lexical":
            ranked = self._ranked(conn, self._match(scope, terms, query_idents), pool * 4)
            rows = self._rows(conn, key, [row_id for row_id, _ in ranked], vector, query)
            for row_id, relevance in ranked:
                if row_id in rows:
                    rows[row_id].lexical = relevance
        else:
            rows = self._nearest_live(conn, key, vector, query, pool)
            if query.mode == "hybrid":
                extra, specific = self._sharing_identifiers(conn, scope, key, query_idents, pool, rare=rare, known=known)
                distinctive = self._distinctive_rows(conn, scope, key, terms, rare=rare, known=known)
                rows.update(self._rows(conn, key, [i for i in extra | distinctive if i not in rows], vector, query))
                for row_id in distinctive & rows.keys():
                    rows[row_id].distinctive = True
                self._score_lexically(conn, rows, terms, query_idents, specific)
        ranked_rows = rank_hybrid(rows.values(), min_score=query.min_score, k=query.k, mode=query.mode,
                                  vector_alone=query.vector_alone, query_names=bool(query_idents))
        return [(int(c.key), c.cosine) for c in ranked_rows]

    def _nearest_live(self, conn: sqlite3.Connection, key: IndexKey, vector: np.ndarray, query: VectorQuery,
                      pool: int) -> dict[int, Candidate]:
        """The `pool` nearest rows still eligible (unexpired, of the domain): ask the index for
        more while expired or other-domain rows crowd its answer."""
        want = pool
        rows: dict[int, Candidate] = {}
        while True:
            ids = self._vectors.nearest(conn, key, vector, want)
            rows.update(self._rows(conn, key, [i for i in ids if i not in rows], vector, query))
            live = [i for i in ids if i in rows]
            if len(live) >= pool or len(ids) < want:
                return {i: rows[i] for i in live[:pool]}
            want *= 4

    def _rows(self, conn: sqlite3.Connection, key: IndexKey, ids: Sequence[int], vector: np.ndarray,
              query: VectorQuery) -> dict[int, Candidate]:
        """Candidates for those row ids that belong to the namespace and model and are live."""
        found: dict[int, Candidate] = {}
        where, params = key.where(by_id=True)
        now = query.now.timestamp()
        for start in range(0, len(ids), 500):
            chunk = list(ids[start:start + 500])
            rows = [row for row in conn.execute(
                f"SELECT id, vector, {self._spec.attributes} FROM {self._spec.table} "
                f"WHERE id IN ({', '.join('?' * len(chunk))}) AND {where}", (*chunk, *params))
                if not ((row[2] is not None and row[2] <= now) or (query.domain is not None and row[5] != query.domain))]
            if not rows:
                continue
            if any(len(row[1]) != vector.nbytes for row in rows):
                stored = min(len(row[1]) for row in rows if len(row[1]) != vector.nbytes) // 4
                raise MemoryBackendError(f"query vector has {vector.size} dimensions but {key.model!r} "
                                         f"vectors are stored with {stored}")
            # one matrix product for the chunk: per-row numpy calls were most of a search's Python time
            matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), -1)
            cosines = np.einsum("ij,j->i", matrix, vector).tolist()
            for (row_id, _, _, preferred, recency, _), cosine in zip(rows, cosines, strict=True):
                found[int(row_id)] = Candidate(key=int(row_id), cosine=cosine, preferred=bool(preferred),
                                               recency=float(recency or 0.0))
        return found

    def _rare_limit(self, conn: sqlite3.Connection, key: IndexKey) -> int:
        """How many rows of the namespace may hold a word or name that counts as rare (read once a search)."""
        return rare_name_limit(self._vectors.size(conn, key))

    @staticmethod
    def _quoted(tokens: Sequence[str]) -> str:
        return " OR ".join('"' + token + '"' for token in tokens)  # plain words: quoting is safe

    def _match(self, scope: str | None, terms: list[str], idents: set[str]) -> str | None:
        """An FTS5 query (confined to the scope token when given)."""
        clauses = [f"body : ({self._quoted(terms)})"] if terms else []
        clauses += [f"idents : ({self._quoted(sorted(idents))})"] if idents else []
        if not clauses:
            return None
        either = " OR ".join(clauses)
        return f'scope : "{scope}" AND ({either})' if scope else either

    def _ranked(self, conn: sqlite3.Connection, match: str | None, limit: int) -> list[tuple[int, float]]:
        """The lexical retriever alone (mode "lexical"): FTS5 BM25 over the namespace."""
        if match is None:
            return []
        fts = self._spec.fts
        weights = ", ".join(str(w) for w in LEXICAL_WEIGHTS)
        rows = conn.execute(
            f"SELECT rowid, -bm25({fts}, {weights}) FROM {fts} WHERE {fts} MATCH ? "
            f"ORDER BY bm25({fts}, {weights}) LIMIT ?", (match, limit)).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def _sharing_identifiers(self, conn: sqlite3.Connection, scope: str, key: IndexKey, idents: set[str],
                             limit: int, *, rare: int | None = None,
                             known: ScopeView | None = None) -> tuple[set[int], set[str]]:
        """Rows sharing the query's identifiers, and which of the identifiers are specific: held
        by at most `rare_name_limit` rows of the namespace, all of them found.

        Taken: every holder of an identifier held by at most `limit` rows; the newest `limit`
        rows holding all the identifiers this namespace holds; and the newest `limit` holders of a
        more common one only when no row holds them all (or it is the only one held): a slice of
        recent holders of a common name adds nothing that a row holding every name of the query,
        or the vectors, would not rank above it, and it was most of the rows a search read and
        scored (160 of 236 at 100k)."""
        names = self._spec.names
        rare = rare if rare is not None else self._rare_limit(conn, key)
        rows: set[int] = set()
        specific: set[str] = set()
        held: list[str] = []
        common: list[str] = []
        known = known or self._known.view(conn, scope)
        lookup = self._name_lookup(conn, scope)
        for ident in sorted(idents)[:8]:
            found = known.holders(("name", ident), max(limit, rare), lookup)  # None: more than that
            if found is None or found:
                held.append(ident)
            if found is not None and len(found) <= limit:
                rows.update(found)
            else:
                common.append(ident)
            if found and len(found) <= rare:
                specific.add(ident)
        if len(held) > 1 and self._holders(conn, names, scope, held, limit, newest=True, into=rows):
            return rows, specific
        for ident in common:
            self._holders(conn, names, scope, [ident], limit, newest=True, into=rows)
        return rows, specific

    @staticmethod
    def _holders(conn: sqlite3.Connection, names: str, scope: str, idents: list[str], limit: int, *,
                 newest: bool = False, into: set[int] | None = None) -> list[int]:
        """Up to `limit` rows of the namespace holding all of `idents` (the newest first when
        asked: FTS5 reads a doclist backwards at several times the cost, so only then)."""
        order = "ORDER BY rowid DESC " if newest else ""
        found = [r[0] for r in conn.execute(f"SELECT rowid FROM {names} WHERE {names} MATCH ? {order}LIMIT ?",
                                            (_name_match(scope, idents), limit))]
        if into is not None:
            into.update(found)
        return found

    def _name_lookup(self, conn: sqlite3.Connection, scope: str) -> Lookup:
        """lookup(("name", name), most): up to `most` + 1 rows of the namespace holding the name."""
        names = self._spec.names
        return lambda key, most: self._holders(conn, names, scope, [key[1]], most + 1)

    def _rare_names(self, conn: sqlite3.Connection, scope: str, key: IndexKey, names: set[str], *,
                    rare: int | None = None, known: ScopeView | None = None) -> set[str]:
        """The tentative names (sentence-initial capitalised words) that identify something here:
        held as an identifier by few rows of the namespace (`memory.retrieval.rare_name_limit`)."""
        limit = rare if rare is not None else self._rare_limit(conn, key)
        known = known or self._known.view(conn, scope)
        lookup = self._name_lookup(conn, scope)
        return {name for name in names if known.holders(("name", name), limit, lookup)}  # held, by few

    def _distinctive_rows(self, conn: sqlite3.Connection, scope: str, key: IndexKey, terms: list[str], *,
                          rare: int | None = None, known: ScopeView | None = None) -> set[int]:
        """Every row holding a distinctive query word: one held by few rows of the namespace
        (`memory.retrieval.distinctive_words`). These are what a BM25 ranking of the whole
        namespace puts first (a rare word weighs most), found without ranking the namespace."""
        fts = self._spec.fts
        limit = rare if rare is not None else self._rare_limit(conn, key)
        known = known or self._known.view(conn, scope)

        def lookup(key: tuple[str, str], most: int) -> list[int]:
            # in index order: all of a rare word's rows are taken, so no order is needed, and
            # FTS5 reads a long doclist backwards at several times the cost
            return [r[0] for r in conn.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? LIMIT ?",
                                               (f'scope : "{scope}" AND body : "{key[1]}"', most + 1))]

        rows: set[int] = set()
        for term in sorted(content_words(terms), key=len, reverse=True)[:MAX_RARE_TERMS]:
            rows.update(known.holders(("word", term), limit, lookup) or ())
        return rows

    def _score_lexically(self, conn: sqlite3.Connection, rows: dict[int, Candidate], terms: list[str],
                         query_idents: set[str], specific: set[str]) -> None:
        """FTS5 BM25 of the candidates against the query, with term statistics over the candidate
        pool (an in-memory FTS5 table of this connection): they re-rank what the vectors, the
        identifiers and the rare words found, and stay cheap at any namespace size."""
        match = self._match(None, terms, query_idents)
        if not rows or match is None:
            return
        fts = self._spec.fts
        # contentless: the pool is only scored, never read back (0.1 ms a search less than a
        # table that keeps a copy of each text: measured on the 100k bench file)
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.lexical_pool USING fts5 "
                     f"(body, idents, content = '', tokenize = '{FTS_TOKENIZER}')")
        ids = list(rows)
        texts: list[tuple[int, str, str]] = []
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            # straight from the FTS table's content table (`<fts>_content`, columns c0-c2 =
            # scope, body, idents): through the FTS table a lookup by rowid costs twice as much
            texts += conn.execute(f"SELECT id, c1, c2 FROM main.{fts}_content "
                                  f"WHERE id IN ({', '.join('?' * len(chunk))})", chunk).fetchall()
        # filled and scored inside a savepoint that is rolled back: the pool never reaches a segment
        conn.execute("SAVEPOINT lexical_pool")
        try:
            conn.executemany("INSERT INTO temp.lexical_pool (rowid, body, idents) VALUES (?, ?, ?)", texts)
            weights = ", ".join(str(w) for w in LEXICAL_WEIGHTS[1:])
            scored = conn.execute(f"SELECT rowid, -bm25(lexical_pool, {weights}) FROM temp.lexical_pool "
                                  "WHERE lexical_pool MATCH ?", (match,)).fetchall()
        finally:
            conn.execute("ROLLBACK TO lexical_pool")
            conn.execute("RELEASE lexical_pool")
        for row_id, relevance in scored:
            rows[int(row_id)].lexical = relevance if relevance > 0 and math.isfinite(relevance) else None
        if query_idents:
            for row_id, _, held in texts:
                held_idents = set((held or "").split()) & query_idents
                if held_idents:
                    candidate = rows[int(row_id)]
                    candidate.identifier_hits = len(held_idents)
                    candidate.specific_hits = len(specific & held_idents)


def name_tokens(scope: str, idents: Sequence[str]) -> list[str]:
    """Identifiers as words of the namespace-keyed name index (schema migration 7): the scope
    token and the identifier as one word, so a lookup reads this namespace's postings only
    (schema.NAME_TOKENS_SQL builds the same from the FTS table's columns)."""
    return [f"{scope}{NAME_SEPARATOR}{ident}" for ident in idents]


def _name_match(scope: str, idents: Sequence[str]) -> str:
    """An FTS5 query for rows holding all of `idents` in the namespace `scope`."""
    return " AND ".join(f'"{token}"' for token in name_tokens(scope, idents))  # alphanumeric: quoting is safe


def index_rows(conn: sqlite3.Connection, kind: str, rows: Sequence[tuple[int, str, str, str]]) -> None:
    """Add rows (row id, scope token, text, identifiers joined by spaces) to the lexical indexes
    of `kind` ("episodes" or "facts"): the full-text table and the name index. Every writer of
    those tables, the stores and the bench's bulk loader alike, goes through here."""
    conn.executemany(f"INSERT INTO {kind}_fts (rowid, scope, body, idents) VALUES (?, ?, ?, ?)", rows)
    conn.executemany(f"INSERT INTO {kind}_names (rowid, names) VALUES (?, ?)",
                     [(row_id, " ".join(name_tokens(scope, idents.split())))
                      for row_id, scope, _, idents in rows if idents])


def index_text(conn: sqlite3.Connection, kind: str, row_id: int, scope: str, text: str) -> None:
    """Add one row's text (and its identifiers) to the namespace-scoped lexical indexes."""
    index_rows(conn, kind, [(row_id, scope, text, " ".join(sorted(identifiers(text))))])
