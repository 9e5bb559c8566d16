"""The records every memory tier stores and returns, independent of any backend."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Generic, TypeVar

from pydantic import BaseModel, Field, field_validator

from memory.errors import MemoryRequestError

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,62}$")
# A run id is also a checkpoint thread's last key part and a stored field: no separator, no
# path segment, no control character, bounded length (uuid4 hex is what runs get by default).
_RUN_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
ID_RULE = "use 1-63 of a-z, 0-9, '_', '-', '.', starting with a letter or digit"
RUN_ID_RULE = "use 1-128 of A-Z, a-z, 0-9, '_', '-', '.', starting with a letter or digit"


def _shown(value: object) -> str:
    """A crafted value as one short line for an error message (repr escapes newlines)."""
    text = repr(value)
    return text if len(text) <= 70 else f"{text[:60]}... ({len(str(value))} characters)"


def check_id(value: object, kind: str = "id") -> str:
    """`value` if it is a valid tenant, agent, task type or domain id, else MemoryRequestError
    (a ValueError) with a one-line message."""
    if not isinstance(value, str) or not _ID_RE.fullmatch(value):
        raise MemoryRequestError(f"invalid {kind} {_shown(value)}: {ID_RULE}")
    return value


def check_run_id(value: object) -> str:
    """`value` if it is a valid run (thread) id, else MemoryRequestError with a one-line message."""
    if not isinstance(value, str) or not _RUN_ID_RE.fullmatch(value):
        raise MemoryRequestError(f"invalid run id {_shown(value)}: {RUN_ID_RULE}")
    return value


def utcnow() -> datetime:
    return datetime.now(UTC)


class Outcome(StrEnum):
    COMPLETED = "COMPLETED"
    PARTIAL = "PARTIAL"
    FAILED = "FAILED"
    UNKNOWN = "UNKNOWN"


class Extraction(StrEnum):
    """How a run's artifacts were obtained from the extraction model."""

    OK = "ok"  # read as answered
    REPAIRED = "repaired"  # read after repairing slips (case, percentages, prose around JSON ...)
    RETRIED = "retried"  # the first answer could not be read; the one retry could
    FAILED = "failed"  # no answer could be read: the record was written from the run itself


class Namespace(BaseModel, frozen=True):
    """Tenant + agent. Ids are restricted to `[a-z0-9][a-z0-9_.-]*` so no separator can be
    smuggled in: `a#b`+`c` and `a`+`b#c` are both rejected instead of colliding."""

    tenant: str
    agent: str

    @field_validator("tenant", "agent")
    @classmethod
    def _safe_id(cls, value: str) -> str:
        return check_id(value)

    @property
    def key(self) -> str:
        """Storage key prefix; unambiguous because ids cannot contain '/'."""
        return f"{self.tenant}/{self.agent}"


class FactCandidate(BaseModel):
    """A domain fact a run proposes; it reaches semantic memory only through the gate."""

    text: str
    domain: str = "general"
    confidence: float = Field(ge=0.0, le=1.0, default=0.0)


class ProcedureProposal(BaseModel):
    title: str
    steps: list[str]


class RunArtifacts(BaseModel):
    """What consolidation extracts from a finished run (malformed answers become UNKNOWN)."""

    task_summary: str = ""
    outcome: Outcome = Outcome.UNKNOWN
    key_findings: list[str] = Field(default_factory=list)
    approach: str = ""
    tools_used: list[str] = Field(default_factory=list)
    step_count: int = 0
    reusable_patterns: list[str] = Field(default_factory=list)
    fact_candidates: list[FactCandidate] = Field(default_factory=list)
    procedure: ProcedureProposal | None = None
    # what a model named as its reason for an outcome worse than the run observed; the memory steps
    # keep the outcome the graph observed unless a reason is confirmed (memory.graph.outcome)
    lowered_because: list[str] = Field(default_factory=list)
    extraction: Extraction = Extraction.OK  # set by the consolidate step, not by the model

    @classmethod
    def unknown(cls, task_summary: str = "") -> RunArtifacts:
        return cls(task_summary=task_summary, outcome=Outcome.UNKNOWN)


class Episode(BaseModel):
    """A distilled past run (episodic tier)."""

    run_id: str
    task_type: str
    task_summary: str
    outcome: Outcome
    key_findings: list[str] = Field(default_factory=list)
    approach: str = ""
    tools_used: list[str] = Field(default_factory=list)
    step_count: int = 0
    reusable_patterns: list[str] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    # the store's run counter when the episode was written (1, 2, 3 ...: memory.clock); 0 for an
    # episode written before the counter existed. Unlike the wall clock it never goes backwards.
    run_seq: int = 0
    embedding_model: str = ""
    merged_from: list[str] = Field(default_factory=list)  # run ids decay merged into this episode
    extraction: Extraction = Extraction.OK  # records written before this field existed were read as answered
    # the other side of the reviewed deal when it is an organisation (a company name, never a
    # person's): retrieval prefers episodes of the same counterparty (`memory.episodic.recall`)
    counterparty: str = ""

    def embedding_text(self) -> str:
        """Design rule: the embedded text is the task summary plus the key findings."""
        return "\n".join([self.task_summary, *self.key_findings])

    @property
    def empty(self) -> bool:
        """Nothing a later run can use: no key findings, approach or patterns (typically a run
        whose extraction failed, recorded with only a summary)."""
        return not (self.key_findings or self.approach.strip() or self.reusable_patterns)

    @property
    def undistilled(self) -> bool:
        """Empty and never described by a model: its extraction failed or its outcome is unknown."""
        return self.empty and (self.extraction == Extraction.FAILED or self.outcome == Outcome.UNKNOWN)

    @property
    def usefulness(self) -> int:
        """2: a completed or partial run the extraction model described; 1: a failed, unknown or
        self-recorded (extraction failed) run; 0: empty. Retrieval ranks by it."""
        if self.empty:
            return 0
        if self.outcome in (Outcome.COMPLETED, Outcome.PARTIAL) and self.extraction != Extraction.FAILED:
            return 2
        return 1


class FactStatus(StrEnum):
    CONFIRMED = "confirmed"  # passed the gate (or approved by a person): served
    QUEUED = "queued"  # passed the gate but contradicts the playbook: waits for a person, never served
    REJECTED = "rejected"  # a person rejected it: kept for the record, never served


class Fact(BaseModel):
    """A domain fact (semantic tier): the canonical wording of what it claims (memory.claims)."""

    fact_id: str
    domain: str
    text: str
    confidence: float
    source_runs: list[str] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    embedding_model: str = ""
    # records written before these fields existed were confirmed facts
    status: FactStatus = FactStatus.CONFIRMED
    review_reason: str = ""  # why it waits in the review queue (the playbook position it contradicts)
    decided_by: str | None = None  # the person who approved or rejected it

    @property
    def served(self) -> bool:
        return self.status == FactStatus.CONFIRMED


class ProcedureStatus(StrEnum):
    PENDING = "pending"  # proposed, never served
    VALIDATED = "validated"  # approved by a person or the second check
    NEEDS_REVIEW = "needs_review"  # flagged by decay; not served
    REJECTED = "rejected"
    RETIRED = "retired"  # was served, withdrawn by a person (memory review); never served again


class Procedure(BaseModel):
    """A step list for a recurring task type (procedural tier)."""

    procedure_id: str
    task_type: str
    title: str
    steps: list[str]
    status: ProcedureStatus = ProcedureStatus.PENDING
    validated_by: str | None = None
    applications: int = 0
    successes: int = 0
    source_runs: list[str] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    @property
    def success_rate(self) -> float | None:
        """Derived at read time from the atomic counters; None before the first use."""
        return self.successes / self.applications if self.applications else None

    def on_trial(self, trial_uses: int) -> bool:
        """Validated but applied fewer than `trial_uses` times: served, labelled as a trial."""
        return self.status == ProcedureStatus.VALIDATED and self.applications < trial_uses


T = TypeVar("T")


class Scored(BaseModel, Generic[T]):
    """A retrieved record and its similarity score."""

    item: T
    score: float
