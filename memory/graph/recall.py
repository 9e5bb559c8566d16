"""What a run recalls from each durable tier, through its scope: shared by the read steps and the
memory tools a model calls mid-run (`memory.graph.tools`).

Each function reads the run's own namespace (`scope.namespace`: its tenant and agent) with the
scope's limits and embedding model, and records the read in the retrieval telemetry when it
belongs to a run (`memory stats`).
"""

from __future__ import annotations

import time
from typing import Any

from memory import episodic, procedural, semantic
from memory.graph.scope import MemoryScope
from memory.records import Episode, Fact, Procedure, Scored
from memory.telemetry import Hit, Tier, record_retrieval


def _record(scope: MemoryScope, memory: Any, run_id: str | None, tier: Tier, hits: list[Hit], started: float) -> None:
    latency_ms = (time.perf_counter() - started) * 1000
    record_retrieval(memory, scope.namespace, run_id, tier, hits, latency_ms, scope.now())


def recall_episodes(scope: MemoryScope, query: str, *, run_id: str | None = None, counterparty: str = "",
                    k: int | None = None) -> list[Scored[Episode]]:
    """Past episodes of the run's agent similar to `query`, best first (`memory.episodic.recall`)."""
    res = scope.memory_resources()
    limits = scope.limits
    episode_min, _ = limits.thresholds(res.embeddings)
    started = time.perf_counter()
    found = episodic.recall(
        res.memory.episodes, res.embeddings, scope.namespace, query, k=limits.episode_top_k if k is None else k,
        min_score=episode_min, now=scope.now(), vector_alone=limits.vector_alone(res.embeddings),
        counterparty=counterparty,
    )
    _record(scope, res.memory, run_id, "episodic", [Hit(id=s.item.run_id, score=s.score) for s in found], started)
    return found


def recall_facts(scope: MemoryScope, query: str, *, run_id: str | None = None,
                 k: int | None = None) -> list[Scored[Fact]]:
    """Confirmed facts of the run's tenant and domain relevant to `query` (`memory.semantic.recall`)."""
    res = scope.memory_resources()
    limits = scope.limits
    _, fact_min = limits.thresholds(res.embeddings)
    started = time.perf_counter()
    found = semantic.recall(
        res.memory.facts, res.embeddings, scope.namespace, query,
        domain=scope.domain, k=limits.fact_top_k if k is None else k, min_score=fact_min, now=scope.now(),
    )
    _record(scope, res.memory, run_id, "semantic", [Hit(id=s.item.fact_id, score=s.score) for s in found], started)
    return found


def recall_procedure(scope: MemoryScope, *, run_id: str | None = None) -> Procedure | None:
    """The validated procedure served for the run's task type, if any (`memory.procedural.best`)."""
    res = scope.memory_resources()
    started = time.perf_counter()
    best = procedural.best(
        res.memory.procedures, scope.namespace, scope.task_type,
        trial_uses=scope.limits.procedure_trial_uses, min_success_rate=scope.limits.procedure_min_success_rate,
    )
    _record(scope, res.memory, run_id, "procedural", [Hit(id=best.procedure_id)] if best else [], started)
    return best
