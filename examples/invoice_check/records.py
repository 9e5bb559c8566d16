"""Invoices, purchase orders and the books they are checked against, as validated records.

An invoice is a supplier's claim for payment; a purchase order (PO) is what we ordered, with what
was received and already invoiced per line; the ledger lists invoices already processed. A run
gets one invoice and the books (`Books`: the purchase orders and the ledger), both as plain
dicts in the graph's input, so a server can run it without reading files.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

DATA = Path(__file__).resolve().parent / "data"
# The header fields an invoice may carry a PO number in: a closed list, so memory can keep which
# one a supplier uses (a field name, never a value).
REFERENCE_FIELDS = ("po_number", "reference", "customer_order", "notes")
PO_NUMBER = re.compile(r"\bPO[\s#:-]*(\d{5})\b", re.IGNORECASE)


class InvoiceError(ValueError):
    """An invoice or books that cannot be checked (missing or malformed), with what to fix."""


class InvoiceLine(BaseModel):
    supplier_part: str = ""
    description: str
    quantity: float = Field(gt=0)
    unit_price: float = Field(ge=0)
    amount: float


class Invoice(BaseModel):
    invoice_number: str = Field(min_length=1)
    supplier: str = Field(min_length=1)
    invoice_date: str
    po_number: str = ""
    reference: str = ""
    customer_order: str = ""
    notes: str = ""
    contact: str = ""  # a person at the supplier: never kept by memory (MemoryAgent.private_names)
    currency: str = "EUR"
    payment_terms: str = ""
    lines: list[InvoiceLine] = Field(min_length=1)
    subtotal: float
    tax: float
    total: float

    def field(self, name: str) -> str:
        return str(getattr(self, name, "") or "") if name in REFERENCE_FIELDS else ""


class OrderLine(BaseModel):
    line: int
    sku: str
    vendor_part: str = ""
    description: str
    quantity: float = Field(gt=0)
    unit_price: float = Field(ge=0)
    received: float = 0
    invoiced: float = 0  # already invoiced before this invoice


class PurchaseOrder(BaseModel):
    po_number: str
    supplier: str
    status: str = "open"
    order_date: str = ""
    currency: str = "EUR"
    payment_terms: str = ""
    tax_rate: float = Field(ge=0, le=1)
    lines: list[OrderLine] = Field(min_length=1)

    @field_validator("po_number")
    @classmethod
    def _po_number(cls, value: str) -> str:
        return po_number(value) or value

    @property
    def total(self) -> float:
        return round(sum(line.quantity * line.unit_price for line in self.lines) * (1 + self.tax_rate), 2)


class Processed(BaseModel):
    """An invoice already in the ledger (processed or paid)."""

    supplier: str
    invoice_number: str
    invoice_date: str = ""
    total: float


class Books(BaseModel):
    orders: list[PurchaseOrder] = Field(default_factory=list)
    ledger: list[Processed] = Field(default_factory=list)

    def order(self, number: str) -> PurchaseOrder | None:
        wanted = po_number(number)
        return next((o for o in self.orders if o.po_number == wanted), None) if wanted else None


def po_number(text: str) -> str:
    """The first PO number in `text`, written `PO-12345` ("PO 12345", "po#12345" ...), or ""."""
    found = PO_NUMBER.search(text or "")
    return f"PO-{found[1]}" if found else ""


def party(name: str) -> str:
    """A company's name compared loosely: case, punctuation and legal form aside."""
    words = re.findall(r"[^\W_]+", (name or "").casefold())
    return " ".join(w for w in words if w not in {"ltd", "limited", "inc", "llc", "gmbh", "sa", "plc", "co"})


def invoice_of(data: Any) -> Invoice:
    try:
        return data if isinstance(data, Invoice) else Invoice.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "invoice"
        raise InvoiceError(f"the invoice cannot be checked: {where}: {first['msg']}") from None


def books_of(data: Any) -> Books:
    try:
        return data if isinstance(data, Books) else Books.model_validate(data or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvoiceError(f"the books cannot be read: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None


def content_id(invoice: Invoice) -> str:
    """What the run works on, as a hash (memory's `source_id`: checks of one invoice confirm a fact once)."""
    return hashlib.sha256(invoice.model_dump_json().encode()).hexdigest()[:24]


def load_invoice(path: str | Path) -> Invoice:
    path = Path(path)
    try:
        return invoice_of(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvoiceError(f"cannot read invoice {path.name}: {exc}") from None


def sample_books() -> Books:
    """The sample purchase orders and ledger (examples/invoice_check/data)."""
    return books_of({"orders": json.loads((DATA / "purchase_orders.json").read_text()),
                     "ledger": json.loads((DATA / "ledger.json").read_text())})


def sample_invoices() -> list[Path]:
    """The sample invoices, in the order the demo checks them (by file name)."""
    return sorted((DATA / "invoices").glob("*.json"))
