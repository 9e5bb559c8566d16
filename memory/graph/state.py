"""The graph-state keys the generic memory steps read and write, and the usage counters they add to.

Any agent's state can include `MemoryState`. The keys an agent fills itself are read through its
`memory.graph.MemoryAgent` (whose defaults read `task`, `outcome_hint`, `open_items`, `results`,
`tools_called` and `steps`); the others are the steps' own.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

# typing_extensions' TypedDict, not typing's: below Python 3.12 pydantic cannot build a JSON schema
# from typing.TypedDict, and a LangGraph server then reports null input and output schemas.
from typing_extensions import TypedDict

# input_tokens include cached input; cache reads and writes are also counted on their own, so
# input + output is what a provider bills as the total.
USAGE_KEYS = ("tool_calls", "model_calls", "stand_in_calls", "input_tokens", "output_tokens",
              "cache_read_tokens", "cache_write_tokens")


def add_usage(left: dict[str, int] | None, right: dict[str, int] | None) -> dict[str, int]:
    """Usage counters added up. Nodes write the new total (not a delta): a reducer would count a
    subgraph's totals twice when the parent merges the subgraph's output."""
    total = dict.fromkeys(USAGE_KEYS, 0)
    for part in (left or {}, right or {}):
        for key, value in part.items():
            total[key] = total.get(key, 0) + int(value)
    return total


class MemoryState(TypedDict, total=False):
    """Keys the generic memory steps use; any agent's state can include them."""

    run_id: str  # keys the run's episode, its fact observations and its procedure use
    source_id: str  # what the run works on (a content hash): runs over one source confirm a fact once
    # what MemoryAgent's defaults read (an agent that implements those methods reads its own keys):
    task: str  # the task as memory may keep it and search by it (profile)
    outcome_hint: str  # how the run ended, as the graph observed it: COMPLETED, PARTIAL or FAILED (observe)
    open_items: list[str]  # what the run left open (observe)
    results: list[str]  # what the run found, one line each, as memory keeps it (results)
    tools_called: list[str]  # the tools the agent called, each once (tools_used)
    steps: int  # the agent's model steps (step_count)
    # the steps' own:
    episodes: list[dict[str, Any]]  # retrieved: [{"item": Episode dict, "score": float}]
    facts: list[dict[str, Any]]
    procedure: dict[str, Any] | None
    memory_block: str
    artifacts: dict[str, Any]  # RunArtifacts (scrubbed) extracted by consolidate
    extraction: dict[str, Any]  # how: status, method, attempts, errors, repairs, outcome (memory.extraction)
    outcome: str  # the run's outcome as recorded: what the graph observed, lowered only for a confirmed reason
    memory_writes: dict[str, Any]  # what consolidate stored
    usage: dict[str, int]  # running totals of USAGE_KEYS
    warnings: list[str]  # what went wrong without ending the run (an extraction model that failed ...)
    # what the model kept with `remember` (memory.graph.tools): candidates that join the run's
    # proposals in extract_artifacts and pass the same gates ({"kind": "fact" | "pattern", "text"})
    memory_notes: Annotated[list[dict[str, Any]], operator.add]
