"""Clause detection: score every sentence of a contract against the rules of tools/detection/rules.py
and return candidates with verbatim quotes and exact offsets (`text[start:end] == quote`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tools.contract import Contract, Section
from tools.detection.detector import Detector
from tools.detection.numbers import find_durations
from tools.detection.rules import DETECTORS
from tools.detection.sentences import sentence_spans


@dataclass(frozen=True)
class Candidate:
    """A sentence that carries a clause type, with where it sits."""

    clause_type: str
    section: str
    quote: str
    start: int
    end: int
    score: float

    def as_dict(self) -> dict:
        return {"section": self.section, "quote": self.quote, "start": self.start, "end": self.end,
                "score": round(self.score, 2)}


@dataclass(frozen=True)
class _Sentence:
    section: Section
    start: int
    end: int
    text: str


def _sentences(contract: Contract) -> list[_Sentence]:
    return _cached_sentences(contract.text, tuple((s.id, s.title, s.start, s.end) for s in contract.sections))


@lru_cache(maxsize=8)
def _cached_sentences(text: str, sections: tuple) -> list[_Sentence]:
    contract = Contract(name="", text=text, sections=[Section(id=i, title=t, start=s, end=e) for i, t, s, e in sections])
    out: list[_Sentence] = []
    if not contract.sections:
        pseudo = Section(id="preamble", title="", start=0, end=len(text))
        return [_Sentence(pseudo, s, e, text[s:e]) for s, e in sentence_spans(text)]
    titles = {s.id: s.title for s in contract.sections}
    for section, start, end in contract.own_spans():
        if not section.title and "." in section.id:  # "13.2" without a title reads under "13"'s title
            parent = titles.get(section.id.rsplit(".", 1)[0], "")
            section = Section(id=section.id, title=parent, start=section.start, end=section.end)
        for s, e in sentence_spans(text, start, end):
            if s == section.start and _is_heading_only(text[s:e], section.title):
                continue  # a heading names a clause without stating it
            out.append(_Sentence(section, s, e, text[s:e]))
    return out


# two or more "7.1 Title 12" entries in a row (optionally "Section 7.1 Title 12"): a table of contents
_TOC_RUN = re.compile(r"(?:(?:\b(?:Section|SECTION|Article|ARTICLE)\s+)?\b\d+(?:\.\d+)*\.?\s+[A-Z][^.;:]{2,80}?\s+\d{1,3}\s+){2,}")


def _is_heading_only(sentence: str, title: str) -> bool:
    return len(sentence) <= len(title) + 16 or (sentence.isupper() and len(sentence) < 120)


# a duration whose figure the filing blanked out: "[***] days", "[ * ] (***) months"
_REDACTED_DURATION = re.compile(
    r"(?:\[[^\]]{0,12}\]|\*{3,})\s*(?:\(\s*(?:\[[^\]]{0,12}\]|\*+)\s*\)\s*)?(?:business\s+|calendar\s+)?(?:days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)


def rule_hits(detector: Detector, sentence: str) -> tuple[int, ...] | None:
    """Indices of the detector's patterns the sentence matches; None when a gate rules it out
    (none of its keywords, a table-of-contents run, required words or a duration missing)."""
    if detector.keywords:
        lowered = sentence.lower()
        if not any(word in lowered for word in detector.keywords):
            return None
    if _TOC_RUN.search(sentence):
        return None
    if detector.require is not None and not detector.require.search(sentence):
        return None
    if detector.needs_duration and not find_durations(sentence) and not _REDACTED_DURATION.search(sentence):
        return None
    return tuple(i for i, (pattern, _) in enumerate(detector.rules) if pattern.search(sentence))


def score_sentence(detector: Detector, sentence: str, section_title: str = "") -> float:
    """The detector's score for one sentence (0 when its required words are absent, and for
    table-of-contents runs, which name clauses without stating them)."""
    return score_hits(detector, rule_hits(detector, sentence), section_title)


def titled(detector: Detector, section_title: str) -> bool:
    """Whether the section title names the detector's clause (worth its title bonus)."""
    return bool(detector.title is not None and section_title and detector.title.search(section_title))


def score_hits(detector: Detector, hits: tuple[int, ...] | None, section_title: str = "") -> float:
    """The score of a sentence matching these patterns, with the title bonus when it scores."""
    if not hits:
        return 0.0
    score = sum(detector.rules[i][1] for i in hits)
    return score + detector.title_bonus if score > 0 and titled(detector, section_title) else score


def contract_sentences(contract: Contract, *, min_chars: int = 40) -> list[tuple[Section, int, int, str]]:
    """The sentences clause detection scores, in order: (section, start, end, text), where a
    section without a title of its own carries its parent's and headings on their own are left out."""
    return [(s.section, s.start, s.end, s.text) for s in _sentences(contract) if len(s.text) >= min_chars]


def find_candidates(contract: Contract, clause_type: str, *, limit: int = 5) -> list[Candidate]:
    """Sentences scoring at or above the detector's threshold, best first (ties: earlier first)."""
    detector = DETECTORS.get(clause_type)
    if detector is None:
        raise KeyError(clause_type)
    scored: list[Candidate] = []
    for sentence in _sentences(contract):
        if len(sentence.text) < 40:
            continue
        score = score_sentence(detector, sentence.text, sentence.section.title)
        if score >= detector.threshold:
            scored.append(Candidate(clause_type, sentence.section.id, sentence.text, sentence.start, sentence.end, score))
    scored.sort(key=lambda c: (-c.score, c.start))
    return scored[:limit] if limit else scored


def candidates_in_section(contract: Contract, clause_type: str, section: Section) -> list[Candidate]:
    """Candidates of a clause type inside one section (including its sub-sections), best first,
    with a lower bar than `find_candidates`: the caller already points at the section."""
    detector = DETECTORS[clause_type]
    found = []
    for sentence in _sentences(contract):
        if section.start <= sentence.start < section.end and len(sentence.text) >= 40:
            score = score_sentence(detector, sentence.text, sentence.section.title or section.title)
            if score >= detector.threshold * 0.6:
                found.append(Candidate(clause_type, sentence.section.id, sentence.text, sentence.start, sentence.end, score))
    found.sort(key=lambda c: (-c.score, c.start))
    return found
