"""The semantic tier: the confirmation gate that promotes domain facts, and fact recall.

A run proposes fact candidates; a candidate counts only from a COMPLETED run with confidence
>= `min_confidence`. Its wording is normalised (`normalise_fact`) so small rephrasings share one
key, and the confirmation log counts the distinct sources (what the runs worked on: a contract
reviewed three times is one source) that observed that key. An observation is recorded only
once its run's episode is stored: the episode is the run's commit marker. When the count
reaches `confirmations` the fact is stored (searchable at once) with the runs that confirmed it;
later observations refresh its source runs and confidence. Callers scrub PII first.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from langchain_core.embeddings import Embeddings

from memory.embeddings import model_name_of
from memory.errors import MemoryConfigError, MemoryRequestError
from memory.records import Fact, FactCandidate, Namespace, Outcome, Scored
from memory.retrieval import STOPWORDS
from memory.stores import ConfirmationLog, EpisodeStore, FactStore, VectorQuery

_NEGATIONS = frozenset({"no", "not", "nor", "never", "without", "none", "cannot"})
_FACT_STOPWORDS = (STOPWORDS - _NEGATIONS) | {"usually", "typically", "generally", "often", "normally", "within"}
_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i >= 2}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_TOKEN = re.compile(r"\d+(?:\.\d+)*|[a-z]+")


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """English Snowball stemmer (imported on first use: the package loads every language's)."""
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def _numbers_to_digits(words: list[str]) -> list[str]:
    """["two", "million", "dollars"] -> ["2000000", "dollars"]; lone "a"/"and" are left alone."""
    out: list[str] = []
    total = current = 0
    in_number = False
    for word in [*words, ""]:
        if word in _UNITS or word in _TENS:
            current += _UNITS.get(word, 0) + _TENS.get(word, 0)
            in_number = True
        elif word in _SCALES and (in_number or out and out[-1].isdigit()):
            if not in_number:  # "2 million"
                current, in_number = int(out.pop()), True
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1_000:
                total, current = total + current, 0
        elif word == "and" and in_number:
            continue
        else:
            if in_number:
                out.append(str(total + current))
                total = current = 0
                in_number = False
            if word:
                out.append(word)
    return out


def normalise_fact(text: str) -> str:
    """The canonical wording of a fact: lowercased, digits for number words, "2x" as "2 times",
    no punctuation, no stopwords (negations kept), stemmed, as a sorted set of words."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 2,000,000 -> 2000000
    text = re.sub(r"(\d+(?:\.\d+)?)\s*x\b", r"\1 times", text)
    text = re.sub(r"\btwice\b", "2 times", text)
    text = text.replace("%", " percent ")
    words = _numbers_to_digits(_TOKEN.findall(text))
    kept = [w for w in words if w not in _FACT_STOPWORDS]
    return " ".join(sorted(set(_stemmer().stemWords(kept))))


def fact_key(text: str) -> str:
    """A stable id for a fact's normalised wording (what the confirmation log counts)."""
    normal = normalise_fact(text)
    if not normal:
        raise MemoryConfigError(f"fact {text!r} has no content words to remember")
    return "f" + hashlib.sha256(normal.encode()).hexdigest()[:24]


def observe(
    store: FactStore,
    log: ConfirmationLog,
    embeddings: Embeddings,
    ns: Namespace,
    run_id: str,
    outcome: Outcome,
    candidates: Sequence[FactCandidate],
    *,
    default_domain: str | None = None,
    min_confidence: float = 0.7,
    confirmations_needed: int = 3,
    now: datetime,
    episodes: EpisodeStore | None = None,
    source: str | None = None,
) -> list[Fact]:
    """Run the confirmation gate on one run's fact candidates; returns the facts confirmed now
    (stored by this call for the first time). A candidate left in the catch-all "general" domain
    takes `default_domain` when one is given.

    `source` names what the run observed the facts in (e.g. a content hash of its contract):
    runs over one source confirm a fact once. With `episodes`, the run's episode must already be
    stored in `ns` (MemoryRequestError otherwise): no observation, hence no fact, ever stands on
    a run that did not commit."""
    if confirmations_needed < 1:
        raise MemoryConfigError(f"fact confirmations must be at least 1, got {confirmations_needed}")
    if outcome != Outcome.COMPLETED:
        return []
    wanted = [c for c in candidates if c.confidence >= min_confidence and normalise_fact(c.text)]
    if wanted and episodes is not None and episodes.get(ns, run_id) is None:
        raise MemoryRequestError(
            f"run {run_id!r} has no episode yet: write the episode (the run's commit marker) before its facts"
        )
    confirmed: list[Fact] = []
    for candidate in wanted:
        key = fact_key(candidate.text)
        if log.observe(ns, key, run_id, source) < confirmations_needed:
            continue
        runs = log.runs(ns, key)
        existing = store.get(ns, key)
        if existing is None:
            domain = default_domain if default_domain and candidate.domain in ("", "general") else candidate.domain
            fact = Fact(
                fact_id=key, domain=domain, text=candidate.text.strip(), confidence=candidate.confidence,
                source_runs=runs, created_at=now, updated_at=now, embedding_model=model_name_of(embeddings),
            )
            confirmed.append(fact)
        elif run_id not in existing.source_runs:
            fact = existing.model_copy(update={
                "source_runs": runs, "confidence": max(existing.confidence, candidate.confidence),
                "updated_at": now, "embedding_model": model_name_of(embeddings),
            })
        else:
            continue
        store.put(ns, fact, embeddings.embed_documents([fact.text])[0])
    return confirmed


def recall(
    store: FactStore,
    embeddings: Embeddings,
    ns: Namespace,
    query_text: str,
    *,
    domain: str | None = None,
    k: int,
    min_score: float,
    now: datetime,
) -> list[Scored[Fact]]:
    """Up to `k` confirmed facts relevant to `query_text`, optionally of one domain only."""
    if k <= 0 or not query_text.strip():
        return []
    query = VectorQuery(
        text=query_text, vector=embeddings.embed_query(query_text), embedding_model=model_name_of(embeddings),
        k=k, min_score=min_score, now=now, domain=domain,
    )
    return store.search(ns, query)
