"""What a LangSmith trace of a run may show: `redact` keeps a trace's shape and drops its text.

With LangSmith tracing on (`LANGSMITH_TRACING=true`), every node, model call and tool call of a run
is recorded with its inputs and outputs: for the contract reviewer that is the contract's text,
the quotes the tools return and the model's messages. `LANGSMITH_HIDE_INPUTS=true` and
`LANGSMITH_HIDE_OUTPUTS=true` drop them all. `redact` is the finer choice: given as a LangSmith
client's anonymizer, it replaces every string with its length, except short values under keys that
name the run's structure (tool and node names, ids, clause types, verdicts, severities, outcomes),
and keeps every number (token usage, offsets, counts) and flag:

    from langsmith import Client, tracing_context
    from graphs.tracing import redact

    with tracing_context(enabled=True, client=Client(anonymizer=redact)):
        reviewer.review_path("contract.pdf")

The anonymizer receives the JSON LangSmith would send (`langsmith.Client`), so this module sees
plain dicts, lists, strings and numbers only. docs/DEPLOY.md says what a trace of the graph shows.
"""

from __future__ import annotations

from typing import Any

# Keys whose short string values are structure, not content.
STRUCTURE_KEYS = frozenset({
    "lc", "type", "id", "tool", "tool_call_id", "run_id", "role", "status", "finish_reason", "model", "model_name",
    "model_provider", "ls_provider", "ls_model_name", "ls_model_type", "langgraph_node", "langgraph_triggers",
    "langgraph_path", "checkpoint_ns", "clause_type", "verdict", "severity", "binds", "protects", "section",
    "outcome", "outcome_hint", "check", "decision", "progress", "tier", "kind", "method", "agent", "task_type", "domain",
})
MAX_KEPT = 64  # a longer value under a structure key is text all the same


def redacted(text: str) -> str:
    return f"[redacted: {len(text)} characters]"


def redact(data: Any, key: str = "") -> Any:
    """`data` (JSON values) with every string replaced by `redacted(...)`, except strings of at most
    MAX_KEPT characters under a `STRUCTURE_KEYS` key (or in a list under one), and a tool's name
    in a tool call or a tool's answer (other names, a contract's or a file's, are content).
    Numbers, booleans, None and the shape of every dict and list are kept."""
    if isinstance(data, dict):
        calls_a_tool = "args" in data or "tool_call_id" in data  # a tool call, or a tool's answer
        return {k: redact(v, "tool" if k == "name" and calls_a_tool else str(k)) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [redact(v, key) for v in data]
    if isinstance(data, str):
        return data if key in STRUCTURE_KEYS and len(data) <= MAX_KEPT else redacted(data)
    return data
