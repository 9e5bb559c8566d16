"""analyze: the reviewer's tool loop, with working-memory compression before every model step.

With memory on, the loop starts with the graph's own turn (`memory_first`, `graph_first_calls`):
the calls the agent asks for from what memory served and this contract bears out (the contract
agent assesses each confirmed remembered place), run through the model's tools and put into the
messages and `examined` as the graph's, so any model finds those assessments done; they are counted
as `graph_calls`, apart from the model's `tool_calls`.

The loop ends when the model answers without tool calls and every clause type of the playbook
has a finding, or when the step budget is used up (model turns; derived from the playbook's size,
`Settings.step_budget`). A turn of prose or nothing while clause types are still open (a small
model thinking aloud, a refusal, a summary written too early, a stall) does not end the review:
it is answered with what is open and the call to make next. Only `max_nudges` such turns in a
row (the model has stopped working) end it before the budget.

What a model sends is made the tools' own before it runs (`tools.arguments`): tool names, argument
names, clause types, verdicts and severities in any spelling; the history keeps the corrected
calls. A turn that repeats the previous turn's calls exactly is answered from the previous
results, not run again, with a note saying so.

Working memory is compressed past a message count or a token budget set from the model's context
window, whichever comes first. The run's findings, open clause types and assessed sections live
in state, outside the messages: every compression re-states them, and a summary that is empty,
too short or drops a recorded finding is replaced by the graph's own digest
(`graphs.review_state`), as is one the compression model failed to write.

A reviewer model that fails mid-run (after its own retries) ends the loop with that reason when
the run's checkpoints live in memory (nothing could resume it); with durable checkpoints (SQLite,
a LangGraph server) the error propagates with a note, and the run resumes from its last
checkpoint. A setup mistake (credentials, access, an unknown model) raises a configuration error. What
the loop achieved is written to `outcome_hint` (COMPLETED, PARTIAL, FAILED) with `stop_reason`
and the clause types left open, so the run's outcome is derived from what it did; its counters
(`loop`) include nudges, compressions, rejected summaries, compression failures, repeated
batches and normalised calls, and `warnings` says what went wrong without ending the run.
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
from langgraph.types import Command

from agent.memory_view import (
    GRAPH_CALL_PREFIX,
    GRAPH_MADE,
    graph_results_redone,
    graph_turn,
    made_by_graph,
    memory_unused,
    open_places,
    recorded_graph_results,
)
from agent.model_errors import cannot_call_tools, raise_for_setup
from agent.models import history_token_budget, model_name
from agent.settings import Settings
from graphs.context import ReviewContext, RunScope, run_scope
from graphs.memory_steps import MEMORY_TOOLS
from graphs.memory_steps import steps as memory_steps
from graphs.review_state import next_call, open_sentence, run_state
from graphs.state import AnalyzeOutput, ReviewState, add_usage, call_usage
from memory.graph import emit
from memory.records import Outcome
from memory.working import compress
from tools.arguments import normalise_call
from tools.detection.rules import DETECTORS
from tools.playbook import Playbook, load_playbook
from tools.toolset import TOOLS, tool_error_message

# the contract tools, and the memory tools (search_memory, remember) when the run's memory is on
ALL_TOOLS = [*TOOLS, *MEMORY_TOOLS]
NUDGE_PREFIX = "Continue the review with the tools."
COMPRESSION_FAILED = "the compression model failed"


def _playbook(state: dict[str, Any]) -> Playbook:
    raw = state.get("playbook")
    return (raw if isinstance(raw, Playbook) else Playbook.model_validate(raw)) if raw else load_playbook()


def clause_types(state: dict[str, Any]) -> list[str]:
    """The clause types this run must cover: the run's own playbook, else the default one."""
    return list(_playbook(state).clause_types)


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
    return len(json.dumps([convert_to_openai_tool(t) for t in ALL_TOOLS])) // 4


def nudge_text(missing: list[str], steps: int, budget: int, answer: AIMessage | None = None,
               state: dict[str, Any] | None = None) -> str:
    unreadable = [c.get("name") or "a tool" for c in (answer.invalid_tool_calls if answer is not None else [])]
    prefix = (f"Your call of {', '.join(unreadable)} could not be read (its arguments were not valid JSON): "
              "make it again. ") if unreadable else ""
    return (f"{NUDGE_PREFIX} {prefix}These clause types have no finding yet: {', '.join(missing)}. "
            f"Next: call {next_call(state or {}, missing[0])}; then the same for the others. Record exactly one "
            "finding per clause type (verdict 'missing' when the contract lacks it); answer in plain text only "
            f"when every clause type has a finding. You have used {steps} of {budget} steps.")


def repeat_note(missing: list[str]) -> str:
    return (f"{NUDGE_PREFIX} You sent the same calls as in your previous turn: they were not run again, and the "
            f"results above are the ones they gave before. {open_sentence(missing)} Make a different call.")


@lru_cache(maxsize=1)
def _parameters() -> dict[str, list[str]]:
    return {t.name: list(t.tool_call_schema.model_json_schema().get("properties", {})) for t in ALL_TOOLS}


def normalise_answer(answer: AIMessage, playbook: Playbook) -> tuple[AIMessage, int]:
    """The answer with its calls in the tools' own spelling, and how many calls that changed."""
    if not answer.tool_calls:
        return answer, 0
    names = [*playbook.clause_types, *sorted(set(DETECTORS) - set(playbook.clause_types))]
    titles = {name: entry.title for name, entry in playbook.clauses.items()}
    calls, changed = [], 0
    for call in answer.tool_calls:
        name, args = normalise_call(call["name"], call.get("args") or {}, _parameters(), names, titles)
        changed += (name, args) != (call["name"], call.get("args") or {})
        calls.append({**call, "name": name, "args": args})
    if not changed:
        return answer, 0
    return answer.model_copy(update={"tool_calls": calls}), changed


def _signature(calls: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps([c["name"], c.get("args") or {}], sort_keys=True, default=str) for c in calls)


def repeated_results(messages: list, answer: AIMessage) -> list[ToolMessage] | None:
    """When `answer` repeats the previous turn's calls exactly (and they were all answered), the
    answers to give again, in the new calls' order and ids; else None."""
    if not answer.tool_calls:
        return None
    results: dict[str, ToolMessage] = {}
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, ToolMessage):
            results[message.tool_call_id] = message
        elif isinstance(message, AIMessage) and message.tool_calls:
            if _signature(message.tool_calls) != _signature(answer.tool_calls) or \
                    any(c["id"] not in results for c in message.tool_calls):
                return None
            by_call = {_signature([c])[0]: results[c["id"]] for c in message.tool_calls}
            return [ToolMessage(by_call[_signature([c])[0]].content, tool_call_id=c["id"], name=c["name"],
                                status=by_call[_signature([c])[0]].status) for c in answer.tool_calls]
        elif not (isinstance(message, HumanMessage) and str(message.content).startswith(NUDGE_PREFIX)):
            return None  # (a note of the loop's own, after a repeat answered, is looked past)
    return None


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


def _compress(state: ReviewState, ctx: RunScope, messages: list, usage: dict, loop: dict, warnings: list) -> dict:
    """Compress working memory if due; returns the state update (and edits `messages`, `usage`,
    `loop` and `warnings`)."""
    settings = ctx.config
    res = ctx.resources()

    def fail_on_setup(exc: BaseException) -> None:
        raise_for_setup(exc, role="compression", model=res.compressor)

    budget = history_token_budget(res.reviewer, settings, fixed_tokens=tool_schema_tokens())
    failures = int((state.get("loop") or {}).get("compression_failures", 0))
    # a compression model that failed twice in this run is not asked again: the digest stands in
    summarizer = res.compressor if failures < 2 else None
    compressed = compress(
        messages, summarizer, threshold=settings.compress_threshold,
        keep_recent=settings.compress_keep_recent, max_tokens=budget, on_error=fail_on_setup,
        run_state=run_state(state, clause_types(state), open_types(state)),
        min_summary_chars=settings.compress_min_summary_chars,
    )
    if compressed is None:
        return {}
    messages[:] = compressed.messages
    if summarizer is not None and not compressed.failed:
        usage.update(add_usage(usage, call_usage(res.compressor, compressed.usage)))
    loop["summaries_rejected"] += bool(compressed.rejected)
    if compressed.failed:
        loop["compression_failures"] += 1
        times = failures + 1
        warnings[:] = [w for w in warnings if not w.startswith(COMPRESSION_FAILED)] + [
            f"{COMPRESSION_FAILED} ({model_name(res.compressor)}) {times} time{'s' if times > 1 else ''} mid-run "
            f"(last: {compressed.failed}); working memory was compressed to the graph's own digest of the run "
            "instead" + ("; it was not asked again" if times >= 2 else "")]
    return {"compressions": state.get("compressions", 0) + 1,
            "replaced": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *compressed.messages]}


LOOP_COUNTERS = ("tool_errors", "nudges", "unreadable_tool_calls", "summaries_rejected", "compression_failures",
                 "repeated_batches", "calls_normalised")


def reviewer_step(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    settings = ctx.config
    res = ctx.resources()
    messages = list(state["messages"])
    usage = add_usage({}, {})
    loop = dict.fromkeys(LOOP_COUNTERS, 0)
    loop["tool_errors"] = last_tool_errors(messages)
    warnings = list(state.get("warnings") or [])
    update: dict = _compress(state, ctx, messages, usage, loop, warnings)
    replaced = update.pop("replaced", [])

    try:
        bound = res.reviewer.bind_tools(ALL_TOOLS if ctx.use_memory else TOOLS)
    except NotImplementedError as exc:
        raise cannot_call_tools("reviewer", model_name(res.reviewer)) from exc
    steps = state.get("steps", 0) + 1
    budget = step_budget(settings, state)
    missing = open_types(state)
    try:
        # the memory block's places for clause types already recorded are not sent again, and none
        # once the model has shown it does not use them (agent.memory_view)
        unused = memory_unused(messages, state.get("examined") or [], state.get("tools_called") or [], steps - 1,
                               state.get("findings") or [])
        recorded = set(clause_types(state)) - set(missing)
        # and the graph's own assessments of clause types recorded since are sent shortened (all of
        # them once the model has assessed again a place the graph had assessed: it does not use them)
        redone = graph_results_redone(state.get("examined") or [])
        answer = bound.invoke(open_places(recorded_graph_results(messages, set(clause_types(state)) if redone else recorded),
                                          None if unused else recorded))
    except Exception as exc:
        raise_for_setup(exc, role="reviewer", model=res.reviewer)  # a setup mistake: exit 3
        if ctx.services.served or settings.checkpointer != "memory":
            # durable checkpoints: the run stops at its last checkpoint, to be resumed later
            exc.add_note(f"the reviewer model failed mid-run at step {steps}; the run is checkpointed: "
                         f"`contract-review resume {state.get('run_id', '<run id>')}` continues it")
            raise
        error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
        answer = AIMessage(f"Stopped at model step {steps}: the reviewer model failed ({error}); review incomplete.")
        update["stop_reason"] = f"the reviewer model failed mid-run at step {steps} ({error})"
    else:
        usage = add_usage(usage, call_usage(res.reviewer, answer))
        answer, loop["calls_normalised"] = normalise_answer(answer, _playbook(state))
    loop["unreadable_tool_calls"] = len(getattr(answer, "invalid_tool_calls", None) or [])
    added: list = [answer]
    if "stop_reason" in update:
        pass
    elif answer.tool_calls and steps >= budget:
        # Out of budget: end the loop cleanly instead of leaving unanswered tool calls behind.
        added = [AIMessage(f"Stopped after {steps} model steps (the step budget); review incomplete.")]
        update["stop_reason"] = f"step budget of {budget} model steps used up"
    elif answer.tool_calls:
        update["nudges"] = 0
        again = repeated_results(messages, answer)
        if again is not None:
            added = [answer, *again, HumanMessage(repeat_note(missing))]
            loop["repeated_batches"] = 1
    elif missing and steps < budget and state.get("nudges", 0) < settings.max_nudges:
        added = [answer, HumanMessage(nudge_text(missing, steps, budget, answer, state))]
        update["nudges"] = state.get("nudges", 0) + 1
        loop["nudges"] = 1
    elif missing:
        update["stop_reason"] = (f"step budget of {budget} model steps used up" if steps >= budget else
                                 f"the model stopped calling tools ({settings.max_nudges} turns in a row without "
                                 "a tool call, each answered with what was open and the call to make next)")
    usage["tool_calls"] += len(added[0].tool_calls) if isinstance(added[0], AIMessage) else 0
    called = [c["name"] for c in added[0].tool_calls] if isinstance(added[0], AIMessage) else []
    if called:  # kept apart from the messages, which compression replaces: the episode records them
        update["tools_called"] = list(dict.fromkeys([*(state.get("tools_called") or []), *called]))
    previous = state.get("loop") or {}
    totals = {key: int(previous.get(key, 0)) + value for key, value in loop.items()}
    update.update({"messages": [*replaced, *added], "usage": add_usage(state.get("usage"), usage), "steps": steps,
                   "loop": {**totals, "step_budget": budget}})
    if warnings != list(state.get("warnings") or []):
        update["warnings"] = warnings
    emit(runtime, progress="analyze", step=steps, budget=budget, recorded=len(clause_types(state)) - len(missing),
         clause_types=len(clause_types(state)))
    if isinstance(added[-1], AIMessage) and (not added[-1].tool_calls or "stop_reason" in update):
        update["final_review"] = str(added[-1].content)
        update["outcome_hint"] = _outcome(state, missing)
        update["open_clause_types"] = missing
        update.setdefault("stop_reason", "")
    return update


_TOOLS_BY_NAME = {t.name: t for t in ALL_TOOLS}


OMITTED_NOTE = "left out of this answer, made by the graph before your first turn (the tool gives them when called)"


def _without(message: ToolMessage, keys: Any) -> ToolMessage:
    """A JSON tool answer without `keys`, and a note naming what was left out."""
    try:
        data = json.loads(str(message.content))
    except json.JSONDecodeError:
        return message
    left_out = [k for k in keys if isinstance(data, dict) and k in data]
    if not left_out:
        return message
    kept = {k: v for k, v in data.items() if k not in left_out} | {"omitted": f"{', '.join(left_out)}: {OMITTED_NOTE}"}
    return message.model_copy(update={"content": json.dumps(kept, ensure_ascii=False)})


def graph_first_calls(state: dict[str, Any]) -> dict:
    """The graph's own turn before the model's first: the calls the agent asks for from what memory
    served and this contract bears out (`MemoryAgent.first_calls`: the contract agent assesses each
    confirmed place), run through the same tools as the model's calls and answered the same way.
    The update adds the turn and its results to the messages (marked as the graph's:
    `agent.memory_view.graph_turn`), what the tools showed to `examined` (marked `by: graph`, so
    record_finding accepts a finding there as after the model's own assessment, with the same
    `other_side` / `elsewhere` rule), and counts the calls as `graph_calls`, apart from the
    model's `tool_calls`. {} when there is nothing to call."""
    wanted = [c for c in memory_steps.agent.first_calls(state) if c.get("name") in _TOOLS_BY_NAME]
    calls, results, examined = [], [], []
    for number, call in enumerate(wanted, start=1):
        tool_call = {"name": call["name"], "args": dict(call.get("args") or {}), "id": f"{GRAPH_CALL_PREFIX}{number}",
                     "type": "tool_call"}
        try:
            answer = _TOOLS_BY_NAME[call["name"]].invoke({**tool_call, "args": {**tool_call["args"], "state": state}})
        except Exception:  # noqa: BLE001  a call the tool refuses is left to the model, not made for it
            continue
        update = answer.update if isinstance(answer, Command) else {"messages": [answer]}
        messages = [m for m in update.get("messages") or [] if isinstance(m, ToolMessage)]
        if len(messages) != 1 or _is_error(messages[0]):
            continue
        calls.append(tool_call)
        results.append(_without(messages[0], call.get("omit") or ()))
        examined += [{**entry, "by": GRAPH_MADE} for entry in update.get("examined") or []]
    if not calls:
        return {}
    return {"messages": graph_turn(calls, results), "examined": examined,
            "usage": add_usage(state.get("usage"), {"graph_calls": len(calls)})}


def memory_first(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    """Before the model's first turn, with memory on: the graph's own turn (`graph_first_calls`).
    Only where memory is served at all: a run whose memory block is empty (nothing recalled, or
    the block filtered to nothing: `ReviewContext.memory_block_filter`) gets no graph turn either."""
    if not run_scope(runtime).use_memory or not state.get("memory_block") or state.get("steps") or \
            any(made_by_graph(m) for m in state.get("messages") or []):
        return {}
    return graph_first_calls(dict(state))


def route(state: ReviewState) -> str:
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    if isinstance(last, HumanMessage):  # a note of the loop's own (a nudge, repeated calls answered)
        return "reviewer"
    return END


def build_analyze() -> StateGraph:
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=AnalyzeOutput)
    builder.add_node("memory_first", memory_first)
    builder.add_node("reviewer", reviewer_step)
    builder.add_node("tools", ToolNode(ALL_TOOLS, handle_tool_errors=tool_error_message))
    builder.add_edge(START, "memory_first")
    builder.add_edge("memory_first", "reviewer")
    builder.add_conditional_edges("reviewer", route, ["tools", "reviewer", END])
    builder.add_edge("tools", "reviewer")
    return builder
