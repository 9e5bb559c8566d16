"""consolidate: the write path. Extract artifacts, then the episode, then facts and procedure.

The episode is the run's commit marker and is written first, in one transaction: before it
exists the run has left nothing in durable memory, so a run killed at any point before it left
nothing at all. The fact observations and the procedure writes that follow are each idempotent
per run and only ever follow an episode (`memory.semantic.observe` refuses an observation whose
run has no episode), so no confirmation or fact can exist without the run behind it. A resumed
run continues where it stopped; a new run on a consolidated thread skips the whole path.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.offline.digest import run_digest
from agent.offline.extractor import task_summary
from agent.offline.progress import finding_line
from agent.prompts import EXTRACT_INSTRUCTIONS
from agent.report import final_findings
from graphs.bootstrap import memory_task, private_names
from graphs.context import ReviewContext, run_scope
from graphs.memory_steps import (
    episodic_write,
    extract_artifacts_node,
    procedural_write,
    semantic_write,
)
from graphs.state import ConsolidateOutput, ReviewState
from memory.records import Outcome, RunArtifacts


def run_record(state: ReviewState) -> RunArtifacts:
    """The review as it happened, read from the graph state, not from a model: the findings it
    recorded (one key finding per clause type, in the episode format), the contract it reviewed
    and the tools it called. What an episode holds when the extraction model's answer cannot be
    read, and the summary used instead of one that only repeats the task prompt."""
    titles = {s["id"]: s.get("title", "") for s in (state.get("contract") or {}).get("sections") or []}
    findings = [{**f, "section_title": titles.get(f.get("section") or "", "")}
                for f in final_findings(state.get("findings") or [])]
    # what analyze kept of the tools called (the messages lose what compression replaced)
    calls = [*(state.get("tools_called") or []),
             *(c["name"] for m in state.get("messages") or [] if isinstance(m, AIMessage) for c in m.tool_calls)]
    recorded = len(findings)
    return RunArtifacts(
        task_summary=task_summary(state.get("task", "")),
        outcome=Outcome(state.get("outcome_hint") or Outcome.UNKNOWN),
        key_findings=[finding_line(f) for f in findings],
        approach=f"Recorded from the run itself ({recorded} findings recorded with the contract tools).",
        tools_used=list(dict.fromkeys(calls)),
        step_count=int(state.get("steps") or 0),
    )


def digest(messages: list, state: ReviewState) -> str:
    """What the extraction model reads of the run: the digest, with the clause types the run left
    without a finding (the messages show only the types it touched)."""
    return run_digest(messages, open_types=state.get("open_clause_types") or [])


def already_consolidated(state: ReviewState, runtime: Runtime[ReviewContext]) -> str:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return END
    store = ctx.resources().memory.episodes
    return END if store.get(ctx.namespace, state["run_id"]) is not None else "extract_artifacts"


def build_consolidate(extract_instructions: str | None = None) -> StateGraph:
    if extract_instructions is None:
        extract_instructions = EXTRACT_INSTRUCTIONS
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=ConsolidateOutput)
    builder.add_node("extract_artifacts", extract_artifacts_node(extract_instructions, fallback=run_record,
                                                                  memory_task=memory_task,
                                                                  private_names=private_names, digest=digest))
    builder.add_node("semantic_write", semantic_write)
    builder.add_node("procedural_write", procedural_write)
    builder.add_node("episodic_write", episodic_write)
    builder.add_conditional_edges(START, already_consolidated, ["extract_artifacts", END])
    builder.add_edge("extract_artifacts", "episodic_write")
    builder.add_edge("episodic_write", "semantic_write")
    builder.add_edge("semantic_write", "procedural_write")
    builder.add_edge("procedural_write", END)
    return builder
