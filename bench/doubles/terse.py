"""`TerseDouble`: a test double that says little, slips on spelling and stalls. Not a model.

Its habits, unlike the project's stand-ins:

- one or two tool calls a turn, no prose beside them;
- spelling slips in about a third of its calls (when the previous turn had no error): clause
  types as `LIABILITY_CAP`, `Liability Cap` or `liability-cap`, verdicts as `DEVIATION` or
  `Deviation`, severities as `HIGH`; in about a fifth, the tool name too (`Find_Clauses`,
  `ASSESS_CLAUSE`, `recordFinding`);
- it records the section it assessed, whatever `other_side` or `elsewhere` said (it does follow
  an error that names a section to assess);
- it ignores the memory block;
- it stalls: after reading a summary of earlier work it answers with empty or one-word turns for
  0 to 4 turns before it acts again, and now and then it sends an empty or one-word turn anyway;
- what it does not see in the messages it believes is still to do (after a lossy summary it
  does work again);
- as the compression model it writes one line ("Checking liability cap next.");
- as the extraction model it has no structured output and answers a short JSON text whose
  outcome is what it read (PARTIAL when the text it was given counts fewer findings than clause
  types), listing what it thinks is open in capitals.

Spec: `--model bench.doubles.terse:make`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from bench.doubles.base import Clause, DoubleChatModel, clauses, rng_for, words
from bench.doubles.reading import SUMMARY_WORDS, read, snake, statements, text

_SNAKE_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
_COUNT = re.compile(r"\b(\d+) of (\d+)\b")
_TOOL_SLIPS = {
    "find_clauses": ("Find_Clauses", "FIND_CLAUSES", "findClauses"),
    "assess_clause": ("Assess_Clause", "ASSESS_CLAUSE", "assessClause"),
    "record_finding": ("Record_Finding", "RECORD-FINDING", "recordFinding"),
}
_STALLS = ("", "ok", "Continuing.", "", "Checking.")


class TerseDouble(DoubleChatModel):
    """One or two calls a turn, spelling slips, stalls, a lossy summariser (see module doc)."""

    model: str = "terse-double"
    slip_rate: float = 0.35
    tool_slip_rate: float = 0.2
    idle_rate: float = 0.06

    def with_structured_output(self, schema: Any = None, **kwargs: Any) -> Any:
        raise NotImplementedError("the terse double has no structured output")

    # ------------------------------------------------------------------ review

    def review(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]]) -> AIMessage:
        reading = read(messages)
        names = reading.clause_types
        open_ = [n for n in names if n not in reading.done]
        if not open_:
            return AIMessage("Done.")
        rng = rng_for(self.seed, reading.task[:300], reading.turns, len(messages))
        if self._stalling(messages) or rng.random() < self.idle_rate:
            return AIMessage(rng.choice(_STALLS))
        per = clauses(reading)
        actions = [a for a in (self._next(per[n]) for n in open_[:2]) if a is not None]
        if len(actions) > 1 and rng.random() < 0.5:
            actions = actions[:1]
        if not actions:
            return AIMessage("Done.")
        careful = bool(reading.results) and reading.results[-1].error is not None
        calls = []
        for i, (name, args) in enumerate(actions):
            if not careful:
                name, args = self._slip(name, args, rng)
            calls.append({"name": name, "args": args, "id": f"t{reading.turns}-{i}-{rng.randrange(10**6)}",
                          "type": "tool_call"})
        return AIMessage("", tool_calls=calls)

    def _stalling(self, messages: Sequence[BaseMessage]) -> bool:
        """After a summary of earlier work: 0-4 idle turns before acting again."""
        last = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)
                    and any(w in text(m)[:200].lower() for w in SUMMARY_WORDS)), default=None)
        if last is None:
            return False
        after = [m for m in messages[last + 1:] if isinstance(m, AIMessage)]
        if any(m.tool_calls for m in after):
            return False
        stall = rng_for(self.seed, "stall", text(messages[last])[:400]).randrange(5)
        return len(after) < stall

    def _next(self, clause: Clause) -> tuple[str, dict[str, Any]] | None:
        name = clause.name
        asked = clause.pending_pointer(from_assessments=False)
        if asked:
            return "assess_clause", {"clause_type": name, "section": asked}
        found = clause.latest_found()
        if found is not None and clause.records < 4:
            section, data = found
            return "record_finding", {"clause_type": name, "verdict": data.get("verdict"),
                                      "severity": data.get("severity"), "section": section}
        if clause.candidates is None:
            return "find_clauses", {"clause_type": name}
        untried = [s for s in clause.candidates if s not in clause.assessed]
        if untried:
            return "assess_clause", {"clause_type": name, "section": untried[0]}
        if clause.records >= 4:
            return None
        missing = clause.if_missing or {}
        args = {"clause_type": name, "verdict": str(missing.get("verdict") or "missing"),
                "severity": str(missing.get("severity") or "medium")}
        if any("rationale" in e for e in clause.errors):
            args["rationale"] = "does not apply"
        return "record_finding", args

    def _slip(self, name: str, args: dict[str, Any], rng: Any) -> tuple[str, dict[str, Any]]:
        args = dict(args)
        if rng.random() < self.slip_rate and "clause_type" in args:
            spelled = rng.choice((str.upper, lambda s: s.replace("_", " ").title(), lambda s: s.replace("_", "-")))
            args["clause_type"] = spelled(str(args["clause_type"]))
            if "verdict" in args:
                args["verdict"] = rng.choice((str.upper, str.capitalize))(str(args["verdict"]))
            if "severity" in args:
                args["severity"] = str(args["severity"]).upper()
        if rng.random() < self.tool_slip_rate and name in _TOOL_SLIPS:
            name = rng.choice(_TOOL_SLIPS[name])
        return name, args

    # ------------------------------------------------------------------ summary and extraction

    def summarise(self, messages: Sequence[BaseMessage]) -> str:
        for message in reversed(messages):
            for call in reversed(getattr(message, "tool_calls", None) or []):
                raw = next((v for k, v in call.get("args", {}).items() if snake(k) == "clause_type"), None)
                if isinstance(raw, str):
                    return f"Checking {words(raw)} next."
        return "Checking the contract."

    def distil(self, messages: Sequence[BaseMessage], tool: dict[str, Any] | None) -> AIMessage:
        request = "\n".join(text(m) for m in messages)
        names = list(dict.fromkeys(_SNAKE_NAME.findall(request)))
        open_, _ = statements(request, names)
        counts = [(int(a), int(b)) for a, b in _COUNT.findall(request) if int(b) > 1]
        short = any(a < b for a, b in counts)
        outcome = "partial" if (open_ or short) else "completed"
        data = {"task_summary": "Contract review.", "outcome": outcome, "approach": "tools",
                "open_clause_types": [n.upper() for n in (open_ or [])], "reusable_patterns": [],
                "fact_candidates": [], "procedure": None}
        return AIMessage(json.dumps(data))


def make(role: str = "reviewer") -> TerseDouble:
    return TerseDouble(model=f"terse-double-{role}")
