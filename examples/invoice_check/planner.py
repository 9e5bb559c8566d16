"""The offline stand-in's policy: the next tool calls of an invoice check, from what the messages
hold (the system prompt with its memory block, the tool results so far). No language model.

Without memory the policy is fixed: read the invoice; take the PO number in its `po_number`
field, else list the supplier's open orders, open each and keep the one whose lines fit the
invoice best; match the lines by position, then part number, then description, until every line
matches; run the six checks in one turn; summarise.

Memory changes only where it looks first, from what the block holds: the header field that past
episodes found the PO number in (`PO number found in: reference [1,2]`, best episode first) and the
matching method of the episode whose field was borne out (`lines matched by: part [1,2]`); with no
episode, the same from confirmed facts. A hint the current invoice does not bear out (no PO number
in that field, an order of another supplier, lines that do not match) is dropped and the fixed
policy goes on: memory decides where to look first, never where to stop. A check's result always
comes from the tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from examples.invoice_check.checks import CHECKS, MATCH_METHODS, match_lines
from examples.invoice_check.records import (
    REFERENCE_FIELDS,
    Invoice,
    PurchaseOrder,
    party,
    po_number,
)

# the block's lines (examples.invoice_check.memory_agent.where_found):
# "- PO number found in: reference [1,2]; po_number [3]", "- lines matched by: part [1,2]; line [3]"
_EPISODE_LINE = re.compile(r"^- (PO number found in|lines matched by): (.*)$")
_VALUE_REFS = re.compile(r"([\w ]+?) \[([\d,]+)\]")
_FACT_FIELD = re.compile(r"cite the purchase order in the (\w+) field", re.IGNORECASE)
_FACT_METHOD = re.compile(r"match order lines only by (?:the supplier's )?(part|description)", re.IGNORECASE)


@dataclass
class Hints:
    """Where memory says to look first: PO fields in order, and the method per field."""

    fields: list[str] = field(default_factory=list)
    method_for: dict[str, str] = field(default_factory=dict)  # the field a PO was found in -> method
    fallback_method: str = ""


def _text(message: BaseMessage) -> str:
    content = message.content
    return content if isinstance(content, str) else " ".join(str(c.get("text", "")) if isinstance(c, dict) else str(c)
                                                              for c in content)


def read_hints(system: str) -> Hints:
    """The hints of the memory block in `system` (none without a block)."""
    by_episode: dict[int, dict[str, str]] = {}
    facts_field, facts_method = "", ""
    for line in system.splitlines():
        if found := _EPISODE_LINE.match(line):
            key = "field" if found[1].startswith("PO") else "method"
            for value, refs in _VALUE_REFS.findall(found[2]):
                for number in (int(n) for n in refs.split(",") if n):
                    by_episode.setdefault(number, {}).setdefault(key, value.strip())
        if line.startswith("- (") and not facts_field and (found := _FACT_FIELD.search(line)):
            facts_field = found[1]
        if line.startswith("- (") and not facts_method and (found := _FACT_METHOD.search(line)):
            facts_method = found[1].lower()
    hints = Hints()
    for number in sorted(by_episode):
        seen = by_episode[number]
        where = seen.get("field", "")
        if where in REFERENCE_FIELDS and where not in hints.fields:
            hints.fields.append(where)
        if where and seen.get("method") in MATCH_METHODS:
            hints.method_for.setdefault(where, seen["method"])
    if not by_episode:
        if facts_field in REFERENCE_FIELDS:
            hints.fields.append(facts_field)
        hints.fallback_method = facts_method if facts_method in MATCH_METHODS else ""
    return hints


@dataclass
class Transcript:
    """What the run has learnt so far, from the tool results in the messages."""

    system: str = ""
    invoice: Invoice | None = None
    orders: dict[str, PurchaseOrder] = field(default_factory=dict)
    missing: set[str] = field(default_factory=set)  # PO numbers that do not exist
    listed: list[str] | None = None
    matches: dict[tuple[str, str], bool] = field(default_factory=dict)  # (po, method) -> every line matched
    checked: set[str] = field(default_factory=set)
    results: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0


def read_transcript(messages: list[BaseMessage]) -> Transcript:
    seen = Transcript()
    calls: dict[str, dict[str, Any]] = {}
    for message in messages:
        if isinstance(message, SystemMessage):
            seen.system = _text(message)
        elif isinstance(message, AIMessage):
            seen.turns += 1
            calls.update({c["id"]: c for c in message.tool_calls})
        elif isinstance(message, ToolMessage):
            call = calls.get(message.tool_call_id) or {"name": message.name, "args": {}}
            try:
                data = json.loads(_text(message))
            except json.JSONDecodeError:
                continue
            _learn(seen, call["name"], call.get("args") or {}, data)
    return seen


def _learn(seen: Transcript, name: str, args: dict[str, Any], data: dict[str, Any]) -> None:
    error = isinstance(data, dict) and "error" in data
    if name == "read_invoice" and not error:
        seen.invoice = Invoice.model_validate(data)
    elif name == "get_purchase_order":
        if error:
            seen.missing.add(po_number(str(args.get("po_number", ""))) or str(args.get("po_number", "")))
        else:
            order = PurchaseOrder.model_validate(data)
            seen.orders[order.po_number] = order
    elif name == "list_open_orders" and not error:
        seen.listed = [o["po_number"] for o in data.get("orders", [])]
    elif name == "match_lines" and not error:
        done, total = (int(x) for x in str(data.get("matched", "0 of 1")).split(" of "))
        seen.matches[(data["po_number"], data["by"])] = done == total
    elif name == "run_check" and not error:
        seen.checked.add(data["check"])
        seen.results.append(data)


def _call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args}


def _fit(invoice: Invoice, order: PurchaseOrder) -> int:
    """How many invoice lines an order holds, by any method (the stand-in's choice among orders)."""
    return max(match_lines(invoice, order, method).count for method in MATCH_METHODS)


def _ours(invoice: Invoice, order: PurchaseOrder) -> bool:
    return party(order.supplier) == party(invoice.supplier)


def choose_order(seen: Transcript, hints: Hints) -> tuple[PurchaseOrder | None, str, list[dict[str, Any]]]:
    """(the order, the field it was found in or "order search", calls to make first)."""
    invoice = seen.invoice
    assert invoice is not None
    for where in [*hints.fields, "po_number"]:
        number = po_number(invoice.field(where))
        if not number or number in seen.missing:
            continue  # the field holds no PO number: nothing to try
        if number in seen.orders:
            if _ours(invoice, seen.orders[number]):
                return seen.orders[number], where, []
            continue  # another supplier's order: the hint is not borne out
        return None, where, [_call("get_purchase_order", po_number=number)]
    if seen.listed is None:
        return None, "order search", [_call("list_open_orders")]
    unopened = [n for n in seen.listed if n not in seen.orders and n not in seen.missing]
    if unopened:
        return None, "order search", [_call("get_purchase_order", po_number=n) for n in unopened]
    candidates = [seen.orders[n] for n in seen.listed if n in seen.orders]
    if not candidates:
        return None, "order search", []
    best = max(candidates, key=lambda o: (_fit(invoice, o), -seen.listed.index(o.po_number)))
    return best, "order search", []


def next_calls(messages: list[BaseMessage]) -> tuple[list[dict[str, Any]], str]:
    """(the next tool calls, "") or ([], the closing text)."""
    seen = read_transcript(messages)
    if seen.invoice is None:
        return [_call("read_invoice")], ""
    hints = read_hints(seen.system)
    order, where, first = choose_order(seen, hints)
    if first:
        return first, ""
    if order is None:  # no order to check against: the duplicate check is all that can run
        if "duplicate" not in seen.checked:
            return [_call("run_check", check="duplicate", po_number="")], ""
        return [], closing(seen, "no purchase order of the supplier was found; only the duplicate check could run")
    parts = all(line.supplier_part for line in seen.invoice.lines)
    preferred = hints.method_for.get(where) or hints.fallback_method
    methods = list(dict.fromkeys([m for m in (preferred,) if m] + list(MATCH_METHODS)))
    methods = [m for m in methods if m != "part" or parts]
    if not any(seen.matches.get((order.po_number, m)) for m in methods):
        untried = [m for m in methods if (order.po_number, m) not in seen.matches]
        if untried:
            return [_call("match_lines", po_number=order.po_number, by=untried[0])], ""
    todo = [c for c in CHECKS if c not in seen.checked]
    if todo:
        return [_call("run_check", check=c, po_number=order.po_number) for c in todo], ""
    return [], closing(seen, "")


def closing(seen: Transcript, note: str) -> str:
    """The stand-in's closing text: what the tools found, check by check."""
    latest = {r["check"]: r for r in seen.results}
    failed = [f"{c} ({latest[c]['detail']})" for c in CHECKS if c in latest and latest[c]["status"] == "fail"]
    head = (f"Invoice {seen.invoice.invoice_number}: " if seen.invoice else "") + (
        f"{len(failed)} check(s) failed: " + "; ".join(failed) + "." if failed else
        f"{sum(1 for c in CHECKS if c in latest)} of {len(CHECKS)} checks passed.")
    return f"{head} {note}".strip()
