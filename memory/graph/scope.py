"""What a run gives the memory steps: the run scope they read their stores, models and limits from.

The steps never build a store, an embedding model or a chat model: the graph's runtime context
provides them through an object implementing `MemoryScope` (the contract reviewer's is
`graphs.context.RunScope`, built from its settings; a fork may write its own). `MemorySteps`
is given a function from LangGraph's `Runtime` to that scope.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Protocol

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from memory.embeddings import calibrated_thresholds, calibrated_vector_alone, model_name_of
from memory.episodic import party_key
from memory.records import Namespace


@dataclass(frozen=True)
class MemoryLimits:
    """The tiers' numbers for one run (the design's defaults; a scope reads them from its settings)."""

    episode_top_k: int = 3
    fact_top_k: int = 5
    episode_min_score: float | None = None  # None: calibrated for the embedding model
    fact_min_score: float | None = None
    fact_min_confidence: float = 0.7
    fact_confirmations: int = 3
    procedure_trial_uses: int = 3
    procedure_min_success_rate: float = 0.6
    episode_ttl_days: int = 90

    @classmethod
    def of(cls, source: Any) -> MemoryLimits:
        """The limits an object holds under the same names (a settings object), defaults for the rest."""
        return cls(**{f.name: getattr(source, f.name) for f in fields(cls) if hasattr(source, f.name)})

    def thresholds(self, embeddings: Any) -> tuple[float, float]:
        """(episode, fact) similarity thresholds: as set, else calibrated for the embedding model
        (by the name every stored vector records, e.g. an OllamaEmbeddings' `model`)."""
        if self.episode_min_score is not None and self.fact_min_score is not None:
            return self.episode_min_score, self.fact_min_score  # set explicitly: any model works
        episode_min, fact_min = calibrated_thresholds(model_name_of(embeddings))
        return (self.episode_min_score if self.episode_min_score is not None else episode_min,
                self.fact_min_score if self.fact_min_score is not None else fact_min)

    def vector_alone(self, embeddings: Any) -> float | None:
        """The calibrated cosine that passes an episode search alone; None when the episode threshold
        is set by hand (an uncalibrated model keeps the seed's single threshold)."""
        if self.episode_min_score is not None:
            return None
        return calibrated_vector_alone(model_name_of(embeddings))


class MemoryResources(Protocol):
    """The parts a run's memory steps use."""

    memory: Any  # memory.backends.MemoryBackend
    embeddings: Embeddings
    scrubber: Any  # memory.pii.Scrubber, or None for the default
    extractor: BaseChatModel


class MemoryScope(Protocol):
    """One run as the memory steps see it."""

    @property
    def use_memory(self) -> bool: ...

    @property
    def namespace(self) -> Namespace: ...

    @property
    def task_type(self) -> str: ...

    @property
    def domain(self) -> str: ...

    @property
    def limits(self) -> MemoryLimits: ...

    @property
    def token_key(self) -> bytes:
        """The secret that keys the counterparty and template tokens (b"": a hash salted with the
        tenant only, which keeps names out of memory but can be tested against a list of names)."""
        ...

    def now(self) -> datetime: ...

    def memory_resources(self) -> MemoryResources: ...

    def filter_block(self, block: str) -> str: ...

    def model_failed(self, exc: BaseException, *, role: str, model: Any) -> None:
        """See a failed model call first: raise if it is a setup mistake (credentials, an unknown
        model), return to let the step carry on without the model."""
        ...

    def usage(self, model: Any, answer: Any) -> dict[str, int]:
        """One model call's usage counters (memory.graph.state.USAGE_KEYS)."""
        ...

    def model_name(self, model: Any) -> str:
        """A chat model's name for messages."""
        ...


def keyed_token(prefix: str, value: str, *, key: bytes, tenant: str) -> str:
    """A token standing for `value` (compared loosely: case, punctuation and spacing aside) within
    one tenant, never the value: `prefix`, a digit and nine capitals or digits (base32), so that
    retrieval reads it as one identifier and no PII recognizer as a number. "" for an empty value."""
    normal = party_key(value)
    if not normal:
        return ""
    digest = hmac.new(key, f"{prefix}\0{tenant}\0{normal}".encode(), hashlib.sha256).digest()
    return f"{prefix}{'234567'[digest[0] % 6]}{base64.b32encode(digest[1:11]).decode()[:9]}"
