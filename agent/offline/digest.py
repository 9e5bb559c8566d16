"""The run digest: what the extraction model reads of a finished review, in a few lines.

The extraction model writes only what needs judgement (task summary, outcome, approach, reusable
patterns, facts, procedure); the run's key findings, tools and step count are recorded from the
graph state without it (graphs.consolidate.run_record). So the digest carries only what those
fields are judged from: the task, each clause type's verdict and section in one short item, the
coverage, and how the clauses were located (a remembered section assessed first and whether it
held, or a search). No quotes, rationales, tool results, headings or section lists: a first
review with memory then costs about what the same review costs without.

`run_digest(messages)` writes it from a run's messages (compressed or not); `read_digest(text)`
reads it back into the same `Digest`, which is how the offline stand-in answers from it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from agent.offline.progress import Progress, progress_of
from agent.offline.transcript import read_transcript

DIGEST_HEADER = "Run digest:"
TASK_CHARS = 600  # of the task message: the contract's name, title and parties
# The task message's wording around the contract's name (agent.prompts.TASK_TEMPLATE) says nothing
# the extraction needs: the digest keeps the name and the opening.
_TASK_WORDING = re.compile(r'^Review the supplier contract (?P<name>"[^"]*") .*?Contract opening: ')

_FINDINGS = "Findings, {done} of {total} clause types: "
_OPEN = "No finding: "
_REMEMBERED = "Remembered section assessed first: "
_EXPLORED = "Located by find_clauses and search_contract: {n}"
_VERDICTS = "standard|fallback|deviation|missing|not_applicable"
_ITEM_RE = re.compile(rf"^(?P<type>\S+?)(?: (?P<section>.+?))? (?P<verdict>{_VERDICTS})(?: (?P<severity>[a-z]+))?$")
_FINDINGS_RE = re.compile(r"^Findings, (?P<done>\d+) of (?P<total>\d+) clause types[^:]*: (?P<items>.*)$")
_REMEMBERED_RE = re.compile(r"^(?P<type>\S+) (?P<section>.+) (?P<held>confirmed|not found)$")
_EXPLORED_RE = re.compile(r"^Located by find_clauses and search_contract: (?P<n>\d+)$")


@dataclass
class Digest:
    """A finished review as the extraction judges it."""

    task: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)  # recorded, in review order
    open_types: list[str] = field(default_factory=list)  # clause types left without a finding
    remembered: list[tuple[str, str, bool]] = field(default_factory=list)  # (type, section, held)
    explored: int = 0  # clause types located with find_clauses or search_contract

    @property
    def total(self) -> int:
        return len(self.findings) + len(self.open_types)


def digest_of(messages: Sequence[BaseMessage], open_types: Sequence[str] | None = None) -> Digest:
    """The digest of a run's messages (working-memory summaries included). `open_types`: the
    clause types the run itself left without a finding, where it knows them (the messages alone
    show only the types the run touched)."""
    transcript = read_transcript(messages)
    progress = progress_of(transcript)
    untouched = [n for n in progress.order if progress.types[n].finding is None]
    return Digest(task=transcript.task, findings=_findings(progress),
                  open_types=list(dict.fromkeys([*untouched, *(open_types or [])])),
                  remembered=_remembered_first(transcript, progress),
                  explored=sum(1 for n in progress.order if progress.types[n].finds or progress.types[n].searches))


def _findings(progress: Progress) -> list[dict[str, Any]]:
    return [progress.types[n].finding for n in progress.order if progress.types[n].finding]


def _remembered_first(transcript: Any, progress: Progress) -> list[tuple[str, str, bool]]:
    """Clause types whose first call was an assessment: a remembered place checked before any
    search (the extraction input has no memory block: judged by the calls alone)."""
    first_call: dict[str, str] = {}
    for call in transcript.calls:
        if isinstance(call.args.get("clause_type"), str):
            first_call.setdefault(call.args["clause_type"], call.name)
    out = []
    for name in progress.order:
        if first_call.get(name) == "assess_clause":
            first = progress.types[name].assessments[0]
            out.append((name, str(first.args.get("section")), (first.result or {}).get("found") is True))
    return out


def _item(finding: dict[str, Any]) -> str:
    parts = [str(finding["clause_type"])]
    if finding.get("section") and finding.get("verdict") not in ("missing", "not_applicable"):
        parts.append(str(finding["section"]))
    parts.append(str(finding.get("verdict")))
    if finding.get("severity") not in (None, "", "none"):
        parts.append(str(finding["severity"]))
    return " ".join(parts)


def render(digest: Digest) -> str:
    task = _TASK_WORDING.sub(r"Contract \g<name>. Opening: ", " ".join(digest.task.split())[:TASK_CHARS])
    lines = [DIGEST_HEADER, f"Task: {task}",
             _FINDINGS.format(done=len(digest.findings), total=digest.total) + "; ".join(map(_item, digest.findings))]
    if digest.open_types:
        lines.append(_OPEN + ", ".join(digest.open_types))
    if digest.remembered:
        lines.append(_REMEMBERED + "; ".join(f"{name} {section} {'confirmed' if held else 'not found'}"
                                             for name, section, held in digest.remembered))
    if digest.explored:
        lines.append(_EXPLORED.format(n=digest.explored))
    return "\n".join(lines)


def run_digest(messages: Sequence[BaseMessage], open_types: Sequence[str] | None = None) -> str:
    """The run as the extraction model reads it (see the module docstring)."""
    return render(digest_of(messages, open_types))


def is_digest(text: str) -> bool:
    return text.startswith(DIGEST_HEADER)


def read_digest(text: str) -> Digest:
    """A `Digest` from `render`'s text (lines it does not know are ignored)."""
    digest = Digest()
    for line in text.splitlines()[1:]:
        line = line.strip()
        if line.startswith("Task: "):
            digest.task = line[len("Task: "):]
        elif match := _FINDINGS_RE.match(line):
            for item in filter(None, (i.strip() for i in match["items"].split(";"))):
                if found := _ITEM_RE.match(item):
                    digest.findings.append({"clause_type": found["type"], "section": found["section"],
                                            "verdict": found["verdict"], "severity": found["severity"] or "none"})
        elif line.startswith(_OPEN):
            digest.open_types = [t.strip() for t in line[len(_OPEN):].split(",") if t.strip()]
        elif line.startswith(_REMEMBERED):
            for item in line[len(_REMEMBERED):].split(";"):
                if held := _REMEMBERED_RE.match(item.strip()):
                    digest.remembered.append((held["type"], held["section"], held["held"] == "confirmed"))
        elif match := _EXPLORED_RE.match(line):
            digest.explored = int(match["n"])
    return digest
