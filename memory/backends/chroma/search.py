"""Collections and hybrid search over ChromaDB for the Chroma memory backend.

Layout. Each tier keeps one Chroma collection per (namespace scope, embedding model): episodes
are scoped by tenant + agent, facts by tenant. The collection name is a hash of the tier, the
scope's ids and the model, so no id can be crafted to reach another scope's collection, and a
collection holds vectors of one model and one dimension only (Chroma fixes the dimension per
collection), so vectors of different models are never compared. Every record also carries its
tenant (and agent) in its metadata, and every read filters on them as well.

Search follows `memory.retrieval`: the candidate pool is Chroma's nearest neighbours (HNSW,
cosine space) among live records, plus the records sharing an identifier with the query
(identifiers are stored as boolean metadata keys `idt_<token>`, so Chroma finds them with an
exact where-clause); BM25 is computed over that pool, and `rank_hybrid` fuses the rankings.
Mode "lexical" (for evaluation) scans the live records of the scope instead.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memory.errors import MemoryBackendError
from memory.retrieval import (
    Candidate,
    bm25,
    identifiers,
    lexical_terms,
    mark_distinctive,
    rank_hybrid,
    words,
)
from memory.stores import VectorQuery

IDENT_PREFIX = "idt_"
IDENT_WEIGHT = 4.0  # identifiers weigh as in the SQLite backend's FTS weights
INCLUDE = ["embeddings", "documents", "metadatas"]


def unit_vector(vector: Sequence[float]) -> list[float]:
    """A unit-length copy; refuses empty or non-finite vectors."""
    array = np.asarray(vector, dtype=np.float64)
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise MemoryBackendError("an embedding must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    return (array / norm if norm else array).tolist()


def ident_metadata(text: str) -> dict[str, bool]:
    return {IDENT_PREFIX + token: True for token in identifiers(text)}


def all_of(*clauses: dict[str, Any] | None) -> dict[str, Any] | None:
    """One Chroma where-clause requiring every given clause (Chroma's $and needs two or more)."""
    parts: list[dict[str, Any]] = []
    for clause in clauses:
        if not clause:
            continue
        for key, value in clause.items():
            parts.extend(value if key == "$and" else [{key: value}])
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else {"$and": parts}


def any_of(clauses: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


class Collections:
    """The collections of one tier: one per (scope, embedding model), found by name prefix."""

    def __init__(self, client: Any, tier: str, scope_keys: tuple[str, ...]) -> None:
        self._client = client
        self.tier = tier
        self.scope_keys = scope_keys  # metadata keys naming the scope: ("tenant", "agent") or ("tenant",)

    def _prefix(self, scope: tuple[str, ...]) -> str:
        digest = hashlib.sha256("\x00".join((self.tier, *scope)).encode()).hexdigest()[:32]
        return f"{self.tier}-{digest}-"

    def name(self, scope: tuple[str, ...], model: str) -> str:
        return self._prefix(scope) + hashlib.sha256(model.encode()).hexdigest()[:16]

    def scope_where(self, scope: tuple[str, ...]) -> dict[str, Any]:
        return all_of(*({key: value} for key, value in zip(self.scope_keys, scope, strict=True)))  # type: ignore[return-value]

    def for_model(self, scope: tuple[str, ...], model: str, *, dimension: int | None = None) -> Any | None:
        """The scope's collection for `model`; created (for `dimension`) when given and missing."""
        name = self.name(scope, model)
        if dimension is None:
            try:
                return self._client.get_collection(name, embedding_function=None)
            except Exception as exc:  # chromadb raises NotFoundError or ValueError, by version
                if "not exist" in str(exc).lower() or "not found" in str(exc).lower():
                    return None
                raise MemoryBackendError(f"chroma: cannot open collection {name}: {exc}") from exc
        try:
            metadata = {"tier": self.tier, "embedding_model": model, "dimension": dimension,
                        **dict(zip(self.scope_keys, scope, strict=True))}
            return self._client.get_or_create_collection(
                name, embedding_function=None, metadata=metadata, configuration={"hnsw": {"space": "cosine"}},
            )
        except Exception as exc:
            raise MemoryBackendError(f"chroma: cannot open collection {name}: {exc}") from exc

    def all(self, scope: tuple[str, ...]) -> list[Any]:
        """Every collection of the scope (one per embedding model it has vectors of)."""
        prefix = self._prefix(scope)
        return [self._client.get_collection(c.name, embedding_function=None)
                for c in self._client.list_collections() if c.name.startswith(prefix)]

    def scopes(self) -> list[tuple[str, ...]]:
        """The scopes holding a collection of this tier (for decay's namespace listing)."""
        found = set()
        for collection in self._client.list_collections():
            meta = collection.metadata or {}
            if collection.name.startswith(f"{self.tier}-") and meta.get("tier") == self.tier:
                found.add(tuple(str(meta.get(key, "")) for key in self.scope_keys))
        return sorted(found)


@dataclass
class Row:
    id: str
    vector: np.ndarray
    document: str
    metadata: dict[str, Any]


def rows_of(result: dict[str, Any], *, nested: bool = False) -> list[Row]:
    """Rows of a Chroma get() (flat lists) or query() (one list per query vector) result."""
    pick = (lambda key: (result.get(key) or [[]])[0]) if nested else (lambda key: result.get(key))
    ids = pick("ids") or []
    vectors = pick("embeddings")
    documents = pick("documents") or [""] * len(ids)
    metadatas = pick("metadatas") or [{}] * len(ids)
    if vectors is None:
        vectors = [np.zeros(0)] * len(ids)
    return [Row(i, np.asarray(v, dtype=np.float64), d or "", dict(m or {}))
            for i, v, d, m in zip(ids, vectors, documents, metadatas, strict=True)]


def hybrid_search(
    collection: Any, where: dict[str, Any] | None, query: VectorQuery, *, preferred_key: str | None, recency_key: str,
) -> list[tuple[Row, float]]:
    """(row, cosine) of the best live rows of one collection for `query`, best first."""
    if query.k <= 0:
        return []
    dimension = int((collection.metadata or {}).get("dimension") or 0)
    q = np.asarray(query.vector, dtype=np.float64)
    if dimension and q.shape != (dimension,):
        raise MemoryBackendError(
            f"query vector has {q.size} dimensions but {query.embedding_model!r} vectors are stored with {dimension}"
        )
    norm = float(np.linalg.norm(q))
    q = q / norm if norm else q
    pool = max(50, 10 * query.k)
    query_idents = identifiers(query.text, query=True)
    found: dict[str, Row] = {}
    if query.mode == "lexical":
        for row in rows_of(collection.get(where=where, include=INCLUDE)):
            found[row.id] = row
    else:
        size = collection.count()
        if size:
            nearest = collection.query(query_embeddings=[q.tolist()], n_results=min(pool, size), where=where,
                                       include=INCLUDE)
            found.update((row.id, row) for row in rows_of(nearest, nested=True))
        idents = any_of([{IDENT_PREFIX + token: True} for token in sorted(query_idents)])
        if query.mode == "hybrid" and idents:
            sharing = collection.get(where=all_of(where, idents), limit=pool, include=INCLUDE)
            found.update((row.id, row) for row in rows_of(sharing))
    rows = list(found.values())
    if not rows:
        return []
    candidates = _candidates(rows, q, query, query_idents, preferred_key, recency_key)
    ranked = rank_hybrid(candidates, min_score=query.min_score, k=query.k, mode=query.mode,
                         vector_alone=query.vector_alone, query_names=bool(query_idents))
    return [(rows[c.key], c.cosine) for c in ranked]


def _candidates(
    rows: list[Row], q: np.ndarray, query: VectorQuery, query_idents: set[str], preferred_key: str | None,
    recency_key: str,
) -> list[Candidate]:
    """Cosine, BM25 over the pool (identifiers weighted) and identifier hits of each row."""
    terms = lexical_terms(query.text)
    bodies = [words(row.document) for row in rows]
    held = [{k[len(IDENT_PREFIX):] for k in row.metadata if k.startswith(IDENT_PREFIX)} for row in rows]
    doc_freq: Counter[str] = Counter()
    for tokens in (*bodies, *held):
        doc_freq.update(set(tokens))
    body_scores = bm25(bodies, terms, doc_freq, len(rows))
    ident_scores = bm25([sorted(h) for h in held], sorted(query_idents), doc_freq, len(rows))
    candidates = []
    for index, row in enumerate(rows):
        if row.vector.shape != q.shape:
            raise MemoryBackendError(f"stored vectors of {query.embedding_model!r} differ in dimension: re-embed them")
        relevance = body_scores[index] + IDENT_WEIGHT * ident_scores[index]
        candidates.append(Candidate(
            key=index,
            cosine=float(row.vector @ q),  # stored vectors are unit length
            lexical=relevance if relevance > 0 else None,
            identifier_hits=len(query_idents & held[index]),
            preferred=bool(row.metadata.get(preferred_key)) if preferred_key else False,
            recency=float(row.metadata.get(recency_key, 0.0)),
        ))
    mark_distinctive(candidates, bodies, terms)
    return candidates
