"""The review graph's state: named keys that each step reads and writes."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

# typing_extensions' TypedDict, not typing's: below Python 3.12 pydantic cannot build a JSON schema
# from typing.TypedDict, and a LangGraph server then reports null input and output schemas.
from typing_extensions import TypedDict

from agent.models import usage_of
from memory.graph.state import USAGE_KEYS, MemoryState, add_usage  # noqa: F401  (the graph's usage counters)


def call_usage(model: Any, answer: Any) -> dict[str, int]:
    """One model call's usage: a language-model call, or a call of a stand-in that says it is
    one (`is_stand_in`, the offline reviewer), whose token counts are estimates of what a model
    would have read and written. `answer` is the AI message (or its `usage_metadata` dict)."""
    return {"stand_in_calls" if getattr(model, "is_stand_in", False) else "model_calls": 1, **usage_of(answer)}


class ReviewInput(TypedDict, total=False):
    """What a caller passes in: the contract text (a server cannot read client files)."""

    contract_text: str
    contract_name: str
    contract: dict[str, Any]  # an already parsed contract (tools.contract.Contract as a dict)
    run_id: str


class ReviewState(MemoryState, ReviewInput, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    findings: Annotated[list[dict[str, Any]], operator.add]
    final_review: str
    steps: int
    compressions: int
    nudges: int  # prose answers in a row answered by a nudge to continue
    stop_reason: str  # why the loop ended before every clause type had a finding ("" if it did not)
    open_clause_types: list[str]  # clause types left without a finding
    loop: dict[str, int]  # running totals of the tool loop: tool_errors, nudges, unreadable_tool_calls, step_budget
    tools_called: list[str]  # the tools the reviewer called, each once, in first-call order
    # what find_clauses and assess_clause showed, per clause type (tools.toolset.examined_entry):
    # kept outside the messages, which compression replaces; record_finding checks other_side and
    # elsewhere against it, and the run-state digest re-states it
    examined: Annotated[list[dict[str, Any]], operator.add]
    warnings: list[str]  # what went wrong without ending the run (a model that failed mid-run ...)
    thread_runs: list[str]  # the ids of the runs on this thread so far, this one last (graphs.bootstrap.start_run)


class BootstrapOutput(TypedDict, total=False):
    contract: dict[str, Any]
    contract_text: str
    contract_name: str
    run_id: str
    source_id: str
    task: str
    episodes: list[dict[str, Any]]
    facts: list[dict[str, Any]]
    procedure: dict[str, Any] | None
    memory_block: str
    messages: Annotated[list[AnyMessage], add_messages]


class AnalyzeOutput(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    findings: Annotated[list[dict[str, Any]], operator.add]
    usage: dict[str, int]
    steps: int
    final_review: str
    compressions: int
    nudges: int
    stop_reason: str
    open_clause_types: list[str]
    outcome_hint: str
    loop: dict[str, int]
    tools_called: list[str]
    examined: Annotated[list[dict[str, Any]], operator.add]
    warnings: list[str]
    memory_notes: Annotated[list[dict[str, Any]], operator.add]  # what the reviewer kept with `remember`


class ConsolidateOutput(TypedDict, total=False):
    artifacts: dict[str, Any]
    extraction: dict[str, Any]
    outcome: str
    memory_writes: dict[str, Any]
    usage: dict[str, int]
    warnings: list[str]


class ReviewOutput(TypedDict, total=False):
    """What the served graph returns: the review as its report holds it, not the whole state (the
    contract's text, the messages and the working state stay in the thread's checkpoints)."""

    run_id: str
    outcome: str  # COMPLETED, PARTIAL or FAILED: what the graph observed, lowered only for a confirmed reason
    findings: list[dict[str, Any]]  # every finding recorded (the last one of a clause type is the one that stands)
    open_clause_types: list[str]  # clause types left without a finding
    stop_reason: str  # why the review stopped short ("" when it did not)
    final_review: str  # the reviewer's closing text
    episodes: list[dict[str, Any]]  # what memory served: past episodes, facts, the procedure
    facts: list[dict[str, Any]]
    procedure: dict[str, Any] | None
    memory_writes: dict[str, Any]  # what the run stored (episode, facts confirmed, procedure proposed ...)
    extraction: dict[str, Any]  # how the run was distilled for memory, and how its outcome was settled
    usage: dict[str, int]  # tool calls, model calls, stand-in calls, tokens
    loop: dict[str, int]  # the review loop's counters
    steps: int
    warnings: list[str]  # what went wrong without ending the run
