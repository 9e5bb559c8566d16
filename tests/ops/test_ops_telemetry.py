"""Retrieval telemetry: the read nodes record what each tier returned; the figures stats prints."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from langgraph.runtime import Runtime

from agent.settings import Settings
from graphs.memory_steps import episodic_read, procedural_read, semantic_read
from graphs.runner import context_from_settings
from memory.embeddings import HashEmbeddings
from memory.records import Episode, Fact, Namespace, Outcome, Procedure, ProcedureStatus
from memory.telemetry import Hit, RetrievalEvent, retrieval_stats, tier_stats

NS = Namespace(tenant="acme", agent="reviewer")
EMB = HashEmbeddings(256)
TASK = "Review the Northwind supply agreement: liability cap and termination"


def seed(memory, at: datetime) -> None:
    for run_id, summary in (("e-match", TASK), ("e-other", "Draft a non-disclosure agreement for a new hire")):
        e = Episode(run_id=run_id, task_type="supplier_contract_review", task_summary=summary,
                    outcome=Outcome.COMPLETED, created_at=at, expires_at=at + timedelta(days=90),
                    embedding_model=EMB.model_name)
        memory.episodes.add(NS, e, EMB.embed_documents([e.embedding_text()])[0])
    fact = Fact(fact_id="f1", domain="supplier_contracts", text="A liability cap below contract value is a red flag",
                confidence=0.9, embedding_model=EMB.model_name, created_at=at, updated_at=at)
    memory.facts.put(NS, fact, EMB.embed_documents([fact.text])[0])
    memory.procedures.propose(NS, Procedure(procedure_id="p1", task_type="supplier_contract_review", title="t",
                                            steps=["a"], created_at=at, updated_at=at))
    memory.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")


def read_all(memory, clock, run_id: str | None) -> dict:
    ctx = context_from_settings(Settings(fact_min_score=0.1), tenant=NS.tenant, agent=NS.agent,
                                task_type="supplier_contract_review", domain="supplier_contracts",
                                embeddings=EMB, memory=memory, clock=clock)
    runtime = Runtime(context=ctx)
    state = {"task": TASK, **({"run_id": run_id} if run_id else {})}
    for read in (episodic_read, semantic_read, procedural_read):
        state.update(read(state, runtime))
    return state


def test_every_read_of_a_run_is_recorded_with_ids_scores_and_latency(backend, clock):
    seed(backend, clock())
    clock.advance(days=1)
    state = read_all(backend, clock, "run-1")
    events = {e.tier: e for e in backend.telemetry.events(NS, since=clock() - timedelta(hours=1))}
    assert set(events) == {"episodic", "semantic", "procedural"}
    assert [h.id for h in events["episodic"].hits] == [e["item"]["run_id"] for e in state["episodes"]] == ["e-match"]
    assert events["episodic"].hits[0].score == state["episodes"][0]["score"]
    assert [h.id for h in events["semantic"].hits] == ["f1"]
    assert events["procedural"].hits == [Hit(id="p1")]
    assert all(e.at == clock() and e.run_id == "run-1" and e.latency_ms > 0 for e in events.values())

    read_all(backend, clock, None)  # `memory search` reads outside a run: not telemetry
    assert len(backend.telemetry.events(NS, since=clock() - timedelta(days=30))) == 3


def test_stats_per_tier_over_a_window_with_idle_memories(backend, clock):
    seed(backend, clock())
    clock.advance(days=40)
    read_all(backend, clock, "run-1")
    clock.advance(days=1)
    read_all(backend, clock, "run-2")
    stats = retrieval_stats(backend, NS, now=clock(), days=30)
    episodic = stats["episodic"]
    assert (episodic.size, episodic.reads, episodic.hit_rate) == (2, 2, 1.0)
    assert episodic.never_retrieved_ids == ["e-other"]  # 41 days old, never returned
    assert episodic.scores["count"] == 2 and episodic.scores["min"] == episodic.scores["max"]
    assert episodic.latency_ms["p50"] is not None and episodic.latency_ms["p95"] >= episodic.latency_ms["p50"]
    assert stats["procedural"].never_retrieved == 0 and stats["procedural"].hit_rate == 1.0
    # 31 days later nothing was read in the window: every old memory is idle
    later = retrieval_stats(backend, NS, now=clock() + timedelta(days=31), days=30)
    assert later["episodic"].reads == 0 and later["episodic"].hit_rate is None
    assert later["episodic"].never_retrieved == 2 and later["semantic"].never_retrieved_ids == ["f1"]


def test_score_distribution_and_latency_percentiles():
    now = datetime(2026, 5, 1, tzinfo=UTC)
    events = [RetrievalEvent(run_id=f"r{i}", tier="semantic", at=now - timedelta(days=1), latency_ms=float(i),
                             hits=[Hit(id="f", score=i / 10)] if i % 2 else []) for i in range(1, 21)]
    events.append(RetrievalEvent(run_id="old", tier="semantic", at=now - timedelta(days=8), latency_ms=999.0))
    young = [("f", now - timedelta(days=2))]  # too young to be called idle
    stats = tier_stats("semantic", events, young, now=now, days=7)
    assert (stats.reads, stats.hit_rate, stats.never_retrieved) == (20, 0.5, 0)
    assert stats.scores["min"] == 0.1 and stats.scores["max"] == 1.9 and stats.scores["p50"] == 1.0
    assert stats.latency_ms == {"p50": 10.5, "p95": 19.05, "max": 20.0}


def test_a_failing_telemetry_store_never_fails_the_read(backend, clock, caplog):
    seed(backend, clock())

    class Broken:
        def record(self, *args, **kwargs):
            raise RuntimeError("disk full")

    class Wrapped:
        episodes, facts, procedures, confirmations = backend.episodes, backend.facts, backend.procedures, None
        telemetry = Broken()

    with caplog.at_level(logging.WARNING):
        state = read_all(Wrapped(), clock, "run-1")
    assert [e["item"]["run_id"] for e in state["episodes"]] == ["e-match"]
    assert "telemetry not recorded" in caplog.text and "disk full" in caplog.text
