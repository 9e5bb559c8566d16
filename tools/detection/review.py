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
from tools.detection.clauses import (
    Candidate,
    candidates_in_section,
    contract_sentences,
    find_candidates,
)
from tools.detection.detector import COST_PLUS
from tools.detection.metrics import Judgement
from tools.detection.parties import (
    Parties,
    actor_after,
    actor_before,
    identify_parties,
    other,
    reading_for,
)
from tools.detection.rules import COMPANIONS
from tools.playbook import Metric, Playbook, PlaybookEntry

# `favourable`: the clause type is present and every provision of it favours the buyer (a cap that
# protects only the buyer, a restraint that binds only the supplier): no change needed.
VERDICTS = ("standard", "fallback", "deviation", "missing", "not_applicable", "favourable")
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
    if verdict in ("standard", "not_applicable", "favourable") or (verdict == "missing" and entry.missing.severity == "none"):
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
    if re.search(rf"\b(?:{words})\b", text, re.IGNORECASE):
        return True
    return any(re.search(pattern, text) for pattern in entry.applies_if.patterns)


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
    """Assess one clause type in one section: the finding dict (with its rationale, citation,
    binds and protects) of the provision in it worst for the buyer, or None when the section holds
    no sentence of that clause type. The provision is chosen as `review_clause` chooses over the
    whole contract (`rank`), so a look at one section never picks a provision the whole-contract
    review would not."""
    parties = parties_of(contract)
    with reading_for(parties):
        found = candidates_in_section(contract, entry.id, section)
        if not found:
            return None
        ranked = _ranked(entry, _read_provisions(contract, entry, parties, found))
    return _public(ranked[0]) if ranked else None


# Metrics whose deviation is a burden the buyer takes on (a restraint, a commitment, a waiver, a
# sole remedy, a disclaimer, damages it pays): one provision that imposes it is a deviation
# whatever its neighbours say.
SEPARATE_PROVISIONS = frozenset({"restriction_on_buyer", "termination_waiver", "exclusive_remedy", "disclaimer_scope",
                                 "damages_direction"})
# Worst for the buyer first: the order in which provisions of one clause type are ranked.
BUYER_RISK = {"deviation": 0, "fallback": 1, "standard": 2, "favourable": 3}
# Judges that read both sides themselves (who indemnifies whom, who may terminate for convenience):
# their provisions are read over the whole numbered clause, so that a counter-indemnity or the
# other party's right is weighed with its pair, and the other side's provision is ranked with the
# rest (the buyer's indemnity to the supplier is the deviation the playbook names), never set aside.
WHOLE_CLAUSE = frozenset({"indemnity_direction", "notice_days"})
# Metrics whose every sub-section is a provision of its own (a mutual cap in 9.1 and the supplier's
# cap in 9.4; a restraint added beside an old one); the others (a figure and the procedure next to
# it: a payment period and the dispute period of 4.4, insurance and its limits) are read over their
# numbered clause, each clause, schedule or inserted article a provision.
EACH_SUB_SECTION = SEPARATE_PROVISIONS | {"cap_multiple"}
_UNREAD = re.compile(r"\b(?:check|review)\s+(?:it|them)\s+by\s+hand\b|\bno\s+readable\b")


def readable(assessment: dict) -> bool:
    """Whether the provision's value was read (not "check it by hand")."""
    return not _UNREAD.search(assessment.get("rationale") or "")


def rank_key(entry: PlaybookEntry, assessment: dict) -> tuple[int, int, int]:
    """How a provision ranks for the finding (lower first): on the side the playbook is about,
    then read over "check it by hand", then worst for the buyer."""
    metric = entry.metric.name if entry.metric else None
    binds, protects = assessment.get("binds"), assessment.get("protects")
    aside = assessment.get("verdict") == "favourable" or (
        metric not in WHOLE_CLAUSE and not stance.matches_interest(metric, binds, protects))
    return (1 if aside else 0, 0 if readable(assessment) else 1, BUYER_RISK.get(assessment.get("verdict", ""), 4))


# A provision whose best sentence scores under this share of the type's strongest one (a passing
# mention: "the Customer remains owner of its Confidential Information") is listed, but does not
# compete with the clause itself for the finding.
PASSING = 0.6


def _ranked(entry: PlaybookEntry, assessed: list[dict]) -> list[dict]:
    # stable: the detector's strongest provision first among equals
    top = max((a.get("strength", 0.0) for a in assessed), default=0.0)
    metric = entry.metric.name if entry.metric else None
    # the buyer's own right (to terminate for convenience) is what the playbook reads; the supplier's
    # right beside it is listed, and is the finding only when the buyer has none
    buyers_right = metric in ONLY_THE_SUPPLIER and any(a.get("protects") in ("buyer", "both") for a in assessed)
    sections = [a.get("section") or "" for a in assessed]

    def key(a: dict) -> tuple[int, int, int, int, int, int]:
        aside, unread, risk = rank_key(entry, a)
        if buyers_right and a.get("protects") == "supplier":
            aside = 1
        # listed only: a provision read as part of another one (its clause, its section) never takes the finding's place
        return (1 if a.get("listed_only") else 0, aside, 1 if a.get("strength", top) < PASSING * top else 0, unread, risk,
                1 if points_elsewhere(a, sections) else 0)

    return sorted(assessed, key=key)


# a provision that states its term by reference to another one: "in accordance with the provisions of Section 4.4"
_REFERS = re.compile(r"\b(?:in\s+accordance\s+with|as\s+(?:set\s+(?:out|forth)|provided|described|specified|stated)\s+in|pursuant\s+to"
                     r"|subject\s+to|under)\s+(?:the\s+(?:terms\s+(?:and\s+conditions\s+)?|provisions\s+)?of\s+)?"
                     r"(?:Sections?|Clauses?|Articles?|Paragraphs?)\s+(\d+(?:\.\d+)*)", re.IGNORECASE)


def points_elsewhere(assessment: dict, sections: list[str]) -> bool:
    """Whether a provision defers to another provision of the type listed beside it ("Detto shall
    indemnify PivX in accordance with Section 4.4"): the provision it points to is the one to read."""
    own = str(assessment.get("section") or "")
    for hit in _REFERS.finditer(assessment.get("quote") or ""):
        target = hit.group(1)
        if own == target or own.startswith(target + "."):
            continue
        if any(s == target or s.startswith(target + ".") for s in sections):
            return True
    return False


def _regions(contract: Contract) -> dict[str, Section]:
    """Each section's own text (without its sub-sections): the unit a provision is read in."""
    return {s.id: Section(id=s.id, title=s.title, start=start, end=end) for s, start, end in contract.own_spans()}


def _read_provisions(contract: Contract, entry: PlaybookEntry, parties: Parties, found: list[Candidate]) -> list[dict]:
    """Each provision the candidates belong to (one per section or sub-section that holds one,
    sections, schedules, exhibits and inserted articles alike), read on its own; a provision
    whose figure sits in a sibling sub-section ("9.1 Supplier shall maintain insurance. 9.2 with
    limits of ...") is read with its numbered clause when alone it has none."""
    regions = _regions(contract)
    whole = (entry.metric.name if entry.metric else None) not in EACH_SUB_SECTION
    groups: dict[str, list[Candidate]] = {}
    for candidate in found:
        key = candidate.section
        scope = _clause_scope(contract, contract.section(key)) if whole else None
        if scope is not None:
            key, regions[scope.id] = scope.id, scope
        groups.setdefault(key, []).append(candidate)
    out: list[dict] = []
    spans: set[tuple[int, int]] = set()
    for section_id, group in groups.items():
        if all(_defines_only(c.quote) for c in group):
            continue  # a definition ("'Confidential Information' means ...") states no term of its own
        region = regions.get(section_id) or contract.section(section_id) \
            or Section(id=section_id, title="", start=0, end=len(contract.text))
        inside = candidates_in_section(contract, entry.id, region) or group
        reading = _read_region(contract, entry, parties, region, inside)
        strength = max(c.score for c in group)
        readings = [reading, *_separate_sentences(contract, entry, region, parties, inside, reading)]
        if whole:
            readings += _sub_sections(contract, entry, parties, regions, inside, reading)
        for one in readings:
            if (one["start"], one["end"]) not in spans:
                spans.add((one["start"], one["end"]))
                one["strength"] = strength
                out.append(one)
    return out


def _read_region(contract: Contract, entry: PlaybookEntry, parties: Parties, region: Section,
                 inside: list[Candidate]) -> dict:
    """One provision read over its region, with its numbered clause beside it when alone it
    states no readable figure."""
    reading = _assess_provision(contract, entry, region, parties, inside)
    if not readable(reading):
        scope = _clause_scope(contract, contract.section(region.id))
        if scope is not None and (scope.start, scope.end) != (region.start, region.end):
            context = [c for c in candidates_in_section(contract, entry.id, scope) if c.section != region.id]
            if context:
                together = _assess_provision(contract, entry, region, parties, inside, context=context)
                if readable(together):
                    reading = together
    return reading


def _sub_sections(contract: Contract, entry: PlaybookEntry, parties: Parties, regions: dict[str, Section],
                  inside: list[Candidate], reading: dict) -> list[dict]:
    """The other sub-sections of a numbered clause read as a whole (a payment period in 6.4 and the
    late interest in 6.5; a warranty in 7.1 and its exclusions in 7.6): each read on its own and
    listed under the finding. The clause's reading stays the one that competes for the finding, so
    a sentence that needs its neighbours' figures is never judged alone."""
    out: list[dict] = []
    held = {reading.get("section")}
    for section_id in dict.fromkeys(c.section for c in sorted(inside, key=lambda c: c.start)):
        region = regions.get(section_id)
        own = [c for c in inside if c.section == section_id]
        if section_id in held or region is None or all(_defines_only(c.quote) for c in own):
            continue
        if any(reading["start"] <= c.start < reading["end"] for c in own):
            continue
        one = _read_region(contract, entry, parties, region, own)
        if one["start"] < reading["end"] and reading["start"] < one["end"]:
            continue
        one["listed_only"] = True
        held.add(section_id)
        out.append(one)
    return out


def _separate_sentences(contract: Contract, entry: PlaybookEntry, region: Section, parties: Parties,
                        inside: list[Candidate], reading: dict) -> list[dict]:
    """Sentences of one section that are provisions of their own: a sentence the section's reading
    does not quote that, read alone, binds or protects another side than that reading (the
    supplier's "further limited" cap after a mutual exclusion; the supplier's indemnity beside the
    buyer's). A section the contract does not number finer ("A. ... B. ...", "(i) ... (ii) ...")
    thus shows each provision. Where each sentence stands alone (caps, restraints, waivers,
    remedies, disclaimers: EACH_SUB_SECTION) such a sentence competes for the finding; where the
    section is judged as a whole (WHOLE_CLAUSE: who indemnifies whom) it is only listed."""
    metric = entry.metric.name if entry.metric else None
    if metric not in EACH_SUB_SECTION | WHOLE_CLAUSE or len(inside) < 2:
        return []
    out: list[dict] = []
    sides = (reading.get("binds"), reading.get("protects"))
    readings = {reading.get("reading")}
    for candidate in sorted(inside, key=lambda c: c.start):
        if reading["start"] <= candidate.start < reading["end"] or any(o["start"] <= candidate.start < o["end"] for o in out):
            continue
        single = _assess_provision(contract, entry, region, parties, [candidate])
        if single["start"] < reading["end"] and reading["start"] < single["end"]:
            continue  # it widened onto the section's quote: the same provision
        other_side = None not in (single["binds"], single["protects"]) and (single["binds"], single["protects"]) != sides
        if other_side and not any((o["binds"], o["protects"]) == (single["binds"], single["protects"]) for o in out):
            single["listed_only"] = metric in WHOLE_CLAUSE
        elif metric in BURDENS and rank_key(entry, single) < rank_key(entry, reading):
            pass  # a further restraint, waiver or liability the buyer takes on: a burden of its own, it competes
        elif metric in EACH_SUB_SECTION and single.get("reading") not in readings and len(out) < SAME_SIDE_LISTED:
            # another provision on the same side ("not liable for consequential damages" after the cap
            # itself; "as is" for unlisted goods beside the disclaimer of implied warranties): listed under
            # the finding with its own reading, since it qualifies its neighbours rather than adding a burden
            single["listed_only"] = True
        else:
            continue
        readings.add(single.get("reading"))
        out.append(single)
    return out


# Burdens that add up, sentence by sentence: a second restraint on the buyer (not to deal with the
# supplier's contacts, after not hiring its staff), a further waiver. (Liquidated damages are read
# with their neighbours: "is not the buyer's sole remedy" in the next sentence changes them.)
BURDENS = frozenset({"restriction_on_buyer", "termination_waiver"})
# at most this many further sentences of one section on the same side are listed (the rest repeat them)
SAME_SIDE_LISTED = 3


_DEFINES = re.compile(r"[\"“”]\s*\)?\s*(?:means|shall\s+mean|has\s+the\s+meaning|is\s+defined\s+as|refers\s+to)\b"
                      r"|\b(?:the\s+)?terms?\s+[\"“][^\"”]{1,60}[\"”]\s*(?:,\s*)?(?:as\s+used\s+\w+\s+\w+\s*,\s*)?(?:means|shall\s+mean)\b", re.IGNORECASE)
# what makes a definition carry a term: "'Minimum Fee' means the fees payable by Customer each month"
_BINDS = re.compile(r"\b(?:shall|must|will|agrees?\s+to|undertakes?\s+to|may|is\s+(?:not\s+)?(?:entitled|liable|required)|payable|owed|owing"
                    r"|(?:is|are|be)\s+due)\b(?!\s+mean)", re.IGNORECASE)


# a definition that sets a price formula states a term: "'Unit Price' means the Unit Cost plus the Margin"
_PRICE_FORMULA = re.compile(COST_PLUS, re.IGNORECASE)


def _defines_only(sentence: str) -> bool:
    """A definition that carries no obligation, right, limit or price formula of its own (a
    definition that does, "'Cap' means ... and the Supplier shall not be liable beyond it", stays a
    provision)."""
    if not _DEFINES.search(sentence) or _PRICE_FORMULA.search(sentence):
        return False
    rest = _DEFINES.split(sentence, maxsplit=1)[-1]
    return not _BINDS.search(rest) and not _BINDS.search(sentence[: _DEFINES.search(sentence).start()])


def _assess_provision(contract: Contract, entry: PlaybookEntry, section: Section, parties: Parties,
                      found: list[Candidate], *, context: list[Candidate] | None = None) -> dict:
    """One provision (the candidates of one section or sub-section, best first), with `context`
    (sentences of its numbered clause) read beside it when it states no figure of its own."""
    metric = entry.metric.name if entry.metric else None
    # A provision that sets the clause for each side (a cap on each party's liability, insurance
    # each must carry): the sentences on the side the buyer's playbook is about come first.
    found = sorted(found, key=lambda c: not stance.matches_interest(metric, *stance.read_stance(metric, c.quote)))
    # Companion terms (a survival period, a breach-notice deadline ...) may sit in a sibling
    # sub-section of the same clause, so they are looked up over the whole numbered clause.
    scope = _clause_scope(contract, contract.section(section.id)) or section
    helpers = [c for helper in COMPANIONS.get(entry.id, ()) for c in candidates_in_section(contract, helper, scope)]
    # the clause is judged on the side it is about: the other side's sentences do not mix in
    on_side = [c for c in found if stance.matches_interest(metric, *stance.read_stance(metric, c.quote))]
    core = on_side[:2] or found[:2]
    own = next((c for c in found if indemnity_giver(c.quote) == "buyer"), None) if metric == "indemnity_direction" else None
    if own is not None and all(c.start != own.start for c in core):
        core = [*core, own]  # the buyer's own indemnity is weighed with the supplier's (who gives the broader one)
    burden = _heaviest(entry, on_side or found) if metric in BURDENS else None
    if burden is not None and all(c.start != burden.start for c in core):
        core = [burden, *core[:1]]
    extra = [c for c in (context or []) if all(c.start != f.start for f in core)][:2]
    limits: list[Candidate] = []
    if metric == "indemnity_direction":
        limits = indemnity_limits(contract, section, {c.section for c in core})
        extra += [c for c in limits if all(c.start != f.start for f in core + extra)][:2]
    picked = core + extra + [h for h in helpers if all(h.start != f.start for f in core + extra)][:2]
    picked.sort(key=lambda c: c.start)
    text = " ".join(c.quote for c in picked)
    primary = burden or (on_side[0] if on_side else max(found[:2], key=lambda c: c.score))
    binds, protects = stance.read_stance(metric, primary.quote)
    if binds is None and protects is None:
        binds, protects = stance.read_stance(metric, text)
    judged = judge(entry, text)
    if metric == "indemnity_direction":
        # a clause where both sides indemnify is quoted at the buyer's own indemnity (the one a
        # lawyer redlines), read as binding the buyer; the verdict weighs both sides (`judge`)
        if own is not None and judged.value != "supplier":  # not a narrow counter-indemnity beside the supplier's broad one
            primary, binds, protects = own, "buyer", "supplier"
    if metric == "price_increase_pct" and judged.level != "standard" and _SCOPE_CHANGE.search(contract.text, section.start, section.end):
        # the cost of work the buyer adds (change orders, changes to the scope) is charged on top of the
        # agreed price: no change to the agreed prices, unless the rest of the provision says so
        rest = judge(entry, _SCOPE_CHANGE.sub(" ", _SUCH_CHANGES.sub(" ", text)))
        if rest.level == "standard":
            judged = Judgement("standard", "work the buyer adds (change orders, changes to the scope) is charged on top; "
                                           "the agreed prices do not change", None)
    if metric == "payment_days":
        # payment terms bind whoever pays: the buyer, unless the wording has the supplier (or each party) pay
        binds = payer(primary.quote)
        protects = other(binds)
    changed = supplier_may_change(contract, entry, section) if metric in CHANGEABLE else None
    if changed is not None:
        # the supplier may change the term at its discretion: whatever figure the clause states, the buyer cannot rely on it
        primary, binds, protects = changed, "buyer", "supplier"
        judged = Judgement("deviation", f"the supplier may change the {CHANGEABLE[metric][0]} at its discretion", "supplier")
    if entry.id == "minimum_commitment" and not _COMMITMENT.search(text) and _ORDER_SIZE.search(text):
        judged = Judgement("standard", "a minimum size for each order, not a commitment to buy any quantity", None)
        binds = protects = None
    if metric == "indemnity_direction" and judged.value == "supplier" and limits:
        # the supplier's indemnity read as uncapped, though a cap in its clause, or one naming it, limits it
        judged = Judgement("deviation", f"the supplier's indemnity is capped or limited ({contract.cite(limits[0].section, limits[0].start)})",
                           "supplier-capped")
    if metric in _BOUND_BY_VALUE and judged.value in ("buyer", "supplier") and (binds in (None, "both") or metric in _BOUND_BY_JUDGE):
        # the judge read who is restrained, waives or pays (its obligations), where naming both parties
        # in the sentence ("sell exclusively to the Buyer") left the stance at "both"; a waiver of compensation
        # is read by its judge alone ("X shall not be liable to Y for compensation" binds Y, who gives it up)
        binds, protects = judged.value, other(judged.value)
    verdict, note = buyer_side(metric, judged, binds, protects)
    start, end = _quote_span(contract, primary, [h for h in helpers[:2] if h.start != primary.start])
    citation = contract.cite(primary.section, start)
    if favours_buyer(metric, binds, protects):
        why = note or ONE_WAY_FOR_BUYER.get(metric or "") \
            or f"it {'protects' if stance.INTEREST[metric][0] == 'protects' else 'binds'} only the " \
               f"{'buyer' if stance.INTEREST[metric][0] == 'protects' else 'supplier'}"
        finding = make_finding(
            entry, "favourable", primary.section, contract.text[start:end], start, end,
            rationale=_favourable_rationale(citation, judged.rationale, why, binds, protects, parties),
            recommendation=f"No change needed: {citation} favours the buyer ({why}).",
            citation=citation, binds=binds, protects=protects)
    else:
        finding = make_finding(
            entry, verdict.level, primary.section, contract.text[start:end], start, end,
            rationale=advice.rationale(entry, verdict.level, verdict.rationale, citation, binds=binds, protects=protects,
                                       parties=parties, adjusted=note),
            recommendation=advice.recommendation(entry, verdict.level, f"{verdict.rationale}; {note}" if note else verdict.rationale, citation),
            citation=citation, binds=binds, protects=protects,
        )
    kind = limit_kind(primary.quote) if metric == "cap_multiple" and judged.value is None else None
    finding["reading"] = short_reading(metric, f"{kind}, no amount to read" if kind else judged.rationale, binds, protects)
    return finding


def _heaviest(entry: PlaybookEntry, sentences: list[Candidate]) -> Candidate | None:
    """Of a provision's sentences, the one that alone reads worst for the buyer when it reads worse
    than the first (a restraint on competing after a promise not to hire staff), else None."""
    if len(sentences) < 2:
        return None
    risk = [BUYER_RISK.get(judge(entry, c.quote).level, 4) for c in sentences]
    worst = min(range(len(sentences)), key=lambda i: (risk[i], i))
    return sentences[worst] if risk[worst] < risk[0] else None


# What a limitation of liability without a readable amount does, for its one-line reading under a finding
_LIMIT_KINDS = (
    ("a cap whose amount is redacted", re.compile(r"(?:shall|will|may|does)\s+not\s+exceed[^.;]{0,40}?(?:\[[^\]]{0,40}\]|\*{3,})"
                                                 r"|\b(?:limited|capped)\s+to[^.;]{0,40}?(?:\[[^\]]{0,40}\]|\*{3,})", re.IGNORECASE)),
    ("a cap on liability", re.compile(r"\b(?:shall|will|may|does)\s+not\s+(?:in\s+any\s+event\s+)?exceed|\bnot\s+to\s+exceed"
                                      r"|\b(?:limited|capped|restricted)\b[^.;]{0,80}?\bto\b|\bin\s+excess\s+of\b", re.IGNORECASE)),
    ("an exclusion of indirect and consequential loss", re.compile(r"\b(?:indirect|consequential|incidental|punitive|exemplary)\b"
                                                                   r"|\blost\s+profits?\b|\bloss\s+of\s+profits?\b", re.IGNORECASE)),
    ("a time limit on claims", re.compile(r"\b(?:actions?|claims?|suits?|proceedings?)\b[^.]{0,200}?\b(?:brought|commenced|filed|"
                                          r"instituted|asserted)\b[^.]{0,80}?\b(?:within|after|more\s+than)\b", re.IGNORECASE)),
    ("liability limited to the remedies stated", re.compile(r"\bsole\s+(?:and\s+exclusive\s+)?(?:liability|obligation)|"
                                                             r"\bentire\s+liability\b|\bexclusive\s+remed", re.IGNORECASE)),
)


def limit_kind(sentence: str) -> str | None:
    """What a limitation of liability does when it states no amount to read (its kind, for the
    one-line reading: "an exclusion of indirect and consequential loss", "a time limit on claims")."""
    return next((label for label, pattern in _LIMIT_KINDS if pattern.search(sentence)), None)


_CAP = re.compile(r"\b(?:shall|will|may|does)\s+not\s+(?:in\s+any\s+event\s+)?exceed|\bnot\s+to\s+exceed|\b(?:limited|capped)\s+(?:to|at)\b"
                  r"|\bin\s+excess\s+of\b|\bsubject\s+to\s+(?:a|an|the)\s+(?:\w+\s+){0,2}?(?:maximum|cap|ceiling|limit)\b"
                  r"|\bmaximum\s+(?:aggregate\s+|total\s+)?(?:amount|liability|sum)\s+(?:of|is|shall\s+be)\b", re.IGNORECASE)
# a cap that leaves the indemnities out of it: "except for its indemnification obligations", "the limits
# above shall not apply to Clause 8 (Indemnities)"
_CARVE = (r"\b(?:except|excluding|exclusive\s+of|other\s+than|save|apart\s+from|without\s+prejudice\s+to|(?:shall|will|does|do)\s+not\s+"
          r"(?:apply|limit)|not\s+(?:be\s+)?(?:subject|limited)|carve)\b[^.;]{0,160}?")
_NOTHING = r"\bnothing\s+(?:in\s+this\s+(?:agreement|contract|clause|section)\s+)?(?:shall\s+|will\s+)?(?:limits?|excludes?|restricts?)\b[^.;]{0,300}?"
_INDEMNITIES = r"\bindemn\w*"


def _indemnity_words(ids: set[str]) -> str:
    """The indemnities as a term names them: the word, or the clause that holds them ("clause 8.1")."""
    numbers = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True) if i and i[0].isdigit())
    return rf"(?:{_INDEMNITIES}|\b(?:clauses?|sections?|articles?|paragraphs?)\s+(?:{numbers})(?!\.\d|\w))" if numbers else _INDEMNITIES


# a sentence that lifts the limit: "Vendor's obligations under clause 8.1 are not subject to the limit in clause 8.2"
_UNLIMITED = re.compile(r"\bnot\s+(?:be\s+)?subject\s+to\b|\b(?:shall|will|does|do)\s+not\s+apply\b|\bunlimited\b|\bwithout\s+(?:any\s+)?limit", re.IGNORECASE)


def indemnity_limits(contract: Contract, clause: Section, ids: set[str] | None = None) -> list[Candidate]:
    """The caps that limit an indemnity (held in `clause`, in the sub-sections `ids`): one that
    names the indemnities or their clause ("the Supplier's liability under this Clause 9 shall not
    exceed ..."), or a cap inside the indemnity's own clause when no term of the contract spares the
    indemnities from the caps ("except for indemnification obligations", "the limit in clause 8.2
    does not apply to liability under clause 8.1", "nothing limits liability under the indemnities")."""
    words = _indemnity_words({clause.id, *(ids or ())})
    named = re.compile(words, re.IGNORECASE)
    spares = re.compile(rf"{_CARVE}{words}|{_NOTHING}{words}", re.IGNORECASE)
    caps = find_candidates(contract, "liability_cap", limit=0)
    # the indemnity clause's own sentences too: "the indemnity in this Section 11 is subject to a maximum of ..."
    own = [Candidate("liability_cap", sec.id, text, start, end, 0.0) for sec, start, end, text in contract_sentences(contract)
           if clause.start <= start < clause.end and named.search(text) and _CAP.search(text)]
    spared = bool(spares.search(contract.text))
    found = [c for c in caps
             if _CAP.search(c.quote) and not spares.search(c.quote)
             and (named.search(c.quote) or (clause.start <= c.start < clause.end and not spared))]
    return [c for c in found + [c for c in own if not spares.search(c.quote) and all(c.start != f.start for f in found)]
            if not _UNLIMITED.search(c.quote)]


_GIVES_INDEMNITY = re.compile(r"\bindemnif(?:y|ies)\b|\b(?:shall|will|agrees?\s+to)\s+(?:\w+\s+){0,2}?defend\b", re.IGNORECASE)


def indemnity_giver(sentence: str) -> str | None:
    """Who gives the indemnity a sentence states (the subject of its first "indemnify"), or None."""
    hit = _GIVES_INDEMNITY.search(sentence)
    return actor_before(sentence, hit.start(), 100) if hit else None


# Terms the supplier may reserve the right to change (metric: what the term is, the words that name it):
# "NETGEAR, in its sole discretion, reserves the right to specify, and to change from time to time, Distributor's
# credit line and payment terms", "Vendor may amend the payment terms from time to time".
CHANGEABLE: dict[str, tuple[str, re.Pattern[str]]] = {
    "payment_days": ("payment terms", re.compile(r"\b(?:payment\s+terms?|terms\s+of\s+payment|credit\s+(?:line|limits?|terms?))\b", re.IGNORECASE)),
}
_AT_WILL = re.compile(r"\b(?:(?:sole|absolute|own|reasonable)\s+discretion|reserves?\s+the\s+right\s+to|(?:is|shall\s+be)\s+entitled\s+to"
                      r"|may\s+(?:(?!not\b|never\b)\w+\s+){0,3}?(?:change|modify|amend|vary|revise|alter))\b", re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:chang|modif|amend|var(?:y|ies)\b|revis|alter|specify|re-?set)\w*", re.IGNORECASE)
_AGREED = re.compile(r"\b(?:mutual(?:ly)?\s+(?:agree\w*|consent)|(?:written\s+)?(?:agreement|consent|approval)\s+of\s+(?:both|the\s+parties)"
                     r"|by\s+(?:written\s+)?agreement|agreed\s+(?:in\s+writing\s+)?by\s+(?:both|the)\s+parties"
                     r"|with(?:out)?\s+(?:the\s+)?(?:[\w'’]+\s+){0,2}?(?:prior\s+)?(?:written\s+)?(?:consent|approval|agreement))\b", re.IGNORECASE)


def supplier_may_change(contract: Contract, entry: PlaybookEntry, region: Section) -> Candidate | None:
    """The sentence of a provision (anywhere in its numbered clause) by which the supplier may
    change the term at its discretion, or None: a figure the supplier can change is no term the
    buyer can rely on. A change by agreement of both parties is no such right."""
    metric = entry.metric.name if entry.metric else ""
    scope = _clause_scope(contract, contract.section(region.id)) or region
    lo, hi = min(scope.start, region.start), max(scope.end, region.end)
    names = CHANGEABLE[metric][1]
    for sec, start, end, text in contract_sentences(contract):
        if not lo <= start < hi or not names.search(text) or _AGREED.search(text):
            continue
        for hit in _AT_WILL.finditer(text):
            if _DENIED_BEFORE.search(text[max(0, hit.start() - 12):hit.start()]):
                continue
            if _CHANGE.search(text, hit.start()) and actor_before(text, hit.start(), 120) == "supplier":
                return Candidate(entry.id, sec.id, text, start, end, 0.0)
    return None


_EACH_PAYS = re.compile(r"\b(?:each|either)\s+party\s+(?:shall|will|must|agrees?\s+to)\s+(?:\w+\s+){0,2}?pay\b|\bappropriate\s+party\b"
                        r"|\b(?:paid|payable)\s+(?:by|to)\s+(?:each|either|the\s+(?:relevant|appropriate|other))\s+party\b", re.IGNORECASE)
_PAYS = re.compile(r"\b(?:shall|will|must|agrees?\s+to|undertakes?\s+to|is\s+(?:required|obliged|obligated)\s+to)\s+(?:\w+\s+){0,2}?"
                   r"(?:pay|remit|reimburse)\b|\bpayable\s+by\b", re.IGNORECASE)


def payer(sentence: str) -> str:
    """Who a payment term binds: each party where each pays the other (a revenue share), the
    supplier where it is the one that pays ("Supplier shall pay the rebate within 30 days"), else
    the buyer, which pays for what it buys ("Payment of Seller's invoices is due within 60 days",
    "the parties agree to payment terms of net 30")."""
    if _EACH_PAYS.search(sentence):
        return "both"
    payers = set()
    for hit in _PAYS.finditer(sentence):
        who = actor_after(sentence, hit.end(), 40) if hit.group(0).lower().startswith("payable") else actor_before(sentence, hit.start(), 80)
        if who:
            payers.add(who)
    return "supplier" if payers == {"supplier"} else "both" if "both" in payers or len(payers) > 1 else "buyer"


# work added to the deal at the buyer's request: "Change Orders", "any changes to the Scope of Work", "Additional Work"
_SCOPE_CHANGE = re.compile(
    r"\bchange\s+(?:orders?|requests?)\b|\badditional\s+(?:work|services|deliverables)\b|\bout[\s-]of[\s-]scope\b"
    r"|\b(?:changes?|modifications?|additions?|revisions?|amendments?)\s+(?:to|in|of)\s+the\s+(?:scope|specifications?|"
    r"statement\s+of\s+work|work\b|deliverables|requirements)", re.IGNORECASE)
# "the costs of any such changes": words that point back to them
_SUCH_CHANGES = re.compile(r"\b(?:any\s+)?(?:such|these|those|the(?:\s+requested)?)\s+(?:changes|modifications|revisions|additions)\b(?!\s+(?:to|in|of)\s+(?:the\s+)?(?:prices?|fees?|rates?|charges?))", re.IGNORECASE)
_DENIED_BEFORE = re.compile(r"\b(?:not|no|never)\s+$", re.IGNORECASE)
# a minimum for each order ("ordered in the minimum and/or standard lot size quantities", "a minimum order quantity
# of 500 units per order") that commits the buyer to no volume: no purchase commitment
_ORDER_SIZE = re.compile(
    r"\b(?:minimum|standard)\s+(?:and/or\s+(?:minimum|standard)\s+)?(?:lot|order|batch|pack(?:age)?|case|carton)[\s-]*"
    r"(?:sizes?|quantit(?:y|ies)|multiples?)\b"
    r"|\bminimum\s+(?:order|purchase)\s+(?:quantit(?:y|ies)|value|amount|size)\b[^.;]{0,60}?\b(?:per|for\s+(?:each|any|every))\s+"
    r"(?:purchase\s+)?(?:order|shipment|delivery)\b"
    r"|\b(?:each|every|any)\s+(?:purchase\s+)?order\s+(?:shall|must|will)\s+be\s+(?:for|in)\s+(?:at\s+least|a\s+minimum|multiples)\b",
    re.IGNORECASE)
# what makes a minimum a commitment: a quantity over a period, take-or-pay, a shortfall, a promise to buy at least
_COMMITMENT = re.compile(
    r"\b(?:per|each|every|in\s+(?:any|each|every)|during\s+(?:any|each|every|the))\s+(?:calendar\s+|contract\s+)?"
    r"(?:year|quarter|month|term|period)\b|\bannual(?:ly)?\b|\btake[\s-]or[\s-]pay\b|\bshortfall\b"
    r"|\b(?:shall|must|agrees?\s+to|will|undertakes?\s+to)\s+(?:purchase|buy|order)\s+(?:at\s+least|a\s+minimum|not\s+less|no\s+less|all)\b"
    r"|(?<!non-)(?<!non\s)\bbinding\b", re.IGNORECASE)


# Obligations the playbook wants mutual: one that binds only the supplier and protects only the buyer (a
# confidentiality undertaking of the supplier alone) favours the buyer.
ONE_WAY_FOR_BUYER = {"survival_years": "it binds only the supplier and protects only the buyer"}


# judges whose value names the party a provision binds
_BOUND_BY_VALUE = frozenset({"restriction_on_buyer", "termination_waiver", "damages_direction"})
_BOUND_BY_JUDGE = frozenset({"termination_waiver"})


def favours_buyer(metric: str | None, binds: str | None, protects: str | None) -> bool:
    """Whether a provision is the mirror of the burden the playbook is about: a limit that protects
    only the buyer, a restraint, waiver or sole remedy that binds only the supplier."""
    if metric in ONE_WAY_FOR_BUYER:
        return binds == "supplier" and protects == "buyer"
    want = stance.INTEREST.get(metric or "")
    if want not in (("protects", "supplier"), ("binds", "buyer")):
        return False
    return (protects if want[0] == "protects" else binds) == other(want[1])


def _favourable_rationale(citation: str, reading: str, why: str, binds: str | None, protects: str | None,
                          parties: Parties) -> str:
    who = f" It binds {parties.describe(binds)} and protects {parties.describe(protects)}." if binds or protects else ""
    reading = reading.rstrip(".")
    return (f"{citation[:1].upper()}{citation[1:]}: {reading}.{who} This favours the buyer ({why.rstrip('.')}): "
            "no change needed.")


_SIDES = {"both": "mutual", "buyer": "the buyer", "supplier": "the supplier"}


def short_reading(metric: str | None, rationale: str, binds: str | None, protects: str | None) -> str:
    """One line on a provision: whose it is and what it says ("the supplier's: cap multiple of
    fees 0.25 is below the fallback minimum 1")."""
    text = _UNREAD.sub("", rationale).rstrip(" ;.")
    kind = stance.shape(metric)
    if kind == "common" or (binds is None and protects is None):
        side = ""
    elif kind == "limit":
        side = "mutual" if protects == "both" else f"protects {_SIDES.get(protects or '', 'unclear')}" if protects else ""
    else:
        side = "binds both parties" if binds == "both" else f"binds {_SIDES[binds]}" if binds in _SIDES else ""
    line = f"{side}: {text}" if side else text
    return line if len(line) <= 160 else line[:157].rstrip() + "..."


def _public(assessment: dict) -> dict:
    return {k: v for k, v in assessment.items() if k not in ("reading", "strength", "listed_only")}


def buyer_side(metric: str | None, judged: Judgement, binds: str | None, protects: str | None) -> tuple[Judgement, str]:
    """The verdict read from the buyer's side of the clause, and a note when that changed it."""
    if stance.shape(metric) == "limit":
        if protects == "buyer":
            return Judgement("standard", judged.rationale, judged.value), "the limit protects only the buyer, so it costs the buyer nothing"
        if protects == "supplier" and metric == "cap_multiple":
            if judged.level == "fallback":
                return Judgement("deviation", judged.rationale, judged.value), "a cap that protects only the supplier is not the buyer's fallback"
    if metric in ONLY_THE_SUPPLIER and protects == "supplier":
        return Judgement("deviation", judged.rationale, judged.value), ONLY_THE_SUPPLIER[metric]
    want = stance.INTEREST.get(metric or "")
    if want and want[0] == "binds" and want[1] == "supplier" and binds == "buyer" and judged.level != "deviation":
        return Judgement("deviation", judged.rationale, judged.value), "the clause binds the buyer, not the supplier: the supplier owes nothing here"
    return judged, ""


# Rights the playbook wants the buyer to hold: held by the supplier alone they are a deviation (the
# buyer has none, and the supplier may walk away), whatever notice they take.
ONLY_THE_SUPPLIER = {"notice_days": "only the supplier may end the agreement or its services for convenience; the buyer has no such right"}


def _clause_scope(contract: Contract, section: Section | None) -> Section | None:
    """The numbered clause a sub-section belongs to ("7.2" -> "7"), so that terms split over
    sibling sub-sections (an obligation in 7.2, its duration in 7.3) are read together."""
    if section is None or "." not in section.id:
        return section
    parent = contract.section(section.id.split(".", 1)[0])
    if parent is None or parent.end - parent.start > 8000:
        return section
    return parent


def provisions(contract: Contract, entry: PlaybookEntry) -> list[dict]:
    """Every provision of the clause type in the whole contract (every section, schedule, exhibit
    or inserted article that holds a sentence of the type), each read on its own for whom it binds
    and protects and its figures, ranked as the finding is chosen (`rank_key`): the first is the
    finding. Each carries `reading`, its one-line summary."""
    parties = parties_of(contract)
    with reading_for(parties):
        found = find_candidates(contract, entry.id, limit=0)
        return _ranked(entry, _read_provisions(contract, entry, parties, found)) if found else []


def also_entry(assessment: dict) -> dict:
    """How a provision that is not the finding is listed under it (the `also` list)."""
    return {"section": assessment["section"], "citation": assessment["citation"], "verdict": assessment["verdict"],
            "binds": assessment["binds"], "protects": assessment["protects"], "reading": assessment.get("reading", ""),
            "start": assessment["start"], "end": assessment["end"]}


def with_also(finding: dict, ranked: list[dict]) -> dict:
    """`finding` with the other provisions of its clause type (those its quote does not cover)
    listed under it as `also`, in rank order."""
    finding = dict(finding)
    finding["also"] = [also_entry(a) for a in ranked
                       if a["end"] <= finding.get("start", -1) or a["start"] >= finding.get("end", -1)]
    return finding


def review_clause(contract: Contract, entry: PlaybookEntry) -> dict:
    """The finding for one clause type over the whole contract: the provision worst for the buyer
    (`provisions`), the others under it as `also`; `favourable` when every provision favours the
    buyer; missing (or not applicable to this deal) only when no candidate exists."""
    ranked = provisions(contract, entry)
    if not ranked:
        finding = absent_finding(contract, entry)
        finding["also"] = []
        return finding
    return with_also(_public(ranked[0]), ranked[1:])


def stronger_elsewhere(contract: Contract, entry: PlaybookEntry, finding: dict) -> dict | None:
    """Coverage for a clause assessed where the reviewer chose to look (often where memory said):
    the provision the whole contract ranks first (`review_clause`'s finding: the side the playbook
    is about, the clause itself over a passing mention, a readable value, worse for the buyer) when
    it is another provision than the one looked at and its value was read, else None. The
    contract's ranking decides which provision is the finding, never the place looked at first
    (memory must not decide it)."""
    ranked = provisions(contract, entry)
    if not ranked:
        return None
    top = ranked[0]
    if not (top["end"] <= finding["start"] or top["start"] >= finding["end"]):
        return None  # the provision looked at is the contract's finding
    if not readable(top):
        return None
    return _public(top)


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
