"""The run digest: what the extraction model reads of a finished review, in a few lines.

The extraction model writes only what needs judgement (approach, reusable patterns, facts,
procedure, and an outcome that can only lower the observed one for a named reason); the run's task
summary, key findings, tools and step count are recorded from the graph state without it
(`agent.memory_agent.ContractMemoryAgent.record`). So the digest carries what those fields are
judged from, all read from the graph state, never from the messages (which compression replaces
with a summary in any model's words): the task as memory keeps it, each clause type's verdict and
section in one short item, the clause types left open, the problems the run recorded, how clauses
were located (a remembered section assessed first and whether it held, or a search), the tools
and the model steps. No quotes, rationales, tool results, headings, party names or contract text.

`state_digest(...)` builds it from the state, `render` writes it, `read_digest(text)` reads it back
into the same `Digest`, which is how the offline stand-in answers from it. `digest_of(messages)`
reads the same from a transcript, for the stand-in handed a whole run instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from agent.offline.progress import Progress, progress_of
from agent.offline.transcript import read_transcript

DIGEST_HEADER = "Run digest:"

_FINDINGS = "Findings, {done} of {total} clause types: "
_OPEN = "No finding: "
_PROBLEM = "Problem recorded: "  # one line each: a problem's text may hold anything
_REMEMBERED = "Remembered section assessed first: "
_EXPLORED = "Located by find_clauses: {n}"
_TOOLS = "Tools used: {tools}; model steps: {steps}"
_VERDICTS = "standard|fallback|deviation|missing|not_applicable|favourable"
_ITEM_RE = re.compile(rf"^(?P<type>\S+?)(?: (?P<section>.+?))? (?P<verdict>{_VERDICTS})(?: (?P<severity>[a-z]+))?$")
_FINDINGS_RE = re.compile(r"^Findings, (?P<done>\d+) of (?P<total>\d+) clause types[^:]*: (?P<items>.*)$")
_PROBLEM_RE = re.compile(r"^\[(?P<key>[^\]]+)\] (?P<text>.+)$")
_REMEMBERED_RE = re.compile(r"^(?P<type>\S+) (?P<section>.+) (?P<held>confirmed|not found)$")
_EXPLORED_RE = re.compile(r"^Located by find_clauses(?: and search_contract)?: (?P<n>\d+)$")
_TOOLS_RE = re.compile(r"^Tools used: (?P<tools>.*); model steps: (?P<steps>\d+)$")


@dataclass
class Digest:
    """A finished review as the extraction judges it."""

    task: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)  # recorded, in review order
    open_types: list[str] = field(default_factory=list)  # clause types left without a finding
    problems: list[tuple[str, str]] = field(default_factory=list)  # (key, what happened), as the run recorded them
    remembered: list[tuple[str, str, bool]] = field(default_factory=list)  # (type, section, held)
    explored: int = 0  # clause types located with find_clauses
    tools: list[str] = field(default_factory=list)
    steps: int = 0

    @property
    def total(self) -> int:
        return len(self.findings) + len(self.open_types)


def state_digest(state: Mapping[str, Any], *, task: str, findings: Sequence[Mapping[str, Any]],
                 open_types: Sequence[str], problems: Sequence[tuple[str, str]], tools: Sequence[str],
                 steps: int) -> Digest:
    """The digest of a finished review from its graph state: `findings` (one per clause type, as
    the run recorded them), the clause types left open and the problems the run recorded are the
    caller's reading of the state; how clauses were located is read from `state["examined"]`, what
    the tools showed, in the order they showed it."""
    first: dict[str, dict[str, Any]] = {}
    explored: set[str] = set()
    for entry in state.get("examined") or []:
        if not isinstance(entry, dict) or not entry.get("clause_type"):
            continue
        first.setdefault(entry["clause_type"], entry)
        if entry.get("tool") == "find_clauses":
            explored.add(entry["clause_type"])
    # a clause type whose first examination was an assessment: a remembered place checked before any search
    remembered = [(name, str(entry.get("asked") or entry.get("section")), entry.get("found") is True)
                  for name, entry in first.items() if entry.get("tool") == "assess_clause"]
    return Digest(task=task, findings=[dict(f) for f in findings], open_types=list(open_types),
                  problems=list(problems), remembered=remembered, explored=len(explored), tools=list(tools),
                  steps=steps)


def digest_of(messages: Sequence[BaseMessage], open_types: Sequence[str] | None = None) -> Digest:
    """The digest of a run read from its messages (working-memory summaries included), for the
    stand-in handed a whole run. `open_types`: the clause types the run itself left without a
    finding, where it knows them (the messages alone show only the types the run touched)."""
    transcript = read_transcript(messages)
    progress = progress_of(transcript)
    untouched = [n for n in progress.order if progress.types[n].finding is None]
    return Digest(task=transcript.task, findings=_findings(progress),
                  open_types=list(dict.fromkeys([*untouched, *(open_types or [])])),
                  remembered=_remembered_first(transcript, progress),
                  explored=sum(1 for n in progress.order if progress.types[n].finds or progress.types[n].searches),
                  tools=list(dict.fromkeys(c.name for c in transcript.calls)), steps=transcript.model_steps)


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


def _item(finding: Mapping[str, Any]) -> str:
    parts = [str(finding["clause_type"])]
    if finding.get("section") and finding.get("verdict") not in ("missing", "not_applicable"):
        parts.append(str(finding["section"]))
    parts.append(str(finding.get("verdict")))
    if finding.get("severity") not in (None, "", "none"):
        parts.append(str(finding["severity"]))
    return " ".join(parts)


def render(digest: Digest) -> str:
    lines = [DIGEST_HEADER, f"Task: {' '.join(digest.task.split())}",
             _FINDINGS.format(done=len(digest.findings), total=digest.total) + "; ".join(map(_item, digest.findings))]
    if digest.open_types:
        lines.append(_OPEN + ", ".join(digest.open_types))
    lines += [f"{_PROBLEM}[{key}] {' '.join(text.split())}" for key, text in digest.problems]
    if digest.remembered:
        lines.append(_REMEMBERED + "; ".join(f"{name} {section} {'confirmed' if held else 'not found'}"
                                             for name, section, held in digest.remembered))
    if digest.explored:
        lines.append(_EXPLORED.format(n=digest.explored))
    if digest.tools:
        lines.append(_TOOLS.format(tools=", ".join(digest.tools), steps=digest.steps))
    return "\n".join(lines)


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
        elif line.startswith(_PROBLEM) and (problem := _PROBLEM_RE.match(line[len(_PROBLEM):])):
            digest.problems.append((problem["key"], problem["text"]))
        elif line.startswith(_REMEMBERED):
            for item in line[len(_REMEMBERED):].split(";"):
                if held := _REMEMBERED_RE.match(item.strip()):
                    digest.remembered.append((held["type"], held["section"], held["held"] == "confirmed"))
        elif match := _EXPLORED_RE.match(line):
            digest.explored = int(match["n"])
        elif match := _TOOLS_RE.match(line):
            digest.tools = [t.strip() for t in match["tools"].split(",") if t.strip()]
            digest.steps = int(match["steps"])
    return digest
