"""The no-model review: assess a clause in a section against the playbook, build findings,
locate quotes, and `detect_all` (the whole contract, every playbook clause type).

A finding is the dict of docs/ARCHITECTURE.md: clause_type, section, quote, start, end,
verdict (standard | fallback | deviation | missing), severity, recommendation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tools.contract import Contract, Section
from tools.detection import directions, metrics
from tools.detection.clauses import Candidate, candidates_in_section, find_candidates
from tools.detection.metrics import Judgement
from tools.detection.rules import COMPANIONS
from tools.playbook import Metric, Playbook, PlaybookEntry

VERDICTS = ("standard", "fallback", "deviation", "missing")
SEVERITIES = ("high", "medium", "low", "none")

JUDGES: dict[str, Callable[[Metric, str], Judgement]] = {
    "cap_multiple": metrics.cap_multiple,
    "notice_days": metrics.notice_days,
    "renewal_notice_days": metrics.renewal_notice_days,
    "payment_days": metrics.payment_days,
    "price_increase_pct": metrics.price_increase_pct,
    "jurisdiction": metrics.jurisdiction,
    "insurance_amount": metrics.insurance_amount,
    "warranty_months": metrics.warranty_months,
    "survival_years": metrics.survival_years,
    "breach_notice_hours": metrics.breach_notice_hours,
    "indemnity_direction": directions.indemnity_direction,
    "assignment_freedom": directions.assignment_freedom,
    "restriction_on_buyer": directions.restriction_on_buyer,
    "damages_direction": directions.damages_direction,
    "audit_scope": directions.audit_scope,
}


def judge(entry: PlaybookEntry, text: str) -> Judgement:
    """Rank clause text against a playbook entry (no metric: present means fallback, to check)."""
    if entry.metric is None:
        return Judgement("fallback", "no machine-checkable metric for this clause type; review it by hand")
    return JUDGES[entry.metric.name](entry.metric, text)


def severity_for(entry: PlaybookEntry, verdict: str) -> str:
    if verdict == "deviation":
        return entry.severity
    if verdict == "missing":
        return entry.missing.severity
    return "low" if verdict == "fallback" else "none"


def recommendation_for(entry: PlaybookEntry, verdict: str) -> str:
    if verdict == "standard" or (verdict == "missing" and entry.missing.severity == "none"):
        return "No change needed."
    return entry.recommendation


def make_finding(entry: PlaybookEntry, verdict: str, section: str | None = None, quote: str | None = None,
                 start: int = -1, end: int = -1, *, severity: str | None = None,
                 recommendation: str | None = None) -> dict:
    return {
        "clause_type": entry.id,
        "section": section if verdict != "missing" else None,
        "quote": quote if verdict != "missing" else None,
        "start": start if verdict != "missing" else -1,
        "end": end if verdict != "missing" else -1,
        "verdict": verdict,
        "severity": severity or severity_for(entry, verdict),
        "recommendation": recommendation or recommendation_for(entry, verdict),
    }


def missing_finding(entry: PlaybookEntry) -> dict:
    return make_finding(entry, "missing")


def _quote_span(contract: Contract, primary: Candidate, others: list[Candidate]) -> tuple[int, int]:
    """The primary sentence, widened to companion sentences right next to it on the same line."""
    start, end = primary.start, primary.end
    for c in sorted(others, key=lambda c: abs(c.start - primary.start)):
        lo, hi = min(start, c.start), max(end, c.end)
        if hi - lo <= 1200 and "\n" not in contract.text[lo:hi]:
            start, end = lo, hi
    return start, end


def assess(contract: Contract, entry: PlaybookEntry, section: Section) -> dict | None:
    """Assess one clause type in one section: a finding dict plus "rationale", or None when the
    section holds no sentence of that clause type."""
    found = candidates_in_section(contract, entry.id, section)
    if not found:
        return None
    # Companion terms (a survival period, a breach-notice deadline ...) may sit in a sibling
    # sub-section of the same clause, so they are looked up over the whole numbered clause.
    scope = _clause_scope(contract, section) or section
    helpers = [c for helper in COMPANIONS.get(entry.id, ()) for c in candidates_in_section(contract, helper, scope)]
    picked = found[:2] + [h for h in helpers if all(h.start != f.start for f in found[:2])][:2]
    picked.sort(key=lambda c: c.start)
    text = " ".join(c.quote for c in picked)
    verdict = judge(entry, text)
    primary = max(found[:2], key=lambda c: c.score)
    start, end = _quote_span(contract, primary, [h for h in helpers[:2] if h.start != primary.start])
    finding = make_finding(entry, verdict.level, primary.section, contract.text[start:end], start, end)
    finding["rationale"] = verdict.rationale
    return finding


def _clause_scope(contract: Contract, section: Section | None) -> Section | None:
    """The numbered clause a sub-section belongs to ("7.2" -> "7"), so that terms split over
    sibling sub-sections (an obligation in 7.2, its duration in 7.3) are read together."""
    if section is None or "." not in section.id:
        return section
    parent = contract.section(section.id.split(".", 1)[0])
    if parent is None or parent.end - parent.start > 8000:
        return section
    return parent


def review_clause(contract: Contract, entry: PlaybookEntry) -> dict:
    """The finding for one clause type over the whole contract (missing if no candidate)."""
    candidates = find_candidates(contract, entry.id, limit=6)
    sections: list[Section] = []
    for c in candidates:
        section = _clause_scope(contract, contract.section_at(c.start) or contract.section(c.section))
        if section and section not in sections:
            sections.append(section)
    assessed = [a for a in (assess(contract, entry, s) for s in sections[:3]) if a]
    if not assessed:
        return missing_finding(entry)
    # The strongest section speaks for the clause, unless its value could not be read and
    # another section's could.
    chosen = assessed[0]
    if "check" in chosen["rationale"]:
        readable = [a for a in assessed[1:] if "check" not in a["rationale"]]
        if readable:
            chosen = readable[0]
    chosen.pop("rationale", None)
    return chosen


def detect_all(contract: Contract, playbook: Playbook) -> list[dict]:
    """The whole no-model review: one finding per playbook clause type, in playbook order."""
    return [review_clause(contract, playbook.entry(ct)) for ct in playbook.clause_types]


def locate_quote(contract: Contract, quote: str, section: Section | None = None) -> tuple[int, int] | None:
    """Offsets of `quote` in the contract: exact match (inside the section first), else a
    whitespace- and case-insensitive match inside the section; None if absent."""
    quote = quote.strip()
    if not quote:
        return None
    if section is not None:
        at = contract.text.find(quote, section.start, section.end)
        if at >= 0:
            return at, at + len(quote)
    at = contract.text.find(quote)
    if at >= 0:
        return at, at + len(quote)
    words = [re.escape(w) for w in quote.split()]
    if not words:
        return None
    pattern = re.compile(r"\s+".join(words), re.IGNORECASE)
    lo, hi = (section.start, section.end) if section is not None else (0, len(contract.text))
    m = pattern.search(contract.text, lo, hi)
    return (m.start(), m.end()) if m else None
