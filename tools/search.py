"""Keyword search over a contract's sections with BM25 (bm25s)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from tools.contract import Contract

if TYPE_CHECKING:
    import bm25s


@dataclass(frozen=True)
class Hit:
    section: str
    title: str
    score: float
    snippet: str

    def as_dict(self) -> dict:
        return {"section": self.section, "title": self.title, "score": round(self.score, 3), "snippet": self.snippet}


def _tokenize(texts: list[str]) -> list[list[str]]:
    import bm25s  # on the first search: a review that never searches never loads it

    return bm25s.tokenize(texts, stopwords="english", return_ids=False, show_progress=False)


@lru_cache(maxsize=8)
def _index(text: str, spans: tuple[tuple[str, str, int, int], ...]) -> bm25s.BM25:
    import bm25s

    documents = [f"{title}\n{text[start:end]}" for _, title, start, end in spans]
    retriever = bm25s.BM25()
    retriever.index(_tokenize(documents), show_progress=False)
    return retriever


def _spans(contract: Contract) -> tuple[tuple[str, str, int, int], ...]:
    # Index each section's own text (up to the next heading) so a hit names the most
    # specific section; a parent would otherwise repeat all of its sub-sections' words.
    return tuple((s.id, s.title, start, end) for s, start, end in contract.own_spans())


def _snippet(text: str, terms: set[str], width: int = 240) -> str:
    best = 0
    for m in re.finditer(r"\w+", text):
        if m.group(0).lower() in terms:
            best = m.start()
            break
    start = max(0, best - width // 3)
    piece = " ".join(text[start : start + width].split())
    return ("…" if start else "") + piece + ("…" if start + width < len(text) else "")


def search_sections(contract: Contract, query: str, k: int = 5) -> list[Hit]:
    """The k sections that best match the query, best first (sections scoring 0 are left out)."""
    spans = _spans(contract)
    query_tokens = _tokenize([query])
    if not spans or not query_tokens or not query_tokens[0]:
        return []
    retriever = _index(contract.text, spans)
    k = max(1, min(int(k), len(spans)))
    results, scores = retriever.retrieve(query_tokens, k=k, show_progress=False)
    terms = set(query_tokens[0])
    hits = []
    for doc_id, score in zip(results[0], scores[0], strict=True):
        if score <= 0:
            continue
        section_id, title, start, end = spans[int(doc_id)]
        hits.append(Hit(section_id, title, float(score), _snippet(contract.text[start:end], terms)))
    return hits
