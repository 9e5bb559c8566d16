"""Per-clause-type progress of a review: which tool calls belong to which type, and what they found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.offline.calls import ToolCall, Transcript

FINDING_LINE = "{clause_type} in section {section}{title}: {verdict} ({severity})"
MISSING_LINE = "{clause_type}: {verdict} ({severity})"  # verdict: missing | not_applicable
REDIRECTS = ("other_side", "elsewhere")  # assess_clause's pointers to the section to judge instead


def search_query(clause_type: str, attempt: int = 0) -> str:
    """The BM25 query the offline reviewer uses for a clause type (a second attempt rewords it)."""
    words = clause_type.replace("_", " ")
    return words if attempt == 0 else f"{words} clause"


def finding_line(finding: dict[str, Any]) -> str:
    """A finding in the ARCHITECTURE key-findings format."""
    if finding.get("verdict") in ("missing", "not_applicable") or not finding.get("section"):
        verdict = "not_applicable" if finding.get("verdict") == "not_applicable" else "missing"
        return MISSING_LINE.format(clause_type=finding["clause_type"], verdict=verdict, severity=finding.get("severity", "none"))
    title = " ".join(str(finding.get("section_title") or "").replace('"', "'").split())
    return FINDING_LINE.format(
        **{k: finding.get(k) for k in ("clause_type", "section", "verdict", "severity")},
        title=f' "{title}"' if title else "",
    )


@dataclass
class TypeProgress:
    """The calls made for one clause type, in order."""

    clause_type: str
    finds: list[ToolCall] = field(default_factory=list)
    searches: list[ToolCall] = field(default_factory=list)
    assessments: list[ToolCall] = field(default_factory=list)
    records: list[ToolCall] = field(default_factory=list)

    @property
    def finding(self) -> dict[str, Any] | None:
        """The recorded finding: by record_finding, or by an assessment asked to record it."""
        for call in (*self.records, *self.assessments):
            if call.ok and isinstance(call.result.get("recorded"), dict):
                return call.result["recorded"]
        return None

    @property
    def touched(self) -> bool:
        return bool(self.finds or self.searches or self.assessments or self.records)

    def find_result(self) -> dict[str, Any] | None:
        return next((c.result for c in reversed(self.finds) if c.ok), None)

    def search_result(self) -> dict[str, Any] | None:
        return next((c.result for c in reversed(self.searches) if c.ok), None)

    def failed(self, calls: list[ToolCall]) -> int:
        return sum(1 for c in calls if c.answered and not c.ok)

    def assessed_sections(self) -> set[str]:
        return {str(c.args.get("section")) for c in self.assessments if c.answered}

    def redirects(self) -> list[str]:
        """Sections the assessments that found the clause send the reviewer on to: the buyer's side
        of a clause set for each party (`other_side`), a place the whole contract sets it worse
        for the buyer (`elsewhere`)."""
        found = [c.result for c in self.assessments if c.ok and c.result.get("found") is True]
        return list(dict.fromkeys(str(r[key]["section"]) for r in found for key in REDIRECTS
                                  if isinstance(r.get(key), dict) and r[key].get("section")))

    def chosen_assessment(self, preference: list[str]) -> tuple[str | None, dict[str, Any]] | None:
        """(section asked, assessment) the finding is recorded from: among the assessments that
        found the clause, those that send the reviewer nowhere else; a section another
        assessment sent it to first (the current text's word), then the section earliest in
        `preference` (remembered places, most trusted first), then the latest."""
        found = [c for c in self.assessments if c.ok and c.result.get("found") is True]
        if not found:
            return None
        sent = self.redirects()
        final = [c for c in found if not any(isinstance(c.result.get(k), dict) for k in REDIRECTS)] or found[-1:]

        def rank(index_call: tuple[int, ToolCall]) -> tuple[int, int, int]:
            index, call = index_call
            asked = str(call.args.get("section"))
            return (0 if asked in sent else 1, preference.index(asked) if asked in preference else len(preference), -index)

        _, call = min(enumerate(final), key=rank)
        asked = call.args.get("section")
        return (str(asked) if asked else None), call.result

    def errors(self) -> list[str]:
        return [c.error or "" for c in (*self.finds, *self.searches, *self.assessments, *self.records) if c.error]


@dataclass
class Progress:
    """The whole review's progress: global calls plus one `TypeProgress` per clause type."""

    types: dict[str, TypeProgress]
    listings: list[ToolCall]
    reads: dict[str, list[ToolCall]]
    order: list[str]  # clause types to review (from the prompt), else in order of first use

    @property
    def listed(self) -> bool:
        return any(c.ok for c in self.listings)

    def section_titles(self) -> dict[str, str]:
        """Section id -> heading, from the latest successful listing."""
        for call in reversed(self.listings):
            if call.ok:
                return {str(s.get("id")): str(s.get("title") or "") for s in call.result.get("sections", [])
                        if isinstance(s, dict)}
        return {}

    def section_ids(self) -> list[str]:
        for call in reversed(self.listings):
            if call.ok:
                return [str(s.get("id")) for s in call.result.get("sections", []) if isinstance(s, dict)]
        return []

    def read_ok(self, section: str) -> bool:
        return any(c.ok for c in self.reads.get(section, []))

    def read_failed(self, section: str) -> bool:
        return any(c.answered and not c.ok for c in self.reads.get(section, []))


def progress_of(transcript: Transcript) -> Progress:
    order = list(transcript.clause_types)
    types: dict[str, TypeProgress] = {t: TypeProgress(t) for t in order}

    def for_type(name: Any) -> TypeProgress | None:
        if not isinstance(name, str) or not name:
            return None
        if name not in types:
            types[name] = TypeProgress(name)
            order.append(name)
        return types[name]

    # Searches carry only a query: map the reviewer's own queries back to their clause type.
    query_owner = {}
    for call in transcript.calls:
        name = call.args.get("clause_type")
        if isinstance(name, str):
            for attempt in (0, 1):
                query_owner.setdefault(search_query(name, attempt), name)
    for name in order:
        for attempt in (0, 1):
            query_owner.setdefault(search_query(name, attempt), name)

    listings: list[ToolCall] = []
    reads: dict[str, list[ToolCall]] = {}
    for call in transcript.calls:
        if call.name == "list_sections":
            listings.append(call)
        elif call.name == "read_section":
            reads.setdefault(str(call.args.get("section")), []).append(call)
        elif call.name == "search_contract":
            owner = for_type(call.args.get("clause_type") or query_owner.get(str(call.args.get("query"))))
            if owner:
                owner.searches.append(call)
        elif call.name in ("find_clauses", "assess_clause", "record_finding"):
            owner = for_type(call.args.get("clause_type"))
            if owner:
                {"find_clauses": owner.finds, "assess_clause": owner.assessments, "record_finding": owner.records}[
                    call.name
                ].append(call)
    return Progress(types=types, listings=listings, reads=reads, order=order)
