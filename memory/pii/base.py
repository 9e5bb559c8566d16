"""The scrubbing vocabulary every PII scrubber shares: entity types, results, the protocol.

Kept apart from `memory.pii` (the factory) so the scrubbers import these without importing the
factory that imports them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

PERSON = "PERSON"
EMAIL_ADDRESS = "EMAIL_ADDRESS"
PHONE_NUMBER = "PHONE_NUMBER"
IBAN_CODE = "IBAN_CODE"
BANK_ACCOUNT = "BANK_ACCOUNT"
CREDIT_CARD = "CREDIT_CARD"
US_SSN = "US_SSN"
TAX_ID = "TAX_ID"
STREET_ADDRESS = "STREET_ADDRESS"

ENTITY_TYPES = (
    PERSON,
    EMAIL_ADDRESS,
    PHONE_NUMBER,
    IBAN_CODE,
    BANK_ACCOUNT,
    CREDIT_CARD,
    US_SSN,
    TAX_ID,
    STREET_ADDRESS,
)

# When two findings overlap, the more specific one wins (an email beats the name inside it,
# a cue-confirmed account number beats a phone-shaped reading of the same digits).
_PRIORITY = {
    EMAIL_ADDRESS: 90,
    IBAN_CODE: 90,
    CREDIT_CARD: 80,
    BANK_ACCOUNT: 80,
    TAX_ID: 80,
    US_SSN: 75,
    STREET_ADDRESS: 60,
    PHONE_NUMBER: 50,
    PERSON: 40,
}


@dataclass(frozen=True)
class PiiEntity:
    """One entity found in the original text. The value itself is not kept, so results can be
    logged without leaking what was removed."""

    type: str
    start: int
    end: int
    score: float = 1.0
    source: str = "local"


@dataclass(frozen=True)
class ScrubResult:
    text: str
    entities: list[PiiEntity] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """How many entities of each type were replaced."""
        out: dict[str, int] = {}
        for entity in self.entities:
            out[entity.type] = out.get(entity.type, 0) + 1
        return out


@runtime_checkable
class Scrubber(Protocol):
    """Anything that can remove personal data from text (local patterns, Amazon Comprehend)."""

    def scrub(self, text: str) -> ScrubResult: ...


def label(entity_type: str) -> str:
    return f"<{entity_type}>"


def apply_entities(text: str, entities: Sequence[PiiEntity]) -> ScrubResult:
    """Replace non-overlapping `entities` (offsets into `text`) with their labels."""
    chosen = _resolve_overlaps(entities)
    parts: list[str] = []
    cursor = 0
    for entity in chosen:
        parts.append(text[cursor : entity.start])
        parts.append(label(entity.type))
        cursor = entity.end
    parts.append(text[cursor:])
    return ScrubResult(text="".join(parts), entities=chosen)


def _resolve_overlaps(entities: Sequence[PiiEntity]) -> list[PiiEntity]:
    """The entities to replace: by priority, then length, each one that overlaps none already
    taken. The taken ones are kept sorted and disjoint, so each check looks at two neighbours
    (n log n: a text with tens of thousands of findings is resolved at once)."""
    ranked = sorted(
        (e for e in entities if e.end > e.start),
        key=lambda e: (-_PRIORITY.get(e.type, 0), -(e.end - e.start), e.start),
    )
    starts: list[int] = []
    taken: list[PiiEntity] = []
    for entity in ranked:
        at = bisect.bisect_left(starts, entity.start)
        if at < len(taken) and taken[at].start < entity.end:  # the next one starts inside it
            continue
        if at > 0 and taken[at - 1].end > entity.start:  # the one before ends inside it
            continue
        starts.insert(at, entity.start)
        taken.insert(at, entity)
    return taken


_PARTIAL_LABEL = re.compile(r"<[A-Z_]*$")


def truncate(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, for text that was scrubbed first (scrub the
    whole text, then cut: a cut made before scrubbing can leave half a value no recognizer
    knows). A label the cut would split (`<IBAN_CO`) is dropped whole."""
    if len(text) <= limit:
        return text
    return _PARTIAL_LABEL.sub("", text[:limit])


def split_for_limit(text: str, max_chars: int = 5000) -> Iterator[tuple[int, str]]:
    """Yield `(offset, chunk)` pieces of at most `max_chars`, cut at a paragraph, line or word
    boundary where possible, for services that read only part of a long text (Comprehend
    reads 5,000 characters per call). Chunks concatenate back to `text`."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    start = 0
    while start < len(text):
        end = min(start + max_chars, len(text))
        if end < len(text):
            window = text[start:end]
            for sep in ("\n\n", "\n", " "):
                cut = window.rfind(sep)
                if cut > max_chars // 2:
                    end = start + cut + len(sep)
                    break
        yield start, text[start:end]
        start = end
