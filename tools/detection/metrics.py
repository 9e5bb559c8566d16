"""Numeric playbook metrics: read the value a clause sets (cap multiple, notice days, renewal
term, payment days, price increase, jurisdiction, insurance amount, warranty months, survival
years, breach-notice hours) and rank it standard, fallback or deviation.

Each judge takes the playbook `Metric` (thresholds) and the clause text and returns a
`Judgement` with a one-line rationale naming the value it read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tools.detection.detector import ABOVE_AGREED, COST_PLUS, EXTRA_FEES
from tools.detection.numbers import (
    LazyPattern,
    find_durations,
    find_money,
    find_multiples,
    find_percents,
)
from tools.detection.parties import actor_before
from tools.playbook import Metric

Level = Literal["standard", "fallback", "deviation"]


@dataclass(frozen=True)
class Judgement:
    level: Level
    rationale: str
    value: float | str | None = None


def _rx(p: str) -> LazyPattern:
    return LazyPattern(p, re.IGNORECASE)


def _n(value: float | None) -> str:
    """A figure as a lawyer reads it: 2, 0.5, 1,000,000 (never 1e+06)."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if abs(value) >= 10_000 else f"{value:g}"


def _at_least(value: float, m: Metric, what: str) -> Judgement:
    if m.standard_min is not None and value >= m.standard_min:
        return Judgement("standard", f"{what} {_n(value)} meets the standard (>= {_n(m.standard_min)})", value)
    if m.fallback_min is not None and value >= m.fallback_min:
        return Judgement("fallback", f"{what} {_n(value)} is below the standard {_n(m.standard_min)} but meets the fallback (>= {_n(m.fallback_min)})", value)
    return Judgement("deviation", f"{what} {_n(value)} is below the fallback minimum {_n(m.fallback_min)}", value)


def _at_most(value: float, m: Metric, what: str) -> Judgement:
    if m.standard_max is not None and value <= m.standard_max:
        return Judgement("standard", f"{what} {_n(value)} meets the standard (<= {_n(m.standard_max)})", value)
    if m.fallback_max is not None and value <= m.fallback_max:
        return Judgement("fallback", f"{what} {_n(value)} exceeds the standard {_n(m.standard_max)} but meets the fallback (<= {_n(m.fallback_max)})", value)
    return Judgement("deviation", f"{what} {_n(value)} exceeds the fallback maximum {_n(m.fallback_max)}", value)


# ---------------------------------------------------------------- liability cap
_FEES = _rx(r"\b(?:fees?|charges?|amounts?|prices?|sums?|consideration|compensation|contract\s+(?:value|price))\b.{0,40}?\b(?:paid|payable|received|invoiced)|\b(?:fees?|charges?)\b")
_PERIOD = _rx(r"\b(?:in|during|for)\s+the\s+(?P<dur>.{0,40}?(?:months?|years?))\s+(?:immediately\s+)?(?:preceding|prior|before)")
# the fee the multiple counts, when it is a periodic one: "24 times the monthly fee", "three times the Monthly Charges"
_FEE_PERIOD = _rx(r"^\W*(?:the\s+|its\s+|such\s+)?(?:then[\s-]current\s+|average\s+|applicable\s+|total\s+)?(?P<per>monthly|quarterly|annual|yearly|weekly)\s+"
                  r"(?:service\s+|subscription\s+|licen[cs]e\s+|hosting\s+|support\s+|maintenance\s+)?(?:fees?|charges?|payments?|amounts?)")
# a cap at the value of what went wrong: "limited to the price of the affected delivery", "the amount paid for the
# defective Products", "the fees for the relevant Order"
_PER_ITEM = _rx(r"\b(?:exceed|limited\s+to|capped\s+at|not\s+more\s+than|in\s+excess\s+of|maximum\s+of)\b[^.;]{0,40}?\b(?:price|value|cost|fees?|charges?|amount|sum)s?\s+"
                r"(?:actually\s+)?(?:paid\s+|payable\s+|invoiced\s+)?(?:by\s+\w+\s+)?(?:of|for|under)\s+(?:the|such|that|any)\s+(?:affected|relevant|defective|particular|specific|applicable|individual|"
                r"non-?conforming|faulty)\s+(?:delivery|deliveries|goods|products?|order|purchase\s+order|shipment|units?|services?|consignment|batch|work)")
_PER_MONTHS = {"weekly": 7 / 30, "monthly": 1.0, "quarterly": 3.0, "annual": 12.0, "yearly": 12.0}
# liability kept only for the worst fault: "shall be liable only for its gross negligence", "shall not be liable
# for any loss unless caused by its wilful misconduct" (not a carve-out from a cap or from indirect damages)
_GROSS = r"(?:gross(?:ly)?\s+neglig\w*|wil(?:l)?ful\s+(?:misconduct|default)|intentional\s+misconduct|fraud\w*|bad\s+faith)"
_ONLY_GROSS = _rx(rf"\b(?:liable|liability|responsible)\b[^.;]{{0,60}}?\b(?:only|solely|exclusively)\b[^.;]{{0,80}}?\b{_GROSS}"
                  rf"|\b(?:liable|liability|responsib\w+)\b[^.;]{{0,40}}?\b(?:is|are|shall\s+be)\s+(?:limited|restricted|confined)\s+to\s+(?:cases|instances|events)\s+of\s+{_GROSS}"
                  rf"|\b(?:not|no)\s+(?:be\s+)?(?:liable|liability|responsible)\b(?![^.;]{{0,120}}?\b(?:indirect|incidental|consequential|special|punitive|exemplary|lost\s+profits?)\b)"
                  rf"[^.;]{{0,120}}?\b(?:unless|save\s+(?:where|to\s+the\s+extent)|except\s+(?:where|to\s+the\s+extent|(?:in\s+(?:the\s+)?(?:case|event)\s+of|for)))\s+(?:\w+\s+){{0,5}}?{_GROSS}")


def cap_multiple(m: Metric, text: str) -> Judgement:
    judged = _cap_multiple(m, text)
    if _ONLY_GROSS.search(text):
        figure = f"; {judged.rationale}" if judged.value is not None else ""
        return Judgement("deviation", "the supplier is liable only for gross negligence or wilful misconduct, not for ordinary "
                         f"negligence or breach{figure}", judged.value)
    return judged


def _cap_multiple(m: Metric, text: str) -> Judgement:
    multiple: float | None = None
    per: str | None = None
    for q in find_multiples(text):
        if _FEES.search(text[q.end : q.end + 120]):
            multiple = q.value
            fee = _FEE_PERIOD.search(text[q.end : q.end + 80])
            per = fee.group("per").lower() if fee else None
            break
    if multiple is None:
        for q in find_percents(text):
            if _FEES.search(text[q.end : q.end + 120]):
                multiple = q.value / 100
                break
    if multiple is None and _rx(r"\b(?:liab\w*|exceed)\b.{0,150}?\b(?:the\s+)?(?:total|aggregate|amount\s+of\s+(?:the\s+)?)?\s*(?:fees|charges|amounts?|prices?)\b.{0,60}?\b(?:paid|payable|received)").search(text):
        multiple = 1.0
    if multiple is None and _PER_ITEM.search(text):
        return Judgement("deviation", "the cap is the price of the affected delivery or order, not a multiple of the annual fees", None)
    if multiple is None:
        money = find_money(text)
        if money and _rx(r"\bexceed|\blimited\s+to|\bcapped").search(text):
            return Judgement("deviation", f"the cap is a fixed amount (USD {money[0].value:,.0f}), not a multiple of the fees", money[0].value)
        if _rx(r"\bunlimited|not\s+(?:be\s+)?(?:subject\s+to\s+any\s+)?(?:cap|limit)").search(text):
            return Judgement("standard", "liability is not capped below the fees", None)
        return Judgement("fallback", "a limitation of liability without a readable cap amount; check it by hand", None)
    if per is not None and per not in ("annual", "yearly"):
        months = _PER_MONTHS[per]
        return _at_least(round(multiple * months / 12, 3), m, f"cap of {multiple:g}x the {per} fee, i.e. annual-fee multiple")
    period = _PERIOD.search(text)
    if period:
        durations = find_durations(period.group("dur"))
        if durations and durations[0].months and abs(durations[0].months - 12) > 0.5:
            months = durations[0].months
            annual = multiple * months / 12
            return _at_least(round(annual, 3), m, f"cap of {multiple:g}x the fees of {months:g} months, i.e. annual-fee multiple")
    return _at_least(multiple, m, "cap multiple of fees")


# ---------------------------------------------------------------- termination for convenience
_MAY_TERMINATE = _rx(r"\b(?:may|(?:shall\s+)?(?:have|has)\s+the\s+right\s+to|is\s+entitled\s+to|can|option\s+to)\s+(?:\w+\s+){0,3}?(?:terminat|cancel)\w*")
_TERMINATION_FEE = _rx(r"\b(?:termination|cancellation|early\s+termination)\s+(?:fee|charge|payment|penalty)|\bshall\s+pay\b.{0,80}?\b(?:remaining|balance|fee)")
_NO_FEE = _rx(r"\b(?:no|without(?:\s+paying)?(?:\s+any)?)\s+(?:early\s+)?(?:termination|cancellation)\s+(?:fee|charge|penalty)|\bwithout\s+(?:any\s+)?(?:penalty|liability|payment\s+of\s+any)")
_CONVENIENCE = _rx(r"\bconvenience|\bwithout\s+cause|\bfor\s+any\s+(?:or\s+no\s+)?reason|\bfor\s+no\s+reason|\bnon-?cause|\bdiscretion")


def notice_days(m: Metric, text: str) -> Judgement:
    wanted = m.party or "buyer"
    focused = [s for s in re.split(r"(?<=[.;])\s+", text) if _CONVENIENCE.search(s) and _MAY_TERMINATE.search(s)]
    if focused:
        text = " ".join(focused)
    holders: set[str] = set()
    for hit in _MAY_TERMINATE.finditer(text):
        who = actor_before(text, hit.start(), 60)
        if who:
            holders.add(who)
    if holders and wanted not in holders and "both" not in holders:
        return Judgement("deviation", f"only the {'supplier' if wanted == 'buyer' else 'buyer'} may terminate for convenience", None)
    if _TERMINATION_FEE.search(text) and not _NO_FEE.search(text):
        return Judgement("deviation", f"the {wanted} must pay a termination fee to terminate for convenience", None)
    durations = [d for d in find_durations(text) if _rx(r"notice|prior|advance|before").search(text[d.end : d.end + 60])]
    if not durations:
        durations = find_durations(text)
    if not durations:
        return Judgement("standard", "termination for convenience on notice with no minimum period", 0.0)
    days = max(d.days for d in durations)
    return _at_most(round(days), m, "notice period (days)")


# ---------------------------------------------------------------- renewal
_NOTICE_CUE = _rx(r"^\W*(?:[\w']+\W+){0,5}?(?:prior\b|before|preceding|in\s+advance|following\s+the\s+renewal\s+notice)")
_RENEW_CUE = _rx(r"\b(?:renew\w*|extend\w*|extension|successive|additional|consecutive|further|subsequent)\b[^.;]{0,40}$")
_NOTICE_WORDS = _rx(r"^\W*(?:[\w']+\W+){0,2}?(?:notice|notification)\b")
_AUTO = _rx(r"\b(?:automatic(?:ally)?|auto-?)\s*(?:renew|extend|be\s+renewed|be\s+extended|renewal|extension)|\bunless\b.{0,120}?\b(?:notice|notif|notify)|\bevergreen\b|\bshall\s+(?:be\s+)?(?:renew|extend)\w*\s+for\b")


def extract_renewal(text: str) -> tuple[float | None, float | None]:
    """(non-renewal notice in days, renewal term in months) read from renewal language."""
    notice: float | None = None
    term: float | None = None
    for d in find_durations(text):
        after = text[d.end : d.end + 100]
        before = text[max(0, d.start - 60) : d.start]
        if _NOTICE_CUE.search(after) and notice is None:
            notice = d.days
        elif _RENEW_CUE.search(before) and term is None:
            term = d.months
        elif term is None and _rx(r"^\s*(?:each|periods?|terms?|increments?|renewal)").search(after) and _rx(r"renew|extend|extension").search(text):
            term = d.months
    if notice is None:
        # no "prior to the end" cue: "... unless terminated upon thirty (30) days' written notice"
        for d in find_durations(text):
            if _NOTICE_WORDS.search(text[d.end : d.end + 40]):
                notice = d.days
                break
    if term is None and _rx(r"renew|extend|extension|continue").search(text):
        # periods named by a word rather than a number: "renew automatically each year", "monthly periods"
        if _rx(r"\b(?:each|every|per)\s+(?:calendar\s+|contract\s+)?year\b|\bannual(?:ly)?\b|\byearly\b|\byear[\s-]to[\s-]year\b").search(text):
            term = 12.0
        elif _rx(r"\b(?:each|every|per)\s+month\b|\bmonthly\b|\bmonth[\s-]to[\s-]month\b").search(text):
            term = 1.0
    return notice, term


def renewal_notice_days(m: Metric, text: str) -> Judgement:
    notice, term = extract_renewal(text)
    if not _AUTO.search(text):
        return Judgement("standard", "no automatic renewal: renewal needs a decision", None)
    max_months = m.max_renewal_months or 12
    if term is not None and term > max_months + 0.5:
        return Judgement("deviation", f"automatic renewal periods of {term:g} months exceed {max_months:g} months", term)
    if notice is None:
        return Judgement("fallback", "automatic renewal with no readable non-renewal notice period; check it by hand", None)
    judged = _at_most(round(notice), m, "non-renewal notice (days)")
    if term is not None:
        return Judgement(judged.level, f"{judged.rationale}; renewal periods of {term:g} months", notice)
    return judged


# ---------------------------------------------------------------- payment
# payment before the goods or the work: "in advance", "a prepayment of $1,900", "a down payment of 40%", "payable upon signing",
# "a deposit of $2,000 and the remaining $6,000 on completion"
_ADVANCE = (r"\b(?:in\s+advance|prior\s+to\s+(?:delivery|shipment|performance)|(?:up)?on\s+(?:the\s+)?(?:order|signature|signing|execution)"
            r"|pre-?payments?|prepa(?:y|id)|down[\s-]payments?|advance\s+payments?|up-?front\s+payments?"
            r"|deposits?(?=.{0,120}?\b(?:balance|remaining|remainder|rest)\b))\b")
# nothing to pay for what is supplied: "will be provided at no charge", "supplied free of charge"
_NO_CHARGE = r"\b(?:at\s+no\s+(?:additional\s+)?(?:charge|cost|fee)|free\s+of\s+(?:any\s+)?(?:charge|cost)|without\s+(?:any\s+)?(?:charge|fee))\b"


def payment_days(m: Metric, text: str) -> Judgement:
    if _rx(_ADVANCE).search(text) and _rx(r"\bpa(?:y|id|yable|yment)").search(text):
        return Judgement("deviation", "payment is due in advance", 0.0)
    if _rx(_NO_CHARGE).search(text) and not find_durations(text) and not _rx(r"\bnet\s+\d").search(text):
        return Judgement("standard", "nothing is payable: provided at no charge", None)
    for p in find_percents(text):
        around = text[p.end : p.end + 40]
        if _rx(r"per\s+month|a\s+month|monthly").search(around) and p.value > 1:
            return Judgement("deviation", f"late-payment interest of {p.value:g}% per month exceeds 1%", p.value)
    net = re.search(r"\bnet\s+(\d{1,3})\b", text, re.IGNORECASE)
    durations = [d for d in find_durations(text) if d.unit in ("day", "week", "month")]
    if net:
        days = float(net.group(1))
    elif durations:
        days = durations[0].days
    else:
        return Judgement("fallback", "payment terms without a readable number of days; check them by hand", None)
    return _at_least(round(days), m, "payment term (days)")


# ---------------------------------------------------------------- price changes
def price_increase_pct(m: Metric, text: str) -> Judgement:
    discretion = _rx(r"\b(?:sole|absolute)\s+discretion|\bfrom\s+time\s+to\s+time\b|\bat\s+any\s+time\b|\bthen[\s-]current\s+(?:list\s+)?prices?|\bprevailing\s+(?:rates|prices)")
    increase = _rx(r"\bincreas\w*|\braise|\badjust\w*|\brevis\w*|\bchang\w*|\bvary\b|\bmodif\w*")
    pcts = [p.value for p in find_percents(text) if increase.search(text[max(0, p.start - 200) : p.end + 60])]
    cpi = _rx(r"\b(?:CPI|consumer\s+price\s+index)\b").search(text)
    if pcts:
        value = min(pcts) if _rx(r"\blower\s+of|\blesser\s+of").search(text) else max(pcts)
        return _at_most(value, m, "annual price increase (%)")
    if cpi:
        return Judgement("standard", "increases limited to the change in CPI", None)
    if discretion.search(text) and increase.search(text):
        return Judgement("deviation", "the supplier may change prices at its discretion", None)
    # a right of the buyer to charge the supplier more ("Buyer may charge Seller additional handling fees") is no price change
    above = next((h for h in _rx(ABOVE_AGREED).finditer(text) if actor_before(text, h.start(), 80, skip_possessive=True) != "buyer"), None)
    extra = next((h for h in _rx(EXTRA_FEES).finditer(text) if actor_before(text, h.start() + 1, 60) != "buyer"), None)
    if above:
        if _rx(r"\blimitations?\b|\blimit(?:s|ed)?\b|\b(?:prior\s+)?(?:written\s+)?(?:approval|authori[sz]ation|consent)\b").search(text):
            return Judgement("fallback", "the supplier may pass on prices above those agreed, within stated limits or with the buyer's approval", None)
        return Judgement("deviation", "the supplier may charge prices above those agreed, without a stated limit", None)
    if extra:
        return Judgement("deviation", "the supplier may charge additional fees at its discretion", None)
    if _rx(COST_PLUS).search(text):
        return Judgement("deviation", "the price follows the supplier's own costs (cost plus a margin), with no cap or notice", None)
    if _rx(r"\b(?:fixed|firm)\b").search(text) or _rx(r"\bmost[\s-]favou?red|no\s+less\s+favou?rable").search(text):
        return Judgement("standard", "prices are fixed or most-favoured-customer pricing applies", None)
    if increase.search(text):
        return Judgement("deviation", "price increases without a stated limit", None)
    return Judgement("standard", "no price-increase right for the supplier", None)


# ---------------------------------------------------------------- governing law
_LAW_OF = _rx(r"\blaws?(?:,[^,]{0,60},)?\s+(?:of|in)\s+(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic|Kingdom|Federal\s+Republic|People'?s\s+Republic)\s+of\s+)?(?P<place>[A-Z][A-Za-z.]*(?:\s+(?:and\s+)?[A-Z][A-Za-z.]*){0,3})")
_STOP_WORDS = {"usa", "u.s.a", "united states", "without", "excluding", "applicable", "and", "the", "that", "this", "such", "said"}
# fallbacks: "... and the State of Florida", "in accordance with Ohio law"
_STATE_OF = re.compile(r"\b(?:State|STATE|state|Commonwealth|COMMONWEALTH|Province|PROVINCE)\s+of\s+(?P<place>[A-Z][A-Za-z.]*(?:\s+[A-Z][A-Za-z.]*){0,2})")
_NAMED_LAW = re.compile(r"\b(?:with|by|under)\s+(?:the\s+)?(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+law\b")


def extract_jurisdiction(text: str) -> str | None:
    for m in _LAW_OF.finditer(text):
        place = m.group("place")
        # the pattern is case-insensitive: keep only capitalised words of the name
        words = []
        for word in place.split():
            if word[0].isupper() or word == "and":
                words.append(word)
            else:
                break
        while words and words[-1] in ("and", "And"):
            words.pop()
        name = " ".join(words).rstrip(".,")
        if name and name.lower() not in _STOP_WORDS and not name.lower().startswith(("any ", "such ")):
            if name.lower() in ("united states of america", "united states"):
                continue
            return name
    for pattern in (_STATE_OF, _NAMED_LAW):
        m = pattern.search(text)
        if m and m.group("place").lower() not in _STOP_WORDS:
            return m.group("place").rstrip(".,")
    return None


def jurisdiction(m: Metric, text: str) -> Judgement:
    place = extract_jurisdiction(text)
    if place is None:
        return Judgement("deviation", "no readable governing-law jurisdiction", None)
    lowered = place.lower()

    def listed(names: list[str] | None) -> bool:
        return any(lowered == n.lower() or lowered.startswith(n.lower()) for n in names or [])

    if listed(m.standard):
        return Judgement("standard", f"governed by the laws of {place}", place)
    if listed(m.fallback):
        return Judgement("fallback", f"governed by the laws of {place}, an acceptable fallback", place)
    return Judgement("deviation", f"governed by the laws of {place}, outside the playbook's jurisdictions", place)


# ---------------------------------------------------------------- insurance
def insurance_amount(m: Metric, text: str) -> Judgement:
    amounts = [q.value for q in find_money(text) if q.value >= 10_000]
    holder = None
    for hit in _rx(r"\b(?:maintain|carry|procure|obtain|keep)\w*\b").finditer(text):
        holder = actor_before(text, hit.start(), 80)
        if holder:
            break
    if holder == "buyer":
        return Judgement("deviation", "the insurance obligation falls on the buyer, not the supplier", None)
    if not amounts:
        return Judgement("fallback", "an insurance obligation without a readable amount; check it by hand", None)
    occurrence = [q.value for q in find_money(text) if _rx(r"^.{0,30}?(?:per|each)\s+(?:occurrence|claim|event)").search(text[q.end : q.end + 40])]
    value = max(occurrence) if occurrence else max(amounts)
    return _at_least(value, m, "insurance cover (USD)")


# ---------------------------------------------------------------- warranty
# a period whose figure the filing blanked out: "for [***] months", "a warranty period of [Redacted]"
_REDACTED_PERIOD = _rx(r"(?:\[[^\]\n]{0,80}\]|\*{3,}|X{3,})\s*(?:\(\s*(?:\[[^\]]{0,12}\]|\*+)\s*\)\s*)?(?:business\s+|calendar\s+)?(?:days?|weeks?|months?|years?)\b"
                       r"|\b(?:warranty\s+period|period|term)\s+(?:of\s+)?(?:\[[^\]\n]{0,80}\]|\*{3,})")


def warranty_months(m: Metric, text: str) -> Judgement:
    if _rx(r"\bas[\s-]+is\b").search(text) or _rx(r"\bdisclaim\w*\s+(?:all|any)\b.{0,60}?\bwarrant").search(text) and not find_durations(text):
        return Judgement("deviation", "provided \"as is\" with warranties disclaimed", 0.0)
    durations = [d for d in find_durations(text) if d.unit in ("day", "week", "month", "year")]
    near = [d for d in durations if _rx(r"warrant|defect|period").search(text[max(0, d.start - 150) : d.end + 150])]
    if not near:
        if not durations and not _REDACTED_PERIOD.search(text):
            # the period is not stated at all (not one the filing blanked out): that is the reading
            return Judgement("fallback", "no warranty period is stated (the contract sets none, so the law's limitation "
                                         "period governs); check it by hand", None)
        return Judgement("fallback", "a warranty without a readable duration; check it by hand", None)
    months = near[0].months
    return _at_least(round(months, 1), m, "warranty period (months)")


# ---------------------------------------------------------------- confidentiality survival
def survival_years(m: Metric, text: str) -> Judgement:
    one_way = not _rx(r"\b(?:each|either|both|neither)\s+part(?:y|ies)\b|\bmutual\b|\breceiving\s+party\b|\bthe\s+parties\b|\bRecipient\b").search(text)
    protects = actor_before(text, len(text), 10_000)
    if one_way and _rx(r"\b(?:buyer|customer|company|purchaser|client)\b\s+(?:shall|will|agrees)").search(text) and not _rx(r"\b(?:supplier|vendor|provider|contractor)\b\s+(?:shall|will|agrees)\b.{0,60}?\bconfiden").search(text):
        return Judgement("deviation", "one-way confidentiality binding only the buyer", protects)
    years = [d.months / 12 for d in find_durations(text) if _rx(r"after|following|surviv|terminat|expir").search(text[max(0, d.start - 80) : d.end + 80])]
    if _rx(r"\bin\s+perpetuity\b|\bindefinitely\b|\bperpetual\b").search(text) and not years:
        return Judgement("standard", "confidentiality survives indefinitely", None)
    if not years:
        return Judgement("fallback", "confidentiality without a readable survival period; check it by hand", None)
    return _at_least(round(max(years), 2), m, "survival after termination (years)")


# ---------------------------------------------------------------- data breach notice
def breach_notice_hours(m: Metric, text: str) -> Judgement:
    # (a use "for any purpose other than the Services", or one denied, "in no case may ... use ... for any purpose", is a limit)
    if _rx(r"\bfor\s+(?:its|their)\s+own\s+(?:purposes|benefit|account)|\bany\s+purpose\b(?!\s+(?:other\s+than|except|save|not\s+(?:expressly\s+)?(?:permitted|authori[sz]ed)))").search(text) \
            and not _rx(r"\bnot\s+(?:\w+\s+){0,4}(?:for\s+its\s+own|for\s+any\s+other)|\b(?:in\s+no\s+(?:case|event)|never)\s+(?:may|shall|will)\b").search(text):
        return Judgement("deviation", "the supplier may use the buyer's data for its own purposes", None)
    hours = [d.hours for d in find_durations(text) if _rx(r"notif|inform|breach|incident").search(text[max(0, d.start - 150) : d.end + 80])]
    if not hours:
        if _rx(r"\bnotif\w*|\binform\b").search(text) and _rx(r"\bbreach|\bincident").search(text):
            return Judgement("fallback", "a breach-notification duty without a stated deadline", None)
        return Judgement("deviation", "no personal-data breach notification deadline", None)
    return _at_most(round(min(hours)), m, "breach notification (hours)")
