"""The Detector: weighted patterns that score how strongly a sentence states a clause type.

A sentence's score is the sum of the weights of the patterns it matches (negative weights
mark look-alikes), plus a bonus when its section title names the clause; at or above the
threshold the sentence is a candidate. tools/detection/rules.py and tools/detection/finer_rules.py hold the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from tools.detection.numbers import NUMBER

_N = NUMBER
# a duration as contracts write it: "thirty (30) days", "12-month", "a year"
DUR = rf"(?:{_N}|an?)[\s-]*(?:\(\s*(?:\d+|[a-z]+(?:[\s-][a-z]+)?)\s*\)\s*)?(?:business\s+|calendar\s+)?(?:days?|months?|years?|weeks?|hours?)"
# a price set as the supplier's cost plus a margin, so that it moves with the supplier's costs: "'Unit Price' means the
# Unit Cost plus the Margin", "sold on a cost-plus basis", "priced at cost plus fifteen percent (15%)" (the price of what is
# bought first: a buy-back of stock "at their direct costs plus a handling fee", or spare parts "charged at net cost plus
# a handling margin", passes a cost through and is no price change)
COST_PLUS = (r"\b(?:prices?|priced|pricing|sold|sells?)\b.{0,80}?(?:\bcost[\s-]plus\b"
             r"|\bcosts?\b.{0,40}?\bplus\b.{0,40}?(?:\b(?:margin|mark-?up|profit|percent)\b|%))")
# prices beyond those agreed: "may purchase materials at prices higher than those agreed", "invoice at prices above the agreed prices"
ABOVE_AGREED = (r"\bprices?\s+(?:higher|greater|above|in\s+excess\s+of|exceeding)\s+(?:than\s+)?(?:those\s+|the\s+)?"
                r"(?:agreed|quoted|contracted|set\s+out|stated|specified|listed)\b")
# extra fees at the supplier's will: "may in its sole discretion charge additional fees", "reserves the right to impose extra charges"
# (never across a "not": "may not charge additional fees")
EXTRA_FEES = (r"\b(?:may|reserves?\s+the\s+right\s+to|entitled\s+to)\s+(?:(?!not\b|never\b|no\b)[\w,]+\s+){0,6}?(?:charge|impose|levy|invoice|bill)\s+(?:\w+\s+){0,2}?"
              r"(?:additional|extra|further|new|increased|higher|surcharges?)\b")


@dataclass(frozen=True)
class Detector:
    """A clause type's weighted patterns. They are kept as strings and compiled on first use:
    the 400-odd patterns take a few hundred milliseconds to compile, a cost that belongs to the
    first sentence scored, not to every process that imports the tools (`--help`, `memory list`,
    a review's start before its first model call)."""

    id: str
    patterns: tuple[tuple[str, float], ...]
    threshold: float = 3.0
    title_pattern: str | None = None
    title_bonus: float = 1.0
    require_pattern: str | None = None
    needs_duration: bool = False
    # Lower-case fragments of which every positively scoring sentence contains at least one:
    # a cheap test that spares the regexes on most sentences of a long contract.
    keywords: tuple[str, ...] = ()

    @cached_property
    def rules(self) -> tuple[tuple[re.Pattern[str], float], ...]:
        return tuple((rx(p), w) for p, w in self.patterns)

    @cached_property
    def title(self) -> re.Pattern[str] | None:
        return rx(self.title_pattern) if self.title_pattern else None

    @cached_property
    def require(self) -> re.Pattern[str] | None:
        return rx(self.require_pattern) if self.require_pattern else None


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def detector(id: str, rules: list[tuple[str, float]], *, threshold: float = 3.0, title: str | None = None,
             title_bonus: float = 1.0, require: str | None = None, needs_duration: bool = False) -> Detector:
    """Build a Detector from pattern strings (compiled case-insensitively, on first use)."""
    return Detector(
        id=id,
        patterns=tuple((p, w) for p, w in rules),
        threshold=threshold,
        title_pattern=title,
        title_bonus=title_bonus,
        require_pattern=require,
        needs_duration=needs_duration,
    )
