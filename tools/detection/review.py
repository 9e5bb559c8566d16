"""The no-model review: assess a clause in a section against the playbook, build findings,
locate quotes, and `detect_all` (the whole contract, every playbook clause type).

A finding is the dict of docs/ARCHITECTURE.md: clause_type, section, quote, start, end,
verdict (standard | fallback | deviation | missing | not_applicable), severity, recommendation,
and what a lawyer needs to act on it: citation (section number and heading as printed, or page
and heading), binds and protects (buyer | supplier | both | null), rationale.

Clauses are read from the buyer's side: with the contract's parties (`parties_of`), each
assessment records whom the clause binds and protects (`stance`), a contract that sets a clause
for each side is judged on the side the playbook is about (the cap on the supplier's liability,
the supplier's insurance), and a limit that protects only the supplier is never the buyer's
fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tools.contract import Contract, Section
from tools.detection import advice, directions, metrics, remedies, stance
from tools.detection.clauses import Candidate, candidates_in_section, find_candidates
from tools.detection.metrics import Judgement
from tools.detection.parties import Parties, identify_parties, reading_for
from tools.detection.rules import COMPANIONS
from tools.playbook import Metric, Playbook, PlaybookEntry

VERDICTS = ("standard", "fallback", "deviation", "missing", "not_applicable")
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
    "exclusive_remedy": remedies.exclusive_remedy,
    "disclaimer_scope": remedies.disclaimer_scope,
    "termination_waiver": remedies.termination_waiver,
}


def parties_of(contract: Contract) -> Parties:
    """The contract's buyer and supplier: as the run settled them, else read from its text."""
    if contract.parties:
        return Parties.from_dict(contract.parties)
    return identify_parties(contract.text)


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
    """The playbook's own recommendation for a verdict (a finding written for a contract has its own)."""
    if verdict in ("standard", "not_applicable") or (verdict == "missing" and entry.missing.severity == "none"):
        return "No change needed."
    return entry.recommendation


_ABSENT = ("missing", "not_applicable")


def make_finding(entry: PlaybookEntry, verdict: str, section: str | None = None, quote: str | None = None,
                 start: int = -1, end: int = -1, *, severity: str | None = None,
                 recommendation: str | None = None, rationale: str | None = None, citation: str | None = None,
                 binds: str | None = None, protects: str | None = None) -> dict:
    absent = verdict in _ABSENT
    if absent and not (rationale and recommendation):
        why, ask = advice.not_applicable_advice(entry) if verdict == "not_applicable" else advice.missing_advice(entry)
        rationale, recommendation = rationale or why, recommendation or ask
    return {
        "clause_type": entry.id,
        "section": section if not absent else None,
        "citation": citation if not absent else None,
        "quote": quote if not absent else None,
        "start": start if not absent else -1,
        "end": end if not absent else -1,
        "verdict": verdict,
        "severity": severity or severity_for(entry, verdict),
        "binds": binds if not absent else None,
        "protects": protects if not absent else None,
        "rationale": rationale or "",
        "recommendation": recommendation or recommendation_for(entry, verdict),
    }


def missing_finding(entry: PlaybookEntry) -> dict:
    return make_finding(entry, "missing")


def applies(contract: Contract, entry: PlaybookEntry) -> bool:
    """Whether the clause type applies to this deal (its `applies_if` terms, whole words)."""
    if entry.applies_if is None:
        return True
    words = "|".join(r"\s+".join(map(re.escape, t.split())) for t in entry.applies_if.terms)
    # a filing's redaction note ("[Redacted - Personal Information]") names what was cut, not the deal
    text = _REDACTION.sub(" ", contract.text)
    return re.search(rf"\b(?:{words})\b", text, re.IGNORECASE) is not None


_REDACTION = re.compile(r"\[[^\]\n]{0,80}\b(?:redact\w*|omitted|confidential\s+treatment)\b[^\]\n]{0,80}\]", re.IGNORECASE)


def absent_finding(contract: Contract, entry: PlaybookEntry) -> dict:
    """The finding for a clause type the contract lacks: not applicable when the deal does not
    call for it, else missing."""
    return make_finding(entry, "missing" if applies(contract, entry) else "not_applicable")


def _quote_span(contract: Contract, primary: Candidate, others: list[Candidate]) -> tuple[int, int]:
    """The primary sentence, widened to companion sentences right next to it on the same line."""
    start, end = primary.start, primary.end
    for c in sorted(others, key=lambda c: abs(c.start - primary.start)):
        lo, hi = min(start, c.start), max(end, c.end)
        if hi - lo <= 1200 and "\n" not in contract.text[lo:hi]:
            start, end = lo, hi
    return start, end


def assess(contract: Contract, entry: PlaybookEntry, section: Section) -> dict | None:
    """Assess one clause type in one section: a finding dict (with its rationale, citation,
    binds and protects), or None when the section holds no sentence of that clause type."""
    parties = parties_of(contract)
    with reading_for(parties):
        return _assess(contract, entry, section, parties)


# Metrics whose deviation is a burden the buyer takes on (a restraint, a commitment, a waiver, a
# sole remedy, a disclaimer, damages it pays): one provision that imposes it is a deviation
# whatever its neighbours say. Figures and comparisons (a payment period and the dispute
# procedure next to it, who indemnifies more) are read from the provisions together.
SEPARATE_PROVISIONS = frozenset({"restriction_on_buyer", "termination_waiver", "exclusive_remedy", "disclaimer_scope",
                                 "damages_direction"})
# Worst for the buyer first: what a reviewer must see when one section holds several provisions.
BUYER_RISK = {"deviation": 0, "fallback": 1, "standard": 2}


def _assess(contract: Contract, entry: PlaybookEntry, section: Section, parties: Parties) -> dict | None:
    found = candidates_in_section(contract, entry.id, section)
    if not found:
        return None
    metric = entry.metric.name if entry.metric else None
    provisions: dict[str, list[Candidate]] = {}
    for candidate in found:
        provisions.setdefault(candidate.section, []).append(candidate)
    if metric not in SEPARATE_PROVISIONS or len(provisions) == 1:
        return _assess_provision(contract, entry, section, parties, found)
    # Several sub-sections carry such a burden (an old clause and one added next to it): each is
    # judged on its own and the one worst for the buyer speaks for the section, quoted where it
    # stands; an unreadable one ("check it by hand") never outranks a read one.
    judged = [_assess_provision(contract, entry, section, parties, group) for group in provisions.values()]
    readable = [j for j in judged if "check it by hand" not in j["rationale"]] or judged
    return min(readable, key=lambda j: BUYER_RISK.get(j["verdict"], 3))  # stable: the strongest first on ties


def _assess_provision(contract: Contract, entry: PlaybookEntry, section: Section, parties: Parties,
                      found: list[Candidate]) -> dict:
    """One provision (the candidates of one sub-section, best first) judged as today's whole."""
    metric = entry.metric.name if entry.metric else None
    # A section that sets the clause for each side (a cap on each party's liability, insurance
    # each must carry): the sentences on the side the buyer's playbook is about come first.
    found = sorted(found, key=lambda c: not stance.matches_interest(metric, *stance.read_stance(metric, c.quote)))
    # Companion terms (a survival period, a breach-notice deadline ...) may sit in a sibling
    # sub-section of the same clause, so they are looked up over the whole numbered clause.
    scope = _clause_scope(contract, section) or section
    helpers = [c for helper in COMPANIONS.get(entry.id, ()) for c in candidates_in_section(contract, helper, scope)]
    # the clause is judged on the side it is about: the other side's sentences do not mix in
    on_side = [c for c in found if stance.matches_interest(metric, *stance.read_stance(metric, c.quote))]
    core = on_side[:2] or found[:2]
    picked = core + [h for h in helpers if all(h.start != f.start for f in core)][:2]
    picked.sort(key=lambda c: c.start)
    text = " ".join(c.quote for c in picked)
    primary = on_side[0] if on_side else max(found[:2], key=lambda c: c.score)
    binds, protects = stance.read_stance(metric, primary.quote)
    if binds is None and protects is None:
        binds, protects = stance.read_stance(metric, text)
    verdict, note = buyer_side(metric, judge(entry, text), binds, protects)
    start, end = _quote_span(contract, primary, [h for h in helpers[:2] if h.start != primary.start])
    citation = contract.cite(primary.section, start)
    return make_finding(
        entry, verdict.level, primary.section, contract.text[start:end], start, end,
        rationale=advice.rationale(entry, verdict.level, verdict.rationale, citation, binds=binds, protects=protects,
                                   parties=parties, adjusted=note),
        recommendation=advice.recommendation(entry, verdict.level, f"{verdict.rationale}; {note}" if note else verdict.rationale, citation),
        citation=citation, binds=binds, protects=protects,
    )


def buyer_side(metric: str | None, judged: Judgement, binds: str | None, protects: str | None) -> tuple[Judgement, str]:
    """The verdict read from the buyer's side of the clause, and a note when that changed it."""
    if stance.shape(metric) == "limit":
        if protects == "buyer":
            return Judgement("standard", judged.rationale, judged.value), "the limit protects only the buyer, so it costs the buyer nothing"
        if protects == "supplier" and metric == "cap_multiple":
            if judged.level == "fallback":
                return Judgement("deviation", judged.rationale, judged.value), "a cap that protects only the supplier is not the buyer's fallback"
    want = stance.INTEREST.get(metric or "")
    if want and want[0] == "binds" and want[1] == "supplier" and binds == "buyer" and judged.level != "deviation":
        return Judgement("deviation", judged.rationale, judged.value), "the clause binds the buyer, not the supplier: the supplier owes nothing here"
    return judged, ""


def _clause_scope(contract: Contract, section: Section | None) -> Section | None:
    """The numbered clause a sub-section belongs to ("7.2" -> "7"), so that terms split over
    sibling sub-sections (an obligation in 7.2, its duration in 7.3) are read together."""
    if section is None or "." not in section.id:
        return section
    parent = contract.section(section.id.split(".", 1)[0])
    if parent is None or parent.end - parent.start > 8000:
        return section
    return parent


def readings(contract: Contract, entry: PlaybookEntry) -> list[dict]:
    """The clause type read over the whole contract: the assessments of the (at most three)
    numbered clauses that hold the detector's best candidates, strongest first."""
    candidates = find_candidates(contract, entry.id, limit=6)
    sections: list[Section] = []
    for c in candidates:
        section = _clause_scope(contract, contract.section_at(c.start) or contract.section(c.section))
        if section and section not in sections:
            sections.append(section)
    return [a for a in (assess(contract, entry, s) for s in sections[:3]) if a]


def review_clause(contract: Contract, entry: PlaybookEntry) -> dict:
    """The finding for one clause type over the whole contract (missing, or not applicable to
    this deal, if no candidate)."""
    assessed = readings(contract, entry)
    if not assessed:
        return absent_finding(contract, entry)
    return _strongest(entry, assessed)


def _strongest(entry: PlaybookEntry, assessed: list[dict]) -> dict:
    metric = entry.metric.name if entry.metric else None
    # The strongest section speaks for the clause, unless another one is on the side the buyer's
    # playbook is about (the supplier's cap, the supplier's insurance), or its value could not be
    # read and another section's could.
    on_side = [a for a in assessed if stance.matches_interest(metric, a["binds"], a["protects"])]
    pool = on_side or assessed
    chosen = pool[0]
    if "check" in chosen["rationale"]:
        readable = [a for a in pool[1:] if "check" not in a["rationale"]]
        if readable:
            chosen = readable[0]
    return chosen


def stronger_elsewhere(contract: Contract, entry: PlaybookEntry, finding: dict) -> dict | None:
    """Coverage for a clause assessed where the reviewer chose to look (often where memory said):
    the reading of another place that should speak for the clause type instead, or None.

    Another place speaks instead when it is the contract's strongest reading of the clause (what
    `review_clause` gives) and is another provision or reads it differently (the remembered place
    held a weaker mention, a competing provision such as an indemnity's sub-limit beside the
    general cap, or the clause moved): where two provisions compete, the contract chooses, never
    the place looked at first (issue 29: memory must not decide which provision is the finding), or
    when it imposes a burden on the buyer (SEPARATE_PROVISIONS: a restraint, a waiver ...) worse
    than `finding` wherever it stands (a clause added next to the one looked at); the worse for
    the buyer first. Only readings with a readable value count, and burdens only on the side the
    playbook is about: the other side's clause is `other_side`'s business."""
    assessed = readings(contract, entry)
    if not assessed:
        return None
    metric = entry.metric.name if entry.metric else None
    strongest = _strongest(entry, assessed)
    rank = BUYER_RISK.get(finding["verdict"], 3)
    burdens = [a for a in assessed if metric in SEPARATE_PROVISIONS and BUYER_RISK.get(a["verdict"], 3) < rank]
    contrary = [strongest] if (strongest["verdict"], strongest["section"]) != (finding["verdict"], finding["section"]) else []
    pool = [a for a in [*burdens, *contrary]
            if (a["end"] <= finding["start"] or a["start"] >= finding["end"])
            and (a is strongest or stance.matches_interest(metric, a["binds"], a["protects"]))
            and "check it by hand" not in a["rationale"]]
    return min(pool, key=lambda a: BUYER_RISK.get(a["verdict"], 3)) if pool else None


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
