"""What a run recalls from each durable tier, through its scope: shared by the read steps and the
memory tools a model calls mid-run (`memory.graph.tools`).

Each function reads the run's own namespace (`scope.namespace`: its tenant and agent) with the
scope's limits and embedding model, and records the read in the retrieval telemetry when it
belongs to a run (`memory stats`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from memory import episodic, procedural, semantic
from memory.graph.scope import MemoryScope
from memory.records import Episode, Fact, Procedure, Scored
from memory.telemetry import Hit, Tier, record_retrieval


def _timed(scope: MemoryScope, run_id: str | None, tier: Tier, search: Callable[[Any], list],
           hit: Callable[[Any], Hit]) -> list:
    """`search(resources)`, with the read recorded in the telemetry (latency, hits)."""
    res = scope.memory_resources()
    started = time.perf_counter()
    found = search(res)
    latency_ms = (time.perf_counter() - started) * 1000
    record_retrieval(res.memory, scope.namespace, run_id, tier, [hit(x) for x in found], latency_ms, scope.now())
    return found


def recall_episodes(scope: MemoryScope, query: str, *, run_id: str | None = None, counterparty: str = "",
                    k: int | None = None) -> list[Scored[Episode]]:
    """Past episodes of the run's agent similar to `query`, best first (`memory.episodic.recall`)."""
    limits = scope.limits

    def search(res: Any) -> list[Scored[Episode]]:
        return episodic.recall(
            res.memory.episodes, res.embeddings, scope.namespace, query, k=limits.episode_top_k if k is None else k,
            min_score=limits.thresholds(res.embeddings)[0], now=scope.now(),
            vector_alone=limits.vector_alone(res.embeddings), counterparty=counterparty,
        )

    return _timed(scope, run_id, "episodic", search, lambda s: Hit(id=s.item.run_id, score=s.score))


def recall_facts(scope: MemoryScope, query: str, *, run_id: str | None = None,
                 k: int | None = None) -> list[Scored[Fact]]:
    """Confirmed facts of the run's tenant and domain relevant to `query` (`memory.semantic.recall`)."""
    limits = scope.limits

    def search(res: Any) -> list[Scored[Fact]]:
        return semantic.recall(
            res.memory.facts, res.embeddings, scope.namespace, query, domain=scope.domain,
            k=limits.fact_top_k if k is None else k, min_score=limits.thresholds(res.embeddings)[1], now=scope.now(),
        )

    return _timed(scope, run_id, "semantic", search, lambda s: Hit(id=s.item.fact_id, score=s.score))


def recall_procedure(scope: MemoryScope, *, run_id: str | None = None) -> Procedure | None:
    """The validated procedure served for the run's task type, if any (`memory.procedural.best`)."""
    limits = scope.limits

    def search(res: Any) -> list[Procedure]:
        best = procedural.best(res.memory.procedures, scope.namespace, scope.task_type,
                               trial_uses=limits.procedure_trial_uses, min_success_rate=limits.procedure_min_success_rate)
        return [best] if best else []

    found = _timed(scope, run_id, "procedural", search, lambda p: Hit(id=p.procedure_id))
    return found[0] if found else None
