"""Benchmark 4: working-memory compression over a long run (>= 200 tool steps) of the real graph.

A deterministic driver model walks a contract one tool call per model step, the way an LLM agent
does: list the sections, read every section, then for each playbook clause type search, find,
assess and record a finding (the verdict taken from the assessment it just received), looping
over the sections again until the step budget is used. The same run is made twice through the
review graph: with the configured compression (default: past 30 messages keep 15) and with
compression off. Measured: context tokens of every reviewer call (peak and total), compressions,
the findings in the final report, the recorded findings still visible to the model at its last
step, and `memory.working.tool_pairs_intact` on every history the reviewer received.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from bench.common import REPO
from memory.working import SUMMARY_PREFIX, tool_pairs_intact

CONTRACT = REPO / "sample_contracts" / "northwind_msa_01.pdf"


def plan_calls(sections: list[str], clause_types: list[dict[str, str]], steps: int) -> list[tuple[str, dict]]:
    """The tool calls of the long run, in order (record_finding args are filled at run time)."""
    calls: list[tuple[str, dict]] = [("list_sections", {})]
    calls += [("read_section", {"section": s}) for s in sections]
    for clause in clause_types:
        calls += [("search_contract", {"query": clause["title"], "k": 3}),
                  ("find_clauses", {"clause_type": clause["type"]}),
                  ("assess_clause", {"clause_type": clause["type"], "section": "?"}),
                  ("record_finding", {"clause_type": clause["type"]})]
    position = 0
    while len(calls) < steps:  # a re-reading pass, as an agent double-checks its work
        calls.append(("read_section", {"section": sections[position % len(sections)]}))
        position += 1
    return calls


class LongRunDriver(BaseChatModel):
    """Issues the planned calls one per model step; fills `section` of assess_clause from the last
    find_clauses result and record_finding from the last assess_clause result it can see."""

    calls: list[tuple[str, dict]]
    _step: int = PrivateAttr(default=0)
    _received: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "bench-long-run"

    @property
    def received(self) -> list[list[BaseMessage]]:
        return self._received

    def bind_tools(self, tools, *, tool_choice=None, **kwargs):  # noqa: ANN001, ANN201
        return self.bind(**kwargs)

    @staticmethod
    def _last_result(messages: list[BaseMessage], tool: str) -> dict[str, Any]:
        for message in reversed(messages):
            if isinstance(message, ToolMessage) and message.name == tool:
                try:
                    return json.loads(str(message.content))
                except json.JSONDecodeError:
                    return {}
        return {}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        self._received.append(list(messages))
        if self._step >= len(self.calls):
            answer = AIMessage("Long run finished.")
        else:
            name, args = self.calls[self._step]
            args = dict(args)
            if name == "assess_clause":
                candidates = self._last_result(messages, "find_clauses").get("candidates") or []
                args["section"] = str(candidates[0].get("section")) if candidates else "1"
            elif name == "record_finding":
                assessed = self._last_result(messages, "assess_clause")
                args.update(verdict=assessed.get("verdict") or "missing", severity=assessed.get("severity") or "low",
                            recommendation=assessed.get("recommendation") or "review manually",
                            section=assessed.get("section"), quote=assessed.get("quote"))
                if args["verdict"] == "missing":
                    args.update(section=None, quote=None)
            answer = AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{self._step}", "type": "tool_call"}])
            self._step += 1
        inputs, outputs = count_tokens_approximately(messages), count_tokens_approximately([answer])
        answer.usage_metadata = {"input_tokens": inputs, "output_tokens": outputs, "total_tokens": inputs + outputs}
        return ChatResult(generations=[ChatGeneration(message=answer)])


def _visible_findings(context: list[BaseMessage], recorded: list[dict[str, Any]]) -> int:
    """Recorded findings the model can still see: their record_finding result in the history, or
    their clause type and verdict on one line of a working-memory summary."""
    seen = set()
    summary_lines = [line for m in context if str(m.content).startswith(SUMMARY_PREFIX)
                     for line in str(m.content).splitlines()]
    for message in context:
        if isinstance(message, ToolMessage) and message.name == "record_finding":
            echo = (json.loads(str(message.content)).get("recorded") or {})
            seen.add((echo.get("clause_type"), echo.get("verdict")))
    for finding in recorded:
        key = (finding["clause_type"], finding["verdict"])
        if any(key[0] in line and key[1] in line for line in summary_lines):
            seen.add(key)
    return sum((f["clause_type"], f["verdict"]) in seen for f in recorded)


def _compressions(contexts: list[list[BaseMessage]]) -> int:
    """How many times the summary the reviewer sees changed (each change is one compression)."""
    count, previous = 0, None
    for context in contexts:
        summary = next((str(m.content) for m in context if str(m.content).startswith(SUMMARY_PREFIX)), None)
        if summary is not None and summary != previous:
            count += 1
        previous = summary
    return count


def run_once(calls: list[tuple[str, dict]], *, compress: bool) -> dict[str, Any]:
    from agent.report import build_report
    from agent.settings import Settings
    from graphs.runner import Reviewer, open_checkpointer
    from tools.contract import load_contract

    driver = LongRunDriver(calls=calls)
    with tempfile.TemporaryDirectory(prefix="bench-compression-") as home:
        settings = Settings(home=Path(home), max_model_steps=len(calls) + 5,
                            compress_threshold=30 if compress else 10**9,
                            compress_max_tokens=None if compress else 10**9)
        with open_checkpointer(settings) as saver:
            reviewer = Reviewer(settings, saver, reviewer_model=driver, use_memory=False)
            contract = load_contract(CONTRACT, max_bytes=settings.max_input_bytes).model_dump()
            # Reviewer.review_contract sets the recursion limit from the playbook's step budget; this
            # run is longer on purpose: go direct.
            config = {"configurable": {"thread_id": "long-run"}, "recursion_limit": 4 * len(calls) + 50}
            start = time.perf_counter()
            state = reviewer.graph.invoke({"contract": contract, "run_id": "long-run"}, config, context=reviewer.context)
            seconds = time.perf_counter() - start
            report = build_report(state)
    contexts = driver.received
    sizes = [count_tokens_approximately(c) for c in contexts]
    lengths = [len(c) for c in contexts]
    broken = [i for i, c in enumerate(contexts) if not tool_pairs_intact(c)]
    findings = report["findings"]
    return {
        "compression": compress, "tool_steps": report["usage"]["tool_calls"], "model_calls": report["usage"]["model_calls"],
        "stand_in_calls": report["usage"].get("stand_in_calls", 0),
        "reviewer_calls": len(contexts), "peak_context_tokens": max(sizes), "final_context_tokens": sizes[-1],
        "total_input_tokens": report["usage"]["input_tokens"], "peak_context_messages": max(lengths),
        "compressions": _compressions(contexts),
        "findings_in_report": len(findings),
        "findings_visible_at_last_step": _visible_findings(contexts[-1], findings),
        "histories_checked": len(contexts), "histories_with_split_tool_pairs": len(broken),
        "wall_s": round(seconds, 2), "context_tokens_per_call": sizes,
    }


def run(*, steps: int = 220) -> dict[str, Any]:
    from tools.contract import load_contract
    from tools.playbook import load_playbook

    contract = load_contract(CONTRACT, max_bytes=20 * 1024 * 1024)
    playbook = load_playbook()
    sections = [s.id for s in contract.sections]
    types = [{"type": name, "title": playbook.clauses[name].title} for name in playbook.clause_types]
    calls = plan_calls(sections, types, steps)
    on, off = run_once(calls, compress=True), run_once(calls, compress=False)
    return {
        "contract": CONTRACT.name, "planned_tool_steps": len(calls),
        "with_compression": on, "without_compression": off,
        "peak_ratio": round(on["peak_context_tokens"] / max(1, off["peak_context_tokens"]), 3),
        "input_token_ratio": round(on["total_input_tokens"] / max(1, off["total_input_tokens"]), 3),
        "tool_pairs_intact": on["histories_with_split_tool_pairs"] == 0 and off["histories_with_split_tool_pairs"] == 0,
    }
