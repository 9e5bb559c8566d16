"""The Detector: weighted patterns that score how strongly a sentence states a clause type.

A sentence's score is the sum of the weights of the patterns it matches (negative weights
mark look-alikes), plus a bonus when its section title names the clause; at or above the
threshold the sentence is a candidate. tools/detection/rules.py and tools/detection/finer_rules.py hold the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.detection.numbers import NUMBER

_N = NUMBER
# a duration as contracts write it: "thirty (30) days", "12-month", "a year"
DUR = rf"(?:{_N}|an?)[\s-]*(?:\(\s*(?:\d+|[a-z]+(?:[\s-][a-z]+)?)\s*\)\s*)?(?:business\s+|calendar\s+)?(?:days?|months?|years?|weeks?|hours?)"


@dataclass(frozen=True)
class Detector:
    id: str
    rules: tuple[tuple[re.Pattern[str], float], ...]
    threshold: float = 3.0
    title: re.Pattern[str] | None = None
    title_bonus: float = 1.0
    require: re.Pattern[str] | None = None
    needs_duration: bool = False
    # Lower-case fragments of which every positively scoring sentence contains at least one:
    # a cheap test that spares the regexes on most sentences of a long contract.
    keywords: tuple[str, ...] = ()


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def detector(id: str, rules: list[tuple[str, float]], *, threshold: float = 3.0, title: str | None = None,
             title_bonus: float = 1.0, require: str | None = None, needs_duration: bool = False) -> Detector:
    """Build a Detector from pattern strings (compiled case-insensitively)."""
    return Detector(
        id=id,
        rules=tuple((rx(p), w) for p, w in rules),
        threshold=threshold,
        title=rx(title) if title else None,
        title_bonus=title_bonus,
        require=rx(require) if require else None,
        needs_duration=needs_duration,
    )
