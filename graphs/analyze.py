"""analyze: the reviewer's tool loop, with working-memory compression before every model step."""

from __future__ import annotations

from langchain_core.messages import AIMessage, RemoveMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from graphs.context import ReviewContext, run_scope
from graphs.state import AnalyzeOutput, ReviewState, add_usage, call_usage
from memory.working import compress
from tools import TOOLS


def reviewer_step(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    settings = ctx.config
    res = ctx.resources()
    messages = list(state["messages"])
    usage = {"tool_calls": 0}
    update: dict = {}
    replaced: list = []
    compressed = compress(
        messages, res.compressor,
        threshold=settings.compress_threshold, keep_recent=settings.compress_keep_recent,
    )
    if compressed is not None:
        messages = compressed.messages
        replaced = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *compressed.messages]
        stand_in = getattr(res.compressor, "is_stand_in", False)
        usage = add_usage(usage, {"stand_in_calls" if stand_in else "model_calls": 1,
                                  "input_tokens": compressed.input_tokens, "output_tokens": compressed.output_tokens})
        update["compressions"] = state.get("compressions", 0) + 1

    answer = res.reviewer.bind_tools(TOOLS).invoke(messages)
    usage = add_usage(usage, call_usage(res.reviewer, answer))
    steps = state.get("steps", 0) + 1
    if answer.tool_calls and steps >= settings.max_model_steps:
        # Out of budget: end the loop cleanly instead of leaving unanswered tool calls behind.
        answer = AIMessage(f"Stopped after {steps} model steps (limit reached); review incomplete.")
    usage["tool_calls"] = usage.get("tool_calls", 0) + len(answer.tool_calls)
    update.update({"messages": [*replaced, answer], "usage": add_usage(state.get("usage"), usage), "steps": steps})
    if not answer.tool_calls:
        update["final_review"] = str(answer.content)
    return update


def route(state: ReviewState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


def build_analyze() -> StateGraph:
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=AnalyzeOutput)
    builder.add_node("reviewer", reviewer_step)
    builder.add_node("tools", ToolNode(TOOLS))
    builder.add_edge(START, "reviewer")
    builder.add_conditional_edges("reviewer", route, ["tools", END])
    builder.add_edge("tools", "reviewer")
    return builder
