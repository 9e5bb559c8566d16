"""The offline reviewer's policy: the next tool calls (or the final review) from the messages alone.

Stateless and deterministic: the same messages always give the same step. Each clause type moves
through its own small path and every pending type's next call goes into one assistant turn, so a
turn is a phase of parallel calls.

- cold (no memory of the type): `list_sections` once; `find_clauses` and `search_contract`
  together (detector and BM25 triangulate); `read_section` of the best candidate;
  `assess_clause` there; `record_finding` with the assessment, by reference (the section,
  verdict and severity: the tool fills in the assessed quote and the playbook's recommendation,
  so neither is copied into the context again). No candidate anywhere, or two
  detector candidates (one BM25-only hit) the assessor rejects: a `missing` finding with the severity and recommendation that
  `find_clauses` carries in `if_missing` (else the remembered severity, else "medium").
- warm (the memory block's episodes kept the type in section S under heading H): one
  `list_sections` maps H to this contract's section (clauses get renumbered between versions of
  a template, headings rarely change), then `assess_clause` there, then `record_finding`. When episodes disagree, the two most trusted distinct sections
  are assessed in the same turn (one call more, one turn less: every turn re-sends the history);
  if both hold the clause, the place of the most trusted episode (completed first, then the most
  similar; never the most recent as such) is recorded. A remembered place the listing shows this
  contract lacks (another template's numbering) is dropped without a call; a type the block marks
  "not where remembered" (memory's places checked and found wrong here) is explored detector first,
  without the listing and the reading. Memory never ends the
  search: an assessment that names `elsewhere` or `other_side` (assess_clause's whole-contract
  check) sends the reviewer to that section before anything is recorded.
  If the clause is in none of them (or they do not exist here): the section the rejecting
  assessment names (the detector's best), else `find_clauses` (and
  `search_contract` only if the detector finds nothing), then the best candidate is assessed
  without the listing and the reading (memory gave the orientation; the assessment quotes). A remembered "missing" (most similar
  episode) gets one `find_clauses` to confirm the absence.
- errors: each failing call is retried once in a different way (a reworded search, the next
  candidate, a shorter quote); a type whose calls keep failing is given up with a note. A step
  budget ends the review even if some types are unresolved, so the loop always terminates.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from agent.memory_view import heading_key
from agent.offline.progress import Progress, TypeProgress, finding_line, progress_of, search_query
from agent.offline.transcript import Hint, Transcript

STEP_BUDGET = 30  # assistant turns; a full cold review needs 6
MAX_FAILURES_PER_TYPE = 4
MAX_REMEMBERED_SECTIONS = 2  # distinct remembered sections tried before exploring
DEFAULT_MISSING_SEVERITY = "medium"
_SEVERITY_ORDER = ("high", "medium", "low", "none")
_ABSENT = ("missing", "not_applicable")


@dataclass(frozen=True)
class Call:
    name: str
    args: dict[str, Any]

    def key(self) -> str:
        return f"{self.name}:{json.dumps(self.args, sort_keys=True)}"


@dataclass(frozen=True)
class GiveUp:
    note: str


Decision = list[Call] | GiveUp | None  # None: the type is done


def rank_candidates(tp: TypeProgress) -> list[str]:
    """Sections for a type, best first: the provisions find_clauses lists, in its order (the one
    worst for the buyer first: the ranking the whole-contract review uses), then the other sections
    by detector and BM25 rank summed, agreement winning."""
    listed = [str(p.get("section")) for p in (tp.find_result() or {}).get("provisions", []) if isinstance(p, dict)]
    found = [str(c.get("section")) for c in (tp.find_result() or {}).get("candidates", []) if isinstance(c, dict)]
    hits = [str(h.get("section")) for h in (tp.search_result() or {}).get("hits", []) if isinstance(h, dict)]
    found, hits = list(dict.fromkeys(found)), list(dict.fromkeys(hits))
    missing_rank = len(found) + len(hits) + 1
    sections = list(dict.fromkeys([*found, *hits]))

    def score(section: str) -> tuple[int, int, int]:
        in_found = found.index(section) if section in found else missing_rank
        in_hits = hits.index(section) if section in hits else missing_rank
        return (in_found + in_hits, in_found, sections.index(section))

    rest = sorted((s for s in sections if s not in listed), key=score)
    return list(dict.fromkeys([*listed, *rest]))


def _assess(tp: TypeProgress, section: str, *, record: bool = True) -> Call:
    """assess_clause for the type in `section`, recording its proposed finding in the same call
    (`record`); the tool records nothing when the clause is not there or the whole-contract check
    names another section, and the policy goes on from the answer as it would without."""
    args: dict[str, Any] = {"clause_type": tp.clause_type, "section": section}
    if record:
        args["record"] = True
    return Call("assess_clause", args)


def _record_missing(tp: TypeProgress, hint: Hint | None) -> Call:
    if_missing = (tp.find_result() or {}).get("if_missing") or {}
    severity = if_missing.get("severity") or (hint.severity if hint else None) or DEFAULT_MISSING_SEVERITY
    # find_clauses says whether an absent clause is missing or does not apply to this deal
    verdict = if_missing.get("verdict") or (hint.verdict if hint and hint.verdict in _ABSENT else "missing")
    args = {"clause_type": tp.clause_type, "verdict": verdict, "severity": severity}
    if not if_missing.get("recommendation"):
        # find_clauses' `if_missing` recommendation is the playbook's, which the tool fills in
        # when none is given; without it, say what to do in our own words
        args["recommendation"] = f"Add a {tp.clause_type.replace('_', ' ')} clause in line with the playbook."
    return Call("record_finding", args)


def _shorter_quote(quote: str) -> str:
    """A prefix of the quote (still an exact substring): its first sentence, at most 120 chars."""
    first = re.split(r"(?<=[.;:])\s", quote.strip(), maxsplit=1)[0]
    return first[:120].rstrip()


def _record_found(tp: TypeProgress, assessment: dict[str, Any], assessed_in: str | None = None) -> Decision:
    failures = tp.failed(tp.records)
    if failures >= 2:
        return GiveUp(f"record_finding kept failing: {tp.records[-1].error}")
    quote = str(assessment.get("quote") or "")
    args = {"clause_type": tp.clause_type, "verdict": assessment.get("verdict"),
            "severity": assessment.get("severity")}
    if failures == 0 and assessed_in is not None:
        # By reference: the tool fills in the quote assess_clause gave for the section it was
        # asked about, so the long quote is not copied into the context a second time.
        args["section"] = assessed_in
    else:
        args.update(section=assessment.get("section"), quote=quote if failures == 0 else _shorter_quote(quote))
    # The recommendation is left out: for the assessed verdict the tool fills in the playbook's
    # recommendation, which is exactly the one assess_clause showed.
    return [Call("record_finding", args)]


def _missing(tp: TypeProgress, hint: Hint | None) -> Decision:
    if tp.failed(tp.records) >= 2:
        return GiveUp(f"record_finding kept failing: {tp.records[-1].error}")
    return [_record_missing(tp, hint)]


def _explore(tp: TypeProgress, *, detector_first: bool = False) -> list[Call]:
    """The detector and BM25 calls the type still needs (a failed search is reworded once).

    `detector_first` (after memory pointed elsewhere): search only if the detector finds nothing.
    """
    calls: list[Call] = []
    if tp.find_result() is None and not tp.finds:
        calls.append(Call("find_clauses", {"clause_type": tp.clause_type}))
        if detector_first:
            return calls
    if detector_first and (tp.find_result() or {}).get("candidates"):
        return calls
    if tp.search_result() is None and len(tp.searches) < 2:
        calls.append(Call("search_contract", {"query": search_query(tp.clause_type, len(tp.searches)), "k": 5}))
    return calls


def _suggested(tp: TypeProgress) -> str | None:
    """The best untried section a rejected assessment named (assess_clause carries the detector's
    ranking when the clause is not where it looked)."""
    tried = tp.assessed_sections()
    for call in reversed(tp.assessments):
        if call.ok and call.result.get("found") is False:
            for section in call.result.get("candidates") or []:
                if str(section) not in tried:
                    return str(section)
    return None


def _detector_empty(tp: TypeProgress) -> bool:
    """Whether an assessment that rejected its section said the detector ranks no section at all."""
    return any(c.ok and c.result.get("found") is False and c.result.get("candidates") == [] for c in tp.assessments)


def _cold(tp: TypeProgress, progress: Progress, hint: Hint | None, remembered: list[str], *,
          moved: bool = False) -> Decision:
    """Explore for the type. After wrong remembered sections (`remembered` non-empty), or when the
    block says memory's places for the type do not hold here (`moved`), the listing and the
    reading are skipped: memory gave the orientation, and assess_clause quotes anyway; the section
    the rejecting assessment names is assessed first, before any find_clauses (one turn less when
    a remembered clause moved)."""
    oriented = bool(remembered) or moved
    if not oriented and not progress.listed and len(progress.listings) < 2:
        return [Call("list_sections", {})]
    if remembered and not tp.finds and all(s in tp.assessed_sections() for s in remembered):
        if not [c for c in tp.assessments if c.answered and c.args.get("section") not in remembered]:
            suggestion = _suggested(tp)
            if suggestion is not None:
                return [_assess(tp, suggestion)]
    # the remembered places' rejections carry the detector's ranking: when it is empty the
    # detector has nothing anywhere, so the search is asked together with find_clauses
    calls = _explore(tp, detector_first=oriented and not _detector_empty(tp))
    if calls:
        return calls
    if tp.find_result() is None and tp.search_result() is None:
        return GiveUp("could not locate it: find_clauses and search_contract both failed")
    cold_tries = [c for c in tp.assessments if c.answered and c.args.get("section") not in remembered]
    rejected = {str(c.args.get("section")) for c in tp.assessments if c.ok}  # assessed: not there
    errored = {str(c.args.get("section")) for c in tp.assessments if c.error}
    ranked = [s for s in rank_candidates(tp) if s not in rejected | errored]
    if not ranked:  # a section whose assessment failed (rather than rejected it) gets one more try
        ranked = [s for s in rank_candidates(tp) if s in errored - rejected and s not in remembered]
    detector_found = bool((tp.find_result() or {}).get("candidates"))
    # an assessment answered by an error (a slipped argument) is not a look at the section: it is
    # retried once, as every failing call is, before the clause is given up
    failed = [c for c in cold_tries if c.error]
    looked = len(cold_tries) - len(failed)
    if looked >= (2 if detector_found else 1) or not ranked or len(failed) >= 2:
        if cold_tries and not looked:
            return GiveUp(f"assess_clause kept failing: {cold_tries[-1].error}")
        return _missing(tp, hint)
    best = ranked[0]
    if not oriented and not progress.read_ok(best) and not progress.read_failed(best):
        return [Call("read_section", {"section": best})]
    return [_assess(tp, best)]


def _verify_missing(tp: TypeProgress, hint: Hint) -> Decision:
    """A remembered absence: one find_clauses; assess what it finds, else record missing."""
    if not tp.finds:
        return [Call("find_clauses", {"clause_type": tp.clause_type})]
    found = tp.find_result()
    if found is None:
        return None
    candidates = [str(c.get("section")) for c in found.get("candidates", []) if isinstance(c, dict)]
    untried = [s for s in candidates if s not in tp.assessed_sections()]
    if not untried or len(tp.assessed_sections()) >= 2:
        return _missing(tp, hint)
    return [_assess(tp, untried[0])]


def relocate(hint: Hint, titles: dict[str, str]) -> str:
    """Where the remembered clause sits in this contract: the section under the same heading
    (clauses move between versions of a template; headings rarely change), else the old id."""
    key = heading_key(hint.title)
    if not key or not titles:
        return hint.section or ""
    if heading_key(titles.get(hint.section or "", "")) == key:
        return hint.section or ""
    same = [sid for sid, title in titles.items() if heading_key(title) == key]
    return same[0] if len(same) == 1 else hint.section or ""


def ranked_hints(hints: list[Hint]) -> list[Hint]:
    """Remembered places, most trusted first: episodes that completed before those that did not,
    then the more similar episode (the block's rank breaks ties). Never the most recent as such."""
    return sorted(hints, key=lambda h: (h.outcome not in ("", "COMPLETED"), -h.similarity, h.episode))


def decide(tp: TypeProgress, progress: Progress, hints: list[Hint]) -> Decision:
    """The next calls for one clause type, `GiveUp`, or None when its finding is recorded."""
    if tp.finding is not None:
        return None
    if len(tp.errors()) >= MAX_FAILURES_PER_TYPE:
        return GiveUp(f"too many tool errors, last: {tp.errors()[-1]}")
    # memory's places for the type do not hold here ("not where remembered"): none is tried, and
    # the search starts with the detector, as after a remembered place that proved wrong
    moved = bool(hints) and all(h.verdict == "moved" for h in hints)
    hints = ranked_hints([h for h in hints if h.verdict != "moved"])
    hint = hints[0] if hints else None
    pending = [s for s in tp.redirects() if s not in tp.assessed_sections()]
    if pending:
        # the assessed sentence is the other party's (its own cap, its own insurance), or the
        # whole contract sets the clause worse for the buyer elsewhere: assess the section
        # assess_clause names before recording
        return [_assess(tp, pending[0])]
    titles = progress.section_titles()
    # a remembered place this contract does not have (another template's numbering) is dropped
    # on the listing's word, never tried and answered by an error
    named = list(dict.fromkeys(relocate(h, titles) for h in hints if h.section))
    places = [s for s in named if not titles or s in titles]
    chosen = tp.chosen_assessment(places)
    if chosen is not None:
        asked, assessment = chosen
        return _record_found(tp, assessment, asked)
    if tp.records and tp.records[-1].args.get("verdict") in _ABSENT:
        return _missing(tp, hint)  # a missing finding failed to record: retry once, then give up
    if hint is not None and hint.verdict in _ABSENT:
        verified = _verify_missing(tp, hint)
        if verified is not None:
            return verified
    if hint is not None and hint.verdict not in _ABSENT and any(h.title for h in hints):
        if not progress.listed and len(progress.listings) < 2:
            return [Call("list_sections", {})]  # one listing maps remembered headings to ids here
    remembered = places[:MAX_REMEMBERED_SECTIONS]
    if hint is not None and hint.verdict not in _ABSENT:
        untried = [s for s in remembered if s not in tp.assessed_sections()]
        if untried:
            # places that disagree are assessed side by side; the most trusted one records its
            # finding in the same call when the text confirms it there (found, and the
            # whole-contract check names no other section), else the best confirmed one is
            # recorded after
            first = untried[0] == remembered[0]
            return [_assess(tp, s, record=first and i == 0) for i, s in enumerate(untried)]
    # a remembered place tried before the listing showed it does not exist is still memory's try,
    # not one of the exploration's
    tried = [s for s in named if s in tp.assessed_sections() and s not in remembered]
    return _cold(tp, progress, hint, remembered + tried, moved=moved)


@dataclass(frozen=True)
class Plan:
    """One assistant turn: tool calls, or (when `calls` is empty) the final review text."""

    calls: list[Call]
    text: str = ""


def call_id(step: int, index: int, call: Call) -> str:
    digest = hashlib.blake2b(call.key().encode(), digest_size=4).hexdigest()
    return f"offline_{step}_{index}_{digest}"


def plan_next(transcript: Transcript, *, budget: int = STEP_BUDGET) -> Plan:
    """The reviewer's next assistant turn for this transcript (within `budget` assistant turns)."""
    progress = progress_of(transcript)
    if not progress.order:
        return Plan([], "No clause types to review: the system prompt needs a line "
                        "'Clause types to review: a, b, c'. Nothing was reviewed.")
    gave_up: dict[str, str] = {}
    calls: list[Call] = []
    if transcript.model_steps < budget:
        for name in progress.order:
            if name in gave_up:
                continue
            decision = decide(progress.types[name], progress, transcript.hints.get(name, []))
            if isinstance(decision, GiveUp):
                gave_up[name] = decision.note
            elif decision:
                calls.extend(decision)
    else:
        for name in progress.order:
            if progress.types[name].finding is None:
                gave_up.setdefault(name, f"step budget of {budget} assistant turns used up")
    unique = list({call.key(): call for call in calls}.values())
    if unique:
        return Plan(unique)
    return Plan([], final_review(progress, gave_up))


def final_review(progress: Progress, gave_up: dict[str, str]) -> str:
    """A short summary of the recorded findings by severity."""
    findings = [progress.types[n].finding for n in progress.order if progress.types[n].finding]
    lines = [f"Review finished (offline deterministic reviewer, no language model): "
             f"{len(findings)} of {len(progress.order)} clause types have a finding."]
    by_severity: dict[str, list[str]] = {}
    for finding in findings:
        where = f"section {finding['section']}" if finding.get("section") else "absent"
        by_severity.setdefault(str(finding.get("severity")), []).append(
            f"{finding['clause_type']} ({finding.get('verdict')}, {where})")
    for severity in sorted(by_severity, key=lambda s: (_SEVERITY_ORDER + (s,)).index(s)):
        lines.append(f"{severity.capitalize()}: {'; '.join(by_severity[severity])}")
    for name, note in gave_up.items():
        lines.append(f"Not reviewed: {name} ({note})")
    lines.append("Key findings:")
    lines.extend(f"- {finding_line(f)}" for f in findings)
    return "\n".join(lines)
