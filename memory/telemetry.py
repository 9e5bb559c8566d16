"""Retrieval telemetry: what each tier returned to each run, and the health figures built from it.

Retrieval quality decays silently, so every bootstrap records, per tier, the ids and scores it
returned and how long the read took (`record_retrieval`, called by the read nodes). Backends
that keep telemetry expose a `telemetry` attribute (`TelemetryStore`): a table of the SQLite
file, a DynamoDB table with a TTL on AWS. `retrieval_stats` turns the events into what
`contract-review memory stats` prints: per tier the hit rate, the score distribution, p50/p95
latency, and the memories nobody retrieved for N days.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel, Field

from memory.records import Namespace

log = logging.getLogger(__name__)

Tier = Literal["episodic", "semantic", "procedural"]
TIERS: tuple[Tier, ...] = ("episodic", "semantic", "procedural")


class Hit(BaseModel):
    id: str
    score: float | None = None  # cosine for episodes and facts; None for a procedure


class RetrievalEvent(BaseModel):
    """One tier's read for one run."""

    run_id: str
    tier: Tier
    at: datetime
    latency_ms: float = Field(ge=0.0)
    hits: list[Hit] = Field(default_factory=list)


@runtime_checkable
class TelemetryStore(Protocol):
    def record(self, ns: Namespace, event: RetrievalEvent) -> None:
        """Store one event; recording the same run and tier again replaces it (SQLite)."""
        ...

    def events(self, ns: Namespace, *, since: datetime) -> list[RetrievalEvent]:
        """The namespace's events at or after `since`, oldest first."""
        ...

    def count_before(self, ns: Namespace, cutoff: datetime) -> int: ...

    def prune(self, ns: Namespace, cutoff: datetime) -> int:
        """Delete events older than `cutoff`; returns how many."""
        ...


def record_retrieval(
    memory: object, ns: Namespace, run_id: str | None, tier: Tier, hits: Sequence[Hit], latency_ms: float,
    at: datetime,
) -> bool:
    """Record one read if the backend keeps telemetry and the read belongs to a run.

    A failure to record is logged and never fails the run: telemetry observes, it must not
    take the review down with it. Returns whether the event was stored.
    """
    store = getattr(memory, "telemetry", None)
    if store is None or not run_id:
        return False
    try:
        store.record(ns, RetrievalEvent(run_id=run_id, tier=tier, at=at, latency_ms=latency_ms, hits=list(hits)))
    except Exception as exc:  # noqa: BLE001 - any backend failure: observed, logged, not fatal
        log.warning("retrieval telemetry not recorded for run %s (%s): %s", run_id, tier, exc)
        return False
    return True


def _percentile(values: Sequence[float], q: float) -> float | None:
    return round(float(np.percentile(np.asarray(values, dtype=float), q)), 3) if values else None


class TierStats(BaseModel):
    tier: Tier
    size: int  # records stored now
    reads: int  # runs that read this tier in the window
    hit_rate: float | None  # share of reads that returned at least one record
    mean_hits: float | None
    scores: dict[str, float | None]  # count, min, p25, p50, p75, max of returned scores
    latency_ms: dict[str, float | None]  # p50, p95, max
    never_retrieved: int  # records older than the window that no read returned within it
    never_retrieved_ids: list[str]  # the first of them (oldest first)


def tier_stats(
    tier: Tier, events: Iterable[RetrievalEvent], records: Sequence[tuple[str, datetime]], *, now: datetime,
    days: int, show_ids: int = 20, size: int | None = None,
) -> TierStats:
    """Figures of one tier. `records` = (id, created_at) of what the tier holds now; a record is
    "never retrieved" if it is at least `days` old and no read in the last `days` returned it."""
    window_start = now - timedelta(days=days)
    reads = [e for e in events if e.tier == tier and e.at >= window_start]
    scores = [h.score for e in reads for h in e.hits if h.score is not None]
    latencies = [e.latency_ms for e in reads]
    seen = {h.id for e in reads for h in e.hits}
    idle = sorted((created, rid) for rid, created in records if created <= window_start and rid not in seen)
    return TierStats(
        tier=tier,
        size=len(records) if size is None else size,
        reads=len(reads),
        hit_rate=round(sum(bool(e.hits) for e in reads) / len(reads), 3) if reads else None,
        mean_hits=round(sum(len(e.hits) for e in reads) / len(reads), 3) if reads else None,
        scores={
            "count": float(len(scores)),
            "min": round(min(scores), 3) if scores else None,
            "p25": _percentile(scores, 25),
            "p50": _percentile(scores, 50),
            "p75": _percentile(scores, 75),
            "max": round(max(scores), 3) if scores else None,
        },
        latency_ms={"p50": _percentile(latencies, 50), "p95": _percentile(latencies, 95),
                    "max": round(max(latencies), 3) if latencies else None},
        never_retrieved=len(idle),
        never_retrieved_ids=[rid for _, rid in idle[:show_ids]],
    )


def retrieval_stats(memory: object, ns: Namespace, *, now: datetime, days: int = 30) -> dict[str, TierStats]:
    """Per-tier figures for `ns` over the last `days` (sizes are of what is stored now)."""
    store = getattr(memory, "telemetry", None)
    events = store.events(ns, since=now - timedelta(days=days)) if store is not None else []
    big = 1_000_000_000
    episodes = [(e.run_id, e.created_at) for e in memory.episodes.list(ns, limit=big)]  # type: ignore[attr-defined]
    facts = [(f.fact_id, f.created_at) for f in memory.facts.list(ns, limit=big)]  # type: ignore[attr-defined]
    stored = memory.procedures.list(ns)  # type: ignore[attr-defined]
    # only validated procedures can be served, so only they can sit unretrieved
    served = [(p.procedure_id, p.created_at) for p in stored if p.status.value == "validated"]
    holdings = {"episodic": episodes, "semantic": facts, "procedural": served}
    sizes = {"episodic": len(episodes), "semantic": len(facts), "procedural": len(stored)}
    return {tier: tier_stats(tier, events, holdings[tier], now=now, days=days, size=sizes[tier]) for tier in TIERS}
