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
# The ARCHITECTURE key-finding formats, as bullet lines of an episode.
_FOUND_LINE_RE = re.compile(
    r"^-\s*(?P<type>[a-z0-9_]+) in section (?P<section>[^\s:\"]+)(?: \"(?P<title>[^\"]*)\")?: "
    r"(?P<verdict>standard|fallback|deviation|missing) \((?P<severity>[a-z]+)\)\s*$"
)
_MISSING_LINE_RE = re.compile(r"^-\s*(?P<type>[a-z0-9_]+): missing \((?P<severity>[a-z]+)\)\s*$")

REVIEW_TOOLS = ("list_sections", "read_section", "search_contract", "find_clauses", "assess_clause", "record_finding")


def parse_clause_types(text: str) -> list[str]:
    match = _CLAUSE_TYPES_RE.search(text)
    if not match:
        return []
    return [t.strip() for t in match.group(1).split(",") if t.strip()]


def parse_memory_hints(text: str) -> dict[str, list[Hint]]:
    """Clause locations remembered in the memory block, per type, most similar episode first.

    Only text between a matching `<<MEMORY nonce>>` / `<</MEMORY nonce>>` pair counts, and the
    caller passes only system messages: contract text in tool results cannot plant hints.
    """
    hints: dict[str, list[Hint]] = {}
    for block in _BLOCK_RE.finditer(text):
        episode = 0
        for line in block.group(2).splitlines():
            line = line.strip()
            if line.startswith("### Episode"):
                episode += 1
                continue
            if line.startswith("## ") and not line.startswith("## Past episodes"):
                episode = 0  # facts and procedure sections hold no key findings
                continue
            if episode == 0:
                continue
            found = _FOUND_LINE_RE.match(line)
            missing = None if found else _MISSING_LINE_RE.match(line)
            if found:
                section = None if found["verdict"] == "missing" else found["section"]
                hint = Hint(found["type"], section, found["verdict"], found["severity"], episode,
                            title=found["title"] or "")
            elif missing:
                hint = Hint(missing["type"], None, "missing", missing["severity"], episode)
            else:
                continue
            hints.setdefault(hint.clause_type, []).append(hint)
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
