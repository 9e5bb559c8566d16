"""Who is who in a clause: the buyer (the party we review for) and the supplier, by role words.

Contracts name the buyer Buyer, Customer, Company, Purchaser, Client, Licensee ... and the
supplier Supplier, Vendor, Provider, Contractor, Manufacturer, Seller ...; "each party",
"either party" and "neither party" mean both.
"""

from __future__ import annotations

import re
from typing import Literal

Role = Literal["buyer", "supplier", "both"]

BUYER_WORDS = ("buyer", "customer", "company", "purchaser", "client", "licensee", "recipient of the services",
               "service recipient", "owner", "shipper")
SUPPLIER_WORDS = ("supplier", "vendor", "service provider", "provider", "contractor", "manufacturer", "seller",
                  "licensor", "consultant", "servicer", "operator", "carrier")
BOTH_WORDS = ("each party", "either party", "neither party", "both parties", "the parties", "each of the parties",
              "a party", "any party", "the other party")

_ROLE_RE = re.compile(
    r"\b(?P<both>each\s+party|either\s+party|neither\s+party|both\s+parties|each\s+of\s+the\s+parties|the\s+parties|a\s+party)\b"
    r"|\b(?P<buyer>buyer|customer|company|purchaser|client|licensee|service\s+recipient|owner|shipper)(?:'s|s')?\b"
    r"|\b(?P<supplier>supplier|vendor|service\s+provider|provider|contractor|manufacturer|seller|licensor|consultant|servicer|operator|carrier)(?:'s|s')?\b",
    re.IGNORECASE,
)


def roles_in(text: str) -> list[tuple[Role, int, int]]:
    """Every role mention in order, as (role, start, end)."""
    out: list[tuple[Role, int, int]] = []
    for m in _ROLE_RE.finditer(text):
        role: Role = "both" if m.group("both") else "buyer" if m.group("buyer") else "supplier"
        out.append((role, m.start(), m.end()))
    return out


def actor_before(text: str, position: int, window: int = 120, *, skip_possessive: bool = False) -> Role | None:
    """The party named closest before `position` (the subject of a verb found there)."""
    lo = max(0, position - window)
    mentions = [r for r in roles_in(text[lo:position])
                if not (skip_possessive and _is_possessive_object(text, lo + r[2]))]
    return mentions[-1][0] if mentions else None


def actor_after(text: str, position: int, window: int = 80) -> Role | None:
    mentions = roles_in(text[position : position + window])
    return mentions[0][0] if mentions else None


def _is_possessive_object(text: str, end: int) -> bool:
    """"Buyer's prior written consent": a possessive of a noun is not the subject."""
    return text[end - 2 : end] in ("'s", "s'")


_OBLIGATION = re.compile(
    r"\b(?:shall|must|will|commits?\s+to|agrees?\s+to|undertakes?\s+to|is\s+(?:obliged|required)\s+to|may\s+not|cannot)\b",
    re.IGNORECASE,
)


def obligations(text: str, window: int = 200) -> list[tuple[Role, str]]:
    """(who, what) for each obligation: the party named right before a modal verb
    ("Buyer shall ...", "the Customer agrees to ...") and the words that follow it."""
    found: list[tuple[Role, str]] = []
    for m in _OBLIGATION.finditer(text):
        mentions = roles_in(text[max(0, m.start() - 40) : m.start()])
        if not mentions:
            continue
        role, _, end = mentions[-1]
        gap = text[max(0, m.start() - 40) + end : m.start()]
        if len(gap.split()) > 4 or "," in gap and len(gap) > 3:
            continue  # the mention is not the subject of this verb
        found.append((role, text[m.start() : m.end() + window]))
    return found
