"""Remembered clause locations, checked against the current contract before they are served (issue 29).

Memory keeps one key finding per clause type of each past review (docs/ARCHITECTURE.md):
`liability_cap in section 9.2 "Limitation of Liability": deviation (high)`, `audit_rights: missing
(low)`. A place remembered from another contract is true here only if this contract bears it out,
so before any of it reaches a model each remembered place is checked against the current text with
the same reading the tools give (`tools.operations.assess_clause_data`):

- a remembered section holds when the section exists here (by its id, else the one section under
  the same heading, or a heading that keeps or drops words of it: templates renumber) and the
  tools read the clause type there, not only as a bare reference to a schedule, annex or exhibit
  whose terms are not in the section (the whole-contract check may still send the reviewer to
  the contract's own reading: `settled` says whether it does not);
- a remembered absence holds when the tools' whole-contract reading is the same absence here;
- a line that is not a key finding (an old or foreign format) cannot be checked and is not served;
  a place that does not hold is served only as `<clause_type>: not where remembered`, so a reviewer
  knows to look afresh instead of trying it.

`LocationCheck.lines` gives an episode's key findings as they hold here (a renumbered place under
its number here), `LocationCheck.locations` the checked places per clause type for the
`recall_locations` tool; memory may say where to look first, the tools still decide the finding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from tools.contract import Contract
from tools.detection.review import review_clause
from tools.operations import assess_clause_data, unrecordable
from tools.playbook import Playbook

KEY_FINDING = re.compile(
    r"^\s*(?P<type>[a-z0-9_]+)(?: in section (?P<section>[^\s:\"]+)(?: \"(?P<title>[^\"]*)\")?)?: "
    r"(?P<verdict>standard|fallback|deviation|missing|not_applicable|favourable) \((?P<severity>[a-z]+)\)\s*$")
ABSENT = ("missing", "not_applicable")
MOVED = "not where remembered"  # what is served of a clause type none of whose remembered places holds
MOVED_LINE = re.compile(r"^\s*(?P<type>[a-z0-9_]+): " + MOVED + r"\s*$")
# A section whose only reading is "see Schedule 3" holds no terms to judge: the clause is elsewhere.
_REFERENCE = re.compile(r"\b(?:schedules?|annex(?:es)?|appendi(?:x|ces)|exhibits?|attachments?|addend(?:um|a))\b",
                        re.IGNORECASE)
_UNREADABLE = "check it by hand"  # the tools' rationale when no figure or term could be read
_FACT_SECTION = re.compile(r"\bsections?\s+(?P<section>[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)", re.IGNORECASE)


def heading_key(title: str) -> str:
    """A heading compared loosely (case, punctuation and spacing aside): how a remembered clause
    is found again under a new number."""
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


@dataclass(frozen=True)
class Place:
    """One remembered place of a clause type: a section (with its heading) or an absence."""

    clause_type: str
    section: str | None  # None: the clause was absent (missing / not_applicable)
    title: str
    verdict: str
    severity: str

    @classmethod
    def parse(cls, line: str) -> Place | None:
        match = KEY_FINDING.match(line)
        if match is None:
            return None
        absent = match["verdict"] in ABSENT or not match["section"]
        return cls(match["type"], None if absent else match["section"], match["title"] or "",
                   match["verdict"] if match["verdict"] in ABSENT else match["verdict"], match["severity"])

    def line(self, section: str | None) -> str:
        """The key finding at `section` of this contract (its own line for an absence)."""
        if self.section is None:
            return f"{self.clause_type}: {self.verdict} ({self.severity})"
        title = f' "{self.title}"' if self.title else ""
        return f"{self.clause_type} in section {section}{title}: {self.verdict} ({self.severity})"


class LocationCheck:
    """Remembered places checked against one contract (answers cached: a review asks each once)."""

    def __init__(self, contract: Contract, playbook: Playbook) -> None:
        self.contract, self.playbook = contract, playbook
        self._answers: dict[tuple[str, str], dict] = {}
        self._absent: dict[str, str | None] = {}

    @cached_property
    def _by_heading(self) -> dict[str, list[str]]:
        ids: dict[str, list[str]] = {}
        for section in self.contract.sections:
            if key := heading_key(section.title or ""):
                ids.setdefault(key, []).append(section.id)
        return ids

    def _answer(self, clause_type: str, section: str) -> dict:
        """What assess_clause answers for the clause type in `section` (cached)."""
        key = (clause_type, section)
        if key not in self._answers:
            known = clause_type in self.playbook.clauses and self.contract.section(section) is not None
            self._answers[key] = assess_clause_data(self.contract, self.playbook, clause_type, section) if known else {}
        return self._answers[key]

    def holds(self, clause_type: str, section: str) -> bool:
        """Whether `section` of this contract reads the clause type: the tools find it there, and
        not only as a reference to a schedule, annex or exhibit whose terms are elsewhere. (The
        whole-contract check may still name another section to assess before recording: memory
        says where to look first, the tools decide the finding.)"""
        answer = self._answer(clause_type, section)
        if answer.get("found") is not True:
            return False
        return not (_UNREADABLE in str(answer.get("rationale") or "") and _REFERENCE.search(str(answer.get("quote") or "")))

    def settled(self, clause_type: str, section: str) -> bool:
        """Whether the clause type's finding may be recorded at `section` as it stands: it holds
        there and the whole-contract check names no other section (`other_side`, `elsewhere`)."""
        return self.holds(clause_type, section) and unrecordable(self._answer(clause_type, section)) is None

    def absent(self, clause_type: str, verdict: str) -> bool:
        """Whether a remembered absence holds: the whole-contract reading (`review_clause`, what the
        tools conclude when no section reads the clause) is the same absence here (missing, or not
        applicable to this deal)."""
        if clause_type not in self._absent:
            whole = review_clause(self.contract, self.playbook.entry(clause_type)) \
                if clause_type in self.playbook.clauses else {}
            self._absent[clause_type] = whole.get("verdict") if whole.get("verdict") in ABSENT else None
        return self._absent[clause_type] == verdict

    def where(self, place: Place) -> str | None:
        """The section of this contract where a remembered place holds ("" for an absence that
        holds), else None."""
        if place.section is None:
            return "" if self.absent(place.clause_type, place.verdict) else None
        if self.holds(place.clause_type, place.section):
            return self.contract.section(place.section).id  # type: ignore[union-attr]
        if not place.title:
            return None
        # the same heading under a new number, else a heading that keeps or drops words of it
        # ("Audit Rights" -> "Audit"): the one such section of this contract that reads the clause
        wanted = heading_key(place.title)
        same = [s for s in self._by_heading.get(wanted, []) if s != place.section]
        if not same:
            words = set(wanted.split())
            same = [sid for key, ids in self._by_heading.items() if key != wanted
                    and (set(key.split()) <= words or words <= set(key.split())) for sid in ids if sid != place.section]
        held = [sid for sid in same if self.holds(place.clause_type, sid)]
        return held[0] if len(held) == 1 else None

    def lines(self, key_findings: Sequence[str]) -> list[str]:
        """An episode's key findings as they hold for this contract. A place that does not hold is
        never served as a place: its line says only `<clause_type>: not where remembered` (the
        clause moved, appeared or went: look for it afresh); a line that cannot be read is left out."""
        kept = []
        for line in key_findings:
            place = Place.parse(str(line))
            if place is None:
                continue
            here = self.where(place)
            kept.append(place.line(here or None) if here is not None else f"{place.clause_type}: {MOVED}")
        return kept

    def fact_holds(self, text: str) -> bool:
        """Whether a fact that places a clause type in a section ("... place the liability cap
        clause in section 9") holds here: some section of that number (or under it) reads the
        clause. A fact that places nothing is not a location and holds."""
        match = _FACT_SECTION.search(text)
        named = [t for t in self.playbook.clause_types
                 if re.search(r"(?<![a-z])" + r"[\s_-]+".join(map(re.escape, t.split("_"))) + r"(?![a-z])", text, re.I)]
        if match is None or not named:
            return True
        number = match["section"].rstrip(".")
        under = [s.id for s in self.contract.sections if s.id == number or s.id.startswith(number + ".")]
        return all(any(self.holds(t, s) for s in under) for t in named)

    def locations(self, findings_by_episode: Sequence[Sequence[str]]) -> dict[str, list[dict]]:
        """Per clause type, the remembered places that hold here, best episode first:
        `{"section", "heading", "episodes"}` or `{"absent": verdict, "severity", "episodes"}`."""
        out: dict[str, dict[tuple, dict]] = {}
        for number, findings in enumerate(findings_by_episode, start=1):
            for line in findings:
                place = Place.parse(str(line))
                here = self.where(place) if place else None
                if place is None or here is None:
                    continue
                if here:
                    section = self.contract.section(here)
                    key: tuple = ("section", here)
                    entry = {"section": here, "heading": section.title if section else "", "episodes": []}
                else:
                    key = ("absent", place.verdict)
                    entry = {"absent": place.verdict, "severity": place.severity, "episodes": []}
                held = out.setdefault(place.clause_type, {}).setdefault(key, entry)
                if number not in held["episodes"]:
                    held["episodes"].append(number)
        return {t: list(places.values()) for t, places in out.items()}
