"""PII scrubbing through Amazon Comprehend `detect_pii_entities`, for the AWS deployment.

Comprehend reads only the first 5,000 characters of a call, so longer text is cut with
`memory.pii.split_for_limit` (at a paragraph, line or word boundary), each chunk's entity
offsets are shifted back onto the whole text, and `memory.pii.apply_entities` replaces every
span with its type label. Comprehend's type names are mapped onto the local scrubber's
(`NAME` -> `<PERSON>`, `EMAIL` -> `<EMAIL_ADDRESS>`, ...), so stored text reads the same
whichever scrubber wrote it; types without a local twin keep their Comprehend name.
A name split by a chunk boundary is scrubbed as two labels; a cut never falls inside a word.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from memory.errors import MemoryBackendError, MemoryConfigError
from memory.pii.base import (
    BANK_ACCOUNT,
    CREDIT_CARD,
    EMAIL_ADDRESS,
    IBAN_CODE,
    PERSON,
    PHONE_NUMBER,
    STREET_ADDRESS,
    US_SSN,
    PiiEntity,
    ScrubResult,
    apply_entities,
    split_for_limit,
)

COMPREHEND_MAX_CHARS = 5_000

# Comprehend entity type -> the local scrubber's label
LOCAL_TYPES = {
    "NAME": PERSON,
    "EMAIL": EMAIL_ADDRESS,
    "PHONE": PHONE_NUMBER,
    "ADDRESS": STREET_ADDRESS,
    "SSN": US_SSN,
    "BANK_ACCOUNT_NUMBER": BANK_ACCOUNT,
    "BANK_ROUTING": BANK_ACCOUNT,
    "INTERNATIONAL_BANK_ACCOUNT_NUMBER": IBAN_CODE,
    "CREDIT_DEBIT_NUMBER": CREDIT_CARD,
}


class ComprehendScrubber:
    """A `memory.pii.Scrubber` with Amazon Comprehend as the detector."""

    def __init__(
        self,
        client: Any | None = None,
        *,
        region: str = "us-east-1",
        language: str = "en",
        min_score: float = 0.5,
        chunk_chars: int = COMPREHEND_MAX_CHARS,
    ) -> None:
        if not 0 < chunk_chars <= COMPREHEND_MAX_CHARS:
            raise MemoryConfigError(f"chunk_chars must be 1..{COMPREHEND_MAX_CHARS}, got {chunk_chars}")
        if client is None:
            try:
                import boto3
            except ImportError as exc:
                raise MemoryConfigError(
                    "Comprehend PII scrubbing needs boto3: pip install 'contract-memory-agent[aws]'"
                ) from exc
            client = boto3.client("comprehend", region_name=region)
        self._client = client
        self._language = language
        self._min_score = min_score
        self._chunk_chars = chunk_chars
        # a run scans its whole contract twice (the task memory keeps, the people it names): pay once
        self._scrub = lru_cache(maxsize=4)(self._scrub_uncached)

    def _detect(self, chunk: str) -> list[dict[str, Any]]:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            answer = self._client.detect_pii_entities(Text=chunk, LanguageCode=self._language)
        except (BotoCoreError, ClientError) as exc:
            # fail the write rather than store unscrubbed text
            raise MemoryBackendError(f"Amazon Comprehend could not scan text for PII: {exc}") from exc
        return answer.get("Entities", [])

    def scrub(self, text: str) -> ScrubResult:
        return self._scrub(text)

    def _scrub_uncached(self, text: str) -> ScrubResult:
        found: list[PiiEntity] = []
        for offset, chunk in split_for_limit(text, self._chunk_chars):
            if not chunk.strip():
                continue
            for entity in self._detect(chunk):
                score = float(entity.get("Score", 0.0))
                begin, end = int(entity["BeginOffset"]), int(entity["EndOffset"])
                if score < self._min_score or not 0 <= begin < end <= len(chunk):
                    continue
                kind = str(entity["Type"])
                found.append(
                    PiiEntity(
                        type=LOCAL_TYPES.get(kind, kind),
                        start=offset + begin,
                        end=offset + end,
                        score=score,
                        source="comprehend",
                    )
                )
        return apply_entities(text, found)
