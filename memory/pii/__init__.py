"""PII scrubbing: replace personal data in text with its type label before any memory write.

`scrub(text)` returns the text with every entity replaced by a label such as `<PERSON>` or
`<IBAN_CODE>`, plus where each entity was (never the removed value). The labels are those of
Presidio and Amazon Comprehend, so a `Scrubber` backed by Comprehend can replace the offline
`memory.pii.local.LocalScrubber` without changing any caller. The offline scrubber reads whole
texts at once; `split_for_limit` prepares text for services that read only part of a call
(Comprehend: 5,000 characters), and `apply_entities` turns their findings into a result.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.pii.base import (  # noqa: F401  (the vocabulary, re-exported)
    BANK_ACCOUNT,
    CREDIT_CARD,
    EMAIL_ADDRESS,
    ENTITY_TYPES,
    IBAN_CODE,
    PERSON,
    PHONE_NUMBER,
    STREET_ADDRESS,
    TAX_ID,
    US_SSN,
    PiiEntity,
    Scrubber,
    ScrubResult,
    apply_entities,
    label,
    split_for_limit,
    truncate,
)
from memory.records import RunArtifacts

if TYPE_CHECKING:
    from memory.pii.local import LocalScrubber

@lru_cache(maxsize=1)
def default_scrubber() -> LocalScrubber:
    """The process-wide offline scrubber (Presidio is imported at its first scrub: ~1 s)."""
    from memory.pii.local import LocalScrubber

    return LocalScrubber()


def scrub(text: str) -> ScrubResult:
    """Scrub `text` with the default offline scrubber."""
    return default_scrubber().scrub(text)


def load_scrubber(spec: str | Scrubber, *, region: str = "us-east-1") -> Scrubber:
    """"local" (offline recognizers) or "comprehend" (Amazon Comprehend, chunked); instances pass."""
    if not isinstance(spec, str):
        return spec
    if spec == "local":
        return default_scrubber()
    if spec == "comprehend":
        from memory.pii.comprehend import ComprehendScrubber

        return ComprehendScrubber(region=region)
    from memory.errors import MemoryConfigError

    raise MemoryConfigError(f"unknown PII scrubber {spec!r}: use 'local' or 'comprehend'")


def person_names(text: str, scrubber: Scrubber | None = None) -> list[str]:
    """The people `text` names, as written there (what the scrubber labels PERSON)."""
    result = (scrubber or default_scrubber()).scrub(text)
    return [text[e.start : e.end] for e in result.entities if e.type == PERSON]


def scrub_artifacts(artifacts: RunArtifacts, scrubber: Scrubber | None = None, *,
                    names: Iterable[str] = ()) -> RunArtifacts:
    """A copy of `artifacts` with every free-text field scrubbed (summary, findings, approach,
    patterns, proposed facts and procedure); tool names and counts are kept as they are.
    `names` are people the run's input names (found there with the context a single field lacks:
    "Marisol Etxeberria, an individual"): each is scrubbed from every field too, in every form
    (`memory.pii.persons.name_forms`: each part alone, initials, possessives, other spellings, in
    identifiers such as "supply_agreement_van_der_berg_2025.txt")."""
    from memory.pii.persons import occurrences  # the write path's: its patterns compile on import

    scrubber = scrubber or default_scrubber()
    known = sorted({n for n in names if n.strip()})

    def clean(value: str) -> str:
        if not value:
            return value
        result = scrubber.scrub(value)
        if not known:
            return result.text
        # the run's people in every form, found in the field as written, beside what the scrubber found
        return apply_entities(value, [*result.entities, *occurrences(value, known)]).text

    update: dict = {
        "task_summary": clean(artifacts.task_summary),
        "key_findings": [clean(f) for f in artifacts.key_findings],
        "approach": clean(artifacts.approach),
        "reusable_patterns": [clean(p) for p in artifacts.reusable_patterns],
        "fact_candidates": [
            fact.model_copy(update={"text": clean(fact.text)}) for fact in artifacts.fact_candidates
        ],
    }
    if artifacts.procedure is not None:
        update["procedure"] = artifacts.procedure.model_copy(
            update={
                "title": clean(artifacts.procedure.title),
                "steps": [clean(s) for s in artifacts.procedure.steps],
            }
        )
    return artifacts.model_copy(update=update)
