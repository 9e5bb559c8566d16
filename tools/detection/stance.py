"""Whom a clause binds and whom it protects, read from its wording with the contract's parties.

Clauses come in four shapes, set by the playbook metric that judges them:

- obligations ("Supplier shall maintain insurance", "Customer shall pay within 30 days"): they bind
  the party that must act and protect the other;
- rights ("Buyer may terminate for convenience", "Customer may audit"): they protect the holder
  and bind the other;
- limits ("Supplier's aggregate liability shall not exceed ...", "Seller disclaims all implied
  warranties"): they protect the party whose liability or warranty is limited, and bind the party
  that loses the claim; a sole remedy binds the party whose remedies it narrows;
- common terms (governing law, renewal): they bind and protect both.

`interest(metric)` says which reading the buyer's playbook is about (the supplier's insurance,
the cap on the supplier's liability ...), so that a clause the contract sets for both sides is
judged on the buyer's side of it.
"""

from __future__ import annotations

import re

from tools.detection.parties import (
    Role,
    actor_after,
    actor_before,
    obligations,
    other,
    passive_agent,
    roles_in,
)
from tools.detection.remedies import remedy_holder, sole_remedies

SHAPES: dict[str, str] = {
    "cap_multiple": "limit",
    "disclaimer_scope": "limit",
    "exclusive_remedy": "remedy",
    "notice_days": "right",
    "audit_scope": "right",
    "price_increase_pct": "right",
    "jurisdiction": "common",
    "renewal_notice_days": "common",
    "payment_days": "payment",
}  # every other metric judges an obligation

# What the buyer's playbook reads, per metric: ("binds" | "protects", role). A clause whose
# reading matches is the one the verdict is about when a contract has one for each side.
INTEREST: dict[str, tuple[str, str]] = {
    "cap_multiple": ("protects", "supplier"),
    "disclaimer_scope": ("protects", "supplier"),
    "exclusive_remedy": ("binds", "buyer"),
    "insurance_amount": ("binds", "supplier"),
    "warranty_months": ("binds", "supplier"),
    "indemnity_direction": ("binds", "supplier"),
    "breach_notice_hours": ("binds", "supplier"),
    "audit_scope": ("protects", "buyer"),
    "notice_days": ("protects", "buyer"),
    "termination_waiver": ("binds", "buyer"),
    "restriction_on_buyer": ("binds", "buyer"),
}

_RX = re.IGNORECASE
_LIMITED = re.compile(
    r"\b(?:liab\w*|obligations?|responsibilit\w*)\b|\bshall\s+not\s+be\s+(?:liable|responsible)|\bdisclaim\w*"
    r"|\bmakes?\s+no\b|\bgives?\s+no\b|\bexcludes?\b", _RX)
_RIGHT = re.compile(r"\b(?:may(?!\s+not)|(?:is|shall\s+be)\s+entitled\s+to|(?:has|have|shall\s+have|will\s+have)\s+the\s+(?:\w+\s+)?right\b|right\s+to)\b", _RX)
# a right given to the party named after the verb: "shall permit Customer to audit", "provide Buyer
# reasonable access to", "grants Licensee the right to inspect", "Buyer shall be given access"
_GIVEN_TO = re.compile(r"\b(?:permit|allow|authori[sz]e|enable|entitle|grant|give|provide|afford|offer)s?\s+(?:to\s+)?(?=\S)", _RX)
_GIVEN_WHAT = re.compile(r"^[^.;]{0,40}?\b(?:to\s+(?:audit|inspect|examine|review|visit|access|terminate|change|increase|adjust)|access|the\s+right|a\s+right|the\s+opportunity)\b", _RX)
# who must announce a change is who makes it: "Supplier shall give Buyer notice of any increase"
_NOTICE_OF_CHANGE = re.compile(r"\bnotice\s+(?:\w+\s+){0,3}?of\s+(?:any\s+|an\s+|each\s+|such\s+|the\s+)?(?:\w+\s+)?(?:increase|change|adjustment|amendment|termination|modification)", _RX)
# an obligation named by a noun or a condition: "a binding commitment of Customer to purchase",
# "Buyer's obligation to order", "in the event that Buyer does not order the Minimum Quantity"
_NOMINAL_DUTY = re.compile(
    r"\b(?:commitment|obligation|undertaking|duty)\s+of\s+(?=\S)"
    r"|\b(?:if|in\s+the\s+event(?:\s+that)?|should|where|unless)\s+(?=\S)", _RX)
_NOMINAL_AFTER = re.compile(r"^(?:the\s+)?\S+(?:\s+\S+){0,3}?\s+(?:to\s+\w+|does\s+not|do\s+not|fails?\s+to|is\s+unable\s+to|cannot)\b", _RX)
_OWN_DUTY = re.compile(r"(?:'s|’s)\s+(?:\w+\s+)?(?:commitment|obligation|undertaking|duty)\s+to\b", _RX)
# who pays: "payable by Buyer", "Buyer shall pay"; who is paid: "payments to Supplier", "Supplier's
# invoices", "invoices issued by Supplier"; who receives the invoice pays: "invoice Buyer", "the
# receipt by Buyer of the invoice"
_PAY_VERB = re.compile(r"\b(?:pay|pays|paid|payable|remit|settle)\b", _RX)
_PAID_TO = re.compile(r"\b(?:payments?|amounts?|sums?|fees?)\s+(?:\w+\s+){0,3}?(?:to|owed\s+to|due\s+to)\s+(?=\S)|\bpayable\s+to\s+(?=\S)"
                      r"|\binvoices?\s+(?:issued\s+|submitted\s+|sent\s+)?(?:of|from|by)\s+(?=\S)", _RX)
_INVOICED = re.compile(r"\binvoice(?:d|s)?\s+(?:to\s+)?(?=(?:the\s+)?[A-Z])|\breceipt\s+(?:by|of\s+\w+\s+by)\s+(?=\S)"
                       r"|\breceipt\s+of\s+(?:the\s+)?invoices?\s+by\s+(?=\S)", _RX)
_PAYS = re.compile(r"(?:shall|will|must|agrees?\s+to|undertakes?\s+to|is\s+(?:obliged|required)\s+to)\s+(?:\w+\s+){0,2}?(?:pay|remit|reimburse)\b", _RX)


def _subject_right_before(text: str, position: int) -> bool:
    """Whether a party is named right before the verb at `position` (its subject, "Buyer shall"),
    not a noun it qualifies ("Supplier invoices shall")."""
    mentions = roles_in(text[max(0, position - 60) : position])
    return bool(mentions) and not text[max(0, position - 60) : position][mentions[-1][2]:].strip(" ,")


_PAYMENT_OF = re.compile(r"\b(?:(?:pre|down\s+)?payments?|deposits?|invoices?|fees?|prices?|charges?|amounts?\s+(?:due|invoiced))\b", _RX)
_DENIED = re.compile(r"\b(?:no|not|never)\s+(?:\w+\s+)?$", _RX)
_ACTS = re.compile(r"\b(?:warrants?|represents?|indemnif(?:y|ies)|waives?|maintains?|covenants?|undertakes?)\b", _RX)


def shape(metric: str | None) -> str:
    return SHAPES.get(metric or "", "obligation")


def _merge(roles: set[str]) -> Role | None:
    roles = {r for r in roles if r}
    if not roles:
        return None
    if "both" in roles or {"buyer", "supplier"} <= roles:
        return "both"
    return next(iter(roles))  # type: ignore[return-value]


def _limited_parties(text: str) -> set[str]:
    found: set[str] = set()
    for hit in _LIMITED.finditer(text):
        who = actor_before(text, hit.start(), 60)
        if who is None and re.match(r"liab\w*\s+of\b", hit.group(0) + text[hit.end():hit.end() + 4], _RX):
            who = actor_after(text, hit.end(), 40)
        if who:
            found.add(who)
    return found


def read_stance(metric: str | None, text: str) -> tuple[Role | None, Role | None]:
    """(binds, protects) for clause text judged by this metric; None where the wording names nobody."""
    kind = shape(metric)
    if kind == "common":
        return "both", "both"
    if kind == "limit":
        protected = _merge(_limited_parties(text))
        return other(protected), protected
    if kind == "remedy":
        bound = _merge({who for hit in sole_remedies(text) if (who := remedy_holder(text, hit))})
        return bound, other(bound)
    if kind == "right":
        holder = _right_holder(text)
        return other(holder), holder
    if kind == "payment" and (payer := _payer(text)):
        return payer, other(payer)
    bound_roles = {who for who, _ in obligations(text)}
    bound_roles |= {who for m in _ACTS.finditer(text) if (who := actor_before(text, m.start(), 100))}
    bound = _merge(bound_roles) or _merge(_nominal_duties(text))
    return bound, other(bound)


def _named_right_after(text: str, position: int) -> Role | None:
    """The party named right at `position` ("the Customer", "Licensee and its auditors")."""
    first = roles_in(text[position : position + 60])
    return actor_after(text, position, 60) if first and first[0][1] <= 4 else None


def _right_holder(text: str) -> Role | None:
    """Who holds the right: the subject of "may" / "shall have the right" (not a right denied:
    "has no right to"), else the party a right is given to ("permit Customer to audit"), else the
    party that must give notice of the change ("Supplier shall give 45 days' notice of any increase")."""
    holders = {actor_before(text, m.start(), 60) for m in _RIGHT.finditer(text)
               if not _DENIED.search(text[max(0, m.start() - 20) : m.start()])}
    holder = _merge({h for h in holders if h})
    if holder:
        return holder
    given = {who for m in _GIVEN_TO.finditer(text)
             if (who := _named_right_after(text, m.end())) and _GIVEN_WHAT.search(text[m.end() : m.end() + 120])}
    if given:
        return _merge(given)
    announcers = {who for who, clause in obligations(text, window=160) if _NOTICE_OF_CHANGE.search(clause)}
    return _merge(announcers)


def _nominal_duties(text: str) -> set[str]:
    """Parties bound by an obligation named by a noun or a condition (see _NOMINAL_DUTY)."""
    found: set[str] = set()
    for m in _NOMINAL_DUTY.finditer(text):
        if _NOMINAL_AFTER.match(text[m.end() : m.end() + 80]) and (who := _named_right_after(text, m.end())):
            found.add(who)
    for m in _OWN_DUTY.finditer(text):
        if (who := actor_before(text, m.start() + 2, 40)):
            found.add(who)
    return found


def _payer(text: str) -> Role | None:
    """Who pays under a payment term: the payer named ("Buyer shall pay", "payable by Buyer"), else
    the other side of the party paid or invoicing ("payments to Supplier", "Supplier's invoices"), or
    the party invoiced; a payment of invoices, fees or prices that names no payer (or whose subject
    is both parties agreeing the terms) is the buyer's, the party that pays the price."""
    payers = {who for m in _PAYS.finditer(text) if (who := actor_before(text, m.start(), 80))
              and re.search(r"[\w)]\s*$", text[max(0, m.start() - 3) : m.start()]) and _subject_right_before(text, m.start())}
    payers |= {who for m in _PAY_VERB.finditer(text) if (who := passive_agent(text, m.start())) and who != "both"}
    for m in re.finditer(r"\b(?:payable|paid)\s+by\s+(?=\S)", text, _RX):
        if (who := _named_right_after(text, m.end())) and who != "both":
            payers.add(who)
    if payers:
        return _merge(payers)
    paid = {who for m in _PAID_TO.finditer(text) if (who := _named_right_after(text, m.end())) in ("buyer", "supplier")}
    paid |= {r for r, _, end in roles_in(text) if r in ("buyer", "supplier")
             and re.match(r"(?:'s|’s)?\s+invoices?\b", text[end - 2 if text[end - 2 : end] in ("'s", "’s") else end : end + 12], _RX)}
    invoiced = {who for m in _INVOICED.finditer(text) if (who := _named_right_after(text, m.end())) in ("buyer", "supplier")}
    if paid and len(paid) == 1 and not invoiced - {other(next(iter(paid)))}:
        return other(next(iter(paid)))
    if invoiced and len(invoiced) == 1:
        return next(iter(invoiced))
    if _PAYMENT_OF.search(text) and not paid and not invoiced:
        return "buyer"
    return None


def matches_interest(metric: str | None, binds: str | None, protects: str | None) -> bool:
    """Whether this reading is the side of the clause the buyer's playbook is about."""
    want = INTEREST.get(metric or "")
    if want is None:
        return True
    side, role = want
    value = binds if side == "binds" else protects
    return value in (role, "both")
