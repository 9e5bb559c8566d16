"""consolidate: the write path. Settle the outcome and extract artifacts, then the episode, then
facts and procedure (the generic memory steps, bound to the contract agent: graphs.memory_steps).

The episode is the run's commit marker and is written first, in one transaction: before it
exists the run has left nothing in durable memory, so a run killed at any point before it left
nothing at all. The fact observations and the procedure writes that follow are each idempotent
per run and only ever follow an episode (`memory.semantic.observe` refuses an observation whose
run has no episode), so no confirmation or fact can exist without the run behind it. A resumed
run continues where it stopped; a new run on a consolidated thread skips the whole path.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from graphs.context import ReviewContext, run_scope
from graphs.memory_steps import episodic_write, extract_artifacts, procedural_write, semantic_write
from graphs.state import ConsolidateOutput, ReviewState


def already_consolidated(state: ReviewState, runtime: Runtime[ReviewContext]) -> str:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return "extract_artifacts"  # settles the run's outcome, writes nothing
    store = ctx.resources().memory.episodes
    return END if store.get(ctx.namespace, state["run_id"]) is not None else "extract_artifacts"


def after_extraction(state: ReviewState, runtime: Runtime[ReviewContext]) -> str:
    return "episodic_write" if run_scope(runtime).use_memory else END


def build_consolidate() -> StateGraph:
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=ConsolidateOutput)
    builder.add_node("extract_artifacts", extract_artifacts)
    builder.add_node("semantic_write", semantic_write)
    builder.add_node("procedural_write", procedural_write)
    builder.add_node("episodic_write", episodic_write)
    builder.add_conditional_edges(START, already_consolidated, ["extract_artifacts", END])
    builder.add_conditional_edges("extract_artifacts", after_extraction, ["episodic_write", END])
    builder.add_edge("episodic_write", "semantic_write")
    builder.add_edge("semantic_write", "procedural_write")
    builder.add_edge("procedural_write", END)
    return builder
