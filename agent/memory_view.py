"""How the reviewer's memory block shows past key findings: per clause type, where similar
contracts kept it.

The next review uses memory for one thing: where to look first. Past verdicts are left out on
purpose (a verdict comes from the current text, never from memory; facts carry what tends to
deviate), and so is every repeat. One line per clause type lists each remembered place once, with
the episodes that saw it there (best episode first, as retrieved):

    - liability_cap: 8.2 "Financial Ceiling" [1,2]; 7.4 [3]; 9.3 "Limitation of Liability" [4]
    - data_protection: 6.1 "Client Personal Data" [1]; missing (high) [2]

A clause type none of whose remembered places holds for the current contract (`tools.recall`) is
one line `- sole_remedy: not where remembered [1,2]`. A place without a heading has the heading of
the place before it on the line. Lines that are not
key findings in the docs/ARCHITECTURE.md format are shown as memory.block shows them. The
reader is `agent.offline.transcript.parse_memory_hints`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from agent.prompts import MEMORY_PREAMBLE
from memory.block import merged_findings
from tools.recall import ABSENT, KEY_FINDING, MOVED, MOVED_LINE, heading_key

__all__ = ["ABSENT", "GRAPH_MADE", "KEY_FINDING", "UNUSED_AFTER", "clause_locations", "graph_turn", "heading_key",
           "graph_results_redone", "made_by_graph", "memory_unused", "open_places", "recorded_graph_results"]

# The graph's own turn before the model's first (graphs.analyze.graph_first_calls): the places memory
# keeps and this contract bears out, assessed by the graph. Its AI message and tool results carry
# `made_by: graph` (and call ids with this prefix), so nobody takes them for the model's.
GRAPH_MADE = "graph"
GRAPH_CALL_PREFIX = "graph-memory-"
GRAPH_TURN_TEXT = ("Before the first turn, the review graph (not the model) assessed the places where reviews of "
                   "similar contracts kept these clause types and this contract bears them out. The results "
                   "below are the tools' answers: record a finding from one (record_finding), or assess "
                   "elsewhere where you disagree or the answer names another section.")


def made_by_graph(message: BaseMessage) -> bool:
    """Whether a message is part of the graph's own turn (`graph_turn`), not the model's."""
    return (message.additional_kwargs or {}).get("made_by") == GRAPH_MADE


_KEPT_WHEN_RECORDED = ("clause_type", "section", "found", "verdict", "severity")
RECORDED_NOTE = "the graph's assessment before your first turn; this clause type has a finding now (answer shortened)"


def recorded_graph_results(messages: Sequence[BaseMessage], recorded: Collection[str]) -> list[BaseMessage]:
    """The messages as the reviewer is sent them: a result of the graph's own turn (`graph_turn`)
    whose clause type is in `recorded` (has a finding now; every clause type once the model has
    shown it redoes the graph's assessments: `graph_results_redone`) keeps only where and what it
    read, and says so; the
    model needs no more of it, as it needs no directions to a clause it has recorded
    (`open_places`). Pairs stay whole, and the graph's history is unchanged."""
    if not recorded:
        return list(messages)
    out: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage) and made_by_graph(message):
            try:
                data = json.loads(str(message.content))
            except json.JSONDecodeError:
                data = None
            if isinstance(data, dict) and data.get("clause_type") in recorded:
                short = {k: data[k] for k in _KEPT_WHEN_RECORDED if k in data} | {"note": RECORDED_NOTE}
                message = message.model_copy(update={"content": json.dumps(short, ensure_ascii=False)})
        out.append(message)
    return out


def graph_results_redone(examined: Sequence[dict]) -> bool:
    """Whether the model assessed again a place the graph had assessed before its first turn
    (`examined`: entries `by: graph`, and the model's own): a model that does so does not use the
    graph's results, which it is then sent shortened (`recorded_graph_results`)."""
    by_graph: set[tuple[str, str]] = set()
    for entry in examined:
        if not isinstance(entry, dict) or entry.get("tool") != "assess_clause":
            continue
        pairs = {(str(entry.get("clause_type")), str(entry.get(k))) for k in ("asked", "section") if entry.get(k)}
        if entry.get("by") == GRAPH_MADE:
            by_graph |= pairs
        elif pairs & by_graph:
            return True
    return False


def graph_turn(calls: Sequence[dict], results: Sequence[ToolMessage]) -> list[BaseMessage]:
    """The graph's own turn: an AI message whose calls the graph made (ids `GRAPH_CALL_PREFIX` +
    n, as given), and their results, each marked `made_by: graph`; pairs whole, as a model's turn."""
    mark = {"made_by": GRAPH_MADE}
    turn = AIMessage(GRAPH_TURN_TEXT, tool_calls=list(calls), name=GRAPH_MADE, additional_kwargs=mark)
    return [turn, *(r.model_copy(update={"additional_kwargs": {**(r.additional_kwargs or {}), **mark}})
                    for r in results)]

def _refs(numbers: list[int]) -> str:
    return "[" + ",".join(str(n) for n in numbers) + "]"


def clause_locations(findings_by_episode: list[list[str]]) -> list[str]:
    """The block's key-finding lines for the episodes' key findings (best episode first)."""
    places: dict[str, dict[tuple[str, str], list[int]]] = {}  # type -> (section or verdict, title) -> episodes
    moved: dict[str, list[int]] = {}  # type -> episodes whose place does not hold here (tools.recall)
    other: list[list[str]] = []
    for number, findings in enumerate(findings_by_episode, start=1):
        unread = []
        for line in findings:
            match = KEY_FINDING.match(line)
            if match is None:
                if moved_line := MOVED_LINE.match(line):
                    episodes = moved.setdefault(moved_line["type"], [])
                    episodes.extend([number] if number not in episodes else [])
                else:
                    unread.append(line)
                continue
            if match["verdict"] in ABSENT or not match["section"]:
                where = (f"{match['verdict'] if match['verdict'] in ABSENT else 'missing'} ({match['severity']})", "")
            else:
                where = (match["section"], match["title"] or "")
            episodes = places.setdefault(match["type"], {}).setdefault(where, [])
            if number not in episodes:
                episodes.append(number)
        other.append(unread)
    lines = []
    for clause_type, by_place in places.items():
        entries, last_title = [], None
        for (where, title), numbers in by_place.items():
            absent = where.startswith(ABSENT)
            shown_title = "" if absent or title == last_title else f' "{title}"'
            entries.append(f"{where}{shown_title} {_refs(numbers)}")
            if not absent:
                last_title = title
        lines.append(f"- {clause_type}: {'; '.join(entries)}")
    # a clause type none of whose remembered places holds here: said once, never offered as a place
    lines += [f"- {clause_type}: {MOVED} {_refs(numbers)}" for clause_type, numbers in moved.items()
              if clause_type not in places]
    return lines + merged_findings(other)


_BLOCK = re.compile(r"(<<MEMORY (?P<nonce>[0-9A-Za-z]+)>>)(?P<body>.*?)(<</MEMORY (?P=nonce)>>)", re.DOTALL)
_TYPE_LINE = re.compile(r"^- (?P<type>[a-z0-9_]+): (?P<places>.*)$")
_SERVED_SECTION = re.compile(r"(?:^|; )(?P<section>[^\s;\"\[]+)(?: \"[^\"]*\")? \[")
UNUSED_AFTER = 3  # model steps after which memory the model has not used is no longer sent
UNUSED_NOTE = "Memory of similar contracts: recall_locations(clause_type) lists where they kept a clause type."


def served_places(messages: Sequence[BaseMessage]) -> dict[str, set[str]]:
    """Per clause type, the sections the memory block of the system prompt lists as places."""
    places: dict[str, set[str]] = {}
    for message in messages:
        if isinstance(message, SystemMessage) and isinstance(message.content, str):
            for block in _BLOCK.finditer(message.content):
                for line in block["body"].splitlines():
                    if match := _TYPE_LINE.match(line):
                        places.setdefault(match["type"], set()).update(
                            m["section"] for m in _SERVED_SECTION.finditer(match["places"]) if m["section"] not in ABSENT)
    return {t: sections for t, sections in places.items() if sections}


def memory_unused(messages: Sequence[BaseMessage], examined: Sequence[dict], tools_called: Collection[str],
                  steps: int, findings: Sequence[dict] = ()) -> bool:
    """Whether the model has shown, over its first `UNUSED_AFTER` steps, that it does not use the
    places memory served: it has not asked `recall_locations`, it has assessed no served place
    of a clause type before a search for that type showed it (`examined`: what the tools showed,
    in order, kept by the graph), and it has recorded no finding (`findings`) at a place the graph
    assessed from memory before its first turn (`by: graph`) without searching that clause type
    itself. Such a model is no longer sent the places."""
    if steps < UNUSED_AFTER or "recall_locations" in tools_called:
        return False
    served = served_places(messages)
    if not served:
        return False
    searched: set[str] = set()
    by_graph: set[tuple[str, str]] = set()
    for entry in examined:
        if not isinstance(entry, dict):
            continue
        clause_type = str(entry.get("clause_type") or "")
        if entry.get("by") == GRAPH_MADE:  # the graph's, not the model's
            by_graph |= {(clause_type, str(entry.get(k))) for k in ("asked", "section") if entry.get(k)}
        elif entry.get("tool") == "find_clauses":
            searched.add(clause_type)
        elif entry.get("tool") == "assess_clause" and clause_type not in searched and \
                {str(entry.get("asked")), str(entry.get("section"))} & served.get(clause_type, set()):
            return False
    return not any(isinstance(f, dict) and f.get("clause_type") not in searched
                   and (str(f.get("clause_type")), str(f.get("section"))) in by_graph for f in findings)


def _open_block(body: str, done: Collection[str] | None) -> str:
    return "".join(line for line in body.splitlines(keepends=True)
                   if not ((match := _TYPE_LINE.match(line.rstrip("\n"))) and (done is None or match["type"] in done)))


def open_places(messages: Sequence[BaseMessage], done: Collection[str] | None) -> list[BaseMessage]:
    """The messages as the reviewer is sent them: in the memory block of the system prompt, the
    place lines of clause types that already have a finding are left out (a model needs no
    directions to a clause it has recorded); when `done` is None (a model that does not use
    memory: `memory_unused`) the preamble and the block give way to one line naming
    `recall_locations`. The block shrinks as the review goes, so a model that cannot
    use memory pays for it less; the graph's history is unchanged."""
    if done is not None and not done:
        return list(messages)
    out: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, SystemMessage) and isinstance(message.content, str) and "<<MEMORY " in message.content:
            if done is None:  # not used: one line says where memory is, instead of the whole block
                content = _BLOCK.sub(lambda m: f"{m[1]}\n{UNUSED_NOTE}\n{m[4]}",
                                     message.content.replace(MEMORY_PREAMBLE + "\n", ""))
            else:
                content = _BLOCK.sub(lambda m: m[1] + _open_block(m["body"], done) + m[4], message.content)
            message = message.model_copy(update={"content": content})
        out.append(message)
    return out
