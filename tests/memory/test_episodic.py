"""Remembering runs as episodes and recalling similar ones with the real offline embeddings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import episodic
from memory.embeddings import calibrated_thresholds
from memory.errors import MemoryConfigError
from memory.records import Namespace, Outcome, RunArtifacts

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")


def artifacts(summary: str, outcome: Outcome = Outcome.COMPLETED) -> RunArtifacts:
    return RunArtifacts(task_summary=summary, outcome=outcome,
                        key_findings=["liability_cap in section 9.2: deviation (high)"], approach="read every clause")


def test_remember_is_idempotent_and_records_model_and_expiry(memory, wordllama):
    first = episodic.remember(memory.episodes, wordllama, NS, "run-1", "review",
                              artifacts("Review the Acme supply agreement"), ttl_days=90, now=NOW)
    assert first.expires_at == NOW + timedelta(days=90)
    assert first.embedding_model == "wordllama-l2-supercat-256"
    again = episodic.remember(memory.episodes, wordllama, NS, "run-1", "review",
                              artifacts("something else"), ttl_days=90, now=NOW)
    assert again is None
    assert memory.episodes.get(NS, "run-1").task_summary == "Review the Acme supply agreement"


def test_recall_ranks_the_reworded_task_first_and_drops_other_domains(memory, wordllama):
    episode_min, _ = calibrated_thresholds(wordllama.model_name)
    for run_id, summary in [
        ("liability", "Review the supplier agreement for liability caps and indemnification exposure"),
        ("recipe", "Write a recipe for a vegetarian lasagne"),
        ("payment", "Check payment timing in a packaging contract"),
    ]:
        episodic.remember(memory.episodes, wordllama, NS, run_id, "review", artifacts(summary), ttl_days=90, now=NOW)
    hits = episodic.recall(memory.episodes, wordllama, NS,
                           "Review the supply contract for liability and indemnity risks",
                           k=3, min_score=episode_min, now=NOW)
    assert hits[0].item.run_id == "liability" and hits[0].score >= episode_min
    assert "recipe" not in [h.item.run_id for h in hits]
    assert all(h.score >= episode_min for h in hits)


def test_recall_stops_at_the_ttl(memory, wordllama):
    episodic.remember(memory.episodes, wordllama, NS, "run-1", "review", artifacts("Review the Acme supply agreement"),
                      ttl_days=10, now=NOW)
    task = "Review the Acme supply agreement"
    assert len(episodic.recall(memory.episodes, wordllama, NS, task, k=3, min_score=0.5, now=NOW + timedelta(days=9))) == 1
    assert episodic.recall(memory.episodes, wordllama, NS, task, k=3, min_score=0.5, now=NOW + timedelta(days=11)) == []


def test_bad_inputs(memory, wordllama):
    with pytest.raises(MemoryConfigError):
        episodic.remember(memory.episodes, wordllama, NS, "r", "review", artifacts("x"), ttl_days=0, now=NOW)
    assert episodic.recall(memory.episodes, wordllama, NS, "   ", k=3, min_score=0.5, now=NOW) == []
    assert episodic.recall(memory.episodes, wordllama, NS, "anything", k=0, min_score=0.5, now=NOW) == []


def test_recall_prefers_episodes_of_the_same_counterparty_among_those_admitted(memory, wordllama):
    """Issue 19: another supplier's episode more similar than the threshold (a different template)
    no longer outranks the same supplier's; the counterparty orders, the threshold still admits."""
    episode_min, _ = calibrated_thresholds(wordllama.model_name)
    task = "Review the supply framework agreement for liability caps and indemnification exposure"
    for run_id, summary, party in [
        ("other", "Review the supply framework agreement for liability caps and indemnification exposure", "Northwind Components Ltd"),
        ("same", "Review the supply framework agreement for liability caps", "Kestrel Fluid Power Systems, Inc."),
        ("recipe", "Write a recipe for a vegetarian lasagne", "KESTREL FLUID POWER SYSTEMS INC"),
    ]:
        episodic.remember(memory.episodes, wordllama, NS, run_id, "review", artifacts(summary), ttl_days=90, now=NOW,
                          counterparty=party)
    plain = episodic.recall(memory.episodes, wordllama, NS, task, k=3, min_score=episode_min, now=NOW)
    assert [h.item.run_id for h in plain][:2] == ["other", "same"]  # similarity alone
    hits = episodic.recall(memory.episodes, wordllama, NS, task, k=3, min_score=episode_min, now=NOW,
                           counterparty="KESTREL FLUID POWER SYSTEMS, INC")
    assert [h.item.run_id for h in hits] == ["same", "other"]  # the recipe is still not admitted
    assert memory.episodes.get(NS, "same").counterparty == "Kestrel Fluid Power Systems, Inc."


def test_same_party_compares_names_loosely():
    assert episodic.same_party("Kestrel Fluid Power Systems, Inc.", "KESTREL FLUID POWER SYSTEMS INC")
    assert not episodic.same_party("Kestrel Fluid Power Systems, Inc.", "Kestrel Pumps Inc.")
    assert not episodic.same_party("", "")
