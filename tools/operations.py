"""The plain functions behind the reviewer's tools: each takes a Contract (and the playbook)
and returns the JSON-ready dict the tool answers with. Bad arguments give {"error": ...}."""

from __future__ import annotations

import difflib

from tools.contract import Contract
from tools.detection import advice, stance
from tools.detection.clauses import find_candidates
from tools.detection.review import (
    SEVERITIES,
    VERDICTS,
    also_entry,
    applies,
    assess,
    locate_quote,
    make_finding,
    parties_of,
    provisions,
    recommendation_for,
    review_clause,
    stronger_elsewhere,
    with_also,
)
from tools.detection.rules import DETECTORS
from tools.playbook import Playbook
from tools.search import search_sections

MAX_SECTION_CHARS = 12_000


def _unknown_section(contract: Contract, section: str) -> dict:
    ids = [s.id for s in contract.sections]
    shown = ", ".join(ids[:40]) + (" ..." if len(ids) > 40 else "")
    close = difflib.get_close_matches(str(section).strip(), ids, n=3, cutoff=0.5)
    guess = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return {"error": f"unknown section {section!r}; use an id exactly as list_sections gives it.{guess} Sections: {shown}"}


def _unknown_clause_type(playbook: Playbook, clause_type: str) -> dict:
    return {"error": f"unknown clause type {clause_type!r}; use one of: {', '.join(playbook.clause_types)}"}


def _listed(provision: dict) -> dict:
    """A provision as the tools list it for a model: where, the verdict, whose, one line (no offsets)."""
    return {k: v for k, v in also_entry(provision).items() if k not in ("start", "end")}


def list_sections_data(contract: Contract) -> dict:
    """The sections, and who the parties are (the buyer is the party we review for)."""
    parties = parties_of(contract)
    return {"sections": [s.model_dump() for s in contract.sections],
            "parties": {"buyer": parties.describe("buyer"), "supplier": parties.describe("supplier"), "how": parties.how}}


def read_section_data(contract: Contract, section: str) -> dict:
    found = contract.section(section)
    if found is None:
        return _unknown_section(contract, section)
    text = contract.section_text(found)
    result = {"section": found.id, "title": found.title, "start": found.start, "end": found.end, "text": text[:MAX_SECTION_CHARS]}
    if len(text) > MAX_SECTION_CHARS:
        result["truncated"] = True
        result["note"] = "section text truncated; read its sub-sections for the rest"
    return result


def search_contract_data(contract: Contract, query: str, k: int = 5) -> dict:
    if not query or not query.strip():
        return {"error": "empty query; pass a few keywords, e.g. 'limitation of liability'"}
    return {"hits": [h.as_dict() for h in search_sections(contract, query, k=max(1, min(int(k), 20)))]}


def find_clauses_data(contract: Contract, playbook: Playbook, clause_type: str) -> dict:
    if clause_type not in playbook.clauses and clause_type not in DETECTORS:
        return _unknown_clause_type(playbook, clause_type)
    candidates = find_candidates(contract, clause_type, limit=5)
    result: dict = {"clause_type": clause_type, "candidates": [c.as_dict() for c in candidates]}
    if clause_type in playbook.clauses:
        entry = playbook.entry(clause_type)
        ranked = provisions(contract, entry)
        # every provision of the type in the contract, read, in the order the finding is chosen
        # (the first is the one worst for the buyer): a model chooses with all of them in view
        result["provisions"] = [_listed(p) for p in ranked]
        if ranked:
            # the sections in that order, so a caller that assesses the first candidate assesses the finding
            first = list(dict.fromkeys(p["section"] for p in ranked))
            order = {section: i for i, section in enumerate(first)}
            result["candidates"].sort(key=lambda c: order.get(c["section"], len(order)))
        # what to record if the clause turns out to be absent: missing, or not applicable to this deal
        if applies(contract, entry):
            result["if_missing"] = {"verdict": "missing", "severity": entry.missing.severity,
                                    "recommendation": recommendation_for(entry, "missing")}
        else:
            why, _ = advice.not_applicable_advice(entry)
            result["if_missing"] = {"verdict": "not_applicable", "severity": "none", "reason": why,
                                    "recommendation": recommendation_for(entry, "not_applicable")}
    return result


def assess_clause_data(contract: Contract, playbook: Playbook, clause_type: str, section: str) -> dict:
    if clause_type not in playbook.clauses:
        return _unknown_clause_type(playbook, clause_type)
    found = contract.section(section)
    if found is None:
        return _unknown_section(contract, section)
    finding = assess(contract, playbook.entry(clause_type), found)
    if finding is None:
        elsewhere = list(dict.fromkeys(c.section for c in find_candidates(contract, clause_type, limit=5)))[:3]
        hint = f"; find_clauses ranks section {', '.join(elsewhere)} first" if elsewhere else "; the contract may lack it"
        # `candidates`: the detector's best sections, so a caller can assess one next directly
        return {"clause_type": clause_type, "section": found.id, "found": False, "candidates": elsewhere,
                "reason": f"no {clause_type} language found in section {found.id}{hint}"}
    result = {"clause_type": clause_type, "section": finding["section"], "found": True, "quote": finding["quote"],
              "start": finding["start"], "end": finding["end"], "verdict": finding["verdict"],
              "severity": finding["severity"], "binds": finding["binds"], "protects": finding["protects"],
              "citation": finding["citation"], "recommendation": finding["recommendation"],
              "rationale": finding["rationale"]}
    entry = playbook.entry(clause_type)
    # every provision of the type in the contract, worst for the buyer first (what find_clauses lists)
    ranked = provisions(contract, entry)
    if len(ranked) > 1:
        result["provisions"] = [_listed(p) for p in ranked]
    metric = entry.metric.name if entry.metric else None
    if not stance.matches_interest(metric, finding["binds"], finding["protects"]):
        # this is the other side's clause (the buyer's own cap, the buyer's insurance): say where the
        # contract sets it for the side the playbook is about, so the reviewer judges that one
        best = review_clause(contract, entry)
        if best["section"] and best["section"] != finding["section"] and stance.matches_interest(metric, best["binds"], best["protects"]):
            result["other_side"] = {"section": best["section"], "citation": best["citation"],
                                    "note": "this sentence is the other side's; the playbook reads the clause in "
                                            f"{best['citation']}: assess that section before recording"}
            return result
    # Coverage: a look in one place (where memory or a search pointed) is checked against the whole
    # contract, so a clause that moved, or one added elsewhere on worse terms, is never missed.
    worse = stronger_elsewhere(contract, entry, finding)
    if worse is not None:
        result["elsewhere"] = {"section": worse["section"], "citation": worse["citation"], "verdict": worse["verdict"],
                               "note": f"the contract's {clause_type} clause is read in {worse['citation']} "
                                       f"({worse['verdict']}), not here: assess that section before recording"}
    return result


def unrecordable(assessment: dict) -> str | None:
    """Why an assessment's proposed finding must not be recorded as it stands, or None: the clause
    is not in the section, or the whole-contract check names another section to judge first
    (the other party's sentence, the clause's main or worse reading elsewhere)."""
    if assessment.get("found") is not True:
        return "the clause is not in this section: assess another section, or record verdict 'missing'"
    for key in ("other_side", "elsewhere"):
        pointer = assessment.get(key)
        if isinstance(pointer, dict) and pointer.get("section"):
            return f"{key} names section {pointer['section']}: assess it before recording"
    return None


def pointers(contract: Contract, playbook: Playbook, clause_type: str, section: str) -> list[tuple[str, str]]:
    """(`other_side` or `elsewhere`, section) that an assessment of `section` names as the place
    to assess before recording it (what `assess_clause` answers)."""
    data = assess_clause_data(contract, playbook, clause_type, section)
    return [(key, str(data[key]["section"])) for key in ("other_side", "elsewhere")
            if isinstance(data.get(key), dict) and data[key].get("section") and data[key]["section"] != section]


def unassessed_pointer(contract: Contract, playbook: Playbook, finding: dict, assessed: set[tuple[str, str]]) -> dict | None:
    """The refusal of a finding whose section the whole-contract check contradicts (`other_side`:
    the sentence is the other party's; `elsewhere`: the clause's main or worse reading is in
    another section) while that other section has not been assessed in this run; else None.
    `assessed` holds (clause type, section id) pairs. Once the named section was assessed, the
    model's choice stands: the rule is "look before you record", not which place wins."""
    section, clause_type = finding.get("section"), finding["clause_type"]
    if not section or finding.get("verdict") in ("missing", "not_applicable"):
        return None
    for kind, target in pointers(contract, playbook, clause_type, section):
        held = contract.section(target)
        if (clause_type, held.id if held else target) in assessed:
            continue
        why = ("is the other party's clause" if kind == "other_side" else
               "is not where the contract's main or worse reading of the clause is")
        return {"error": f"cannot record {clause_type} in section {section} yet: assess_clause said {kind}: section "
                         f"{target} (section {section} {why}); assess section {target} before recording",
                "fix": f'call assess_clause(clause_type="{clause_type}", section="{target}"), then record the section '
                       "that holds the buyer's clause"}
    return None


def build_finding(contract: Contract, playbook: Playbook, clause_type: str, verdict: str, severity: str,
                  recommendation: str | None = None, section: str | None = None, quote: str | None = None,
                  rationale: str | None = None) -> dict:
    """A validated finding with true offsets (`text[start:end] == quote`), or {"error": ...}.

    A finding may be given by reference: without a quote, a present clause takes the quote
    assess_clause gives for that section (the same `assess`), and without a recommendation or
    rationale, the ones assess_clause wrote for this contract when the verdict is the assessed
    one (else the playbook's recommendation for the verdict). A "missing" finding for a clause
    type that does not apply to this deal is recorded as not_applicable, with the reason."""
    if clause_type not in playbook.clauses:
        return _unknown_clause_type(playbook, clause_type)
    verdict = (verdict or "").strip().lower()
    severity = (severity or "").strip().lower()
    if verdict not in VERDICTS:
        return {"error": f"unknown verdict {verdict!r}; use one of: {', '.join(VERDICTS)}"}
    if severity not in SEVERITIES:
        return {"error": f"unknown severity {severity!r}; use one of: {', '.join(SEVERITIES)}"}
    entry = playbook.entry(clause_type)
    recommendation = (recommendation or "").strip() or None
    rationale = (rationale or "").strip() or None
    if verdict in ("missing", "not_applicable"):
        if not applies(contract, entry):
            return {**make_finding(entry, "not_applicable"), "also": []}
        if verdict == "not_applicable" and not rationale:
            return {"error": "not_applicable needs a rationale saying why the clause type does not apply to this deal"}
        return {**make_finding(entry, verdict, severity=severity, recommendation=recommendation, rationale=rationale), "also": []}
    where = None
    if section:
        where = contract.section(section)
        if where is None:
            return _unknown_section(contract, section)
    assessed = assess(contract, entry, where) if where is not None else None
    if quote and quote.strip():
        span = locate_quote(contract, quote, where)
        if span is None:
            fix = (f" or omit quote to record the sentence assess_clause gives for section {where.id}"
                   if where is not None else " or omit quote and give the section assess_clause used")
            return {"error": f"quote not found in the contract: copy it verbatim from read_section or find_clauses,{fix}"}
    elif where is not None:
        if assessed is None:
            elsewhere = list(dict.fromkeys(c.section for c in find_candidates(contract, clause_type, limit=5)))[:3]
            hint = (f"; find_clauses ranks section {', '.join(elsewhere)} first: pass that section instead"
                    if elsewhere else "; if the contract lacks it, record verdict 'missing'")
            return {"error": f"no {clause_type} sentence was found in section {where.id}: pass a verbatim quote{hint}"}
        span = (assessed["start"], assessed["end"])
        # the section assess_clause names for this quote (a sub-section of `where` may hold it)
        where = contract.section(assessed["section"]) or where
    else:
        return {"error": f"a {verdict} finding needs the section that holds the clause (the id assess_clause used) "
                         "or a verbatim quote; if the contract lacks the clause, record verdict 'missing'"}
    start, end = span
    holder = contract.section_at(start)
    section_id = where.id if where is not None else (holder.id if holder else None)
    same = assessed is not None and assessed["verdict"] == verdict and assessed["start"] <= start < assessed["end"]
    finding = make_finding(
        entry, verdict, section_id, contract.text[start:end], start, end, severity=severity,
        recommendation=recommendation or (assessed["recommendation"] if same else None),
        rationale=rationale or (assessed["rationale"] if same else None),
        citation=contract.cite(section_id, start),
        binds=assessed["binds"] if assessed else None, protects=assessed["protects"] if assessed else None,
    )
    # the other provisions of the clause type are listed under the one recorded
    finding = with_also(finding, provisions(contract, entry))
    holder_section = contract.section(section_id) if section_id else None
    # The heading travels with the finding so memory can relocate a renumbered clause.
    finding["section_title"] = holder_section.title if holder_section else ""
    return finding
