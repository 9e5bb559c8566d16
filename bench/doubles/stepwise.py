"""`StepwiseDouble`: a test double that works one clause type at a time and asks memory through a tool. Not a model.

Its habits, unlike the project's stand-ins and the other doubles:

- one tool call a turn with one short sentence beside it, depth first: it finishes a clause type
  before it starts the next, and takes them in the reverse of the order the instructions list;
- it never reads the memory block in the prompt: at the start (and again when a summary has
  replaced what it saw) it calls `recall_locations` once for every clause type and treats each
  listed section as the place to assess first; an absence listed there still gets a search;
- without a place from memory it searches the contract in its own words (`search_contract`),
  reads the best hit (`read_section`) and only then assesses it; `find_clauses` only when the
  search turns up nothing that holds the clause;
- it assesses with `record=true` and follows a section the answer names before recording;
- as the compression model it writes a Markdown checklist in its own words
  ("- [x] Liability Cap (9.2)", "- [ ] Insurance"), never the project's summary lines;
- as the extraction model it has no structured output and answers JSON in a fenced block with
  camelCase keys and a capitalised outcome ("Completed"), listing what it thinks is open.

Spec: `--model bench.doubles.stepwise:make`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from bench.doubles.base import Clause, DoubleChatModel, clause_of, clauses, rng_for, words
from bench.doubles.reading import Reading, read, snake, statements, text

_SNAKE_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
_CHECKED = re.compile(r"^- \[(?P<mark>[x ])\] (?P<name>[A-Za-z ]+?)(?: \((?P<where>[^)]*)\))?$", re.MULTILINE)
MAX_HITS = 3  # search hits read and assessed before the detector is asked


def remembered(reading: Reading) -> dict[str, list[str]] | None:
    """Per clause type, the sections the latest visible `recall_locations` answer lists (None when
    no answer is in view)."""
    for result in reversed(reading.results):
        if result.tool == "recall_locations" and result.data is not None:
            locations = result.data.get("locations") or {}
            return {snake(str(name)): [str(p["section"]) for p in places if isinstance(p, dict) and p.get("section")]
                    for name, places in locations.items() if isinstance(places, list)}
    return None


def search_hits(reading: Reading, name: str) -> list[str] | None:
    """The sections this double's search for a clause type returned (None: not searched yet)."""
    for result in reversed(reading.results):
        if result.tool == "search_contract" and snake(str(result.args.get("query", ""))) == snake(words(name)):
            if result.data is None:
                return []
            return list(dict.fromkeys(str(h.get("section")) for h in result.data.get("hits") or [] if isinstance(h, dict)))
    return None


def was_read(reading: Reading, section: str) -> bool:
    return any(r.tool == "read_section" and str(r.args.get("section")) == section for r in reading.results)


class StepwiseDouble(DoubleChatModel):
    """One clause type at a time, one call a turn, memory through `recall_locations` (see module doc)."""

    model: str = "stepwise-double"

    # ------------------------------------------------------------------ review

    def review(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]]) -> AIMessage:
        reading = read(messages)
        names = list(reversed(reading.clause_types))
        open_ = [n for n in names if n not in reading.done]
        if not open_:
            return AIMessage("All clause types now have a finding; the review is complete.")
        has_recall = any(t["function"]["name"] == "recall_locations" for t in tools)
        places = remembered(reading)
        if places is None and has_recall:
            return self._call(reading, "recall_locations", {}, "First I ask memory where similar contracts kept each clause.")
        per = clauses(reading)
        for name in open_:
            action = self._next(reading, per[name], (places or {}).get(name, []))
            if action is not None:
                tool, args, note = action
                return self._call(reading, tool, args, note)
        return AIMessage("I could not settle the remaining clause types with the tools.")

    def _call(self, reading: Reading, tool: str, args: dict[str, Any], note: str) -> AIMessage:
        rng = rng_for(self.seed, reading.task[:300], reading.turns)
        return AIMessage(note, tool_calls=[{"name": tool, "args": args, "id": f"step-{reading.turns}-{rng.randrange(10**6)}",
                                            "type": "tool_call"}])

    def _next(self, reading: Reading, clause: Clause, places: list[str]) -> tuple[str, dict[str, Any], str] | None:
        name, label = clause.name, words(clause.name)
        pointer = clause.pending_pointer()
        if pointer:
            return "assess_clause", {"clause_type": name, "section": pointer, "record": True}, \
                f"The answer names section {pointer} for the {label}; I assess it there."
        found = clause.best_found()
        if found is not None and clause.records < 2:
            section, data = found
            return "record_finding", {"clause_type": name, "verdict": data.get("verdict"),
                                      "severity": data.get("severity"), "section": section}, \
                f"I record the {label} from section {section}."
        for section in places:
            if section not in clause.assessed:
                return "assess_clause", {"clause_type": name, "section": section, "record": True}, \
                    f"Memory lists section {section} for the {label}; I assess it first."
        hits = search_hits(reading, name)
        if hits is None:
            return "search_contract", {"query": label}, f"I search the contract for the {label}."
        for section in [h for h in hits if h not in clause.assessed][:MAX_HITS]:
            if not was_read(reading, section):
                return "read_section", {"section": section}, f"I read section {section} for the {label}."
            return "assess_clause", {"clause_type": name, "section": section, "record": True}, \
                f"I assess the {label} in section {section}."
        if clause.candidates is None:
            return "find_clauses", {"clause_type": name}, f"The search did not settle the {label}; I ask the detector."
        untried = [s for s in clause.candidates if s not in clause.assessed]
        if untried:
            return "assess_clause", {"clause_type": name, "section": untried[0], "record": True}, \
                f"I assess the {label} in section {untried[0]}."
        if clause.records >= 2:
            return None
        missing = clause.if_missing or {}
        return "record_finding", {"clause_type": name, "verdict": str(missing.get("verdict") or "missing"),
                                  "severity": str(missing.get("severity") or "medium"),
                                  "rationale": str(missing.get("reason") or "no such clause in the contract")}, \
            f"No section holds the {label}; I record it as absent."

    # ------------------------------------------------------------------ summary and extraction

    def summarise(self, messages: Sequence[BaseMessage]) -> str:
        named: list[str] = []
        for result in read(messages, []).results:
            name = clause_of(result.args, _SNAKE_NAME.findall(json.dumps(result.args).lower()))
            if name and name not in named:
                named.append(name)
        for message in messages:  # my earlier checklists
            if isinstance(message, HumanMessage):
                named += [snake(m["name"]) for m in _CHECKED.finditer(text(message)) if snake(m["name"]) not in named]
        reading = read(messages, named)
        per = clauses(reading)
        lines = ["My checklist so far:"]
        for name in named:
            found = per[name].best_found() or per[name].latest_found()
            where = f" ({found[0]})" if found else ""
            lines.append(f"- [{'x' if name in reading.done else ' '}] {words(name).title()}{where}")
        return "\n".join(lines)

    def distil(self, messages: Sequence[BaseMessage], tool: dict[str, Any] | None) -> AIMessage:
        request = "\n".join(text(m) for m in messages)
        names = list(dict.fromkeys(_SNAKE_NAME.findall(request)))
        open_, _ = statements(request, names)
        data = {"taskSummary": "Stepwise review of a supplier contract.", "outcome": "Partial" if open_ else "Completed",
                "approach": "One clause type at a time: memory's places first, else a search, a reading, an assessment.",
                "reusablePatterns": ["Ask memory for every clause type once, then assess its places first."],
                "factCandidates": [], "procedure": None, "stillOpen": [words(n) for n in open_ or []]}
        return AIMessage("```json\n" + json.dumps(data, indent=1) + "\n```")

    def with_structured_output(self, schema: Any = None, **kwargs: Any) -> Any:
        raise NotImplementedError("the stepwise double has no structured output")


def make(role: str = "reviewer") -> StepwiseDouble:
    return StepwiseDouble(model=f"stepwise-double-{role}")
