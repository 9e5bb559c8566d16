"""The six checks of an invoice against its purchase order, and how invoice lines are matched to
order lines. Plain deterministic functions: the graph's tools call them, a model only chooses.

| check | passes when |
|---|---|
| `po_reference` | the invoice cites the order it is checked against, an open order of the invoicing supplier |
| `quantities` | every line is on the order and bills no more than was received and not yet invoiced |
| `unit_prices` | every line's unit price is the order's |
| `arithmetic` | line amounts, subtotal, tax (the order's rate) and total add up |
| `payment_terms` | the invoice's terms give the order's number of days |
| `duplicate` | the ledger holds no invoice of the supplier with the same number, nor the same total and date |

A result is `{"check", "status": "pass" | "fail", "detail"}`. Lines are matched by position
(`line`: the same place and a description that agrees), by the supplier's part number (`part`) or
by description (`description`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from examples.invoice_check.records import (
    REFERENCE_FIELDS,
    Books,
    Invoice,
    PurchaseOrder,
    party,
    po_number,
)

CHECKS = ("po_reference", "quantities", "unit_prices", "arithmetic", "payment_terms", "duplicate")
NEEDS_LINES = ("quantities", "unit_prices")  # checks that need the invoice lines matched to the order
MATCH_METHODS = ("line", "part", "description")
CENTS = 0.01
LINE_AGREES = 0.6  # share of words a line's description shares with the order line at its place
_WORD = re.compile(r"[a-z]+|\d+")
_STOP = frozenset({"of", "the", "and", "x", "box", "pack", "per", "for", "with"})
_NUMBER_WORDS = {"seven": 7, "ten": 10, "fifteen": 15, "thirty": 30, "forty": 40, "sixty": 60, "ninety": 90}


@dataclass(frozen=True)
class Matched:
    """Invoice line index -> order line number (None: not on the order)."""

    method: str
    pairs: tuple[int | None, ...]

    @property
    def complete(self) -> bool:
        return all(p is not None for p in self.pairs)

    @property
    def count(self) -> int:
        return sum(p is not None for p in self.pairs)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


def _overlap(a: str, b: str) -> float:
    left, right = _words(a), _words(b)
    return len(left & right) / max(1, min(len(left), len(right)))


def _part(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def match_lines(invoice: Invoice, order: PurchaseOrder, method: str) -> Matched:
    """Each invoice line's order line by `method` (see the module doc); an order line is used once."""
    if method not in MATCH_METHODS:
        raise ValueError(f"unknown matching method {method!r}: use one of {', '.join(MATCH_METHODS)}")
    used: set[int] = set()
    pairs: list[int | None] = []
    for index, line in enumerate(invoice.lines):
        found = None
        if method == "line":
            if index < len(order.lines) and _overlap(line.description, order.lines[index].description) >= LINE_AGREES:
                found = order.lines[index].line
        elif method == "part":
            found = next((o.line for o in order.lines if line.supplier_part and o.line not in used
                          and _part(o.vendor_part) == _part(line.supplier_part)), None)
        else:
            scored = sorted(((_overlap(line.description, o.description), o.line) for o in order.lines
                             if o.line not in used), reverse=True)
            found = scored[0][1] if scored and scored[0][0] >= 0.5 else None
        if found is not None:
            used.add(found)
        pairs.append(found)
    return Matched(method, tuple(pairs))


def terms_days(terms: str) -> int | None:
    """The days a payment term gives ("Net 30", "30 days net", "net thirty days"), or None."""
    text = terms.casefold()
    digits = re.search(r"\b(\d{1,3})\b", text)
    if digits:
        return int(digits[1])
    return next((days for word, days in _NUMBER_WORDS.items() if re.search(rf"\b{word}\b", text)), None)


def _result(check: str, failures: list[str], passed: str) -> dict:
    return {"check": check, "status": "fail" if failures else "pass",
            "detail": "; ".join(failures) if failures else passed}


def run_check(check: str, invoice: Invoice, books: Books, order: PurchaseOrder | None,
              matched: Matched | None) -> dict:
    """One check's result. An order (and, for quantities and prices, matched lines) must be given
    for the checks that need them: ValueError says which call comes first."""
    if check not in CHECKS:
        raise ValueError(f"unknown check {check!r}: use one of {', '.join(CHECKS)}")
    if check == "duplicate":
        return _duplicate(invoice, books)
    if order is None:
        raise ValueError(f"{check} needs the purchase order: call get_purchase_order first")
    if check == "po_reference":
        failures = []
        cited = sorted({po_number(invoice.field(name)) for name in REFERENCE_FIELDS} - {""})
        if order.po_number not in cited:
            failures.append(f"the invoice cites {', '.join(cited)}, not {order.po_number}" if cited
                            else f"the invoice cites no purchase order ({order.po_number} was found by its lines)")
        if party(order.supplier) != party(invoice.supplier):
            failures.append(f"{order.po_number} is another supplier's order")
        if order.status != "open":
            failures.append(f"{order.po_number} is {order.status}")
        return _result(check, failures, f"the invoice cites {order.po_number}, an open order of the supplier")
    if check == "payment_terms":
        given, ordered = terms_days(invoice.payment_terms), terms_days(order.payment_terms)
        failures = [] if given is not None and given == ordered else [
            f"invoice terms {invoice.payment_terms!r} ({given} days), order {order.payment_terms!r} ({ordered} days)"]
        return _result(check, failures, f"{ordered} days, as ordered")
    if check == "arithmetic":
        return _arithmetic(invoice, order)
    if matched is None:
        raise ValueError(f"{check} needs the invoice lines matched to {order.po_number}: call match_lines first")
    by_line = {o.line: o for o in order.lines}
    failures = []
    for number, (line, pair) in enumerate(zip(invoice.lines, matched.pairs, strict=True), start=1):
        if pair is None:
            failures.append(f"invoice line {number} ({line.description}) is not on {order.po_number}")
            continue
        ordered = by_line[pair]
        if check == "quantities":
            open_quantity = ordered.received - ordered.invoiced
            if line.quantity > open_quantity + 1e-9:
                failures.append(f"invoice line {number} bills {line.quantity:g}, {open_quantity:g} received and not "
                                f"yet invoiced (order line {pair})")
        elif abs(line.unit_price - ordered.unit_price) > CENTS / 2:
            failures.append(f"invoice line {number} at {line.unit_price:.2f}, ordered at {ordered.unit_price:.2f} "
                            f"(order line {pair})")
    passed = ("every line within what was received" if check == "quantities" else "every price as ordered")
    return _result(check, failures, passed)


def _arithmetic(invoice: Invoice, order: PurchaseOrder) -> dict:
    failures = []
    for number, line in enumerate(invoice.lines, start=1):
        if abs(line.quantity * line.unit_price - line.amount) > CENTS:
            failures.append(f"line {number}: {line.quantity:g} x {line.unit_price:.2f} is not {line.amount:.2f}")
    subtotal = round(sum(line.amount for line in invoice.lines), 2)
    if abs(subtotal - invoice.subtotal) > CENTS:
        failures.append(f"the lines add up to {subtotal:.2f}, the subtotal says {invoice.subtotal:.2f}")
    tax = round(invoice.subtotal * order.tax_rate, 2)
    if abs(tax - invoice.tax) > CENTS:
        failures.append(f"tax at the order's {order.tax_rate:.0%} is {tax:.2f}, the invoice says {invoice.tax:.2f}")
    if abs(invoice.subtotal + invoice.tax - invoice.total) > CENTS:
        failures.append(f"subtotal and tax make {invoice.subtotal + invoice.tax:.2f}, the total says {invoice.total:.2f}")
    return _result("arithmetic", failures, "lines, subtotal, tax and total add up")


def _duplicate(invoice: Invoice, books: Books) -> dict:
    number = _part(invoice.invoice_number)
    for seen in books.ledger:
        if party(seen.supplier) != party(invoice.supplier):
            continue
        if _part(seen.invoice_number) == number:
            return _result("duplicate", [f"invoice {seen.invoice_number} is already in the ledger"], "")
        if abs(seen.total - invoice.total) <= CENTS and seen.invoice_date == invoice.invoice_date:
            return _result("duplicate", [f"the ledger holds {seen.invoice_number} with the same total and date"], "")
    return _result("duplicate", [], "no earlier invoice of the supplier with this number, or this total and date")


def decision(results: list[dict]) -> str:
    """What the checks say about paying the invoice: approve only when all six passed."""
    status = {r["check"]: r["status"] for r in results}
    if any(s == "fail" for s in status.values()):
        return "hold"
    return "approve" if all(status.get(c) == "pass" for c in CHECKS) else "incomplete"
