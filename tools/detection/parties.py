"""Who is who: the contract's parties, their defined terms and roles, and who a clause names.

`identify_parties(text, we=None)` reads the parties from the preamble (a name followed by its
defined term: `Acme Corp., a Delaware corporation ("Supplier")`, `hereinafter referred to as
"Customer"`) and, when the preamble names fewer than two, from the signature blocks. Each party
gets a role:

- "buyer": the party we review for (the playbook's `buyer_role`), by default the one that buys;
- "supplier": the counterparty, by default the one that supplies goods or services.

Roles come, in order, from role words in the defined terms (Customer, Distributor, Purchaser ...
buy; Supplier, Vendor, Manufacturer, Contractor ... supply), from the other party's role (the
complement), and from what each party does in the text ("X shall purchase", "X shall
manufacture", "invoice X"). When that leaves the roles open, the result is flagged ambiguous,
and `we` settles it: "buyer" (default), "supplier" (we review for the supplying party: the
roles swap), or a party's name or defined term.

`roles_in`, `actor_before`, `actor_after` and `obligations` find who a clause names. They read
generic role words ("each party", "the Customer") and, while `reading_for(parties)` is active,
the contract's own defined terms and names ("NETGEAR", "Philips"), so a clause of a contract that
calls its supplier "Company" is read the right way round.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

Role = Literal["buyer", "supplier", "both"]
Side = Literal["buyer", "supplier"]

# Role words. "Strong" words name one side in any contract; "weak" ones (Company, Owner,
# Operator) lean one way but give way to the other party's strong word.
STRONG_BUYER = ("buyer", "customer", "purchaser", "client", "licensee", "distributor", "reseller", "dealer",
                "service recipient", "recipient of the services", "shipper", "subscriber", "franchisee")
STRONG_SUPPLIER = ("supplier", "vendor", "service provider", "provider", "contractor", "manufacturer", "seller",
                   "licensor", "consultant", "servicer", "carrier", "subcontractor", "developer", "franchisor")
WEAK_BUYER = ("company", "owner")
WEAK_SUPPLIER = ("operator",)
BUYER_WORDS = STRONG_BUYER + WEAK_BUYER
SUPPLIER_WORDS = STRONG_SUPPLIER + WEAK_SUPPLIER
BOTH_WORDS = ("each party", "either party", "neither party", "both parties", "the parties", "each of the parties",
              "a party", "any party", "the other party")

# first words of company names too common to stand for one party
_GENERIC_NAME_WORDS = {"american", "national", "international", "global", "united", "general", "first", "new", "north",
                       "south", "east", "west", "western", "eastern", "northern", "southern", "central", "pacific",
                       "atlantic", "royal", "standard", "universal", "advanced", "applied", "digital", "medical",
                       "the", "china", "japan", "canada", "europe", "european", "asia", "british", "texas"}

_BOTH_RE = r"each\s+party|either\s+party|neither\s+party|both\s+parties|each\s+of\s+the\s+parties|the\s+parties|a\s+party"


def _alternation(words: tuple[str, ...] | list[str]) -> str:
    ordered = sorted({w for w in words if w}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(part) for part in w.split()) for w in ordered)


def _role_regex(buyer: tuple[str, ...], supplier: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?P<both>{_BOTH_RE})\b"
        rf"|\b(?P<buyer>{_alternation(buyer)})(?:'s|s'|’s)?\b"
        rf"|\b(?P<supplier>{_alternation(supplier)})(?:'s|s'|’s)?\b",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class Party:
    """One contracting party: its name as printed, its defined terms, and its role."""

    name: str
    terms: tuple[str, ...] = ()
    role: Side | None = None

    @property
    def label(self) -> str:
        """'Ingram Micro ("Distributor")', or the name alone."""
        shown = [t for t in self.terms if t.lower() != self.name.lower()]
        return f'{self.name} ("{shown[0]}")' if shown else self.name

    def words(self) -> tuple[str, ...]:
        """What the text calls this party: its defined terms and its name's distinctive words."""
        out = list(self.terms)
        core = _core_name(self.name)
        if core:
            out.append(core)
            # "Brightwater Data Inc." is "Brightwater" in its clauses
            first = core.split()[0].strip(",.")
            if len(core.split()) > 1 and len(first) >= 4 and first[0].isupper() and first.lower() not in _GENERIC_NAME_WORDS:
                out.append(first)
        return tuple(dict.fromkeys(w for w in out if len(w) >= 2))


@dataclass(frozen=True)
class Parties:
    """The buyer (the party we review for) and the supplier of one contract, and how we know."""

    buyer: Party | None = None
    supplier: Party | None = None
    how: str = "role words only (no parties identified in the preamble)"
    ambiguous: bool = False
    others: tuple[Party, ...] = field(default_factory=tuple)
    # "identified" (both parties read from the contract, or the user's --we named one of them),
    # "assumed" (a side taken on the user's word or a guess from what each party does), or
    # "unknown" (clauses are read by generic role words only); `note` says so in one line
    status: str = "unknown"
    note: str = ""

    def of(self, role: str | None) -> Party | None:
        return self.buyer if role == "buyer" else self.supplier if role == "supplier" else None

    def describe(self, role: str | None) -> str:
        """'the buyer, Ingram Micro ("Distributor")', 'both parties', or 'unclear'."""
        if role == "both":
            return "both parties"
        party = self.of(role)
        if role in ("buyer", "supplier"):
            return f"the {role}, {party.label}" if party else f"the {role}"
        return "unclear"

    def as_dict(self) -> dict:
        def one(p: Party | None) -> dict | None:
            return {"name": p.name, "terms": list(p.terms), "label": p.label} if p else None

        return {"buyer": one(self.buyer), "supplier": one(self.supplier), "how": self.how, "ambiguous": self.ambiguous,
                "status": self.status, "note": self.note}

    @classmethod
    def from_dict(cls, data: dict | None) -> Parties:
        if not data:
            return GENERIC

        def one(d: dict | None, role: Side) -> Party | None:
            return Party(d["name"], tuple(d.get("terms") or ()), role) if d else None

        return cls(one(data.get("buyer"), "buyer"), one(data.get("supplier"), "supplier"),
                   data.get("how", ""), bool(data.get("ambiguous")), status=data.get("status") or "unknown",
                   note=data.get("note") or "")

    @property
    def pattern(self) -> re.Pattern[str]:
        buyer = self.buyer.words() if self.buyer else ()
        supplier = self.supplier.words() if self.supplier else ()
        shared = {w.lower() for w in buyer} & {w.lower() for w in supplier}
        return _pattern_for(tuple(w for w in buyer if w.lower() not in shared),
                            tuple(w for w in supplier if w.lower() not in shared))


GENERIC = Parties()


@lru_cache(maxsize=64)
def _pattern_for(buyer_terms: tuple[str, ...], supplier_terms: tuple[str, ...]) -> re.Pattern[str]:
    # A generic word the contract uses as the other side's defined term reads as that side
    # ("Company" defined as the supplier is the supplier, whatever the word leans to).
    taken_by_supplier = {t.lower() for t in supplier_terms}
    taken_by_buyer = {t.lower() for t in buyer_terms}
    buyer = tuple(buyer_terms) + tuple(w for w in BUYER_WORDS if w not in taken_by_supplier)
    supplier = tuple(supplier_terms) + tuple(w for w in SUPPLIER_WORDS if w not in taken_by_buyer)
    return _role_regex(buyer, supplier)


_ACTIVE: ContextVar[Parties] = ContextVar("active_parties", default=GENERIC)


@contextlib.contextmanager
def reading_for(parties: Parties | None) -> Iterator[None]:
    """Within the block, clause readers recognise this contract's party names and terms."""
    token = _ACTIVE.set(parties or GENERIC)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active_parties() -> Parties:
    return _ACTIVE.get()


def roles_in(text: str) -> list[tuple[Role, int, int]]:
    """Every role mention in order, as (role, start, end)."""
    out: list[tuple[Role, int, int]] = []
    for m in active_parties().pattern.finditer(text):
        role: Role = "both" if m.group("both") else "buyer" if m.group("buyer") else "supplier"
        out.append((role, m.start(), m.end()))
    return out


def actor_before(text: str, position: int, window: int = 120, *, skip_possessive: bool = False) -> Role | None:
    """Who does what the verb at `position` says: the agent of a passive verb ("may be changed
    by the Supplier", "are hereby disclaimed by Seller"), else the subject right before it, with
    the parties joined to it by "and", "or", "nor" or a comma ("Licensor and Licensee hereby
    disclaim", "Neither Seller nor Buyer shall" are both parties)."""
    agent = passive_agent(text, position)
    if agent:
        return agent
    lo = max(0, position - window)
    mentions = [r for r in roles_in(text[lo:position])
                if not (skip_possessive and _is_possessive_object(text, lo + r[2]))]
    return _coordinated(text[lo:position], mentions) if mentions else None


def actor_after(text: str, position: int, window: int = 80) -> Role | None:
    mentions = roles_in(text[position : position + window])
    if not mentions:
        return None
    chunk = text[position : position + window]
    group = [mentions[0]]
    for mention in mentions[1:]:
        gap = chunk[group[-1][2] : mention[1]]
        if not (_JOINED.fullmatch(gap) and _CONJUNCTION.search(gap)):
            break
        group.append(mention)
    return _merge_roles(r for r, _, _ in group)


# what joins two subjects of one verb: "X and Y", "X, Y and Z", "neither X nor Y", "each of X and Y"
_JOINED = re.compile(r"(?:'s|s'|’s)?\s*(?:,\s*)?(?:(?:and|or|nor|and/or|as\s+well\s+as|&)\s+)?(?:the\s+|its\s+|their\s+)?", re.IGNORECASE)


_CONJUNCTION = re.compile(r"&|\b(?:and|or|nor|as\s+well\s+as)\b", re.IGNORECASE)


def _merge_roles(roles) -> Role | None:
    found = set(roles)
    if not found:
        return None
    if "both" in found or {"buyer", "supplier"} <= found:
        return "both"
    return next(iter(found))  # type: ignore[return-value]


def _coordinated(chunk: str, mentions: list[tuple[Role, int, int]]) -> Role | None:
    """The role of the last mention and of every mention joined to it ("X and Y", "X nor Y")."""
    group = [mentions[-1]]
    for mention in reversed(mentions[:-1]):
        gap = chunk[mention[2] : group[-1][1]]
        # "X, Y and Z shall": the subject nearest the verb is joined by a conjunction
        if not (_JOINED.fullmatch(gap) and (_CONJUNCTION.search(gap) or len(group) > 1 and "," in gap)):
            break
        if _OBJECT_OF.search(chunk[: mention[1]]):
            break  # "communication with Customer, and Contractor disclaims": an object, not a subject
        group.append(mention)
    return _merge_roles(r for r, _, _ in group)


# a passive verb: "shall be paid", "may not be assigned", "are hereby disclaimed", "held harmless"
_PARTICIPLE = r"(?:[a-z]+(?:ed|en|wn|id|de|ld|lt|nt|ne|ght|un|ck)|held|borne|paid|made|bound)"
_PASSIVE_MODAL = re.compile(
    rf"(?:shall|will|may|must|can|could|should|would)\s+(?:(?:not|only|also|hereby|thereafter)\s+)*be\s+(?:\w+ly\s+)?{_PARTICIPLE}\b",
    re.IGNORECASE)
_BE_BEFORE = re.compile(rf"\b(?:be|been|being|is|are|was|were)\s+(?:(?:not|hereby|also|only|\w+ly)\s+)*(?:{_PARTICIPLE}\s*,?\s*(?:and\s+|or\s+)?)*$", re.IGNORECASE)
_BY_AGENT = re.compile(
    rf"(?:\s*,?\s*(?:and|or)?\s*{_PARTICIPLE}(?:\s+harmless)?)*\s+(?:(?!by\b)[\w'’-]+\s+){{0,5}}?by\s+(?!and\b|between\b)"
    r"(?:the\s+)?(?=\S)", re.IGNORECASE)


def passive_agent(text: str, position: int) -> Role | None:
    """The party after "by" when the verb at `position` is passive ("may be terminated by either
    party" -> both; "shall be indemnified and held harmless by Supplier" -> supplier)."""
    verb = _PASSIVE_MODAL.match(text, position)
    if verb:
        end = verb.end()
    else:
        word = re.match(rf"{_PARTICIPLE}\b", text[position : position + 40], re.IGNORECASE)
        if not (word and _BE_BEFORE.search(text[max(0, position - 40) : position])):
            return None
        end = position + word.end()
    by = _BY_AGENT.match(text[end : end + 120])
    if not by or re.search(r"[.;:]", by.group(0)):
        return None
    start = end + by.end()
    first = roles_in(text[start : start + 60])
    return actor_after(text, start, 80) if first and first[0][1] == 0 else None


def _is_possessive_object(text: str, end: int) -> bool:
    """"Buyer's prior written consent": a possessive of a noun is not the subject."""
    return text[end - 2 : end] in ("'s", "s'", "’s")


_OBLIGATION = re.compile(
    r"\b(?:shall|must|will|commits?\s+to|agrees?\s+to|undertakes?\s+to|is\s+(?:obliged|required)\s+to|may\s+not|cannot)\b",
    re.IGNORECASE,
)
# a party named right after a preposition is not the subject: "all amounts owed to Supplier shall"
_OBJECT_OF = re.compile(r"\b(?:by|to|from|with|against|for|upon|on|in|under|than|toward|towards)\s+(?:the\s+)?$", re.IGNORECASE)


def obligations(text: str, window: int = 200) -> list[tuple[Role, str]]:
    """(who, what) for each obligation: the subject of a modal verb ("Buyer shall ...", "the
    Customer agrees to ...", "Seller and Buyer shall each ..."), or the agent of a passive one
    ("shall be paid by Customer"), and the words that follow it."""
    found: list[tuple[Role, str]] = []
    for m in _OBLIGATION.finditer(text):
        who = passive_agent(text, m.start())
        if who is None:
            lo = max(0, m.start() - 60)
            chunk = text[lo : m.start()]
            mentions = roles_in(chunk)
            if not mentions:
                continue
            _, start, end = mentions[-1]
            gap = chunk[end:]
            if len(gap.split()) > 4 or "," in gap and len(gap) > 3:
                continue  # the mention is not the subject of this verb
            if _OBJECT_OF.search(chunk[:start]) and not re.search(r"\b(?:each|both|either|neither)\s+of\s+(?:the\s+)?$", chunk[:start], re.IGNORECASE):
                continue  # "owed to Supplier shall": the object of a preposition
            who = _coordinated(chunk, mentions)
        if who:
            found.append((who, text[m.start() : m.end() + window]))
    return found


def other(role: str | None) -> Role | None:
    return "supplier" if role == "buyer" else "buyer" if role == "supplier" else "both" if role == "both" else None


# ---------------------------------------------------------------- identifying the parties
_QUOTE_OPEN = "\"“”'‘"
_QUOTE_CLOSE = "\"”“'’"
_TERM = rf"[{_QUOTE_OPEN}](?P<term>[A-Z][\w&.\- ]{{1,40}}?)[{_QUOTE_CLOSE}]"
# ("Supplier"), (the "Customer"), (hereinafter "Buyer"), hereinafter referred to as "Contractor",
# ("Philips" or "Seller"), (each a "Party"): the defined term a party is given
_DEFINITION = re.compile(
    r"(?:\(\s*(?:together\s+with\s+[^()]{0,60}?,\s*)?|\b(?:hereinafter|herein(?:after)?|hereafter|henceforth)\b[^\"“()]{0,40}?)"
    r"(?:(?:hereinafter|herein(?:after)?|hereafter)\s+)?(?:(?:referred\s+to\s+as|called|known\s+as|designated)\s+)?(?:the\s+|a\s+|an\s+)?"
    + _TERM,
    re.IGNORECASE,
)
_ENTITY = re.compile(
    r"\b(?:inc|incorporated|corp|corporation|co|company|llc|l\.l\.c|ltd|limited|plc|llp|lp|l\.p|gmbh|ag|sa|s\.a|nv|n\.v|bv|b\.v"
    r"|s\.?r\.?l|s\.?r\.?o|s\.?p\.?a|pte|pty|kk|oy|ab|as|a/s|sas|sarl|trust|bank|partnership|association|university|authority)\b\.?"
    r"|\b(?:organi[sz]ed|incorporated|existing|formed)\s+(?:and\s+existing\s+)?under\b|\ba\s+(?:\w+\s+){0,4}(?:corporation|company|partnership|entity)\b",
    re.IGNORECASE,
)
_NOT_PARTY_TERMS = {"agreement", "effective date", "parties", "party", "contract", "products", "product", "services",
                    "territory", "term", "affiliate", "affiliates", "purchase agreement", "schedule", "exhibit",
                    "commencement date", "execution date", "closing", "amendment", "master agreement"}

_BUYS = re.compile(r"(?:shall|will|may|agrees?\s+to|desires?\s+to|wishes\s+to|intends?\s+to)\s+(?:\w+\s+){0,2}?(?:purchase|buy|order|resell|distribute|pay\s+(?:the|all|any)\s+(?:\w+\s+){0,2}?(?:fees?|prices?|invoices?|charges?))\b", re.IGNORECASE)
_SUPPLIES = re.compile(r"(?:shall|will|may|agrees?\s+to|desires?\s+to|wishes\s+to|intends?\s+to)\s+(?:\w+\s+){0,2}?(?:sell|supply|manufacture|produce|deliver|ship|provide|perform|furnish|render|host|develop|invoice)\b|\s+warrants\s+that\s+(?:the\s+|all\s+|each\s+)?(?:products?|goods|services|deliverables|work)", re.IGNORECASE)


def company_name(name: str) -> str:
    """`name` when it names an organisation (a legal form after its own words: "Kestrel Fluid
    Power Systems, Inc.", "Alder Mills GmbH"), else "" (a person's name, a bare defined term):
    what memory may keep as a deal's counterparty."""
    name = " ".join(name.split()).strip(" ,;:")
    words = re.split(r"[\s,]+", name)
    has_form = any(_ENTITY.fullmatch(w.rstrip(".,").lower()) or _ENTITY.fullmatch(w.lower()) for w in words[1:])
    return name if has_form and _core_name(name) else ""


def _core_name(name: str) -> str:
    """'NETGEAR, Inc.' -> 'NETGEAR'; 'Philips Medical Systems Nederland B.V.' -> 'Philips Medical Systems Nederland'."""
    words = re.split(r"[\s,]+", name.strip())
    kept: list[str] = []
    for w in words:
        if _ENTITY.fullmatch(w.rstrip(".,")) or _ENTITY.fullmatch(w):
            break
        kept.append(w)
    core = " ".join(kept).strip(" ,.")
    return core if len(core) >= 3 and core.lower() not in BOTH_WORDS else ""


def _clean_name(raw: str) -> str:
    name = " ".join(raw.split()).strip(" ,.;:-\"'“”")
    name = re.sub(r"^(?:the\s+|this\s+agreement\s+is\s+(?:made|entered)\b.*?\b(?:between|by)\s+)", "", name, flags=re.IGNORECASE)
    return name[:120]


def _role_of_word(term: str) -> tuple[Side | None, bool]:
    """(role, strong) a defined term's own words give it."""
    lowered = " ".join(term.lower().split())
    for words, role, strong in ((STRONG_BUYER, "buyer", True), (STRONG_SUPPLIER, "supplier", True),
                                (WEAK_BUYER, "buyer", False), (WEAK_SUPPLIER, "supplier", False)):
        if any(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words):
            return role, strong
    return None, False


_COMPANY = re.compile(
    r"\b(?P<name>(?=[\w&.'’-]*[A-Z])[A-Za-z0-9][\w&.'’-]*(?:[ \t]+(?:[A-Z][\w&.'’-]*|&|and|of|de|la|du|der|für|d/b/a|\d\w*)){0,8}?),?[ \t]+"
    r"(?:Inc|Incorporated|Corp|Corporation|Co|Company|LLC|L\.L\.C|Ltd|Limited|PLC|plc|LLP|LP|L\.P|GmbH|AG|S\.A|SA|N\.V|NV|B\.V|BV|S\.?r\.?l|[Ss]\.?r\.?o|S\.?p\.?A|Pte|Pty|KK|Oy|AB|A/S|SAS|SARL|LIMITED|INC|CORP|CORPORATION|COMPANY|LTD)\b\.?"
)
_PLAIN_NAME = re.compile(r"(?:^|\n|\bbetween\s+|\band\s+|:\s*)(?P<name>[A-Z][\w&.'’-]*(?:[ \t]+[A-Z][\w&.'’-]*){0,5})(?=\s*,\s*(?:a|an)\s)")
_PREAMBLE_END = re.compile(r"\b(?:WHEREAS|Whereas|RECITALS|Recitals|BACKGROUND|NOW,?\s+THEREFORE|Now,?\s+therefore|agree\s+as\s+follows)\b|\n\s*(?:1\.|ARTICLE\s+(?:1|I)\b|Section\s+1\b)")
_NOT_A_NAME = re.compile(r"^(?:its|having|whose|with|company\s+number|registered|principal|located|the\s+laws)\b", re.IGNORECASE)


def _party_name(before: str) -> str:
    """The party's name in the text between the previous definition and this one."""
    for pattern in (_COMPANY, _PLAIN_NAME):
        for m in pattern.finditer(before):
            name = _clean_name(m.group("name") + (m.group(0)[len(m.group("name")):] if pattern is _COMPANY else ""))
            name = re.sub(r"^(?:by\s+and\s+)?(?:between|and|among)\s+", "", name, flags=re.IGNORECASE)
            if name and not _NOT_A_NAME.match(name) and name.lower() not in _NOT_PARTY_TERMS and len(name) <= 100:
                return name.rstrip(",")
    return ""


# where the parties are introduced, after any cover page or table of contents
_INTRODUCED = re.compile(r"\b(?:by\s+and\s+(?:between|among)|entered\s+into\b[^.]{0,200}?\b(?:between|among|by)|is\s+made\b[^.]{0,200}?\b(?:between|among|by)|between\s*:)",
                         re.IGNORECASE)


def _preamble_parties(text: str) -> list[Party]:
    found = _parties_in_head(text[:6000])
    if len(found) < 2:
        # a table of contents or cover page before the preamble: read from where the parties are introduced
        intro = _INTRODUCED.search(text, 0, 30000)
        if intro and intro.start() > 300:
            later = _parties_in_head(text[max(0, intro.start() - 300) : intro.start() + 6000])
            if len(later) > len(found):
                found = later
    return found


def _parties_in_head(head: str) -> list[Party]:
    stop = next((m for m in _PREAMBLE_END.finditer(head) if m.start() > 150), None)
    if stop:
        head = head[: stop.start() + 1]
    parties: list[Party] = []
    last_end = 0
    for m in _DEFINITION.finditer(head):
        term = " ".join(m.group("term").split()).strip(" .")
        before = head[last_end : m.start()]
        last_end = m.end()
        if term.lower() in _NOT_PARTY_TERMS or term.lower().endswith((" agreement", " date")):
            continue
        if not (_ENTITY.search(before) or _role_of_word(term)[0] or _named_above(before, m.group(0), term)):
            continue
        name = _party_name(before) or _line_name(before) or term
        if any(term in p.terms or _same(p.name, name) for p in parties):
            continue
        parties.append(Party(name=name, terms=(term,)))
        if len(parties) == 4:
            break
    return parties


# "MODUS MEDIA INTERNATIONAL / <address lines> / (HEREINAFTER "MMI")": a party block without a legal
# form, introduced on lines of its own and defined by "hereinafter"
_HEREINAFTER = re.compile(r"\b(?:hereinafter|hereafter)\b", re.IGNORECASE)
_NAME_LINE = re.compile(r"(?m)^(?:between\s*:?\s*|and\s+)?(?P<name>[A-Z][A-Za-z0-9&.'’-]*(?:[ \t]+[A-Z][A-Za-z0-9&.'’-]*){0,5})[ \t]*,?$")


def _named_above(before: str, definition: str, term: str) -> bool:
    """Whether a "hereinafter" definition names a party set out on lines of its own above it."""
    return bool(_HEREINAFTER.search(definition) and "\n" in before.strip() and _line_name(before)
                and not re.search(r"\b(?:agreement|date|products?|services?|goods|software|territory)\b", term, re.IGNORECASE))


def _line_name(before: str) -> str:
    """The first line of a block set out line by line that reads as a name (not 'BETWEEN:', 'AND')."""
    lines = [line.strip() for line in before.strip().splitlines()[-8:]]
    opener = max((i for i, line in enumerate(lines) if re.fullmatch(r"(?:by\s+and\s+)?(?:between|and|among)\s*:?", line, re.IGNORECASE)),
                 default=-1)
    for line in lines[opener + 1:]:
        m = _NAME_LINE.match(line)
        if m and not re.search(r"\d|\b(?:agreement|contract)\b", m.group("name"), re.IGNORECASE):
            return m.group("name")
    return ""


def _same(a: str, b: str) -> bool:
    return _core_name(a).lower() == _core_name(b).lower() != ""


_SIGNATURE_LINE = re.compile(r"(?m)^[ \t]*By\s*:")
_LABEL = re.compile(r"^\s*(?:\[\s*)?(?P<label>[A-Za-z][A-Za-z ]{2,30}?)\s*(?:\]\s*)?:\s*(?P<rest>.*)$")


def _signature_parties(text: str) -> list[Party]:
    """Company names written right above a 'By:' line in the last pages, with the role they sign
    as when the block says so ("VENDOR: Marlow Castings Ltd" or "LICENSEE" on the line above)."""
    tail = text[-5000:]
    found: list[Party] = []
    for m in _SIGNATURE_LINE.finditer(tail):
        above = [line.strip() for line in tail[: m.start()].splitlines()[-4:] if line.strip()][-3:]
        name, term = "", ""
        for line in reversed(above):
            label = _LABEL.match(line)
            words = label.group("label") if label else line.rstrip(":")
            if _role_of_word(words)[0] and len(words.split()) <= 3 and not _ENTITY.search(words):
                term = term or words.strip().title()
                line = label.group("rest") if label else ""
            if not name and line and _ENTITY.search(line) and not line.lower().startswith(("by", "name", "title", "date")):
                name = _clean_name(line.rstrip(":"))
        if name and not any(_same(name, p.name) for p in found):
            found.append(Party(name=name, terms=(term,) if term else ()))
    return found[:2]


# '"Company" means Halvard Pumps GmbH ...', '"Distributor" shall mean ...': definitions anywhere
_MEANS = re.compile(
    rf"{_TERM}\s*(?:shall\s+)?(?:means?|refers?\s+to|shall\s+refer\s+to|has\s+the\s+meaning)\b\s*(?P<rest>[^\n;]{{3,200}})",
    re.IGNORECASE)


def _defined_parties(text: str) -> list[Party]:
    """Parties defined in a definitions article: a role-word term that means a named company."""
    found: list[Party] = []
    for m in _MEANS.finditer(text):
        term = " ".join(m.group("term").split()).strip(" .")
        if term.lower() in _NOT_PARTY_TERMS or not (_role_of_word(term)[0] or _ENTITY.search(m.group("rest")[:80])):
            continue
        company = _COMPANY.match(m.group("rest").lstrip())
        if not company:
            continue
        name = _clean_name(company.group(0))
        if name and not any(term in p.terms or _same(p.name, name) for p in found):
            found.append(Party(name=name, terms=(term,)))
    return found[:4]


def _merge_found(found: list[Party], extra: list[Party]) -> list[Party]:
    """Add parties found elsewhere: a named party completes one known only by its defined term."""
    out = list(found)
    for party in extra:
        # a role word read from a signature block that another party already holds as its defined term
        # ("LICENSEE" printed above the supplier's name) is not this party's term
        held = {t.lower() for p in out for t in p.terms}
        party = Party(party.name, tuple(t for t in party.terms if t.lower() not in held or _holds(out, party.name, t)))
        same = next((i for i, p in enumerate(out) if _same(p.name, party.name)
                     or set(t.lower() for t in p.terms) & set(t.lower() for t in party.terms)), None)
        if same is None:
            out.append(party)
            continue
        known = out[same]
        name = known.name if known.name not in known.terms else party.name
        out[same] = Party(name, tuple(dict.fromkeys((*known.terms, *party.terms))))
    return out


def _holds(parties: list[Party], name: str, term: str) -> bool:
    """Whether the party named `name` among `parties` already has `term` as its defined term."""
    return any(_same(p.name, name) and term.lower() in (t.lower() for t in p.terms) for p in parties)


def _activity(text: str, party: Party) -> tuple[int, int]:
    """(buyer cues, supplier cues): what the text has this party do."""
    words = party.words()
    if not words:
        return 0, 0
    subject = re.compile(rf"\b(?:{_alternation(words)})\b\s*(?:\([^)]{{0,40}}\)\s*)?", re.IGNORECASE)
    buys = supplies = 0
    for m in subject.finditer(text):
        after = text[m.end() : m.end() + 60]
        if _BUYS.match(after):
            buys += 1
        elif _SUPPLIES.match(after) or _SUPPLIES.match(" " + after):
            supplies += 1
    invoiced = re.compile(rf"\binvoice\s+(?:to\s+)?(?:the\s+)?(?:{_alternation(words)})\b|\b(?:{_alternation(words)})(?:'s|’s)?\s+(?:purchase\s+orders?|orders?)\b", re.IGNORECASE)
    buys += len(invoiced.findall(text))
    return buys, supplies


def identify_parties(text: str, we: str | None = None) -> Parties:
    """The contract's buyer and supplier (see the module doc); `we` settles an open question."""
    return _identify(text, (we or "").strip() or None)


@lru_cache(maxsize=32)
def _identify(text: str, we: str | None) -> Parties:
    found = _preamble_parties(text)
    sources = ["the preamble's defined terms"] if found else []
    for where, reader in (("the definitions", _defined_parties), ("the signature blocks", _signature_parties)):
        named = [p for p in found if p.name not in p.terms]
        if len(named) >= 2:
            break
        merged = _merge_found(found, reader(text))
        if merged != found:
            found = merged
            sources.append(where)
    source = " and ".join(sources)
    if not found:
        return _settle(GENERIC, we, text)
    roles: list[Side | None] = []
    strong: list[bool] = []
    for p in found:
        role, is_strong = None, False
        for term in (*p.terms, p.name):
            role, is_strong = _role_of_word(term)
            if role:
                break
        roles.append(role)
        strong.append(is_strong)
    how = [f"role words in {source}"]
    main = found[:2]
    if len(main) == 2:
        if roles[0] and roles[0] == roles[1] and strong[0] != strong[1]:
            weak = 0 if not strong[0] else 1
            roles[weak] = "supplier" if roles[weak] == "buyer" else "buyer"
        if roles[0] and not roles[1] or roles[0] and roles[0] == roles[1] and not strong[1]:
            roles[1] = "supplier" if roles[0] == "buyer" else "buyer"
        elif roles[1] and not roles[0] or roles[1] and roles[0] == roles[1] and not strong[0]:
            roles[0] = "supplier" if roles[1] == "buyer" else "buyer"
        if not roles[0] or roles[0] == roles[1]:
            activity = [_activity(text, p) for p in main]
            lean = [b - s for b, s in activity]
            if lean[0] != lean[1]:
                roles[0], roles[1] = ("buyer", "supplier") if lean[0] > lean[1] else ("supplier", "buyer")
                how = [f"what each party does in the text (parties from {source})"]
            else:
                return _settle(Parties(None, None, f"parties from {source}; their roles are unclear", True,
                                       tuple(main)), we, text, main)
    elif roles[0] is None:
        b, s = _activity(text, main[0])
        roles[0] = "buyer" if b > s else "supplier" if s > b else None
    buyer = next((Party(p.name, p.terms, "buyer") for p, r in zip(main, roles, strict=False) if r == "buyer"), None)
    supplier = next((Party(p.name, p.terms, "supplier") for p, r in zip(main, roles, strict=False) if r == "supplier"), None)
    return _settle(Parties(buyer, supplier, "; ".join(how), False, tuple(found[2:])), we, text, main)


def _settle(parties: Parties, we: str | None, text: str, candidates: list[Party] | None = None) -> Parties:
    """Apply the user's `we` (a role word such as buyer, supplier, customer, licensor, or a
    party's name or defined term, matched without regard to case, punctuation or legal form),
    then say how sure the result is (`status`, `note`)."""
    if not we:
        return _with_status(parties, we)
    pool = [p for p in (parties.buyer, parties.supplier, *(candidates or []), *parties.others) if p]
    ours = next((p for p in pool if _names_match(we, p)), None)
    if ours is not None:
        theirs = next((p for p in pool if p is not ours and not _same(p.name, ours.name)
                       and not set(p.terms) & set(ours.terms)), None)
        return _with_status(Parties(Party(ours.name, ours.terms, "buyer"),
                                    Party(theirs.name, theirs.terms, "supplier") if theirs else None,
                                    f"--we {we}: the user named our party", False), we)
    side, _ = _role_of_word(we)
    if side is None and _norm(we) in ("buyer", "supplier"):
        side = _norm(we)  # type: ignore[assignment]
    if side is not None:
        return _with_status(_side_by_word(parties, we, side, text), we)
    printed = _printed_name(text, we)
    if printed:
        theirs = next((p for p in pool if not _names_match(we, p)), None) or _other_company(text, printed)
        return _with_status(Parties(Party(printed, (printed,), "buyer"),
                                    Party(theirs.name, theirs.terms, "supplier") if theirs else None,
                                    f"--we {we}: the user named our party, found in the text but not among the parties "
                                    "the preamble defines", False), we)
    return _with_status(Parties(parties.buyer, parties.supplier, parties.how, parties.ambiguous, parties.others), we,
                        missing=we)


def _side_by_word(parties: Parties, we: str, side: Side, text: str) -> Parties:
    """`--we customer`, `--we licensor`: our party is the one on that side. With the parties
    identified, a supplier-side word swaps them; with none identified, the contract's own role
    words are read that way round ("Licensor" is our side, "Licensee" the other)."""
    if parties.buyer or parties.supplier:
        if side == "buyer":
            return Parties(parties.buyer, parties.supplier, f"{parties.how}; --we {we}: reviewed for the buying party",
                           False, parties.others)
        buyer = Party(parties.supplier.name, parties.supplier.terms, "buyer") if parties.supplier else None
        supplier = Party(parties.buyer.name, parties.buyer.terms, "supplier") if parties.buyer else None
        return Parties(buyer, supplier, f"{parties.how}; --we {we}: reviewed for the supplying party", False)
    ours_words = STRONG_BUYER + WEAK_BUYER if side == "buyer" else STRONG_SUPPLIER + WEAK_SUPPLIER
    their_words = STRONG_SUPPLIER if side == "buyer" else STRONG_BUYER
    word = we.strip()
    ours = _used_term(text, (word.lower(),)) or _used_term(text, ours_words) or word.title()
    theirs = _used_term(text, their_words)
    how = f"--we {we}: no parties identified in the contract; our side is the party it calls \"{ours}\""
    if theirs:
        how += f", the other the one it calls \"{theirs}\""
    return Parties(Party(ours, (ours,), "buyer"), Party(theirs, (theirs,), "supplier") if theirs else None, how, False)


def _used_term(text: str, words: tuple[str, ...]) -> str:
    """The role word of `words` the text uses most as a capitalised term ("Licensee"), or ""."""
    if not words:
        return ""
    counts: dict[str, int] = {}
    for m in re.finditer(rf"\b(?:{_alternation(words)})\b", text, re.IGNORECASE):
        printed = " ".join(m.group(0).split())
        if printed[0].isupper():
            counts[printed] = counts.get(printed, 0) + 1
    return max(counts, key=lambda k: (counts[k], k)) if counts else ""


_SUFFIX_WORDS = {"inc", "incorporated", "corp", "corporation", "co", "company", "llc", "l l c", "ltd", "limited", "plc",
                 "llp", "lp", "gmbh", "ag", "sa", "nv", "bv", "srl", "sro", "spa", "pte", "pty", "kk", "oy", "ab", "as",
                 "sas", "sarl", "the"}


def _norm(name: str) -> str:
    """'Ingram Micro, Inc.' -> 'ingram micro': case, punctuation and legal forms left out."""
    words = re.sub(r"[^\w\s&]", " ", name.lower().replace(".", "")).split()
    while words and words[-1] in _SUFFIX_WORDS:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return " ".join(words)


def _names_match(we: str, party: Party) -> bool:
    """Whether the user's `we` names this party: its defined term, its name, or the start of it."""
    wanted = _norm(we)
    if not wanted:
        return False
    if any(_norm(t) == wanted for t in party.terms):
        return True
    name = _norm(party.name)
    if not name or party.name in party.terms and _role_of_word(party.name)[0]:
        return False
    return name == wanted or len(wanted) >= 3 and (f"{name} ".startswith(f"{wanted} ") or f"{wanted} ".startswith(f"{name} "))


_LEGAL_FORM = (r"(?:,?[ \t]+(?:Inc|Incorporated|Corp|Corporation|Co|Company|LLC|L\.L\.C|Ltd|Limited|PLC|LLP|LP|L\.P|GmbH|AG"
               r"|S\.A|SA|N\.V|NV|B\.V|BV|S\.?r\.?l|S\.?r\.?o|S\.?p\.?A|Pte|Pty|KK|Oy|AB|A/S|SAS|SARL)\b\.?)?")


def _printed_name(text: str, we: str) -> str:
    """The user's party name as the contract prints it ("ACME Widgets, Inc." for --we "acme
    widgets"), or "" when the text never names it."""
    words = _norm(we).split()
    if not words or len(" ".join(words)) < 3:
        return ""
    pattern = re.compile(r"\b" + r"[\s,.&-]*".join(re.escape(w) for w in words) + r"\b" + _LEGAL_FORM, re.IGNORECASE)
    m = pattern.search(text)
    return " ".join(m.group(0).split()).rstrip(",") if m else ""


def _other_company(text: str, ours: str) -> Party | None:
    """The company the contract names most often besides ours, as the other party."""
    counts: dict[str, int] = {}
    printed: dict[str, str] = {}
    for m in _COMPANY.finditer(text[:60000]):
        name = _clean_name(m.group(0))
        key = _norm(name)
        if key and key != _norm(ours) and not _names_match(ours, Party(name)) and len(key) >= 3:
            counts[key] = counts.get(key, 0) + 1
            printed.setdefault(key, name)
    if not counts:
        return None
    best = max(counts, key=lambda k: counts[k])
    return Party(printed[best], (printed[best],))


def _with_status(parties: Parties, we: str | None, missing: str = "") -> Parties:
    """`parties` with its status and one-line note (see `Parties.status`)."""
    def labelled(p: Party | None) -> str:
        return p.label if p else "not identified"

    ask = "re-run with --we and a role word (buyer, customer, distributor, licensee ...) or our party's name"
    if missing:
        found = ", ".join(p.label for p in (parties.buyer, parties.supplier, *parties.others) if p) or "none"
        status, note = "unknown", (f"--we {missing} names no party of this contract (parties found: {found}); "
                                   f"clauses are read by their role words; {ask}")
    elif parties.ambiguous or not (parties.buyer or parties.supplier):
        status = "unknown"
        named = ", ".join(p.label for p in parties.others)
        note = (f"the contract names {named} but not which of them buys: who each clause binds is guessed from role words; {ask}"
                if named else "the parties could not be identified (no defined parties in the preamble, the definitions "
                f"or the signature blocks): who each clause binds is read from generic role words only; {ask}")
    elif we:
        status = "identified" if "the user named our party" in parties.how and "not among" not in parties.how \
            or "reviewed for the" in parties.how else "assumed"
        note = f"reviewed for {labelled(parties.buyer)} as --we {we} asked; the other party: {labelled(parties.supplier)}"
    elif parties.buyer and parties.supplier and parties.how.startswith("role words"):
        status, note = "identified", f"buyer {parties.buyer.label}, supplier {parties.supplier.label} ({parties.how})"
    else:
        status = "assumed"
        note = (f"buyer {labelled(parties.buyer)}, supplier {labelled(parties.supplier)}: roles guessed from "
                f"{parties.how}; if that is the wrong way round, {ask}")
    return Parties(parties.buyer, parties.supplier, parties.how, parties.ambiguous, parties.others, status, note)
