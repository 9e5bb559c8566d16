"""The offline working-memory summary: compact lines written from a run, and read back into calls.

`summarize` keeps the task, the step count, every useful tool result (sections listed and read,
candidates, search hits, assessments, recorded findings) and the errors not yet resolved; it drops
failed attempts that were later resolved. `parse_summary` turns the same lines back into
`ToolCall` records, so the offline reviewer treats a summary as evidence of work already done.
Each line is `<readable text>` optionally followed by ` | {json details}`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from agent.offline.progress import finding_line, progress_of
from agent.offline.transcript import ToolCall, Transcript, read_transcript

_DETAILS_SEP = " | {"
_TASK_CHARS = 600


def _line(text: str, details: dict[str, Any] | None = None) -> str:
    return f"{text} | {json.dumps(details, ensure_ascii=False)}" if details else text


def _sections(result: dict[str, Any], list_key: str) -> list[str]:
    return [str(item.get("section")) for item in result.get(list_key, []) if isinstance(item, dict)]


def summarize(messages: Sequence[BaseMessage]) -> str:
    """Summary lines for the (non-system) messages of a run, prior summaries included."""
    transcript = read_transcript(messages)
    progress = progress_of(transcript)
    lines: list[str] = []
    if transcript.task:
        lines.append(f"Task: {' '.join(transcript.task.split())[:_TASK_CHARS]}")
    lines.append(f"Model steps so far: {transcript.model_steps}")
    if progress.listed:
        lines.append(f"Listed sections: {', '.join(progress.section_ids()) or 'none'}")
    elif progress.listings:
        lines.extend(_failed(c) for c in progress.listings if c.error)
    read = [s for s in progress.reads if progress.read_ok(s)]
    if read:
        lines.append(f"Read sections: {', '.join(read)}")
    for section, calls in progress.reads.items():
        if section not in read:
            lines.extend(_failed(c) for c in calls if c.error)
    for name in progress.order:
        tp = progress.types[name]
        if tp.finding is not None:  # done: the recorded finding is all that is needed to continue
            lines.append(f"Recorded finding: {finding_line(tp.finding)}")
            continue
        resolved = False
        found = tp.find_result()
        if found is not None:
            candidates = _sections(found, "candidates")
            text = f"Candidates for {name}: " + (f"sections {', '.join(candidates)}" if candidates else "none")
            lines.append(_line(text, {"if_missing": found["if_missing"]} if found.get("if_missing") else None))
        searched = next((c for c in reversed(tp.searches) if c.ok), None)
        if searched is not None:
            hits = _sections(searched.result, "hits")
            text = f"Search for {name}: " + (f"sections {', '.join(hits)}" if hits else "none")
            lines.append(_line(text, {"query": searched.args.get("query")}))
        retrying = tp.failed(tp.records) > 0  # a failed record is retried with an explicit quote
        for call in tp.assessments:
            if call.ok:
                lines.append(_assessed(name, call, keep_quote=retrying))
        if resolved:
            lines.append(f"Recorded finding: {finding_line(tp.finding)}")
        else:
            errors = [c for c in (*tp.finds, *tp.searches, *tp.assessments, *tp.records) if c.error]
            lines.extend(_failed(c) for c in errors if not (c in tp.searches and searched is not None))
    return "\n".join(lines)


def _assessed(name: str, call: ToolCall, *, keep_quote: bool = False) -> str:
    """The assessment in one line. Its quote and recommendation are not copied: record_finding
    fills both in by reference (the section's assessed quote, the playbook's recommendation for
    the verdict); the quote is kept only while a failed record needs an explicit one."""
    result = call.result or {}
    section = result.get("section", call.args.get("section"))
    if result.get("found") is not True:
        return _line(f"Assessed {name} in section {section}: not found", {"reason": result.get("reason", "")})
    details = {"quote": result["quote"]} if keep_quote and result.get("quote") else None
    return _line(f"Assessed {name} in section {section}: {result.get('verdict')} ({result.get('severity')})", details)


def _failed(call: ToolCall) -> str:
    return _line(f"Failed: {call.name} -> {' '.join(str(call.error).split())[:200]}", {"args": call.args})


_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^Task: (?P<task>.+)$"), "task"),
    (re.compile(r"^Model steps so far: (?P<n>\d+)$"), "steps"),
    (re.compile(r"^Listed sections: (?P<ids>.*)$"), "listed"),
    (re.compile(r"^Read sections: (?P<ids>.*)$"), "read"),
    (re.compile(r"^Candidates for (?P<type>\S+): (?:sections (?P<ids>.+)|none)$"), "candidates"),
    (re.compile(r"^Search for (?P<type>\S+): (?:sections (?P<ids>.+)|none)$"), "search"),
    (re.compile(r"^Assessed (?P<type>\S+) in section (?P<section>\S+): not found$"), "not_found"),
    (re.compile(r"^Assessed (?P<type>\S+) in section (?P<section>\S+): (?P<verdict>[a-z]+) \((?P<severity>[a-z]+)\)$"), "assessed"),
    (re.compile(r"^Recorded finding: (?P<type>[a-z0-9_]+) in section (?P<section>[^\s:\"]+)(?: \"[^\"]*\")?: (?P<verdict>[a-z]+) \((?P<severity>[a-z]+)\)$"), "recorded"),
    (re.compile(r"^Recorded finding: (?P<type>[a-z0-9_]+): missing \((?P<severity>[a-z]+)\)$"), "recorded_missing"),
    (re.compile(r"^Failed: (?P<tool>\S+) -> (?P<error>.*)$"), "failed"),
]


def _ids(text: str | None) -> list[str]:
    return [] if not text or text == "none" else [s.strip() for s in text.split(",") if s.strip()]


def parse_summary(text: str, transcript: Transcript) -> None:
    """Fold an offline summary's lines into `transcript` (lines it does not know are ignored)."""
    for raw in text.splitlines()[1:] if text.startswith("Summary of earlier steps") else text.splitlines():
        readable, _, tail = raw.strip().partition(_DETAILS_SEP)
        try:
            details = json.loads("{" + tail) if tail else {}
        except json.JSONDecodeError:
            details = {}
        for pattern, kind in _PATTERNS:
            match = pattern.match(readable)
            if match:
                _apply(kind, match, details if isinstance(details, dict) else {}, transcript)
                break


def _apply(kind: str, m: re.Match[str], details: dict[str, Any], transcript: Transcript) -> None:
    def add(name: str, args: dict[str, Any], result: dict[str, Any] | None = None, error: str | None = None) -> None:
        transcript.calls.append(ToolCall(name, args, result, error))

    if kind == "task":
        transcript.task = transcript.task or m["task"]
    elif kind == "steps":
        transcript.model_steps += int(m["n"])
    elif kind == "listed":
        add("list_sections", {}, {"sections": [{"id": s} for s in _ids(m["ids"])]})
    elif kind == "read":
        for section in _ids(m["ids"]):
            add("read_section", {"section": section}, {"section": section})
    elif kind == "candidates":
        result = {"clause_type": m["type"], "candidates": [{"section": s} for s in _ids(m["ids"])]}
        if details.get("if_missing"):
            result["if_missing"] = details["if_missing"]
        add("find_clauses", {"clause_type": m["type"]}, result)
    elif kind == "search":
        add("search_contract", {"query": details.get("query", ""), "clause_type": m["type"]},
            {"hits": [{"section": s} for s in _ids(m["ids"])]})
    elif kind == "not_found":
        add("assess_clause", {"clause_type": m["type"], "section": m["section"]},
            {"clause_type": m["type"], "section": m["section"], "found": False, "reason": details.get("reason", "")})
    elif kind == "assessed":
        result = {"clause_type": m["type"], "section": m["section"], "found": True,
                  "verdict": m["verdict"], "severity": m["severity"], **details}
        add("assess_clause", {"clause_type": m["type"], "section": m["section"]}, result)
    elif kind in ("recorded", "recorded_missing"):
        section = m["section"] if kind == "recorded" else None
        verdict = m["verdict"] if kind == "recorded" else "missing"
        finding = {"clause_type": m["type"], "section": section, "verdict": verdict, "severity": m["severity"]}
        add("record_finding", {"clause_type": m["type"], "verdict": verdict}, {"recorded": finding})
    elif kind == "failed":
        add(m["tool"], dict(details.get("args") or {}), None, m["error"])
