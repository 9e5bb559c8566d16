"""Fact store and confirmation log rules every backend must keep."""

from __future__ import annotations

import threading

from memory.records import Namespace
from tests.conformance.support import NS, fact, query, query_vec, vec


def test_a_put_fact_is_searchable_at_once_and_replaced_by_id(backend):
    backend.facts.put(NS, fact("f1", "suppliers cap liability"), vec(0.9))
    assert [s.item.fact_id for s in backend.facts.search(NS, query(min_score=0.6))] == ["f1"]
    backend.facts.put(NS, fact("f1", "suppliers cap liability at 2x"), vec(0.3))
    assert backend.facts.search(NS, query(min_score=0.6)) == []
    assert backend.facts.get(NS, "f1").text == "suppliers cap liability at 2x"
    assert len(backend.facts.list(NS)) == 1


def test_fact_search_respects_min_score_and_k(backend):
    for i, cosine in enumerate([0.95, 0.9, 0.85, 0.5]):
        backend.facts.put(NS, fact(f"f{i}"), vec(cosine, 1 + i))
    results = backend.facts.search(NS, query(min_score=0.6, k=2))
    assert [s.item.fact_id for s in results] == ["f0", "f1"]
    assert {s.item.fact_id for s in backend.facts.search(NS, query(min_score=0.6, k=10))} == {"f0", "f1", "f2"}


def test_fact_search_filters_by_domain(backend):
    backend.facts.put(NS, fact("supply", domain="supply"), vec(0.9, 1))
    backend.facts.put(NS, fact("employment", domain="employment"), vec(0.95, 2))
    assert [s.item.fact_id for s in backend.facts.search(NS, query(domain="supply"))] == ["supply"]
    assert [s.item.fact_id for s in backend.facts.search(NS, query(k=5))] == ["employment", "supply"]
    assert [f.fact_id for f in backend.facts.list(NS, domain="employment")] == ["employment"]


def test_facts_are_shared_by_agents_of_a_tenant_and_isolated_between_tenants(backend):
    backend.facts.put(NS, fact("f1"), vec(0.9))
    colleague = Namespace(tenant=NS.tenant, agent="drafter")
    stranger = Namespace(tenant="globex", agent=NS.agent)
    assert [s.item.fact_id for s in backend.facts.search(colleague, query())] == ["f1"]
    assert backend.facts.search(stranger, query(min_score=0.0)) == []
    assert backend.facts.get(stranger, "f1") is None
    assert backend.facts.delete(stranger, ["f1"]) == 0
    assert backend.facts.delete(NS, ["f1"]) == 1
    assert backend.facts.search(colleague, query()) == []


def test_the_same_run_observing_twice_counts_once(backend):
    log = backend.confirmations
    assert log.observe(NS, "key", "run-1") == 1
    assert log.observe(NS, "key", "run-1") == 1
    assert log.observe(NS, "key", "run-2") == 2
    assert log.observe(NS, "other-key", "run-1") == 1
    assert sorted(log.runs(NS, "key")) == ["run-1", "run-2"]


def test_runs_over_one_source_confirm_once(backend):
    log = backend.confirmations
    assert log.observe(NS, "key", "run-1", "contract-a") == 1
    assert log.observe(NS, "key", "run-2", "contract-a") == 1  # the same contract again
    assert log.observe(NS, "key", "run-3", "contract-b") == 2
    assert log.observe(NS, "key", "run-2", "contract-c") == 2  # a run keeps the source it first gave
    assert log.observe(NS, "key", "run-4") == 3  # no source: the run is its own
    assert sorted(log.runs(NS, "key")) == ["run-1", "run-2", "run-3", "run-4"]  # provenance keeps every run


def test_confirmations_are_per_tenant(backend):
    backend.confirmations.observe(NS, "key", "run-1")
    assert backend.confirmations.observe(Namespace(tenant=NS.tenant, agent="drafter"), "key", "run-2") == 2
    assert backend.confirmations.observe(Namespace(tenant="globex", agent=NS.agent), "key", "run-3") == 1
    assert backend.confirmations.runs(Namespace(tenant="globex", agent="x"), "key") == ["run-3"]


def test_concurrent_observations_count_exactly(backend):
    counts: list[int] = []
    lock = threading.Lock()

    def observe(run: str) -> None:
        for _ in range(3):
            n = backend.confirmations.observe(NS, "shared", run)
            with lock:
                counts.append(n)

    threads = [threading.Thread(target=observe, args=(f"run-{i % 10}",)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(backend.confirmations.runs(NS, "shared")) == 10
    assert max(counts) == 10 and counts.count(10) >= 1


def test_deleted_and_replaced_facts_never_come_back(backend):
    for i in range(12):
        backend.facts.put(NS, fact(f"f{i}", f"filler fact number {i}"), vec(0.7, 1 + i % 7))
    backend.facts.put(NS, fact("gone", "Globex caps liability in clause 7.3"), query_vec())
    backend.facts.put(NS, fact("moved", "a fact that moves away"), vec(0.99, 2))
    assert {s.item.fact_id for s in backend.facts.search(NS, query(k=2))} == {"gone", "moved"}
    assert backend.facts.delete(NS, ["gone"]) == 1
    backend.facts.put(NS, fact("moved", "a fact that moved away"), vec(0.1, 3))  # replaced: new vector
    found = backend.facts.search(NS, query("Globex clause 7.3", k=20, min_score=0.5))
    assert "gone" not in [s.item.fact_id for s in found]
    assert "moved" not in [s.item.fact_id for s in found]
    again = backend.facts.search(NS, query(k=20, min_score=-1.0))
    assert [round(s.score, 2) for s in again if s.item.fact_id == "moved"] == [0.1]


def test_a_facts_review_status_reason_and_decider_survive_every_backend(backend):
    """A fact queued for review (or decided on by a person) reads back as written: the status is
    what keeps it from being served (memory.semantic.recall)."""
    from memory.records import FactStatus

    queued = fact("q1", "liability caps of 0.1x are usually standard").model_copy(
        update={"status": FactStatus.QUEUED, "review_reason": "below the standard minimum of 2x"})
    backend.facts.put(NS, queued, vec(0.9))
    stored = backend.facts.get(NS, "q1")
    assert stored.status == FactStatus.QUEUED and stored.review_reason == "below the standard minimum of 2x"
    assert not stored.served and [s.item.status for s in backend.facts.search(NS, query())] == [FactStatus.QUEUED]
    backend.facts.put(NS, stored.model_copy(update={"status": FactStatus.REJECTED, "decided_by": "dana"}), vec(0.9))
    assert backend.facts.get(NS, "q1").decided_by == "dana"
    assert [f.status for f in backend.facts.list(NS)] == [FactStatus.REJECTED]
