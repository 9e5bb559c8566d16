"""Hybrid search over the items of one store namespace, by the rules of `memory.retrieval`.

Candidates: with a vector index (`memory.backends.store.index`) the store's own nearest
neighbours of the query vector plus the items sharing an identifier with the query (found with
store filters on their `idt_` keys); without one, every live item of the query's embedding model
in the namespace. Each candidate's cosine comes from its stored unit vector, BM25 is computed
over the candidates (identifiers weighted as in the other backends) and `rank_hybrid` fuses the
rankings; the reported score is the cosine. Filters keep vectors of other models out of every
comparison, and expired records out of every result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from memory.backends.store.index import VECTOR_FIELD
from memory.backends.store.layout import (
    IDENT_PREFIX,
    decode_vector,
    encode_vector,
    every_item,
    idents_of,
)
from memory.errors import MemoryBackendError
from memory.retrieval import Candidate, bm25, identifiers, lexical_terms, rank_hybrid, words
from memory.stores import VectorQuery

IDENT_WEIGHT = 4.0  # identifiers weigh four times body words, as in the SQLite backend's FTS5 weights


@dataclass(frozen=True)
class SearchSpec:
    """How one tier's items are searched: which filter keeps them live, what wins ties."""

    live: Callable[[VectorQuery], dict[str, Any]]  # store filter of the searchable items
    preferred: Callable[[dict[str, Any]], bool]  # e.g. a COMPLETED episode
    recency: str  # the value key holding the record's time as a POSIX timestamp (newer wins ties)


def _pool(store: Any, namespace: tuple[str, ...], query: VectorQuery, where: dict[str, Any],
          index_dims: int | None, query_idents: set[str]) -> dict[str, Any]:
    if query.mode == "lexical" or index_dims != len(query.vector):
        return {item.key: item for item in every_item(store, namespace, filter=where)}
    size = max(50, 10 * query.k)
    found = {item.key: item for item in store.search(namespace, query=encode_vector(query.vector), filter=where,
                                                     limit=size)
             if tuple(item.namespace) == namespace}
    if query.mode == "hybrid":
        for token in sorted(query_idents):
            for item in store.search(namespace, filter={**where, IDENT_PREFIX + token: True}, limit=size):
                if tuple(item.namespace) == namespace:
                    found.setdefault(item.key, item)
    return found


def hybrid_search(store: Any, namespace: tuple[str, ...], query: VectorQuery, spec: SearchSpec, *,
                  index_dims: int | None, extra_filter: dict[str, Any] | None = None) -> list[tuple[Any, float]]:
    """(item, cosine) of the best live items of `namespace` for `query`, best first."""
    if query.k <= 0:
        return []
    q = np.asarray(query.vector, dtype=np.float64)
    norm = float(np.linalg.norm(q))
    q = q / norm if norm else q
    where = {"embedding_model": query.embedding_model, **spec.live(query), **(extra_filter or {})}
    query_idents = identifiers(query.text, query=True)
    items = list(_pool(store, namespace, query, where, index_dims, query_idents).values())
    if not items:
        return []
    vectors = [decode_vector(item.value[VECTOR_FIELD]) for item in items]
    if any(v.shape != q.shape for v in vectors):
        raise MemoryBackendError(
            f"query vector has {q.size} dimensions but stored {query.embedding_model!r} vectors differ: re-embed them"
        )
    bodies = [words(item.value.get("text", "")) for item in items]
    held = [idents_of(item.value) for item in items]
    doc_freq: Counter[str] = Counter()
    for tokens in (*bodies, *held):
        doc_freq.update(set(tokens))
    body_scores = bm25(bodies, lexical_terms(query.text), doc_freq, len(items))
    ident_scores = bm25([sorted(h) for h in held], sorted(query_idents), doc_freq, len(items))
    candidates = []
    for index, item in enumerate(items):
        relevance = body_scores[index] + IDENT_WEIGHT * ident_scores[index]
        candidates.append(Candidate(
            key=index, cosine=float(vectors[index] @ q), lexical=relevance if relevance > 0 else None,
            identifier_hits=len(query_idents & held[index]), preferred=spec.preferred(item.value),
            recency=float(item.value.get(spec.recency) or 0.0),
        ))
    ranked = rank_hybrid(candidates, min_score=query.min_score, k=query.k, mode=query.mode)
    return [(items[c.key], c.cosine) for c in ranked]

