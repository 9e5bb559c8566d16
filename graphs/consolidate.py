"""consolidate: the write path. Extract artifacts, then facts, procedure, and the episode last.

The episode is written last and doubles as the commit marker: a run whose episode exists was
consolidated in full, so a resumed or retried run skips the whole path (idempotent by run id);
every earlier write is itself idempotent per run, so a crash in between is repaired on retry.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.prompts import extraction_prompt
from graphs.context import ReviewContext, run_scope
from graphs.memory_steps import (
    episodic_write,
    extract_artifacts_node,
    procedural_write,
    semantic_write,
)
from graphs.state import ConsolidateOutput, ReviewState
from tools.playbook import load_playbook


def already_consolidated(state: ReviewState, runtime: Runtime[ReviewContext]) -> str:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return END
    store = ctx.resources().memory.episodes
    return END if store.get(ctx.namespace, state["run_id"]) is not None else "extract_artifacts"


def build_consolidate(extract_instructions: str | None = None) -> StateGraph:
    if extract_instructions is None:
        extract_instructions = extraction_prompt(load_playbook().clause_types)
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=ConsolidateOutput)
    builder.add_node("extract_artifacts", extract_artifacts_node(extract_instructions))
    builder.add_node("semantic_write", semantic_write)
    builder.add_node("procedural_write", procedural_write)
    builder.add_node("episodic_write", episodic_write)
    builder.add_conditional_edges(START, already_consolidated, ["extract_artifacts", END])
    builder.add_edge("extract_artifacts", "semantic_write")
    builder.add_edge("semantic_write", "procedural_write")
    builder.add_edge("procedural_write", "episodic_write")
    builder.add_edge("episodic_write", END)
    return builder
