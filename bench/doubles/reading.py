"""How the test doubles read a conversation: from its text, the way another model would.

Nothing here uses the project's own readers (no memory-block parser, no summary format, no
transcript reader). A double finds the clause types by looking for a "clause types ...:" list in
the instructions, finds a clause type in any text by its words (any case, spaces, underscores or
hyphens between them), reads tool results as the JSON they are, and reads what the graph or its
own summaries say is open or done from sentences that carry a cue word ("no finding yet",
"still open", "recorded" ...). Section numbers are found by their shape (`9.2`, `11.02`, `h3`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

_LIST_RE = re.compile(r"clause types?\b[^:\n]{0,40}:\s*(?P<items>[^\n]+)", re.IGNORECASE)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|\n+")
SECTION_RE = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)+|\d+|h\d+)(?![\w])")
OPEN_CUES = ("no finding", "not yet", "still open", "still need", "still to", "remaining", "outstanding",
             "open:", "open clause", "left to", "yet to", "not covered", "to review")
DONE_CUES = ("recorded", "finding for", "done", "completed", "finished", "covered")


def text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def snake(name: str) -> str:
    """'Liability Cap', 'LIABILITY-CAP', 'liabilityCap' -> 'liability_cap'."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name.strip())
    return re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")


def _pattern(name: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in snake(name).split("_") if p]
    return re.compile(r"(?<![a-z0-9])" + r"[\s_\-]+".join(parts) + r"(?![a-z0-9])", re.IGNORECASE)


def mentioned(passage: str, names: Iterable[str]) -> list[str]:
    """The names that `passage` mentions in any spelling, in order of first mention. A name
    inside a longer listed name ("warranty" in "warranty_disclaimer") counts only on its own."""
    found: list[tuple[int, str]] = []
    names = list(names)
    for name in names:
        for match in _pattern(name).finditer(passage):
            inside = any(other != name and len(other) > len(name) and
                         any(m.start() <= match.start() and match.end() <= m.end()
                             for m in _pattern(other).finditer(passage))
                         for other in names)
            if not inside:
                found.append((match.start(), name))
                break
    return [name for _, name in sorted(found)]


def clause_types_in(messages: Sequence[BaseMessage]) -> list[str]:
    """The clause types the instructions list ("Clause types to review: a, b, c")."""
    for message in messages:
        if isinstance(message, SystemMessage | HumanMessage):
            match = _LIST_RE.search(text(message))
            if match:
                items = re.split(r",|;|\band\b", match["items"])
                return [snake(item) for item in items if snake(item)]
    return []


def sentences(passage: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_RE.split(passage) if s and s.strip()]


def statements(passage: str, names: Sequence[str]) -> tuple[list[str] | None, set[str]]:
    """(the clause types a passage says are still open, or None if it says nothing about that;
    the clause types it says are done)."""
    open_: list[str] | None = None
    done: set[str] = set()
    for sentence in sentences(passage):
        lowered = sentence.lower()
        named = mentioned(sentence, names)
        if not named:
            continue
        if any(cue in lowered for cue in OPEN_CUES):
            open_ = (open_ or []) + [n for n in named if n not in (open_ or [])]
        elif any(cue in lowered for cue in DONE_CUES):
            done.update(named)
    return open_, done


def sections_in(passage: str) -> list[str]:
    return list(dict.fromkeys(SECTION_RE.findall(passage)))


def decode(content: str) -> tuple[dict[str, Any] | None, str | None]:
    """A tool result as (data, error text)."""
    try:
        data = json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return None, content
    if not isinstance(data, dict):
        return None, content
    if "error" in data:
        return None, " ".join(str(v) for v in data.values() if isinstance(v, str))
    return data, None


@dataclass
class Result:
    """One tool call the double made and what came back."""

    tool: str  # snake-cased, as the double meant it
    args: dict[str, Any]
    data: dict[str, Any] | None
    error: str | None


@dataclass
class Reading:
    """What a double takes from the conversation so far."""

    clause_types: list[str] = field(default_factory=list)
    task: str = ""
    system: str = ""
    results: list[Result] = field(default_factory=list)
    # what the double believes is done: findings it saw recorded, and what the latest statement said
    done: set[str] = field(default_factory=set)
    stated_open: list[str] | None = None  # the latest "still open" list it read (None: none yet)
    turns: int = 0  # assistant turns so far
    last_human: str = ""
    since_human: int = 0  # assistant turns since the last human message
    summaries: int = 0  # human messages that look like a summary of earlier work


SUMMARY_WORDS = ("summary", "summarised", "compressed", "notes")


def read(messages: Sequence[BaseMessage], names: Sequence[str] | None = None) -> Reading:
    """Fold the conversation; `names`: the clause types, when the messages do not list them."""
    reading = Reading(clause_types=list(names) if names is not None else clause_types_in(messages))
    pending: dict[str, tuple[str, dict[str, Any]]] = {}
    for message in messages:
        body = text(message)
        if isinstance(message, SystemMessage):
            reading.system += body + "\n"
        elif isinstance(message, HumanMessage):
            if not reading.task:
                reading.task = body
            reading.last_human = body
            reading.since_human = 0
            if any(word in body[:200].lower() for word in SUMMARY_WORDS):
                reading.summaries += 1
            open_, done = statements(body, reading.clause_types)
            if open_ is not None:  # a list of what is open is read as the whole list
                reading.stated_open = open_
                reading.done = set(reading.clause_types) - set(open_)
            reading.done |= done - set(open_ or [])
        elif isinstance(message, AIMessage):
            reading.turns += 1
            reading.since_human += 1
            for call in message.tool_calls:
                pending[call.get("id") or ""] = (snake(call["name"]), dict(call.get("args") or {}))
        elif isinstance(message, ToolMessage):
            tool, args = pending.pop(message.tool_call_id, (snake(message.name or ""), {}))
            data, error = decode(body)
            if getattr(message, "status", "success") == "error" and error is None:
                error = body
            reading.results.append(Result(tool, args, data, error))
            recorded = (data or {}).get("recorded")
            if isinstance(recorded, dict) and recorded.get("clause_type"):
                reading.done.add(snake(str(recorded["clause_type"])))
    return reading
