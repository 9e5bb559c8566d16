"""Hybrid ranking of rows read from AWS: cosine + bm25s BM25, fused by `memory.retrieval`.

DynamoDB and S3 Vectors have no full-text index here, so the lexical side is computed in process
over the rows the vector side found (the candidates S3 Vectors returned with their text, or the
pending slice of a partition): bm25s over their
words plus their identifiers (clause numbers, amounts, codes, names), which count four times,
as in the SQLite backend's FTS weights. Eligibility, fusion and the reported score (the cosine)
are `memory.retrieval.rank_hybrid`'s, so every backend ranks alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from memory.errors import MemoryBackendError
from memory.retrieval import (
    STOPWORDS,
    Candidate,
    identifiers,
    lexical_terms,
    mark_distinctive,
    rank_hybrid,
    words,
)
from memory.stores import VectorQuery

IDENTIFIER_WEIGHT = 4  # an identifier token is repeated this often in a document's token list
_WORD = re.compile(r"\w+")


def _tokens(text: str, idents: set[str]) -> list[str]:
    words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    return words + [f"id_{t}" for t in sorted(idents) for _ in range(IDENTIFIER_WEIGHT)]


def bm25_scores(query_text: str, query_idents: set[str], texts: Sequence[str]) -> np.ndarray:
    """BM25 relevance of each text to the query (0 = no shared term)."""
    import bm25s

    query = lexical_terms(query_text) + [f"id_{t}" for t in sorted(query_idents)]
    corpus = [_tokens(text, identifiers(text)) for text in texts]
    vocabulary = {token for doc in corpus for token in doc}
    query = [token for token in dict.fromkeys(query) if token in vocabulary]
    if not query:
        return np.zeros(len(texts), dtype=np.float32)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    return np.asarray(retriever.get_scores(query), dtype=np.float32)


def rank_rows(
    query: VectorQuery,
    vectors: Sequence[np.ndarray],
    texts: Sequence[str],
    *,
    preferred: Sequence[bool],
    recency: Sequence[float],
) -> list[tuple[int, float]]:
    """(row index, cosine) of the best rows for the query, best first. Rows are assumed to be
    live, of the query's embedding model, and of the caller's namespace."""
    if query.k <= 0 or not texts:
        return []
    q = np.asarray(query.vector, dtype=np.float32)
    sizes = {v.size for v in vectors}
    if sizes != {q.size}:
        raise MemoryBackendError(
            f"query vector has {q.size} dimensions but {query.embedding_model!r} vectors are stored "
            f"with {sorted(sizes)}: re-embed them"
        )
    norm = float(np.linalg.norm(q))
    cosines = np.vstack(vectors) @ (q / norm if norm else q)  # stored vectors are unit length
    return rank_scored(query, [float(c) for c in cosines], texts, preferred=preferred, recency=recency)


def rank_scored(
    query: VectorQuery,
    cosines: Sequence[float],
    texts: Sequence[str],
    *,
    preferred: Sequence[bool],
    recency: Sequence[float],
    query_idents: set[str] | None = None,
) -> list[tuple[int, float]]:
    """`rank_rows` for rows whose cosine is already known (a vector index computed it).
    `query_idents`: the query's identifiers when the caller confirmed tentative names."""
    if query.k <= 0 or not texts:
        return []
    if query_idents is None:
        query_idents = identifiers(query.text, query=True)
    lexical = bm25_scores(query.text, query_idents, texts)
    candidates = []
    for i, text in enumerate(texts):
        candidates.append(
            Candidate(
                key=i,
                cosine=float(cosines[i]),
                lexical=float(lexical[i]) if lexical[i] > 0 else None,
                identifier_hits=len(query_idents & identifiers(text)),
                preferred=bool(preferred[i]),
                recency=float(recency[i]),
            )
        )
    mark_distinctive(candidates, [words(text) for text in texts], lexical_terms(query.text))
    ranked = rank_hybrid(candidates, min_score=query.min_score, k=query.k, mode=query.mode,
                         vector_alone=query.vector_alone, query_names=bool(query_idents))
    return [(int(c.key), c.cosine) for c in ranked]


def rank_hits(
    query: VectorQuery,
    found: Mapping[str, Mapping[str, Any]],
    *,
    recency: str,
    preferred: str | None = None,
    query_idents: set[str] | None = None,
) -> tuple[list[Mapping[str, Any]], list[tuple[int, float]]]:
    """`rank_scored` for S3 Vectors hits (key -> hit with distance and metadata): the hits that
    carry metadata, and their ranking (index into those hits, cosine). `recency` and `preferred`
    name the metadata fields that hold the time and the preferred flag."""
    hits = [hit for hit in found.values() if hit.get("metadata")]
    if not hits:
        return hits, []
    ranked = rank_scored(
        query, [1.0 - float(hit.get("distance", 1.0)) for hit in hits],
        [hit["metadata"].get("text", "") for hit in hits],
        preferred=[bool(preferred and hit["metadata"].get(preferred)) for hit in hits],
        recency=[float(hit["metadata"].get(recency, 0)) for hit in hits], query_idents=query_idents)
    return hits, ranked
