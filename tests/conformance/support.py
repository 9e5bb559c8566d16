"""Shared pieces of the backend conformance suite: the `backend` fixture and record builders."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory.records import Episode, Fact, Namespace, Outcome, Procedure
from memory.stores import MemoryBackend, VectorQuery
from tests.backends import FACTORIES, open_backend

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
MODEL = "conformance-model"
DIM = 8
NS = Namespace(tenant="acme", agent="reviewer")


@pytest.fixture(params=sorted(FACTORIES))
def backend(request, tmp_path) -> Iterator[MemoryBackend]:
    memory = open_backend(request, request.param, tmp_path)
    yield memory
    memory.close()


def vec(cosine: float, direction: int = 1) -> list[float]:
    """A unit vector whose cosine with `query_vec()` is `cosine` (directions 1..DIM-1 differ)."""
    v = np.zeros(DIM)
    v[0] = cosine
    v[direction] = float(np.sqrt(max(0.0, 1.0 - cosine**2)))
    return v.tolist()


def query_vec() -> list[float]:
    return vec(1.0)


def episode(run_id: str, summary: str = "review a supply agreement", *, outcome: Outcome = Outcome.COMPLETED,
            created: datetime = NOW - timedelta(days=1), ttl_days: int = 90, model: str = MODEL,
            findings: list[str] | None = None) -> Episode:
    return Episode(run_id=run_id, task_type="review", task_summary=summary, outcome=outcome,
                   key_findings=findings or [], created_at=created, expires_at=created + timedelta(days=ttl_days),
                   embedding_model=model)


def fact(fact_id: str, text: str = "suppliers cap liability", *, domain: str = "supply") -> Fact:
    return Fact(fact_id=fact_id, domain=domain, text=text, confidence=0.8, source_runs=["r1", "r2", "r3"],
                created_at=NOW, updated_at=NOW, embedding_model=MODEL)


def procedure(procedure_id: str = "p1", task_type: str = "review", runs: tuple[str, ...] = ("r1",)) -> Procedure:
    return Procedure(procedure_id=procedure_id, task_type=task_type, title="Review in order",
                     steps=["list sections", "assess each clause"], source_runs=list(runs),
                     created_at=NOW, updated_at=NOW)


def query(text: str = "zzz", *, k: int = 3, min_score: float = 0.7, vector: list[float] | None = None,
          model: str = MODEL, domain: str | None = None, now: datetime = NOW) -> VectorQuery:
    return VectorQuery(text=text, vector=vector or query_vec(), embedding_model=model, k=k, min_score=min_score,
                       now=now, domain=domain)
