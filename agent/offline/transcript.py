"""Reading a run's messages back into facts: clause types, memory hints, and tool calls with results.

Every offline mode (reviewer, summariser, extractor) sees the run through this one reader, so they
agree on what has been done. Working-memory summaries written by `agent.offline.summarizer` are
parsed back (`agent.offline.summary_format`) into the same `ToolCall` records the raw messages give, which is what lets the
reviewer continue after its history was compressed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from agent.offline.calls import SUMMARY_MARKER, Hint, ToolCall, Transcript, text_of
from agent.offline.summary_format import parse_summary

__all__ = ["REVIEW_TOOLS", "SUMMARY_MARKER", "Hint", "ToolCall", "Transcript", "parse_clause_types",
           "parse_memory_hints", "parse_tool_content", "read_transcript", "text_of"]

_CLAUSE_TYPES_RE = re.compile(r"^\s*Clause types to review:\s*(.+?)\s*$", re.MULTILINE)
_BLOCK_RE = re.compile(r"<<MEMORY ([0-9A-Za-z]+)>>\n?(.*?)<</MEMORY \1>>", re.DOTALL)
# An episode's header line, and a clause type's line of remembered places (agent.memory_view):
# `- liability_cap: 8.2 "Financial Ceiling" [1,2]; 7.4 [3]; missing (medium) [4]`
_EPISODE_RE = re.compile(r"^\[(?P<n>\d+)\] similarity (?P<sim>-?[\d.]+) \| (?P<outcome>[A-Z]+) \|")
_PLACES_RE = re.compile(r"^-\s*(?P<type>[a-z0-9_]+): (?P<places>.+)$")
_PLACE_RE = re.compile(
    r"(?:(?P<moved>not where remembered)|(?P<absent>missing|not_applicable) \((?P<severity>[a-z]+)\)"
    r"|(?P<section>[^\s;\"\[]+)(?: \"(?P<title>[^\"]*)\")?)"
    r" \[(?P<eps>[\d,]+)\]")

REVIEW_TOOLS = ("list_sections", "read_section", "search_contract", "find_clauses", "assess_clause", "record_finding")


def parse_clause_types(text: str) -> list[str]:
    match = _CLAUSE_TYPES_RE.search(text)
    if not match:
        return []
    return [t.strip() for t in match.group(1).split(",") if t.strip()]


def parse_memory_hints(text: str) -> dict[str, list[Hint]]:
    """Clause locations remembered in the memory block, per type, best episode first.

    Episodes are ranked as the block lists them (retrieval's order), each with its similarity
    and outcome; a clause type's line lists each remembered place with the episodes that saw it
    there (a place without a heading has the heading of the place before it). Only text between
    a matching `<<MEMORY nonce>>` / `<</MEMORY nonce>>` pair counts, and the caller passes only
    system messages: contract text in tool results cannot plant hints.
    """
    hints: dict[str, list[Hint]] = {}
    for block in _BLOCK_RE.finditer(text):
        episodes: dict[int, tuple[float, str]] = {}
        in_findings = False
        for line in block.group(2).splitlines():
            line = line.strip()
            if episode := _EPISODE_RE.match(line):
                episodes[int(episode["n"])] = (float(episode["sim"]), episode["outcome"])
                continue
            if line.startswith("## "):
                in_findings = line.startswith("## Key findings")
                continue
            places = _PLACES_RE.match(line) if in_findings else None
            if not places:
                continue
            title = ""
            for place in _PLACE_RE.finditer(places["places"]):
                if place["section"] and place["title"] is not None:
                    title = place["title"]
                for number in (int(n) for n in place["eps"].split(",") if n):
                    similarity, outcome = episodes.get(number, (0.0, ""))
                    if place["moved"]:  # memory's places for it do not hold here: look afresh
                        hint = Hint(places["type"], None, "moved", "", number, similarity=similarity, outcome=outcome)
                    elif place["absent"]:
                        hint = Hint(places["type"], None, "missing", place["severity"], number,
                                    similarity=similarity, outcome=outcome)
                    else:
                        hint = Hint(places["type"], place["section"], "present", "", number, title=title,
                                    similarity=similarity, outcome=outcome)
                    hints.setdefault(places["type"], []).append(hint)
    for name in hints:
        hints[name].sort(key=lambda h: h.episode)
    return hints


def parse_tool_content(message: ToolMessage) -> tuple[dict[str, Any] | None, str | None]:
    """(result, error) of a tool message: `{"error": ...}`, an error status or non-JSON is an error."""
    content = text_of(message)
    try:
        data = json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return None, content.strip() or "empty tool result"
    if not isinstance(data, dict):
        return None, f"unexpected tool result: {content[:200]}"
    if "error" in data:
        return None, str(data["error"])
    if getattr(message, "status", "success") == "error":
        return None, content
    return data, None


def read_transcript(messages: Sequence[BaseMessage]) -> Transcript:
    """Fold a message list (possibly compressed) into a `Transcript`."""
    transcript = Transcript()
    pending: dict[str, ToolCall] = {}
    for message in messages:
        text = text_of(message)
        if isinstance(message, SystemMessage):
            transcript.clause_types = transcript.clause_types or parse_clause_types(text)
            for name, hints in parse_memory_hints(text).items():
                transcript.hints.setdefault(name, []).extend(hints)
        elif isinstance(message, HumanMessage):
            if text.startswith(SUMMARY_MARKER):
                parse_summary(text, transcript)
            elif not transcript.task:
                transcript.task = text.strip()
            transcript.clause_types = transcript.clause_types or parse_clause_types(text)
        elif isinstance(message, AIMessage):
            transcript.model_steps += 1
            for call in message.tool_calls:
                record = ToolCall(call["name"], dict(call.get("args") or {}))
                transcript.calls.append(record)
                if call.get("id"):
                    pending[call["id"]] = record
        elif isinstance(message, ToolMessage):
            record = pending.pop(message.tool_call_id, None)
            if record is None:  # a result whose call was lost: keep it, named by the message
                record = ToolCall(message.name or "unknown", {})
                transcript.calls.append(record)
            record.result, record.error = parse_tool_content(message)
    return transcript
