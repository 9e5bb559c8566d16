"""The offline summary's line format, and reading it back into `ToolCall` records.

Each line is `<readable text>` optionally followed by ` | {json details}`; `agent.offline.summarizer`
writes the lines, `parse_summary` reads them, so a summary counts as evidence of work already done.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agent.offline.calls import SUMMARY_MARKER, ToolCall, Transcript

DETAILS_SEP = " | {"


def line(text: str, details: dict[str, Any] | None = None) -> str:
    """One summary line: the readable text, then the details as JSON when there are any."""
    return f"{text} | {json.dumps(details, ensure_ascii=False)}" if details else text


_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^Task: (?P<task>.+)$"), "task"),
    (re.compile(r"^Model steps so far: (?P<n>\d+)$"), "steps"),
    (re.compile(r"^Listed sections: (?P<ids>.*)$"), "listed"),
    (re.compile(r"^Read sections: (?P<ids>.*)$"), "read"),
    (re.compile(r"^Candidates for (?P<type>\S+): (?:sections (?P<ids>.+)|none)$"), "candidates"),
    (re.compile(r"^Search for (?P<type>\S+): (?:sections (?P<ids>.+)|none)$"), "search"),
    (re.compile(r"^Assessed (?P<type>\S+) in section (?P<section>\S+): not found$"), "not_found"),
    (re.compile(r"^Assessed (?P<type>\S+) in section (?P<section>\S+): (?P<verdict>[a-z]+) \((?P<severity>[a-z]+)\)$"), "assessed"),
    (re.compile(r"^Recorded finding: (?P<type>[a-z0-9_]+) in section (?P<section>[^\s:\"]+)(?: \"(?P<title>[^\"]*)\")?: (?P<verdict>[a-z]+) \((?P<severity>[a-z]+)\)$"), "recorded"),
    (re.compile(r"^Recorded finding: (?P<type>[a-z0-9_]+): (?P<verdict>missing|not_applicable) \((?P<severity>[a-z]+)\)$"), "recorded_missing"),
    (re.compile(r"^Failed: (?P<tool>\S+) -> (?P<error>.*)$"), "failed"),
]


def _ids(text: str | None) -> list[str]:
    return [] if not text or text == "none" else [s.strip() for s in text.split(",") if s.strip()]


def parse_summary(text: str, transcript: Transcript) -> None:
    """Fold an offline summary's lines into `transcript` (lines it does not know are ignored)."""
    for raw in text.splitlines()[1:] if text.startswith(SUMMARY_MARKER) else text.splitlines():
        readable, _, tail = raw.strip().partition(DETAILS_SEP)
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
        verdict = m["verdict"]
        finding = {"clause_type": m["type"], "section": section, "verdict": verdict, "severity": m["severity"]}
        if kind == "recorded" and m["title"]:
            finding["section_title"] = m["title"]  # the heading travels on, so memory can relocate the clause
        add("record_finding", {"clause_type": m["type"], "verdict": verdict}, {"recorded": finding})
    elif kind == "failed":
        add(m["tool"], dict(details.get("args") or {}), None, m["error"])
