"""Hybrid retrieval policy shared by every backend: identifiers, lexical queries, rank fusion.

A backend finds candidates two ways, by vector cosine (same embedding model only) and by a
lexical BM25 match, then calls `rank_hybrid`. The rules, in one place:

* Eligibility (hybrid): a candidate is returned if the evidence for it is specific: it shares an
  *identifier* with the query; or the query names nothing (no identifier) and the candidate holds
  a *distinctive* query word (a word, not a figure, that few memories of the namespace hold: so
  "reagents" but not "contract"; see `distinctive_words`); or its cosine alone reaches the
  model's calibrated `vector_alone` bar (docs/CALIBRATION.md). A query that names something
  (a party, a clause number, an amount) asks for that thing: a rare word shared by a memory that
  lacks it is no evidence. A model without a `vector_alone` bar keeps the seed's rule: cosine >=
  `min_score` passes. Cosines between short task texts overlap between right and wrong answers,
  so a mid cosine alone is not evidence (measured on queries with no right answer: `bench retrieval`).
  Identifiers are what embeddings blur and people search by: clause numbers ("7.3"), amounts ("$2M" == "2,000,000" ==
  "2 million dollars" == "two million USD"; "640k euros"), codes with capitals and digits
  ("PO-4471"), and names (capitalised words, e.g. "Acme").
* Names at the start of a query sentence are ambiguous ("Brightwater sent an amendment" names
  Brightwater; "Review the deal" names nothing). `query_identifiers` returns them apart, as
  *tentative*; the backend keeps a tentative name only if it identifies something in the
  namespace: held as an identifier by at most `rare_name_limit(size)` rows. A word every stored
  summary starts with ("Review") is held by most rows and so never counts.
* Ranking: reciprocal rank fusion (RRF, k=60) of up to three rankings of the eligible
  candidates, each holding what that retriever retrieves: by cosine (those >= `min_score`), by
  BM25 (lexical matches), and by the number of query identifiers shared (those sharing any).
  Equal scores share their average rank, so identical candidates fuse to equal scores and a large
  tie earns no top vote; ties then prefer `preferred` (COMPLETED episodes), then higher cosine,
  then newer.
* Before the fused score comes the number of *specific* query identifiers a candidate holds
  (held by at most `rare_name_limit` rows of the namespace: a contract reference, a rare party
  name), where a backend can count holders. A query that names one thing asks for that thing:
  the one episode holding contract SC-0042 outranks fifty episodes of the same party and kind
  that are nearer by cosine and share only common identifiers, whose votes fusion would add up.
* The score reported to callers is always the cosine similarity, never the fused score.

Modes "vector" and "lexical" exist to measure what fusion adds (`contract-review bench retrieval`).
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
_NUMBER_WORDS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORDS.update({"fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                      "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100})
_NUM = r"\d[\d,]*(?:\.\d+)?"
_WORD_NUM = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
_MULT = r"k|mm|m|bn|b|thousand|million|billion"
_CURRENCY_BEFORE = r"[$€£¥]|\b(?:usd|eur|gbp|chf|jpy)\b"
_CURRENCY_AFTER = r"usd|eur|gbp|chf|jpy|dollars?|euros?|pounds?(?:\s+sterling)?|yen|francs?"
# One figure of money (or a multiplied quantity), however written. Each alternative names its
# groups <part><n>; `_amount_token` reads whichever matched.
_AMOUNT = re.compile(
    rf"(?:{_CURRENCY_BEFORE})\s?(?P<num1>{_NUM})(?:\s?(?P<mult1>{_MULT})\b)?"  # $2M, USD 1,500,000, £58k
    rf"|\b(?P<num2>{_NUM}|{_WORD_NUM})(?:\s?(?P<mult2>{_MULT})\b)?\s?(?:{_CURRENCY_AFTER})\b"  # 640k euros
    rf"|\b(?P<num3>{_NUM}|{_WORD_NUM})\s?(?P<mult3>k|mm|bn|thousand|million|billion)\b",  # 3.2 million, two million
    re.IGNORECASE,
)
_BIG_NUMBER = re.compile(r"\b(?P<num4>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{4,}(?:\.\d+)?)\b")
_SECTION = re.compile(r"\b\d+(?:\.\d+)+\b")
_CODE = re.compile(r"\b[A-Za-z0-9]*(?:[A-Z][A-Za-z0-9-]*\d|\d[A-Za-z0-9-]*[A-Z])[A-Za-z0-9]*\b")
_NAME = re.compile(r"\b[A-Z][A-Za-z&'’]*[a-z][A-Za-z&'’]*\b|\b[A-Z]{2,}\b")
_SENTENCE_BREAK = re.compile(r"(?:^|[.!?:;\n]|^\s*[-*]|\n\s*[-*])\s*$")
_WORD = re.compile(r"[^\W_]+")  # like FTS5 unicode61: "_" separates words
_CURRENCIES = frozenset({"usd", "eur", "gbp", "chf", "jpy"})
RARE_NAME_ROWS = 50  # a tentative name (or a distinctive word) held by more rows names nothing in particular
RARE_NAME_SHARE = 0.1  # ... nor one held by more than this share of a small namespace


def _amount_token(match: re.Match[str]) -> str:
    groups = match.groupdict()
    raw = next(groups[f"num{n}"] for n in range(1, 5) if groups.get(f"num{n}"))
    mult = next((groups[f"mult{n}"] for n in range(1, 4) if groups.get(f"mult{n}")), "")
    number = _NUMBER_WORDS.get(raw.lower())
    value = (float(number) if number is not None else float(raw.replace(",", ""))) * _MULTIPLIERS.get(mult.lower(), 1)
    return f"{value:.2f}".rstrip("0").rstrip(".").replace(".", "p")


def _scan(text: str, *, query: bool) -> tuple[set[str], set[str]]:
    """(identifiers, tentative names) of `text`; see `identifiers` and `query_identifiers`."""
    bare_name = query and len(text.split()) <= 3
    found: set[str] = set()
    tentative: set[str] = set()
    taken: list[tuple[int, int]] = []

    def free(match: re.Match[str]) -> bool:
        start, end = match.span()
        if any(a < end and start < b for a, b in taken):
            return False
        taken.append((start, end))
        return True

    for match in _AMOUNT.finditer(text):  # amounts first: "$2M" is an amount, "3.2 million" no section
        if free(match):
            found.add(_amount_token(match))
    for match in _CODE.finditer(text):
        if free(match):
            found.add(match.group().lower().replace("-", ""))
    for match in _BIG_NUMBER.finditer(text):
        if free(match):
            found.add(_amount_token(match))
    for match in _SECTION.finditer(text):
        if free(match):
            found.add(match.group().replace(".", "p"))
    for match in _NAME.finditer(text):
        word = match.group().lower()
        if word in STOPWORDS or word in _CURRENCIES or len(word) < 3 or not free(match):
            continue
        token = re.sub(r"\W", "", word)
        if query and not bare_name and _SENTENCE_BREAK.search(text[: match.start()]):
            tentative.add(token)
        else:
            found.add(token)
    return found, tentative - found


def identifiers(text: str, *, query: bool = False) -> set[str]:
    """Normalised identifier tokens of `text` (alphanumeric, lowercase, FTS-safe).

    With `query=True`, a capitalised word that starts a sentence is left out (it may be a plain
    word: "Review the Acme deal" names Acme, not Review) unless the query is a bare name of at
    most three words ("Acme Robotics"); `query_identifiers` returns such words apart. Stored
    texts keep every candidate.
    """
    return _scan(text, query=query)[0]


def query_identifiers(text: str) -> tuple[set[str], set[str]]:
    """(identifiers, tentative names) of a query: the second are sentence-initial capitalised
    words, kept by the backend only if `is_rare_name` says they identify something."""
    return _scan(text, query=True)


def rare_name_limit(namespace_size: int) -> int:
    """How many rows of a namespace may hold a tentative name (or a word) for it to count as
    identifying (distinctive)."""
    return max(1, min(RARE_NAME_ROWS, int(RARE_NAME_SHARE * namespace_size)))


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
    specific_hits: int = 0  # how many of them are specific: held by few rows (`rare_name_limit`)
    distinctive: bool = False  # holds a query word few candidates hold (see `distinctive_words`)
    preferred: bool = False  # e.g. a COMPLETED episode: wins ties
    recency: float = 0.0  # e.g. created_at as a timestamp: newer wins remaining ties

    def __post_init__(self) -> None:
        if self.identifier_match and not self.identifier_hits:
            self.identifier_hits = 1


def content_words(terms: Iterable[str]) -> list[str]:
    """Query words that may be distinctive: not figures (numbers are identifiers' business: "58"
    of "58.7" is no word)."""
    return [term for term in terms if not any(ch.isdigit() for ch in term)]


def distinctive_words(terms: Iterable[str], holders: Mapping[str, int], population: int) -> set[str]:
    """The query's content words held by at least one and at most `rare_name_limit(population)`
    of `population` rows (the namespace where a backend can count it, else the candidate pool)."""
    limit = rare_name_limit(population)
    return {term for term in content_words(terms) if 0 < holders.get(term, 0) <= limit}


def mark_distinctive(candidates: Sequence[Candidate], bodies: Sequence[Iterable[str]], terms: Iterable[str]) -> None:
    """Set `Candidate.distinctive` counting holders over the candidate pool itself (backends that
    cannot count a word's holders in the whole namespace)."""
    wanted = set(terms)
    held = [wanted & set(body) for body in bodies]
    counts = Counter(term for words_held in held for term in words_held)
    distinctive = distinctive_words(wanted, counts, len(candidates))
    for candidate, words_held in zip(candidates, held, strict=True):
        candidate.distinctive = bool(words_held & distinctive)


def _ranks(scores: Sequence[float]) -> list[float]:
    """Average ranks (1, 2.5, 2.5, 4) for scores already sorted best first: a tie shares one
    rank, the mean of the places it spans, so forty candidates equal on one signal do not all
    collect the second-best vote of that retriever."""
    ranks: list[float] = []
    start = 0
    while start < len(scores):
        end = start + 1
        while end < len(scores) and abs(scores[end] - scores[start]) <= 1e-6:
            end += 1
        ranks += [(start + 1 + end) / 2] * (end - start)
        start = end
    return ranks


def passes_gate(candidate: Candidate, min_score: float, vector_alone: float | None, *, query_names: bool) -> bool:
    """The hybrid gate (this module's docstring). `query_names`: the query has identifiers."""
    if candidate.identifier_hits > 0:
        return True
    if vector_alone is None:  # the seed's rule
        return candidate.cosine >= min_score
    return candidate.cosine >= max(min_score, vector_alone) or (candidate.distinctive and not query_names)


def rank_hybrid(
    candidates: Iterable[Candidate], *, min_score: float, k: int, mode: Mode = "hybrid",
    vector_alone: float | None = None, query_names: bool = False,
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
    passed = [c for c in pool if passes_gate(c, min_score, vector_alone, query_names=query_names)]
    fused: dict[int, float] = {id(c): 0.0 for c in passed}
    rankings = [  # each retriever ranks what it retrieves (standard RRF): the vector one, cosine >= min_score
        [(c, c.cosine) for c in passed if c.cosine >= min_score],
        [(c, c.lexical) for c in passed if c.lexical is not None],
        [(c, float(c.identifier_hits)) for c in passed if c.identifier_hits > 0],
    ]
    for ranking in rankings:
        ranking.sort(key=lambda pair: -pair[1])
        for (c, _), rank in zip(ranking, _ranks([score for _, score in ranking]), strict=True):
            fused[id(c)] += 1.0 / (RRF_K + rank)
    passed.sort(key=lambda c: (-c.specific_hits, -round(fused[id(c)], 9), not c.preferred, -c.cosine, -c.recency))
    return passed[:k]
