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

from tools.detection.parties import Role, actor_after, actor_before, obligations, other
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
_RIGHT = re.compile(r"\b(?:may(?!\s+not)|(?:is|shall\s+be)\s+entitled\s+to|(?:has|shall\s+have)\s+the\s+right\s+to|right\s+to)\b", _RX)
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
        # "has no right to", "is not entitled to": a right denied is no right
        holders = {actor_before(text, m.start(), 60) for m in _RIGHT.finditer(text)
                   if not _DENIED.search(text[max(0, m.start() - 20) : m.start()])}
        holder = _merge({h for h in holders if h})
        return other(holder), holder
    bound_roles = {who for who, _ in obligations(text)}
    bound_roles |= {who for m in _ACTS.finditer(text) if (who := actor_before(text, m.start(), 100))}
    bound = _merge(bound_roles)
    return bound, other(bound)


def matches_interest(metric: str | None, binds: str | None, protects: str | None) -> bool:
    """Whether this reading is the side of the clause the buyer's playbook is about."""
    want = INTEREST.get(metric or "")
    if want is None:
        return True
    side, role = want
    value = binds if side == "binds" else protects
    return value in (role, "both")
