"""The review graph's state: named keys that each step reads and writes."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

USAGE_KEYS = ("tool_calls", "model_calls", "input_tokens", "output_tokens")


def add_usage(left: dict[str, int] | None, right: dict[str, int] | None) -> dict[str, int]:
    """Reducer: usage counters from every step add up."""
    total = dict.fromkeys(USAGE_KEYS, 0)
    for part in (left or {}, right or {}):
        for key, value in part.items():
            total[key] = total.get(key, 0) + int(value)
    return total


class MemoryState(TypedDict, total=False):
    """Keys the generic memory steps use; any agent's state can include them."""

    run_id: str
    task: str  # what bootstrap embeds to find similar past runs
    outcome_hint: str  # optional: the agent's own view of how the run ended
    episodes: list[dict[str, Any]]  # retrieved: [{"item": Episode dict, "score": float}]
    facts: list[dict[str, Any]]
    procedure: dict[str, Any] | None
    memory_block: str
    artifacts: dict[str, Any]  # RunArtifacts (scrubbed) extracted by consolidate
    memory_writes: dict[str, Any]  # what consolidate stored
    usage: Annotated[dict[str, int], add_usage]


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
