"""The tools the invoice checker's model calls. Each reads the run's invoice and books from the
graph state (`InjectedState`) and answers JSON; `match_lines` and `run_check` also record what
they found in the state (`matches`, `checks`) through a `Command`, so the run's results are the
graph's, whatever the model writes afterwards.

| tool | arguments | answers |
|---|---|---|
| `read_invoice` | - | the invoice: header fields, lines, totals |
| `list_open_orders` | - | the invoicing supplier's open purchase orders (number, date, lines, total) |
| `get_purchase_order` | `po_number` | the order with its lines (received, already invoiced), terms and tax rate |
| `match_lines` | `po_number`, `by`: line, part or description | which order line each invoice line is |
| `run_check` | `check` (one of the six), `po_number` | `{"check", "status", "detail"}`, recorded |
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.prebuilt import InjectedState
from langgraph.types import Command

from examples.invoice_check import checks
from examples.invoice_check.records import books_of, invoice_of, party, po_number

Check = Literal["po_reference", "quantities", "unit_prices", "arithmetic", "payment_terms", "duplicate"]
Method = Literal["line", "part", "description"]


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def latest_results(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The result that stands for each check (the last recorded), in the checks' order."""
    recorded = {r["check"]: r for r in state.get("checks") or []}
    return {c: recorded[c] for c in checks.CHECKS if c in recorded}


def best_match(state: dict[str, Any], number: str) -> checks.Matched | None:
    """The matching of the invoice's lines to order `number` that matched most lines (the latest on a tie)."""
    tried = [m for m in state.get("matches") or [] if m["po_number"] == number]
    if not tried:
        return None
    best = max(reversed(tried), key=lambda m: m["count"])
    return checks.Matched(best["method"], tuple(best["pairs"]))


def _order_or_error(state: dict[str, Any], given: str) -> tuple[Any, str]:
    books = books_of(state.get("books"))
    number = po_number(given)
    order = books.order(number) if number else None
    if order is not None:
        return order, ""
    supplier = party(invoice_of(state["invoice"]).supplier)
    theirs = [o.po_number for o in books.orders if party(o.supplier) == supplier and o.status == "open"]
    return None, _json({"error": f"no purchase order {given!r}" + (" (a PO number reads PO-12345)" if not number else ""),
                        "fix": "call list_open_orders to see the supplier's open orders"
                        + (f" ({', '.join(theirs)})" if theirs else "")})


@tool
def read_invoice(state: Annotated[dict, InjectedState]) -> str:
    """Read the invoice under check: its header fields, lines and totals."""
    invoice = invoice_of(state["invoice"])
    return _json(invoice.model_dump(exclude={"contact"}))


@tool
def list_open_orders(state: Annotated[dict, InjectedState]) -> str:
    """List the open purchase orders of the invoicing supplier (number, date, lines, total)."""
    invoice = invoice_of(state["invoice"])
    books = books_of(state.get("books"))
    orders = [{"po_number": o.po_number, "order_date": o.order_date, "lines": len(o.lines), "total": o.total}
              for o in books.orders if party(o.supplier) == party(invoice.supplier) and o.status == "open"]
    return _json({"supplier": invoice.supplier, "orders": orders})


@tool
def get_purchase_order(po_number: str, state: Annotated[dict, InjectedState]) -> str:
    """Get a purchase order: supplier, status, payment terms, tax rate and its lines (SKU, the
    supplier's part number, description, quantity, unit price, received, already invoiced)."""
    order, error = _order_or_error(state, po_number)
    return error or _json(order.model_dump())


@tool
def match_lines(po_number: str, by: Method, state: Annotated[dict, InjectedState],
                tool_call_id: Annotated[str, InjectedToolCallId]) -> Command | str:
    """Match the invoice's lines to the order's: by position (line), by the supplier's part number
    (part) or by description. Quantity and price checks use the best matching tried."""
    order, error = _order_or_error(state, po_number)
    if error:
        return error
    invoice = invoice_of(state["invoice"])
    matched = checks.match_lines(invoice, order, by)
    answer = {"po_number": order.po_number, "by": by, "matched": f"{matched.count} of {len(invoice.lines)}",
              "pairs": [{"invoice_line": i, "order_line": p} for i, p in enumerate(matched.pairs, start=1)]}
    if not matched.complete:
        answer["unmatched"] = [i for i, p in enumerate(matched.pairs, start=1) if p is None]
    entry = {"po_number": order.po_number, "method": by, "pairs": list(matched.pairs), "count": matched.count}
    return Command(update={"matches": [entry], "messages": [
        ToolMessage(_json(answer), tool_call_id=tool_call_id, name="match_lines")]})


@tool
def run_check(check: Check, po_number: str, state: Annotated[dict, InjectedState],
              tool_call_id: Annotated[str, InjectedToolCallId]) -> Command | str:
    """Run one of the six checks of the invoice against a purchase order and record its result."""
    invoice = invoice_of(state["invoice"])
    books = books_of(state.get("books"))
    order, error = _order_or_error(state, po_number)
    if error and check != "duplicate":
        return error
    try:
        result = checks.run_check(check, invoice, books, order, best_match(state, order.po_number) if order else None)
    except ValueError as exc:
        return _json({"error": str(exc)})
    recorded = {**result, "po_number": order.po_number if order else ""}
    return Command(update={"checks": [recorded], "messages": [
        ToolMessage(_json(recorded), tool_call_id=tool_call_id, name="run_check")]})


TOOLS = [read_invoice, list_open_orders, get_purchase_order, match_lines, run_check]
