"""The review graph: start_run -> bootstrap -> analyze -> consolidate. Exports `builder` and `graph`.

As in LangGraph's templates, `graph` is what `langgraph.json` serves: compiled without a
checkpointer or store, because the server brings its own persistence (and refuses a graph that
has its own). In-process callers compile `builder` with theirs (`graphs.runner.build_graph`: the
CLI's SQLite or in-memory checkpointer, so an interrupted review resumes by thread id). With the context's
`approve_procedures` on, a run that proposed a procedure pauses after consolidate for a person's
decision (graphs/approval.py).

Progress is streamed as custom events (`stream_mode="custom"`): `{"progress": "contract",
"sections"}`, `{"progress": "memory_read", "episodes", "facts", "procedure"}`, one
`{"progress": "analyze", "step", "budget", "recorded", "clause_types"}` per model step, and
`{"progress": "memory_write", "tier", ...}` per tier written; the CLI shows them
(`graphs.runner.progress_text`).
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from graphs.analyze import build_analyze
from graphs.approval import APPROVAL_NODE, approve_procedure, needs_approval
from graphs.bootstrap import build_bootstrap, start_run
from graphs.consolidate import build_consolidate
from graphs.context import ReviewContext
from graphs.state import ReviewInput, ReviewOutput, ReviewState


def build_builder(output_schema: type | None = None) -> StateGraph:
    """The review graph's builder; `output_schema` narrows what a run returns (the served graph
    returns `ReviewOutput`, the report's keys; in-process callers get the whole state)."""
    builder = StateGraph(ReviewState, context_schema=ReviewContext, input_schema=ReviewInput,
                         output_schema=output_schema)
    builder.add_node("start_run", start_run)  # each invocation a run of its own (a server thread has many)
    builder.add_node("bootstrap", build_bootstrap().compile())
    builder.add_node("analyze", build_analyze().compile())
    builder.add_node("consolidate", build_consolidate().compile())
    builder.add_edge(START, "start_run")
    builder.add_edge("start_run", "bootstrap")
    builder.add_edge("bootstrap", "analyze")
    builder.add_edge("analyze", "consolidate")
    builder.add_node(APPROVAL_NODE, approve_procedure)  # human-in-the-loop, off unless asked for
    builder.add_conditional_edges("consolidate", needs_approval, [APPROVAL_NODE, END])
    builder.add_edge(APPROVAL_NODE, END)
    return builder


builder = build_builder()
# what langgraph.json serves: a run returns the review (ReviewOutput), not the whole state, whose
# contract text, messages and working keys stay in the thread's checkpoints
graph = build_builder(output_schema=ReviewOutput).compile()
