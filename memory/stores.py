"""One protocol per durable tier plus the confirmation log: the seam every backend implements.

Methods speak the domain (`add`, `search`, `best`, `observe`), not generic CRUD. Every call takes
the `Namespace`; a backend confines each call to that namespace by its storage key: episodes and
procedures are keyed by tenant + agent; facts and the confirmation log by tenant alone (domain
knowledge is shared by every agent of a tenant, never across tenants). Searches follow the hybrid
rules of `memory.retrieval`; `serving_order` is the procedure-serving policy every backend uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel

from memory.records import Episode, Fact, Namespace, Outcome, Procedure, ProcedureStatus, Scored


class VectorQuery(BaseModel):
    """A retrieval request: the query text (for lexical search) and its embedding."""

    text: str
    vector: list[float]
    embedding_model: str  # vectors of other models are never compared
    k: int
    min_score: float
    now: datetime
    domain: str | None = None  # facts only: keep this domain
    mode: Literal["hybrid", "vector", "lexical"] = "hybrid"  # the last two measure what fusion adds
    # hybrid: the cosine that passes without lexical agreement (memory.retrieval; None = min_score)
    vector_alone: float | None = None


@runtime_checkable
class EpisodeStore(Protocol):
    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        """Store an episode; returns False (and changes nothing) if its run_id is already stored."""
        ...

    def get(self, ns: Namespace, run_id: str) -> Episode | None: ...

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        """Unexpired episodes of the whole history that pass the `min_score` cosine threshold or
        share an identifier with the query, best first (see `memory.retrieval`), COMPLETED
        preferred on ties. `Scored.score` is the cosine similarity."""
        ...

    def list(self, ns: Namespace, *, limit: int = 50, outcome: Outcome | None = None) -> list[Episode]: ...

    def delete(self, ns: Namespace, run_ids: Sequence[str]) -> int: ...


@runtime_checkable
class FactStore(Protocol):
    def put(self, ns: Namespace, fact: Fact, vector: Sequence[float]) -> None:
        """Insert or replace a confirmed fact; searchable as soon as this returns."""
        ...

    def get(self, ns: Namespace, fact_id: str) -> Fact | None: ...

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]: ...

    def list(self, ns: Namespace, *, domain: str | None = None, limit: int = 50) -> list[Fact]: ...

    def delete(self, ns: Namespace, fact_ids: Sequence[str]) -> int: ...


@runtime_checkable
class ProcedureStore(Protocol):
    def propose(self, ns: Namespace, procedure: Procedure) -> Procedure:
        """Store a proposal as pending (an identical pending proposal gains the new source run)."""
        ...

    def get(self, ns: Namespace, procedure_id: str) -> Procedure | None: ...

    def best(
        self, ns: Namespace, task_type: str, *, min_uses: int = 3, min_success_rate: float = 0.6
    ) -> Procedure | None:
        """The validated procedure to serve for a task type (first of `serving_order`), or None.
        Never a pending, rejected or needs_review one."""
        ...

    def list(
        self, ns: Namespace, *, task_type: str | None = None, status: ProcedureStatus | None = None
    ) -> list[Procedure]: ...

    def set_status(
        self, ns: Namespace, procedure_id: str, status: ProcedureStatus, *, by: str | None = None
    ) -> Procedure: ...

    def record_application(
        self, ns: Namespace, procedure_id: str, *, success: bool, run_id: str | None = None
    ) -> None:
        """Atomically count one use (and one success if it succeeded). With `run_id`, a run is
        counted at most once per procedure: a repeat call with the same run changes nothing."""
        ...

    def delete(self, ns: Namespace, procedure_ids: Sequence[str]) -> int: ...


@runtime_checkable
class ConfirmationLog(Protocol):
    def observe(self, ns: Namespace, fact_key: str, run_id: str, source: str | None = None) -> int:
        """Record that `run_id` observed the fact in `source` (what the run worked on, e.g. a
        content hash of its contract; None = the run itself). Returns the number of distinct
        sources so far: runs over one source count once, the same run observing twice counts
        once, and concurrent writers count exactly."""
        ...

    def runs(self, ns: Namespace, fact_key: str) -> list[str]: ...


class MemoryBackend(Protocol):
    """The four stores of one backend, opened together by `memory.backends.open_memory(url)`.

    A backend whose reads wait on the network sets `concurrent_reads = True`: the bootstrap then
    runs the three tier reads at once (`graphs.memory_steps.read_memory`); without it they run
    one after another, which is faster for reads that are CPU work in this process.
    """

    episodes: EpisodeStore
    facts: FactStore
    procedures: ProcedureStore
    confirmations: ConfirmationLog

    def close(self) -> None: ...


def serving_order(
    procedures: Sequence[Procedure], *, min_uses: int = 3, min_success_rate: float = 0.6
) -> list[Procedure]:
    """The validated procedures worth serving, best first.

    Proven ones (>= `min_uses` applications, success rate >= `min_success_rate`) come first, by
    rate then uses. Trials (validated, fewer than `min_uses` applications) follow, by smoothed
    rate (successes + 1) / (applications + 2), newest first on ties. Validated procedures that
    failed their trial (>= `min_uses`, rate below the minimum) are never served; decay flags them.
    """
    proven: list[Procedure] = []
    trials: list[Procedure] = []
    for procedure in procedures:
        if procedure.status != ProcedureStatus.VALIDATED:
            continue
        if procedure.applications < min_uses:
            trials.append(procedure)
        elif (procedure.success_rate or 0.0) >= min_success_rate:
            proven.append(procedure)
    proven.sort(key=lambda p: (-(p.success_rate or 0.0), -p.applications, p.procedure_id))
    trials.sort(
        key=lambda p: (-(p.successes + 1) / (p.applications + 2), -p.created_at.timestamp(), p.procedure_id)
    )
    return proven + trials
