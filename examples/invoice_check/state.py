"""The invoice checker's graph state: its own keys, on top of the memory core's (`MemoryState`)."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

# typing_extensions' TypedDict: a LangGraph server on Python < 3.12 needs it for its schemas
from typing_extensions import TypedDict

from memory.graph import MemoryState


class InvoiceInput(TypedDict, total=False):
    """What a caller passes in: the invoice and the books it is checked against (plain dicts,
    `examples.invoice_check.records.Invoice` and `Books`)."""

    invoice: dict[str, Any]
    books: dict[str, Any]
    run_id: str


class InvoiceState(MemoryState, InvoiceInput, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    # every line matching tried: {"po_number", "method", "pairs", "count"} (the best per order is used)
    matches: Annotated[list[dict[str, Any]], operator.add]
    # every check result recorded: {"check", "status", "detail", "po_number"} (the last per check stands)
    checks: Annotated[list[dict[str, Any]], operator.add]
    decision: str  # approve, hold or incomplete: from the results, never from a model
    final: str  # the model's closing text
    stop_reason: str  # why the loop stopped before every check had a result ("" when it did not)


class InvoiceOutput(TypedDict, total=False):
    """What the served graph returns: the check, not the whole state."""

    run_id: str
    decision: str
    checks: list[dict[str, Any]]
    outcome: str
    final: str
    stop_reason: str
    memory_writes: dict[str, Any]
    usage: dict[str, int]
    warnings: list[str]
