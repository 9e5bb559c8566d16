"""Numbers as contracts write them: "thirty (30) days", "two times", "200%", "$1,000,000".

Each finder returns `Quantity` values with the span of the matched words, so callers can
relate a number to the words around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


class LazyPattern:
    """A regular expression compiled when first used. Detection's patterns embed NUMBER and
    take milliseconds each to compile: a process that imports the tools without scoring a clause
    (`--help`, memory commands, a review before its first model call) should not pay for them."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags, self._compiled = source, flags, None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def __getattr__(self, name: str) -> Any:  # search, finditer, sub, pattern ...: the compiled pattern's
        return getattr(self.compiled(), name)

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "a": 1, "an": 1, "a single": 1,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD = r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# the figure in brackets may be quoted: ninety ("90") days
NUMBER = rf"(?:{_DIGITS}|{_WORD}(?:(?:\s+and\s+|[\s-]+){_WORD})*)(?:\s*\(\s*[\"“”']?(?:{_DIGITS})[\"“”']?\s*\))?"
_NUMBER_RE = re.compile(NUMBER, re.IGNORECASE)

_DURATION_RE = LazyPattern(
    rf"\b(?P<num>{NUMBER}|an?)(?:\s*-\s*|\s+)(?:\(\s*\d+\s*\)\s*)?(?:(?:business|calendar|consecutive|full|working)\s+)?"
    r"(?P<unit>hours?|days?|weeks?|months?|years?|yrs?)\b",
    re.IGNORECASE,
)
_PERCENT_RE = LazyPattern(rf"\b(?P<num>{NUMBER})\s*(?:%|percent\b|per\s+cent\b)", re.IGNORECASE)
_MONEY_RE = LazyPattern(
    rf"(?:(?:US\s?\$|U\.S\.\s?\$|USD|US\s+dollars|\$|EUR|€|£|GBP)\s*(?P<num1>{_DIGITS})(?:\s*(?P<scale1>million|thousand|billion|m\b|k\b))?"
    rf"|\b(?P<num2>{NUMBER})\s*(?P<scale2>million|thousand|billion)?\s+(?:U\.S\.\s+|US\s+|United\s+States\s+)?dollars\b)",
    re.IGNORECASE,
)
_MULTIPLE_RE = LazyPattern(
    rf"\b(?:(?P<num>{NUMBER})\s*(?:times|x)\b|(?P<word>twice|double|triple)\b|(?P<fold>{NUMBER})[\s-]*fold\b)",
    re.IGNORECASE,
)

_DAYS_PER = {"hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}
_MONTHS_PER = {"hour": 1 / 720, "day": 1 / 30, "week": 7 / 30, "month": 1, "year": 12}


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # "day", "month", ... for durations; "%", "USD", "x" otherwise
    start: int
    end: int

    @property
    def days(self) -> float:
        return self.value * _DAYS_PER.get(self.unit, 1)

    @property
    def months(self) -> float:
        return self.value * _MONTHS_PER.get(self.unit, 1)

    @property
    def hours(self) -> float:
        return self.days * 24


def parse_number(text: str) -> float | None:
    """The value of "thirty (30)", "one hundred and eighty", "1,000,000", "2.5"; None if none."""
    text = text.strip().lower()
    paren = re.search(r"\(\s*[\"“”']?([\d,]+(?:\.\d+)?)[\"“”']?\s*\)", text)
    if paren:
        return float(paren.group(1).replace(",", ""))
    if re.fullmatch(_DIGITS, text):
        return float(text.replace(",", ""))
    if text in _UNITS:
        return float(_UNITS[text])
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", text):
        if word == "and" or not word:
            continue
        if word in _UNITS:
            current += _UNITS[word]
            seen = True
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
            seen = True
        else:
            return None
    return float(total + current) if seen else None


def _unit(raw: str) -> str:
    raw = raw.lower().rstrip("s")
    return {"yr": "year"}.get(raw, raw)


def find_durations(text: str) -> list[Quantity]:
    found = []
    for m in _DURATION_RE.finditer(text):
        value = parse_number(m.group("num"))
        if value is not None:
            found.append(Quantity(value, _unit(m.group("unit")), m.start(), m.end()))
    return found


def find_percents(text: str) -> list[Quantity]:
    found = []
    for m in _PERCENT_RE.finditer(text):
        value = parse_number(m.group("num"))
        if value is not None:
            found.append(Quantity(value, "%", m.start(), m.end()))
    return found


def find_money(text: str) -> list[Quantity]:
    scales = {"million": 1e6, "m": 1e6, "thousand": 1e3, "k": 1e3, "billion": 1e9}
    found = []
    for m in _MONEY_RE.finditer(text):
        raw = m.group("num1") or m.group("num2")
        value = parse_number(raw) if raw else None
        scale = (m.group("scale1") or m.group("scale2") or "").lower()
        if value is None:
            continue
        if scale and not re.search(r"\(\s*[\d,]+", raw):
            value *= scales[scale]
        if found and m.start() - found[-1].end <= 3 and found[-1].value == value:
            continue  # "one million dollars ($1,000,000)" states one amount twice
        found.append(Quantity(value, "USD", m.start(), m.end()))
    return found


def find_multiples(text: str) -> list[Quantity]:
    """"two times", "2x", "twice", "three-fold"; percentages of 100% or more count too."""
    found = []
    for m in _MULTIPLE_RE.finditer(text):
        if m.group("word"):
            value = {"twice": 2.0, "double": 2.0, "triple": 3.0}[m.group("word").lower()]
        else:
            value = parse_number(m.group("num") or m.group("fold"))
        if value is not None:
            found.append(Quantity(value, "x", m.start(), m.end()))
    return found
