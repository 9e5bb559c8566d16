"""analyze: the reviewer's tool loop, with working-memory compression before every model step.

The loop ends when the model answers without tool calls and every clause type of the playbook
has a finding, or when the step budget is used up (model turns; derived from the playbook's size,
`Settings.step_budget`). An answer in prose while clause types are still open (a small model
thinking aloud, a refusal, a summary written too early) does not end the review: the model is
nudged to continue with the tools, at most `max_nudges` times in a row. Working memory is
compressed past a message count or a token budget set from the model's context window,
whichever comes first.

What the loop achieved is written to `outcome_hint` (COMPLETED, PARTIAL, FAILED) with
`stop_reason` and the clause types left open, so the run's outcome is derived from what it did.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from agent.model_errors import cannot_call_tools, raise_for_setup
from agent.models import history_token_budget, model_name
from agent.settings import Settings
from graphs.context import ReviewContext, RunScope, run_scope
from graphs.state import AnalyzeOutput, ReviewState, add_usage, call_usage
from memory.records import Outcome
from memory.working import compress
from tools.playbook import Playbook, load_playbook
from tools.toolset import TOOLS, tool_error_message

NUDGE_PREFIX = "Continue the review with the tools."


def clause_types(state: dict[str, Any]) -> list[str]:
    """The clause types this run must cover: the run's own playbook, else the default one."""
    raw = state.get("playbook")
    playbook = (raw if isinstance(raw, Playbook) else Playbook.model_validate(raw)) if raw else load_playbook()
    return list(playbook.clause_types)


def open_types(state: dict[str, Any]) -> list[str]:
    """Clause types without a recorded finding yet, in playbook order."""
    done = {f.get("clause_type") for f in state.get("findings") or []}
    return [t for t in clause_types(state) if t not in done]


def step_budget(settings: Settings, state: dict[str, Any]) -> int:
    return settings.step_budget(len(clause_types(state)))


def recursion_limit(settings: Settings, n_clause_types: int) -> int:
    """A LangGraph recursion limit that never cuts the loop before its own step budget does:
    two supersteps per model turn (reviewer, tools), the nudges, and the other nodes."""
    return 2 * (settings.step_budget(n_clause_types) + settings.max_nudges) + 60


@lru_cache(maxsize=1)
def tool_schema_tokens() -> int:
    """Tokens the bound tool schemas add to every reviewer call (approximate)."""
    return len(json.dumps([convert_to_openai_tool(t) for t in TOOLS])) // 4


def nudge_text(missing: list[str], steps: int, budget: int, answer: AIMessage | None = None) -> str:
    unreadable = [c.get("name") or "a tool" for c in (answer.invalid_tool_calls if answer is not None else [])]
    prefix = (f"Your call of {', '.join(unreadable)} could not be read (its arguments were not valid JSON): "
              "make it again. ") if unreadable else ""
    return (f"{NUDGE_PREFIX} {prefix}These clause types have no finding yet: {', '.join(missing)}. Call the tools "
            "(find_clauses, assess_clause, record_finding ...) and record exactly one finding per clause type "
            "(verdict 'missing' when the contract lacks it); answer in plain text only when every clause type "
            f"has a finding. You have used {steps} of {budget} steps.")


def _is_error(message: ToolMessage) -> bool:
    if message.status == "error":
        return True
    try:
        data = json.loads(str(message.content))
    except (json.JSONDecodeError, TypeError):
        return False
    return isinstance(data, dict) and "error" in data


def last_tool_errors(messages: list) -> int:
    """Errors among the tool results of the latest turn (what the model is about to read)."""
    errors = 0
    for message in reversed(messages):
        if not isinstance(message, ToolMessage):
            break
        errors += _is_error(message)
    return errors


def _outcome(state: dict[str, Any], missing: list[str]) -> str:
    if not missing:
        return Outcome.COMPLETED.value
    return (Outcome.PARTIAL if len(missing) < len(clause_types(state)) else Outcome.FAILED).value


def _compress(state: ReviewState, ctx: RunScope, messages: list, usage: dict) -> dict:
    """Compress working memory if due; returns the state update (and edits `messages`, `usage`)."""
    settings = ctx.config
    res = ctx.resources()

    def fail_on_setup(exc: BaseException) -> None:
        raise_for_setup(exc, role="compression", model=res.compressor)

    budget = history_token_budget(res.reviewer, settings, fixed_tokens=tool_schema_tokens())
    compressed = compress(
        messages, res.compressor, threshold=settings.compress_threshold,
        keep_recent=settings.compress_keep_recent, max_tokens=budget, on_error=fail_on_setup,
    )
    if compressed is None:
        return {}
    messages[:] = compressed.messages
    usage.update(add_usage(usage, call_usage(res.compressor, compressed.usage)))
    return {"compressions": state.get("compressions", 0) + 1,
            "replaced": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *compressed.messages]}


def reviewer_step(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    settings = ctx.config
    res = ctx.resources()
    messages = list(state["messages"])
    usage = add_usage({}, {})
    loop = {"tool_errors": last_tool_errors(messages), "nudges": 0, "unreadable_tool_calls": 0}
    update: dict = _compress(state, ctx, messages, usage)
    replaced = update.pop("replaced", [])

    try:
        bound = res.reviewer.bind_tools(TOOLS)
    except NotImplementedError as exc:
        raise cannot_call_tools("reviewer", model_name(res.reviewer)) from exc
    try:
        answer = bound.invoke(messages)
    except Exception as exc:
        raise_for_setup(exc, role="reviewer", model=res.reviewer)
        raise
    usage = add_usage(usage, call_usage(res.reviewer, answer))
    steps = state.get("steps", 0) + 1
    budget = step_budget(settings, state)
    missing = open_types(state)
    loop["unreadable_tool_calls"] = len(getattr(answer, "invalid_tool_calls", None) or [])
    added: list = [answer]
    if answer.tool_calls and steps >= budget:
        # Out of budget: end the loop cleanly instead of leaving unanswered tool calls behind.
        added = [AIMessage(f"Stopped after {steps} model steps (the step budget); review incomplete.")]
        update["stop_reason"] = f"step budget of {budget} model steps used up"
    elif answer.tool_calls:
        update["nudges"] = 0
    elif missing and steps < budget and state.get("nudges", 0) < settings.max_nudges:
        added = [answer, HumanMessage(nudge_text(missing, steps, budget, answer))]
        update["nudges"] = state.get("nudges", 0) + 1
        loop["nudges"] = 1
    elif missing:
        update["stop_reason"] = (f"step budget of {budget} model steps used up" if steps >= budget else
                                 f"the model stopped calling tools ({settings.max_nudges} nudges to continue)")
    usage["tool_calls"] += len(added[0].tool_calls) if isinstance(added[0], AIMessage) else 0
    called = [c["name"] for c in added[0].tool_calls] if isinstance(added[0], AIMessage) else []
    if called:  # kept apart from the messages, which compression replaces: the episode records them
        update["tools_called"] = list(dict.fromkeys([*(state.get("tools_called") or []), *called]))
    previous = state.get("loop") or {}
    totals = {key: int(previous.get(key, 0)) + value for key, value in loop.items()}
    update.update({"messages": [*replaced, *added], "usage": add_usage(state.get("usage"), usage), "steps": steps,
                   "loop": {**totals, "step_budget": budget}})
    if isinstance(added[-1], AIMessage) and not added[-1].tool_calls:
        update["final_review"] = str(added[-1].content)
        update["outcome_hint"] = _outcome(state, missing)
        update["open_clause_types"] = missing
        update.setdefault("stop_reason", "")
    return update


def route(state: ReviewState) -> str:
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    if isinstance(last, HumanMessage) and str(last.content).startswith(NUDGE_PREFIX):
        return "reviewer"
    return END


def build_analyze() -> StateGraph:
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=AnalyzeOutput)
    builder.add_node("reviewer", reviewer_step)
    builder.add_node("tools", ToolNode(TOOLS, handle_tool_errors=tool_error_message))
    builder.add_edge(START, "reviewer")
    builder.add_conditional_edges("reviewer", route, ["tools", "reviewer", END])
    builder.add_edge("tools", "reviewer")
    return builder
