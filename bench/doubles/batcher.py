"""`BatchingDouble`: a test double that sends every call it can in one turn and talks a lot. Not a model.

Its habits, unlike the project's stand-ins:

- one turn covers every open clause type at once (a first turn of `list_sections` plus twenty
  `find_clauses`, then twenty assessments, then twenty records), each turn with a long paragraph
  of prose beside its calls, and a long closing review;
- it records with `record_finding` only (never `record=true`), copying the quote and the
  recommendation from the assessment and writing its own long rationale, with extra keys the
  tools do not know (`confidence`, `reasoning`);
- it follows `other_side` / `elsewhere` and an error that names a section to assess;
- it reads the memory block its own way: any line of the instructions after the word "memory"
  that names one clause type and section numbers is a place to try first, before `find_clauses`;
- as the compression model it writes long notes in its own words ("Recorded so far: Liability
  Cap (section 9.2, deviation, high) ..."), never the project's summary lines;
- as the extraction model it answers through the forced tool with verbose JSON (extra keys, its
  own finding lines), claiming the outcome it believes from what it read.

Spec: `--model bench.doubles.batcher:make`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from bench.doubles.base import Clause, DoubleChatModel, clauses, rng_for, words
from bench.doubles.reading import SECTION_RE, mentioned, read, snake, statements, text

_SNAKE_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
_FILLER = (
    "I want to be thorough here, because the buyer relies on this review to negotiate, so I will check "
    "each provision against the playbook rather than rely on headings alone.",
    "Contracts of this kind often bury important limitations in definitions or schedules, so I am "
    "reading the assessed text itself and not only the section titles.",
    "Where the tools point me to another section, I will look there before I commit to a finding, since "
    "the same topic can be handled differently in two places.",
    "Once every clause type has a finding I will write a closing review that summarises the position "
    "for the buyer and the changes worth asking for.",
)


def hints_in(system: str, names: Sequence[str]) -> dict[str, list[str]]:
    """Places to try first: after the word "memory", lines naming one clause type and sections."""
    start = system.lower().find("memory")
    hints: dict[str, list[str]] = {}
    if start < 0:
        return hints
    for line in system[start:].splitlines():
        named = mentioned(line, names)
        if len(named) != 1:
            continue
        rest = line[line.lower().find(words(named[0]).split()[-1]):]
        sections = [s for s in SECTION_RE.findall(rest) if "." in s or s.startswith("h")]
        hints.setdefault(named[0], []).extend(s for s in sections if s not in hints.get(named[0], []))
    return hints


class BatchingDouble(DoubleChatModel):
    """Every open clause type in each turn, long prose, verbose JSON (see module doc)."""

    model: str = "batching-double"

    # ------------------------------------------------------------------ review

    def review(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]]) -> AIMessage:
        reading = read(messages)
        names = reading.clause_types
        per = clauses(reading)
        hints = hints_in(reading.system, names)
        open_ = [n for n in names if n not in reading.done]
        calls: list[tuple[str, dict[str, Any]]] = []
        if reading.turns == 0:
            calls.append(("list_sections", {}))
        for name in open_:
            action = self._next(per[name], hints.get(name, []))
            if action is not None:
                calls.append(action)
        if not calls:
            return AIMessage(self._closing(names, per, reading.done))
        rng = rng_for(self.seed, reading.task[:300], reading.turns, len(messages))
        prose = self._plan(calls, rng)
        tool_calls = [{"name": name, "args": args, "id": f"batch-{reading.turns}-{i}-{rng.randrange(10**6)}",
                       "type": "tool_call"} for i, (name, args) in enumerate(calls)]
        return AIMessage(prose, tool_calls=tool_calls)

    def _next(self, clause: Clause, hints: list[str]) -> tuple[str, dict[str, Any]] | None:
        name = clause.name
        pointer = clause.pending_pointer()
        if pointer:
            return "assess_clause", {"clause_type": name, "section": pointer}
        best = clause.best_found()
        if best is not None and clause.records < 3:
            section, data = best
            return "record_finding", {
                "clause_type": name, "verdict": data.get("verdict"), "severity": data.get("severity"),
                "section": section, "quote": data.get("quote") or "", "recommendation": data.get("recommendation") or "",
                "rationale": (f"Having read section {section} with care, I consider the {words(name)} provision "
                              f"to be {data.get('verdict')} against the buyer's playbook. "
                              f"{data.get('rationale') or ''}").strip(),
                "confidence": 0.86, "reasoning": f"Assessed in section {section}; the tools raised no other section.",
            }
        if clause.candidates is None:
            for section in hints:
                if section not in clause.assessed:
                    return "assess_clause", {"clause_type": name, "section": section}
            return "find_clauses", {"clause_type": name}
        untried = [s for s in clause.candidates if s not in clause.assessed]
        if untried:
            return "assess_clause", {"clause_type": name, "section": untried[0]}
        if clause.records >= 3:
            return None
        missing = clause.if_missing or {}
        verdict = str(missing.get("verdict") or "missing")
        return "record_finding", {
            "clause_type": name, "verdict": verdict, "severity": str(missing.get("severity") or "medium"),
            "rationale": (f"I searched the whole contract for a {words(name)} provision and the detector found "
                          f"no candidate that holds one, so I record it as {verdict.replace('_', ' ')}. "
                          f"{missing.get('reason') or ''}").strip(),
            "confidence": 0.7, "reasoning": "No candidate section carries the clause.",
        }

    def _plan(self, calls: list[tuple[str, dict[str, Any]]], rng: Any) -> str:
        topics = [words(str(args["clause_type"])) for _, args in calls if "clause_type" in args]
        shown = ", ".join(topics[:12]) + (" and more" if len(topics) > 12 else "")
        kinds = sorted({name.replace("_", " ") for name, _ in calls})
        return " ".join([
            f"Thank you. In this step I will make {len(calls)} tool calls at once ({', '.join(kinds)}) so that "
            f"the review moves forward on every open topic together: {shown or 'the contract outline'}.",
            *rng.sample(_FILLER, 2),
        ])

    def _closing(self, names: list[str], per: dict[str, Clause], done: set[str]) -> str:
        lines = ["I have now completed my review of the supplier contract against the buyer's playbook. "
                 "Below I go through every clause type in turn, with where I found it and how it compares."]
        for name in names:
            found = per[name].best_found() if name in per else None
            where = f"section {found[0]}, {found[1].get('verdict')}" if found else "no clause found"
            lines.append(f"- {words(name).title()}: {where}{'' if name in done else ' (not recorded)'}.")
        lines.append(" ".join(_FILLER))
        return "\n".join(lines)

    # ------------------------------------------------------------------ summary and extraction

    def summarise(self, messages: Sequence[BaseMessage]) -> str:
        reading = read(messages)
        seen: list[str] = []
        for result in reading.results:
            raw = next((v for k, v in result.args.items() if snake(k) == "clause_type"), None)
            if isinstance(raw, str) and snake(raw) not in seen:
                seen.append(snake(raw))
        for message in messages:  # what earlier notes of mine said
            if isinstance(message, HumanMessage):
                seen += [n for n in _SNAKE_NAME.findall(text(message).lower()) if n not in seen]
                seen += [snake(m) for m in re.findall(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)+) \(section", text(message))
                         if snake(m) not in seen]
        reading = read(messages, seen)
        per = clauses(reading)
        recorded = [n for n in seen if n in reading.done]
        still = [n for n in seen if n not in reading.done]
        parts = ["These are my working notes on the review so far, in my own words. I have been reviewing the "
                 "supplier contract for the buyer, clause type by clause type, with the contract tools."]
        if recorded:
            parts.append("Recorded so far: " + "; ".join(_describe(per[n]) for n in recorded) + ".")
        if still:
            parts.append("I still need to finish: " + "; ".join(_describe(per[n]) for n in still) + ".")
        parts.append(" ".join(_FILLER[:3]))
        return "\n\n".join(parts)

    def distil(self, messages: Sequence[BaseMessage], tool: dict[str, Any] | None) -> AIMessage:
        request = "\n".join(text(m) for m in messages)
        names = list(dict.fromkeys(_SNAKE_NAME.findall(request)))
        open_, _ = statements(request, names)
        claimed = "PARTIAL" if open_ else "COMPLETED"
        data = {
            "task_summary": ("A detailed review of a supplier contract on behalf of the buyer, covering every clause "
                             "type of the playbook with the contract tools, with findings recorded one by one."),
            "outcome": claimed,
            "approach": ("I batched the work: first the outline and a search for every clause type, then an "
                         "assessment of each candidate section, then one finding per clause type, following any "
                         "section the tools pointed to before recording."),
            "reusable_patterns": ["Search for every clause type in one turn.",
                                  "Assess the best candidate section of each clause type before recording it.",
                                  "Follow a section the assessment names before recording."],
            "fact_candidates": [{"text": "Supplier contracts often place the liability cap in a separate "
                                         "limitation of liability section.", "confidence": 0.8,
                                 "evidence": "seen in this review"}],
            "procedure": {"title": "Batch review of a supplier contract",
                          "steps": ["List the sections", "Find every clause type", "Assess each candidate",
                                    "Record one finding per clause type", "Write the closing review"]},
            "key_findings": [f"{words(n).title()} - see the recorded finding" for n in names[:20]],
            "open_clause_types": open_ or [],
            "notes": "Written by the batching test double.",
        }
        if tool is not None:
            return AIMessage("Here is the structured summary of the run.",
                             tool_calls=[{"name": tool["function"]["name"], "args": data, "id": "batch-distil",
                                          "type": "tool_call"}])
        return AIMessage("Certainly. Here is the run as JSON, with some extra detail:\n\n"
                         + json.dumps(data, indent=2) + "\n\nLet me know if you want more detail.")


def _describe(clause: Clause) -> str:
    found = clause.best_found() or clause.latest_found()
    if found:
        return f"{words(clause.name).title()} (section {found[0]}, {found[1].get('verdict')}, {found[1].get('severity')})"
    if clause.candidates:
        return f"{words(clause.name).title()} (candidates in sections {', '.join(clause.candidates[:3])})"
    return f"{words(clause.name).title()} (nothing found yet)"


def make(role: str = "reviewer") -> BatchingDouble:
    return BatchingDouble(model=f"batching-double-{role}")
