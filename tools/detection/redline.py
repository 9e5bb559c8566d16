"""Requested changes drafted for one contract: a redline a lawyer could paste.

`draft(finding, entry, terms)` turns a finding (its quote, citation and verdict) into a `Redline`:
what to do (replace, add, insert, delete, or nothing), the contract's own words it acts on (a
span of the quote, so it can be found in the document), and the new wording. The new wording
is the clause as the contract wrote it with the figure moved to the playbook's position
("twelve (12) months" for a warranty of ninety (90) days), or, where the clause has no figure to
move, wording built from the playbook's standard in the contract's defined terms ("Distributor",
"the Company") and its way of writing numbers ("thirty (30) days" or "30 days").

`ContractTerms.of(parties, text)` reads those defined terms: the terms the run's parties carry,
else the role word the text itself uses for each side, else a bracketed placeholder
("[Customer]") a lawyer must fill in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tools.detection.metrics import extract_jurisdiction
from tools.detection.numbers import find_durations, find_money, find_multiples, find_percents
from tools.detection.parties import STRONG_BUYER, STRONG_SUPPLIER, Parties, Party
from tools.playbook import PlaybookEntry

# The verdicts that ask for a change; the rest say why none is needed.
ASKS = ("deviation", "fallback", "missing")
QUOTE_SHOWN = 160  # longer spans are shown with an ellipsis in the one-line ask

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """0..999 in words, as contracts write them ("seventy-two", "one hundred twenty"); digits above."""
    if n >= 1000 or n < 0:
        return f"{n:,}"
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")


@dataclass(frozen=True)
class Style:
    """How the contract writes figures: 'thirty (30) days' (words) or '30 days' (digits), and
    whether the clause is in capitals (a disclaimer)."""

    words: bool = True
    upper: bool = False

    @classmethod
    def of(cls, text: str) -> Style:
        words = bool(re.search(r"\b[a-z]+(?:-[a-z]+)?\s*\(\s*\d+\s*\)", text, re.IGNORECASE))
        digits = bool(re.search(r"(?<![\(\d.,])\b\d{1,3}\s+(?:days?|months?|years?|hours?|business)", text, re.IGNORECASE))
        letters = [c for c in text if c.isalpha()]
        upper = len(letters) > 20 and sum(c.isupper() for c in letters) / len(letters) > 0.8
        return cls(words=words or not digits, upper=upper)

    def number(self, n: float) -> str:
        value = int(n) if float(n).is_integer() else n
        if isinstance(value, int) and 0 <= value < 1000 and self.words:
            return f"{number_words(value)} ({value})"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def duration(self, n: float, unit: str) -> str:
        return f"{self.number(n)} {unit}{'' if n == 1 else 's'}"

    def case(self, text: str) -> str:
        return text.upper() if self.upper else text


@dataclass(frozen=True)
class ContractTerms:
    """What this contract calls the buyer and the supplier, as its clauses write them."""

    buyer: str = "[Customer]"
    supplier: str = "[Supplier]"
    defined: frozenset[str] = field(default_factory=frozenset)  # capitalised terms the contract uses
    words: bool = True  # figures written "thirty (30) days" rather than "30 days"

    @classmethod
    def of(cls, parties: Parties | dict | None, text: str = "") -> ContractTerms:
        parties = parties if isinstance(parties, Parties) else Parties.from_dict(parties or None)
        buyer = _term_for(parties.buyer, STRONG_BUYER, text) or "[Customer]"
        supplier = _term_for(parties.supplier, STRONG_SUPPLIER, text, taken=buyer) or "[Supplier]"
        defined = frozenset(re.findall(r"\b(?:Initial Term|Renewal Term|Term|Effective Date|Products?|Services?|"
                                       r"Goods|Deliverables|Specifications?|Territory|Confidential Information|"
                                       r"Personal Data|Fees|Purchase Orders?|Affiliates?)\b", text))
        return cls(buyer, supplier, defined, Style.of(text[:40_000]).words if text else True)

    def possessive(self, who: str) -> str:
        return f"{who}'" if who.endswith("s") else f"{who}'s"

    def called(self, plain: str, *choices: str) -> str:
        """The contract's defined term for a thing ("the Products") if it has one, else `plain`."""
        for choice in choices:
            if choice in self.defined:
                return f"the {choice}"
        return plain


def _term_for(party: Party | None, words: tuple[str, ...], text: str, taken: str = "") -> str:
    """The party's defined term as the text uses it ("Distributor", "the Company"), else its
    name, else the role word the text capitalises for that side."""
    candidates = list(party.terms) if party else []
    if party and not candidates:
        candidates.append(party.name)
    if not candidates:  # no parties read: the capitalised role word the contract itself uses most
        counts = {w.title(): len(re.findall(rf"\b{re.escape(w.title())}\b", text)) for w in words if " " not in w}
        best = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
        candidates = [best[0]] if best[1] >= 2 else []
    for term in candidates:
        if not term or term.strip("[]").lower() == taken.strip("[]").lower().removeprefix("the "):
            continue
        with_the = len(re.findall(rf"\bthe\s+{re.escape(term)}\b", text))
        bare = len(re.findall(rf"\b{re.escape(term)}\b", text)) - with_the
        return f"the {term}" if with_the > bare and not term.lower().startswith("the ") else term
    return ""


def cap_first(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Redline:
    """One requested change (or why none), in the contract's words.

    action: "replace" (find -> text), "add" (text added after `find`, the provision's last words),
            "insert" (a new clause: the contract has none), "delete" (find struck, text added in
            its place when not empty), or "none".
    """

    action: str
    where: str  # the provision's citation, or where to insert a new clause
    find: str = ""
    text: str = ""
    figure: str = ""  # the contract's figure or words the change is about ("three (3) months")
    target: str = ""  # the playbook's position in the contract's style ("twelve (12) months")
    why: str = ""  # one line: why no change, or why this change

    def as_dict(self) -> dict[str, str]:
        return {"action": self.action, "where": self.where, "find": self.find, "text": self.text,
                "figure": self.figure, "target": self.target, "why": self.why}

    def sentence(self) -> str:
        """The requested change as one paragraph a lawyer could act on."""
        if self.action == "none":
            return f"No change needed: {self.why}"
        figure = f" ({self.figure})" if self.figure and self.figure not in self.find else ""
        if self.action == "replace":
            return f"{cap_first(self.where)}{figure}: replace \"{self.find}\" with: \"{self.text}\""
        if self.action == "add":
            return f"{cap_first(self.where)}{figure}: after \"{_tail(self.find)}\" add: \"{self.text}\""
        if self.action == "delete":
            tail = f" and insert in its place: \"{self.text}\"" if self.text else ""
            return f"{cap_first(self.where)}{figure}: delete \"{self.find}\"{tail}"
        return f"Insert {self.where}: \"{self.text}\""

    def headline(self, title: str) -> str:
        """One short line for the executive summary: the clause type, its section, the change."""
        where = _section_of(self.where)
        if self.action == "none":
            return f"{title}: no change ({self.why})"
        if self.action == "replace" and self.figure and self.target:
            return f"{where}, {title}: {_short(self.figure, 70)} → {_short(self.target, 70)}"
        if self.action == "insert":
            return f"{title} (none in the contract): add \"{_short(self.text, 80)}\""
        if self.action == "delete":
            return f"{where}, {title}: strike \"{_short(self.find, 70)}\""
        return f"{where}, {title}: add \"{_short(self.text, 80)}\""


def _section_of(citation: str) -> str:
    """'Section 9.2' of 'Section 9.2 (Limitation of Liability)'; the citation itself otherwise."""
    m = re.match(r"^((?:Section|Article|Clause|Schedule|Exhibit|Appendix|Annex|§)\s*[\w.()-]+?)(?:\s+\(|$)", citation)
    return m.group(1) if m else citation


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _tail(text: str, words: int = 8) -> str:
    parts = text.split()
    return ("…" + " ".join(parts[-words:])) if len(parts) > words else text


def _clean(quote: str) -> str:
    return " ".join((quote or "").split())


def _sentence_around(quote: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or semicolon clause) of the quote holding [start, end)."""
    lo = max(quote.rfind(". ", 0, start), quote.rfind("; ", 0, start))
    lo = lo + 2 if lo >= 0 else 0
    hits = [i for i in (quote.find(". ", end), quote.find("; ", end)) if i >= 0]
    hi = min(hits) + 1 if hits else len(quote)
    return lo, hi


def _swap(quote: str, spans: list[tuple[int, int, str]]) -> tuple[str, str]:
    """(the original sentence(s) holding the spans, the same with each span replaced)."""
    spans = sorted(spans)
    lo = min(_sentence_around(quote, s, e)[0] for s, e, _ in spans)
    hi = max(_sentence_around(quote, s, e)[1] for s, e, _ in spans)
    out, at = [], lo
    for s, e, new in spans:
        out.append(quote[at:s])
        out.append(new)
        at = e
    out.append(quote[at:hi])
    return quote[lo:hi].strip(), "".join(out).strip()


def _no_change(finding: dict, entry: PlaybookEntry) -> Redline:
    where = finding.get("citation") or ""
    verdict = finding.get("verdict")
    said = " ".join(str(finding.get("recommendation") or "").split())
    if verdict == "not_applicable":
        reason = entry.applies_if.otherwise if entry.applies_if else "the clause type does not apply to this deal"
        return Redline("none", where, why=f"{reason}, so no {_what(entry)} clause is needed.")
    if verdict == "missing":
        return Redline("none", where, why=f"the contract has no {_what(entry)} clause, and the buyer wants none.")
    if said.lower().startswith("no change needed") and len(said) > len("No change needed.") + 10:
        why = said.split(":", 1)[1].strip() if ":" in said[:20] else said[len("No change needed"):].strip(" .:")
        return Redline("none", where, why=why if why.endswith(".") else why + ".")
    if verdict == "favourable":
        return Redline("none", where, why=f"{where} favours the buyer: {entry.standard.rstrip('.')} or better.")
    return Redline("none", where, why=f"{where} meets the playbook's standard ({entry.standard.rstrip('.')}).")


def _what(entry: PlaybookEntry) -> str:
    return entry.title[:1].lower() + entry.title[1:]


def draft(finding: dict, entry: PlaybookEntry, terms: ContractTerms) -> Redline:
    """The requested change for one finding, in this contract's words (or why none)."""
    verdict = finding.get("verdict") or ""
    if verdict not in ASKS or (verdict == "missing" and entry.missing.severity == "none"):
        return _no_change(finding, entry)
    metric = entry.metric.name if entry.metric else ""
    # the provision's own words, without the number printed before it ("14.2 Company warrants ...")
    quote = re.sub(r"^(?:\d+(?:\.\d+)*\.?|\([a-z0-9]{1,4}\))\s+(?=\S)", "", _clean(finding.get("quote") or ""))
    where = finding.get("citation") or (f"section {finding['section']}" if finding.get("section") else "")
    if verdict == "missing" or not quote:
        style = Style(words=terms.words)
        text = _new_clause(metric, entry, terms, style)
        return Redline("insert", f"a new clause \"{entry.title}\"", text=text,
                       why=f"the contract has no {_what(entry)} clause")
    style = Style.of(quote)
    builder = _BUILDERS.get(metric)
    redline = builder(quote, entry, terms, style, where) if builder else None
    if redline is None:  # nothing to move in place: the playbook's clause, added to the provision
        redline = Redline("add", where, find=quote, text=style.case(_new_clause(metric, entry, terms, style)))
    return redline


# ---------------------------------------------------------------- figures moved in place
def _m(entry: PlaybookEntry, key: str, default: float) -> float:
    value = getattr(entry.metric, key, None) if entry.metric else None
    return float(value) if value is not None else default


def _replace(quote: str, where: str, spans: list[tuple[int, int, str]], extra: str = "") -> Redline:
    old, new = _swap(quote, spans)
    if extra and extra.lower() not in new.lower():
        new = f"{new.rstrip()} {extra}"
    lo, hi = min(s for s, _, _ in spans), max(e for _, e, _ in spans)
    if hi > lo and hi - lo <= 70:  # one phrase holds every change: show it before and after
        figure, target = quote[lo:hi], _splice(quote, lo, hi, spans).rstrip(" ,")
    else:
        figure = "; ".join(quote[s:e] for s, e, _ in spans if e > s)
        target = "; ".join(n.strip(" ,") for _, _, n in spans)
    return Redline("replace", where, find=old, text=new, figure=figure, target=target)


def _splice(quote: str, lo: int, hi: int, spans: list[tuple[int, int, str]]) -> str:
    out, at = [], lo
    for s, e, new in sorted(spans):
        out += [quote[at:s], new]
        at = e
    return ("".join(out) + quote[at:hi]).strip()


def _cap(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    want = _m(entry, "standard_min", 2.0)
    fees = re.compile(r"\b(?:the\s+)?(?:total\s+|aggregate\s+)?(?:fees|charges|amounts?|prices?|sums?|consideration|compensation)\b",
                      re.IGNORECASE)
    carve = style.case(f"This limitation does not apply to {terms.possessive(terms.supplier)} indemnification obligations, "
                       "breach of its confidentiality obligations or breach of its data protection obligations.")
    if re.search(r"\bindemnif|\bconfidential", quote, re.IGNORECASE) and re.search(r"\bexcept|\bexclud|\bnot\s+apply", quote, re.IGNORECASE):
        carve = ""  # the cap already carves something out: the figure is the ask
    spans: list[tuple[int, int, str]] = []
    multiple = next((q for q in find_multiples(quote) if fees.search(quote[q.end : q.end + 120])), None)
    times = style.case(f"{number_words(int(want))} times ({want:g}x)" if style.words and float(want).is_integer() else f"{want:g}x")
    if multiple and multiple.value < want:
        spans.append((multiple.start, multiple.end, times))
    period = re.search(r"\b(?:in|during|for)\s+the\s+(?P<dur>.{0,40}?(?:months?|years?))\s+(?:immediately\s+)?(?:preceding|prior|before)",
                       quote, re.IGNORECASE)
    if period:
        durations = find_durations(period.group("dur"))
        if durations and abs(durations[0].months - 12) > 0.5:
            d = durations[0]
            at = period.start("dur")
            spans.append((at + d.start, at + d.end, style.case(style.duration(12, "month"))))
    percent = next((q for q in find_percents(quote) if fees.search(quote[q.end : q.end + 120])), None) if not multiple else None
    if percent and percent.value / 100 < want:
        spans.append((*_percent_span(quote, percent.start, percent.end), style.case(_percent_words(quote, want * 100, style))))
    elif not multiple:
        hit = fees.search(quote)
        money = find_money(quote)
        if money and (not hit or money[0].start < hit.start()):
            m = money[0]
            spans.append((m.start, m.end, style.case(f"{times} the fees paid or payable by {terms.buyer} under this Agreement "
                                                     f"in the {style.duration(12, 'month')} preceding the event giving rise to the claim")))
        elif hit:
            spans.append((hit.start(), hit.start(), style.case(f"{times} ")))
    if not spans:
        return None
    return _replace(quote, where, spans, carve)


def _duration_target(entry: PlaybookEntry, style: Style, unit: str, key: str, default: float) -> str:
    return style.case(style.duration(_m(entry, key, default), unit))


def _notice(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    most = _m(entry, "standard_max", 30)
    buyer_right = style.case(f"{cap_first(terms.buyer)} may terminate this Agreement for convenience at any time on "
                             f"{style.duration(most, 'day')}' written notice to {terms.supplier}, without any termination fee "
                             "or penalty.")
    fee = re.search(r"\b(?:termination|cancellation|early\s+termination)\s+(?:fee|charge|payment|penalt)\w*", quote, re.IGNORECASE) \
        and not re.search(r"\bwithout\s+(?:paying\s+)?(?:any\s+)?(?:early\s+)?(?:termination\s+)?(?:fee|charge|penalty)", quote, re.IGNORECASE)
    mentions_buyer = re.search(rf"\b{re.escape(terms.buyer.removeprefix('the '))}\b|\beither\s+party|\beach\s+party", quote, re.IGNORECASE)
    long = [d for d in find_durations(quote) if d.unit in ("day", "week", "month") and d.days > most
            and re.search(r"notice|prior|advance|before", quote[d.end : d.end + 80], re.IGNORECASE)]
    no_fee = style.case(f"No termination fee, charge or penalty is payable when {terms.buyer} terminates for convenience.")
    if long and mentions_buyer:  # the buyer's right on too long a notice: the figure moved in place
        return _replace(quote, where, [(long[0].start, long[0].end, _duration_target(entry, style, "day", "standard_max", 30))],
                        no_fee if fee else "")
    if fee and mentions_buyer:
        return Redline("add", where, find=quote, text=no_fee)
    return Redline("add", where, find=quote, text=buyer_right)


def _renewal(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    spans: list[tuple[int, int, str]] = []
    max_months = _m(entry, "max_renewal_months", 12)
    for d in find_durations(quote):
        after, before = quote[d.end : d.end + 100], quote[max(0, d.start - 60) : d.start]
        if re.search(r"^\W*(?:[\w']+\W+){0,5}?(?:prior\b|before|preceding|in\s+advance)", after, re.IGNORECASE) \
                or re.search(r"^\W*(?:[\w']+\W+){0,2}?(?:notice|notification)\b", after, re.IGNORECASE):
            if d.days > _m(entry, "standard_max", 60):
                spans.append((d.start, d.end, _duration_target(entry, style, "day", "standard_max", 60)))
        elif re.search(r"\b(?:renew\w*|extend\w*|extension|successive|additional|consecutive|further)\b[^.;]{0,40}$", before, re.IGNORECASE):
            if d.months > max_months + 0.5:
                spans.append((d.start, d.end, style.case(style.duration(max_months, "month"))))
    if spans:
        return _replace(quote, where, spans)
    return Redline("add", where, find=quote, text=style.case(
        f"{cap_first(terms.buyer)} may prevent any renewal by written notice to {terms.supplier} given no more than "
        f"{style.duration(_m(entry, 'standard_max', 60), 'day')} before the end of the then-current term, and each renewal "
        f"term is no longer than {style.duration(max_months, 'month')}."))


def _payment(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    days = _m(entry, "standard_min", 60)
    withhold = "" if re.search(r"disput", quote, re.IGNORECASE) else style.case(
        f"{cap_first(terms.buyer)} may withhold any amount it disputes in good faith, with written notice of the reasons.")
    spans: list[tuple[int, int, str]] = []
    for p in find_percents(quote):
        if re.search(r"per\s+month|a\s+month|monthly", quote[p.end : p.end + 40], re.IGNORECASE) and p.value > 1:
            spans.append((*_percent_span(quote, p.start, p.end), style.case(_percent_words(quote, 1, style))))
    net = re.search(r"\bnet\s+(\d{1,3})\b", quote, re.IGNORECASE)
    if net and float(net.group(1)) < days:
        spans.append((net.start(1), net.end(1), f"{days:g}"))
    elif not net:
        for d in find_durations(quote):
            if d.unit in ("day", "week", "month") and d.days < days and not re.search(r"notice", quote[d.end : d.end + 30], re.IGNORECASE):
                spans.append((d.start, d.end, style.case(style.duration(days, "day"))))
                break
    advance = re.search(r"\b(?:in\s+advance|prior\s+to\s+(?:delivery|shipment|performance)|upon\s+(?:order|signature))\b", quote, re.IGNORECASE)
    if advance and not spans:
        spans.append((advance.start(), advance.end(), style.case(f"within {style.duration(days, 'day')} of receipt of a correct invoice")))
    if spans:
        return _replace(quote, where, spans, withhold)
    return None


def _percent_span(quote: str, start: int, end: int) -> tuple[int, int]:
    """A percentage with the figure a contract repeats in brackets: "seven per cent (7%)"."""
    bracket = re.match(r"\s*\(\s*[\d.]+\s*%\s*\)", quote[end:])
    return start, end + (bracket.end() if bracket else 0)


def _percent_words(quote: str, value: float, style: Style) -> str:
    written = "per cent" if re.search(r"\bper\s+cent\b", quote, re.IGNORECASE) else "percent"
    if style.words and float(value).is_integer() and re.search(r"[a-z]+\s+(?:per\s+cent|percent)", quote, re.IGNORECASE):
        return f"{number_words(int(value))} {written} ({value:g}%)"
    return f"{value:g}%"


def _price(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    cap = _m(entry, "standard_max", 3.0)
    pct = _percent_words(quote, cap, style)
    spans = [(*_percent_span(quote, p.start, p.end), style.case(pct)) for p in find_percents(quote) if p.value > cap]
    if spans:
        return _replace(quote, where, spans[:1])
    term = terms.called("the initial term", "Initial Term")
    return Redline("add", where, find=quote, text=style.case(
        f"Prices are fixed for {term}. Thereafter {terms.supplier} may increase them no more than once in any "
        f"{style.number(12)} month period, by no more than the lower of the change in the Consumer Price Index and "
        f"{pct}, on {style.duration(90, 'day')}' written notice to {terms.buyer}."))


def _wanted_law(entry: PlaybookEntry) -> str:
    """The playbook's governing law."""
    return (entry.metric.standard or ["New York"])[0] if entry.metric else "New York"


def _law_clause(entry: PlaybookEntry, terms: ContractTerms) -> str:
    """The playbook's governing law and forum, as a clause between this contract's parties."""
    wanted = _wanted_law(entry)
    return (f"This Agreement, and any dispute between {terms.buyer} and {terms.supplier} arising out of or in "
            f"connection with it, is governed by the laws of the State of {wanted}, and the state and federal courts "
            f"located in {wanted} have exclusive jurisdiction over any such dispute.")


def _law(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    place = extract_jurisdiction(quote)
    wanted = _wanted_law(entry)
    if not place:
        return Redline("add", where, find=quote, text=style.case(_law_clause(entry, terms)))
    spans = []
    prefix = r"(?P<the>the\s+)?(?P<kind>(?:State|Commonwealth|Province|Republic|Kingdom|Federal\s+Republic|People'?s\s+Republic)\s+of\s+)?"
    for m in re.finditer(prefix + re.escape(place), quote, re.IGNORECASE):
        laws_of = re.search(r"\blaws?\s+of\s+$", quote[max(0, m.start() - 12) : m.start()], re.IGNORECASE)
        if m.group("kind") or laws_of:
            new = f"{'the ' if m.group('the') or laws_of else ''}State of {wanted}"
        else:
            new = wanted
        spans.append((m.start(), m.end(), style.case(new)))
    return _replace(quote, where, spans)


def _insurance(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    want = _m(entry, "standard_min", 2_000_000)
    money = [q for q in find_money(quote) if q.value >= 10_000 and q.value < want]
    if money and re.search(rf"\b{re.escape(terms.supplier.removeprefix('the '))}\b|\bsupplier|\bvendor|\beach\s+party", quote, re.IGNORECASE):
        q = money[0]
        written = quote[q.start : q.end]
        lead = re.match(r"(US\s?\$|U\.S\.\s?\$|USD\s*|\$|EUR\s*|€|£|GBP\s*)", written)
        amount = f"{lead.group(1) if lead else 'USD '}{want:,.0f}"
        return _replace(quote, where, [(q.start, q.end, amount)])
    return None


def _months(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    want = _m(entry, "standard_min", 12)
    for d in find_durations(quote):
        if d.unit in ("day", "week", "month", "year") and d.months < want - 0.5 \
                and re.search(r"warrant|defect|period", quote[max(0, d.start - 150) : d.end + 150], re.IGNORECASE):
            return _replace(quote, where, [(d.start, d.end, style.case(style.duration(want, "month")))])
    return None


def _years(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    want = _m(entry, "standard_min", 3)
    for d in find_durations(quote):
        if d.months / 12 < want and re.search(r"after|following|surviv|terminat|expir", quote[max(0, d.start - 80) : d.end + 80], re.IGNORECASE):
            return _replace(quote, where, [(d.start, d.end, style.case(style.duration(want, "year")))])
    return Redline("add", where, find=quote, text=style.case(
        f"The obligations of {terms.buyer} and {terms.supplier} under this section are mutual and survive for "
        f"{style.duration(want, 'year')} after this Agreement ends."))


def _hours(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    want = _m(entry, "standard_max", 72)
    for d in find_durations(quote):
        if d.hours > want and re.search(r"notif|inform|breach|incident", quote[max(0, d.start - 150) : d.end + 80], re.IGNORECASE):
            return _replace(quote, where, [(d.start, d.end, style.case(style.duration(want, "hour")))])
    return None


# ---------------------------------------------------------------- burdens struck or answered
def _remedy(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    hit = re.search(r"\b(?:sole\s+and\s+exclusive|exclusive\s+and\s+sole|sole|exclusive)\s+remed(?:y|ies)\b", quote, re.IGNORECASE)
    if not hit:
        return None
    fix = style.case("first remedy, without prejudice to its other rights and remedies,")
    follow = style.case(f"If {terms.supplier} does not cure the failure within {style.duration(30, 'day')}, {terms.buyer} may "
                        "recover its damages, obtain a refund of the amounts paid for the affected goods or services, and "
                        "terminate this Agreement.")
    return _replace(quote, where, [(hit.start(), hit.end(), fix)], follow)


def _disclaimer(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    spans: list[tuple[int, int, str]] = []
    for m in re.finditer(r"\b(?:whether\s+)?(?:express(?:ed)?|written|oral)(?:,\s*(?:express(?:ed)?|written|oral|statutory))*,?\s+(?:or|and)\s+implied\b"
                         r"|\bimplied\s+or\s+express(?:ed)?\b|\bexpress\s+(?:and|or)\s+implied\b", quote, re.IGNORECASE):
        spans.append((m.start(), m.end(), style.case("whether implied or statutory" if m.group(0).lower().startswith("whether") else "implied")))
    keep = style.case(f"Nothing in this section limits {terms.possessive(terms.supplier)} express warranties of conformity with "
                      f"the specifications, freedom from defects and fitness for {terms.possessive(terms.buyer)} stated purpose.")
    as_is = re.search(r"[\"“]?\bas[\s-]+is\b[\"”]?(?:\s*(?:,|and)\s*[\"“]?as\s+available[\"”]?)?", quote, re.IGNORECASE)
    if as_is:
        return Redline("delete", where, find=quote[as_is.start():as_is.end()], text=keep, figure=quote[as_is.start():as_is.end()])
    express_kept = re.search(r"\bexcept\s+as\s+(?:expressly\s+)?(?:set\s+forth|provided|stated)|\ball\s+other\s+warrant", quote, re.IGNORECASE)
    if spans and not express_kept:
        return _replace(quote, where, spans, keep)
    return Redline("add", where, find=quote, text=keep)


def _waiver(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    keep = style.case(f"Nothing in this Agreement limits {terms.possessive(terms.buyer)} right to terminate this Agreement for "
                      f"{terms.possessive(terms.supplier)} material breach or insolvency, or any compensation to which "
                      f"{terms.buyer} is entitled by law on expiry, non-renewal or termination.")
    lo, hi = _sentence_around(quote, 0, 1)
    hit = re.search(r"\bwaive\w*|\brenounce\w*|\bshall\s+not\s+be\s+entitled|\bno\s+right\s+to\s+terminate", quote, re.IGNORECASE)
    if hit:
        lo, hi = _sentence_around(quote, hit.start(), hit.end())
    return Redline("delete", where, find=quote[lo:hi].strip(), text=keep, figure="")


def _restriction(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    products = terms.called("the products", "Products", "Goods", "Services")
    kind = entry.id
    if kind == "minimum_commitment":
        figure = next((quote[q.start:q.end] for q in find_money(quote)), "")
        units = re.search(r"\b[\d,]+\s*(?:\(\s*[\d,]+\s*\)\s*)?(?:units?|pieces?|tons?|cases?|kits?|devices?|machines?)\b", quote, re.IGNORECASE)
        figure = figure or (units.group(0) if units else "")
        text = (f"Forecasts given by {terms.buyer} are non-binding estimates. {cap_first(terms.buyer)} has no obligation to "
                f"purchase any minimum quantity of {products.removeprefix('the ')} and no shortfall or take-or-pay amount is payable.")
    elif kind == "exclusivity":
        figure = ""
        text = (f"{cap_first(terms.buyer)} may purchase {products} and similar goods or services from any third party. Any "
                f"exclusivity is limited to [named product line] for no more than {style.duration(12, 'month')}.")
    else:
        figure = next((quote[d.start:d.end] for d in find_durations(quote)), "")
        text = (f"During the term and for {style.duration(12, 'month')} after it, neither party shall solicit for employment any "
                "employee of the other party who was directly involved in this Agreement; general advertisements are not "
                "solicitation. Nothing in this Agreement restricts "
                f"{terms.possessive(terms.buyer)} business or its dealings with any third party.")
    lo, hi = 0, len(quote)
    hit = re.search(r"\bshall\s+not|\bwill\s+not|\bmay\s+not|\bagrees?\s+not|\bexclusive\w*|\bminimum|\bcommit\w*|\bnot\s+to\s+compete|"
                    r"\bpurchase\s+(?:at\s+least|no\s+less)", quote, re.IGNORECASE)
    if hit:
        lo, hi = _sentence_around(quote, hit.start(), hit.end())
    return Redline("delete", where, find=quote[lo:hi].strip(), text=style.case(text), figure=figure)


def _one_sentence(quote: str, pattern: str) -> str:
    hit = re.search(pattern, quote, re.IGNORECASE)
    if not hit:
        return quote
    lo, hi = _sentence_around(quote, hit.start(), hit.end())
    return quote[lo:hi].strip()


def _indemnity(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    buyer = re.escape(terms.buyer.removeprefix("the "))
    supplier_gives = style.case(_new_clause("indemnity_direction", entry, terms, style))
    if re.search(rf"\b{buyer}\b[^.;]{{0,60}}\b(?:shall|will|agrees\s+to)\s+(?:\w+\s+){{0,3}}indemnif", quote, re.IGNORECASE):
        old = _one_sentence(quote, rf"\b{buyer}\b[^.;]{{0,60}}\b(?:shall|will|agrees\s+to)\s+(?:\w+\s+){{0,3}}indemnif")
        narrowed = style.case(f"{cap_first(terms.buyer)} shall indemnify {terms.supplier} only against third-party claims to the "
                              f"extent caused by {terms.possessive(terms.buyer)} breach of this Agreement, subject to the "
                              "limitation of liability. " + supplier_gives)
        return Redline("replace", where, find=old, text=narrowed)
    if re.search(r"\bcap|\blimit|\bexceed|\bnot\s+exceed|\bmaximum", quote, re.IGNORECASE):
        return Redline("add", where, find=quote, text=style.case(
            f"{cap_first(terms.possessive(terms.supplier))} obligations under this section are not subject to any limitation "
            "or exclusion of liability in this Agreement."))
    return Redline("add", where, find=quote, text=supplier_gives)


def _assignment(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    text = style.case(_new_clause("assignment_freedom", entry, terms, style))
    supplier = re.escape(terms.supplier.removeprefix("the "))
    hit = re.search(rf"\bexcept\s+that\s+(?:the\s+)?{supplier}\b[^.;]*|\b{supplier}\b[^.;]{{0,40}}\bmay\s+(?:freely\s+)?(?:assign|subcontract|transfer)[^.;]*",
                    quote, re.IGNORECASE)
    if hit:
        return Redline("delete", where, find=hit.group(0).strip(" ,"), text=text)
    return Redline("add", where, find=quote, text=text)


def _damages(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    buyer = re.escape(terms.buyer.removeprefix("the "))
    if re.search(rf"\b{buyer}\b[^.;]{{0,80}}\b(?:shall|will|must)\s+pay\b|\bcancellation\s+(?:charge|fee)", quote, re.IGNORECASE):
        old = _one_sentence(quote, rf"\b{buyer}\b[^.;]{{0,80}}\b(?:shall|will|must)\s+pay\b|\bcancellation\s+(?:charge|fee)")
        return Redline("delete", where, find=old, text=style.case(_new_clause("damages_direction", entry, terms, style)))
    hit = re.search(r"\b(?:sole\s+and\s+exclusive|exclusive|sole)\s+(?:remed(?:y|ies)|compensation)\b", quote, re.IGNORECASE)
    if hit:
        return _replace(quote, where, [(hit.start(), hit.end(), style.case(
            "remedy, without prejudice to its other rights and remedies,"))])
    return Redline("add", where, find=quote, text=style.case(
        f"Service credits and liquidated damages are without prejudice to {terms.possessive(terms.buyer)} other rights and remedies."))


def _audit(quote: str, entry: PlaybookEntry, terms: ContractTerms, style: Style, where: str) -> Redline | None:
    return Redline("add", where, find=quote, text=style.case(_new_clause("audit_scope", entry, terms, style)))


_BUILDERS = {
    "cap_multiple": _cap, "notice_days": _notice, "renewal_notice_days": _renewal, "payment_days": _payment,
    "price_increase_pct": _price, "jurisdiction": _law, "insurance_amount": _insurance, "warranty_months": _months,
    "survival_years": _years, "breach_notice_hours": _hours, "exclusive_remedy": _remedy, "disclaimer_scope": _disclaimer,
    "termination_waiver": _waiver, "restriction_on_buyer": _restriction, "indemnity_direction": _indemnity,
    "assignment_freedom": _assignment, "damages_direction": _damages, "audit_scope": _audit,
}


# ---------------------------------------------------------------- new clauses (nothing to amend)
def _new_clause(metric: str, entry: PlaybookEntry, terms: ContractTerms, style: Style) -> str:
    """The playbook's standard as contract wording in this contract's defined terms."""
    b, s = terms.buyer, terms.supplier
    B, S = cap_first(b), cap_first(s)
    n = style.number
    products = terms.called("the goods and services", "Products", "Goods", "Services", "Deliverables")
    clauses: dict[str, Callable[[], str]] = {
        "cap_multiple": lambda: f"Except for indemnification obligations, breach of confidentiality and breach of data protection "
                        f"obligations, each party's aggregate liability arising out of or relating to this Agreement shall not "
                        f"exceed {number_words(int(_m(entry, 'standard_min', 2)))} times ({_m(entry, 'standard_min', 2):g}x) the "
                        f"fees paid or payable by {b} under this Agreement in the {style.duration(12, 'month')} preceding the "
                        "event giving rise to the claim.",
        "indemnity_direction": lambda: f"{S} shall defend, indemnify and hold harmless {b} and its officers, employees and affiliates "
                               "from and against all third-party claims, losses and expenses arising from (a) any alleged "
                               f"infringement of intellectual property rights by {products}, (b) bodily injury or death, or "
                               f"(c) damage to tangible property, in each case caused by {products} or by {terms.possessive(s)} "
                               "negligence or wilful misconduct. This indemnity is not subject to any limitation of liability "
                               "in this Agreement.",
        "notice_days": lambda: f"{B} may terminate this Agreement for convenience at any time on "
                       f"{style.duration(_m(entry, 'standard_max', 30), 'day')}' written notice to {s}, without any "
                       "termination fee or penalty.",
        "renewal_notice_days": lambda: f"This Agreement does not renew automatically; any renewal term is agreed in writing and "
                               f"lasts no longer than {style.duration(_m(entry, 'max_renewal_months', 12), 'month')}.",
        "payment_days": lambda: f"{B} shall pay each undisputed invoice within {style.duration(_m(entry, 'standard_min', 60), 'day')} "
                        f"of receipt and may withhold any amount it disputes in good faith, giving {s} written notice of "
                        "the reasons.",
        "price_increase_pct": lambda: f"Prices are fixed for {terms.called('the initial term', 'Initial Term')}. Thereafter {s} may "
                              f"increase them no more than once in any {style.number(12)}-month period, by no more than "
                              f"the lower of the change in the Consumer Price Index and {n(_m(entry, 'standard_max', 3))} "
                              f"percent, on {style.duration(90, 'day')}' written notice to {b}.",
        "jurisdiction": lambda: _law_clause(entry, terms),
        "assignment_freedom": lambda: f"{S} shall not assign this Agreement or subcontract any of its obligations without "
                              f"{terms.possessive(b)} prior written consent. {B} may assign this Agreement to an affiliate "
                              f"or to a successor to its business without consent. {B} may terminate this Agreement on "
                              f"written notice if {s} undergoes a change of control.",
        "insurance_amount": lambda: f"{S} shall maintain commercial general liability insurance of at least USD "
                            f"{_m(entry, 'standard_min', 2_000_000):,.0f} per occurrence throughout the term and shall provide "
                            f"{b} with certificates of that insurance on request.",
        "audit_scope": lambda: f"{B} may, once in any {style.number(12)}-month period and on {style.duration(30, 'day')}' "
                       f"written notice, audit {terms.possessive(s)} records relating to this Agreement, itself or through "
                       "an independent auditor.",
        "restriction_on_buyer": lambda: f"Nothing in this Agreement obliges {b} to purchase exclusively from {s}, to purchase any "
                                "minimum quantity, or restricts its business.",
        "warranty_months": lambda: f"{S} warrants that {products} will conform to the specifications and be free from defects in "
                           f"materials and workmanship for {style.duration(_m(entry, 'standard_min', 12), 'month')} from "
                           "acceptance.",
        "damages_direction": lambda: f"If {s} misses a delivery date or service level, {s} shall pay or credit the liquidated damages "
                             f"or service credits set out in [schedule], without prejudice to {terms.possessive(b)} other "
                             f"rights and remedies. {B} owes no cancellation charge or other liquidated damages.",
        "survival_years": lambda: f"{B} and {s} shall each keep the other's confidential information confidential and use it only "
                          "to perform this Agreement; these obligations survive for "
                          f"{style.duration(_m(entry, 'standard_min', 3), 'year')} after this Agreement ends.",
        "breach_notice_hours": lambda: f"{S} shall process personal data only on {terms.possessive(b)} documented instructions, keep "
                               "it secure with appropriate technical and organisational measures, and notify "
                               f"{b} of any personal data breach without undue delay and in any event within "
                               f"{style.duration(_m(entry, 'standard_max', 72), 'hour')} of becoming aware of it.",
        "exclusive_remedy": lambda: f"{terms.possessive(B)} rights and remedies under this Agreement are cumulative. Repair or "
                            f"replacement is a first remedy only; if it does not cure the failure within "
                            f"{style.duration(30, 'day')}, {b} may recover its damages, obtain a refund and terminate "
                            "this Agreement.",
        "disclaimer_scope": lambda: f"{S} does not disclaim its express warranties of conformity with the specifications, freedom "
                            f"from defects and fitness for {terms.possessive(b)} stated purpose.",
        "termination_waiver": lambda: f"Nothing in this Agreement limits {terms.possessive(b)} right to terminate this Agreement for "
                              f"{terms.possessive(s)} material breach or insolvency, or any compensation to which {b} is "
                              "entitled by law on expiry, non-renewal or termination.",
    }
    made = clauses.get(metric)
    return made() if made else f"{cap_first(entry.standard.rstrip('.'))} ({B} is the buyer; {S} is the supplier)."
