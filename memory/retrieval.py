"""Hybrid retrieval policy shared by every backend: identifiers, lexical queries, rank fusion.

A backend finds candidates two ways, by vector cosine (same embedding model only) and by a
lexical BM25 match, then calls `rank_hybrid`. The rules, in one place:

* Eligibility (hybrid): a candidate is returned only if its cosine is >= `min_score`, OR it is a
  strong lexical match: it shares an *identifier* with the query. Identifiers are what
  embeddings blur and people search by: clause numbers ("7.3"), amounts ("$2M" == "2,000,000"),
  codes with capitals and digits ("PO-4471"), and names (capitalised words that do not start a
  sentence in the query, e.g. "Acme"). Plain shared words never bypass the threshold.
* Ranking: reciprocal rank fusion (RRF, k=60) of up to three rankings of the eligible
  candidates: by cosine, by BM25, and by the number of query identifiers shared (only those
  sharing any). Equal scores share a rank, so identical candidates fuse to equal scores; ties
  then prefer `preferred` (COMPLETED episodes), then higher cosine, then newer.
* The score reported to callers is always the cosine similarity, never the fused score.

Modes "vector" and "lexical" exist to measure what fusion adds (tests/memory/test_retrieval_eval.py).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

RRF_K = 60
Mode = Literal["hybrid", "vector", "lexical"]

STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    it its this that these those there here than then so such not no nor do does did done has
    have had having will would shall should can could may might must i we you he she they them
    our your their his her my me us into onto over under about above below after before again
    further once all any both each few more most other some same own only too very just also
    what which who whom whose when where why how up down out off via per""".split()
)

_MULTIPLIERS = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mm": 1_000_000, "million": 1_000_000,
                "bn": 1_000_000_000, "b": 1_000_000_000, "billion": 1_000_000_000}
_AMOUNT = re.compile(
    r"(?:(?P<cur>[$€£]|\b(?:usd|eur|gbp|chf|jpy)\b)\s?(?P<num>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s?(?P<mult>k|mm|m|bn|b|thousand|million|billion)\b)?)"
    r"|\b(?P<big>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{4,}(?:\.\d+)?)\b",
    re.IGNORECASE,
)
_SECTION = re.compile(r"\b\d+(?:\.\d+)+\b")
_CODE = re.compile(r"\b[A-Za-z0-9]*(?:[A-Z][A-Za-z0-9-]*\d|\d[A-Za-z0-9-]*[A-Z])[A-Za-z0-9]*\b")
_NAME = re.compile(r"\b[A-Z][A-Za-z&'’]*[a-z][A-Za-z&'’]*\b|\b[A-Z]{2,}\b")
_SENTENCE_BREAK = re.compile(r"(?:^|[.!?:;\n]|^\s*[-*]|\n\s*[-*])\s*$")
_WORD = re.compile(r"[^\W_]+")  # like FTS5 unicode61: "_" separates words
_CURRENCIES = frozenset({"usd", "eur", "gbp", "chf", "jpy"})


def _amount_token(match: re.Match[str]) -> str:
    raw = (match.group("num") or match.group("big")).replace(",", "")
    value = float(raw) * _MULTIPLIERS.get((match.group("mult") or "").lower(), 1)
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", "p")


def identifiers(text: str, *, query: bool = False) -> set[str]:
    """Normalised identifier tokens of `text` (alphanumeric, lowercase, FTS-safe).

    With `query=True`, a capitalised word that starts a sentence is not taken as a name
    ("Review the Acme deal" names Acme, not Review) unless the query is a bare name of at most
    three words ("Acme Robotics"); stored texts keep every candidate.
    """
    bare_name = query and len(text.split()) <= 3
    found: set[str] = set()
    taken: list[tuple[int, int]] = []

    def free(match: re.Match[str]) -> bool:
        start, end = match.span()
        if any(a < end and start < b for a, b in taken):
            return False
        taken.append((start, end))
        return True

    for match in _AMOUNT.finditer(text):  # amounts first: "$2M" is an amount, not a code
        if match.group("cur") and free(match):
            found.add(_amount_token(match))
    for match in _CODE.finditer(text):
        if free(match):
            found.add(match.group().lower().replace("-", ""))
    for match in _AMOUNT.finditer(text):
        if match.group("big") and free(match):
            found.add(_amount_token(match))
    for match in _SECTION.finditer(text):
        if free(match):
            found.add(match.group().replace(".", "p"))
    for match in _NAME.finditer(text):
        word = match.group().lower()
        if word in STOPWORDS or word in _CURRENCIES or len(word) < 3 or not free(match):
            continue
        if query and not bare_name and _SENTENCE_BREAK.search(text[: match.start()]):
            continue
        found.add(re.sub(r"\W", "", word))
    return found


def words(text: str) -> list[str]:
    """Lowercase word tokens, split as SQLite FTS5's unicode61 tokenizer splits them."""
    return _WORD.findall(text.lower())


def bm25(
    documents: Sequence[Sequence[str]], terms: Sequence[str], doc_freq: Mapping[str, int], n_docs: int,
    *, k1: float = 1.2, b: float = 0.75,
) -> list[float]:
    """Okapi BM25 of each tokenised document for `terms`, with corpus statistics supplied by the
    caller (so a backend can score a few candidates against its whole index's statistics)."""
    lengths = [len(doc) for doc in documents]
    average = (sum(lengths) / len(lengths)) if lengths and sum(lengths) else 1.0
    idf = {t: math.log(1 + (n_docs - doc_freq.get(t, 0) + 0.5) / (doc_freq.get(t, 0) + 0.5)) for t in set(terms)}
    scores = []
    for doc, length in zip(documents, lengths, strict=True):
        counts = Counter(doc)
        scores.append(sum(
            idf[t] * counts[t] * (k1 + 1) / (counts[t] + k1 * (1 - b + b * length / average))
            for t in idf if counts[t]
        ))
    return scores


def lexical_terms(text: str, *, limit: int = 32) -> list[str]:
    """The distinct non-stopword words of a query, in order, for a BM25 OR-query."""
    terms: list[str] = []
    for word in words(text):
        if word not in STOPWORDS and word not in terms and (len(word) > 1 or word.isdigit()):
            terms.append(word)
    return terms[:limit]


@dataclass
class Candidate:
    """One retrievable record as a backend sees it during a search."""

    key: Any
    cosine: float
    lexical: float | None = None  # BM25 relevance, higher is better; None = no lexical match
    identifier_hits: int = 0  # how many of the query's identifiers this record contains
    identifier_match: bool = False  # shorthand for backends that only know "some": counts as one hit
    preferred: bool = False  # e.g. a COMPLETED episode: wins ties
    recency: float = 0.0  # e.g. created_at as a timestamp: newer wins remaining ties

    def __post_init__(self) -> None:
        if self.identifier_match and not self.identifier_hits:
            self.identifier_hits = 1


def _ranks(scores: Sequence[float]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) for scores already sorted best first."""
    ranks: list[int] = []
    for index, score in enumerate(scores):
        tied = index and abs(score - scores[index - 1]) <= 1e-6
        ranks.append(ranks[-1] if tied else index + 1)
    return ranks


def rank_hybrid(
    candidates: Iterable[Candidate], *, min_score: float, k: int, mode: Mode = "hybrid"
) -> list[Candidate]:
    """The `k` best eligible candidates under the rules in this module's docstring."""
    pool = list(candidates)
    if mode == "vector":
        eligible = [c for c in pool if c.cosine >= min_score]
        eligible.sort(key=lambda c: (-round(c.cosine, 6), not c.preferred, -c.recency))
        return eligible[:k]
    if mode == "lexical":
        eligible = [c for c in pool if c.lexical is not None]
        eligible.sort(key=lambda c: (-round(c.lexical or 0.0, 6), not c.preferred, -c.cosine, -c.recency))
        return eligible[:k]
    if mode != "hybrid":
        raise ValueError(f"unknown retrieval mode {mode!r}")
    eligible = [c for c in pool if c.cosine >= min_score or c.identifier_hits > 0]
    fused: dict[int, float] = {id(c): 0.0 for c in eligible}
    rankings = [
        [(c, c.cosine) for c in eligible],
        [(c, c.lexical) for c in eligible if c.lexical is not None],
        [(c, float(c.identifier_hits)) for c in eligible if c.identifier_hits > 0],
    ]
    for ranking in rankings:
        ranking.sort(key=lambda pair: -pair[1])
        for (c, _), rank in zip(ranking, _ranks([score for _, score in ranking]), strict=True):
            fused[id(c)] += 1.0 / (RRF_K + rank)
    eligible.sort(key=lambda c: (-round(fused[id(c)], 9), not c.preferred, -c.cosine, -c.recency))
    return eligible[:k]
