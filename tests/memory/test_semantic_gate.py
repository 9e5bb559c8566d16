"""The confirmation gate: facts reach semantic memory only after 3 distinct completed runs (each
run here reviews its own contract, from its own counterparty and template: tests/memory/
test_facts_by_meaning.py covers what happens when they are not distinct)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory import semantic
from memory.errors import MemoryConfigError
from memory.records import FactCandidate, Namespace, Outcome, RunArtifacts

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
REPHRASINGS = [
    "Clause 7.3 of supplier contracts usually caps liability; below 2x contract value is a red flag.",
    "In supplier contracts, clause 7.3 typically caps the liability. A cap below two times the contract value is a red flag!",
    "Supplier contracts usually cap liability in clause 7.3 -- below twice the contract value is a red flag",
]


def run(text: str, *, outcome: Outcome = Outcome.COMPLETED, confidence: float = 0.9,
        domain: str = "supplier_contracts") -> RunArtifacts:
    return RunArtifacts(outcome=outcome, fact_candidates=[FactCandidate(text=text, domain=domain, confidence=confidence)])


def distinct(run_id: str) -> dict:
    """A run over its own contract, counterparty and template."""
    return {"source": f"c-{run_id}", "counterparty": f"cp-{run_id}", "template": f"tpl-{run_id}"}


def observe(memory, embeddings, run_id: str, artifacts: RunArtifacts, ns: Namespace = NS):
    return semantic.observe(memory.facts, memory.confirmations, embeddings, ns, run_id, artifacts.outcome,
                            artifacts.fact_candidates, now=NOW, **distinct(run_id))


def test_rephrasings_normalise_to_one_key_and_meanings_do_not():
    assert len({semantic.fact_key(t) for t in REPHRASINGS}) == 1
    assert semantic.normalise_fact("Payment is due within thirty days") == semantic.normalise_fact("payment due in 30 days.")
    assert semantic.normalise_fact("USD 2,000,000 insurance") != semantic.normalise_fact("USD 3,000,000 insurance")
    assert semantic.fact_key("Liability caps are usually standard") != semantic.fact_key(
        "Liability caps are not usually standard")
    topics = semantic.Vocabulary(topics={"liability_cap": ["liability cap", "liability"]})
    with pytest.raises(MemoryConfigError):  # with a vocabulary, a fact that claims nothing readable is not learned
        semantic.fact_key("Liability is capped", topics)
    # with none (an agent of another domain), a statement is one claim, keyed by its content words
    assert semantic.fact_key("Double charges are handled by the billing team") == semantic.fact_key(
        "the billing team handles double charges")


def test_three_distinct_rephrasing_runs_confirm_a_fact_that_is_searchable_at_once(memory, wordllama):
    assert observe(memory, wordllama, "run-1", run(REPHRASINGS[0])) == []
    assert observe(memory, wordllama, "run-2", run(REPHRASINGS[1])) == []
    assert memory.facts.list(NS) == []
    confirmed = observe(memory, wordllama, "run-3", run(REPHRASINGS[2]))
    assert [f.source_runs for f in confirmed] == [["run-1", "run-2", "run-3"]]
    found = semantic.recall(memory.facts, wordllama, NS, "Review the liability cap of the supplier contract",
                            k=5, min_score=0.15, now=NOW)
    assert [s.item.fact_id for s in found] == [confirmed[0].fact_id]
    # a fourth run refreshes the fact instead of confirming it again
    assert observe(memory, wordllama, "run-4", run(REPHRASINGS[0], confidence=0.95)) == []
    stored = memory.facts.get(NS, confirmed[0].fact_id)
    assert stored.source_runs == ["run-1", "run-2", "run-3", "run-4"] and stored.confidence == 0.95


def test_the_same_run_repeating_a_fact_counts_once(memory, wordllama):
    for _ in range(3):
        assert observe(memory, wordllama, "run-1", run(REPHRASINGS[0])) == []
    assert observe(memory, wordllama, "run-2", run(REPHRASINGS[1])) == []
    assert memory.facts.list(NS) == []


@pytest.mark.parametrize("artifacts", [
    run(REPHRASINGS[0], outcome=Outcome.PARTIAL),
    run(REPHRASINGS[0], outcome=Outcome.FAILED),
    run(REPHRASINGS[0], outcome=Outcome.UNKNOWN),
    run(REPHRASINGS[0], confidence=0.69),
])
def test_only_confident_completed_runs_count(memory, wordllama, artifacts):
    for i in range(4):
        observe(memory, wordllama, f"run-{i}", artifacts)
    assert memory.confirmations.runs(NS, semantic.fact_key(REPHRASINGS[0])) == []
    assert memory.facts.list(NS) == []


def test_agents_of_a_tenant_confirm_together_tenants_apart(memory, wordllama):
    other_agent = Namespace(tenant="acme", agent="drafter")
    other_tenant = Namespace(tenant="globex", agent="reviewer")
    observe(memory, wordllama, "run-1", run(REPHRASINGS[0]))
    observe(memory, wordllama, "run-2", run(REPHRASINGS[1]), ns=other_agent)
    observe(memory, wordllama, "run-3", run(REPHRASINGS[2]), ns=other_tenant)
    assert memory.facts.list(NS) == []
    assert len(observe(memory, wordllama, "run-4", run(REPHRASINGS[2]), ns=other_agent)) == 1
    assert memory.facts.list(other_tenant) == []


def test_fact_recall_filters_by_domain(memory, wordllama):
    for i in range(3):
        observe(memory, wordllama, f"s{i}", run("Liability caps below 2x the fees are a red flag", domain="supply"))
        observe(memory, wordllama, f"e{i}", run("Liability of employees is usually capped at 1x salary", domain="employment"))
    hits = semantic.recall(memory.facts, wordllama, NS, "liability cap", domain="supply", k=5, min_score=0.0, now=NOW)
    assert {s.item.domain for s in hits} == {"supply"}
    assert len(semantic.recall(memory.facts, wordllama, NS, "liability cap", k=5, min_score=0.0, now=NOW)) == 2


def test_bad_gate_settings_and_empty_facts_are_refused(memory, wordllama):
    artifacts = run("x y")
    with pytest.raises(MemoryConfigError):
        semantic.observe(memory.facts, memory.confirmations, wordllama, NS, "r", artifacts.outcome,
                         artifacts.fact_candidates, confirmations_needed=0, now=NOW)
    assert observe(memory, wordllama, "run-1", run("the of and")) == []  # nothing but stopwords


def test_general_facts_take_the_default_domain(memory, wordllama):
    for i in range(3):
        artifacts = run("Liability caps below 2x the fees are a red flag", domain="general")
        confirmed = semantic.observe(memory.facts, memory.confirmations, wordllama, NS, f"r{i}", artifacts.outcome,
                                     artifacts.fact_candidates, default_domain="supplier_contracts", now=NOW,
                                     **distinct(f"r{i}"))
    assert [f.domain for f in confirmed] == ["supplier_contracts"]


def test_an_observation_needs_its_runs_episode_first(memory, wordllama):
    """The episode is the run's commit marker: before it exists, the run observes nothing."""
    from datetime import timedelta

    from memory import episodic
    from memory.errors import MemoryRequestError

    artifacts = run(REPHRASINGS[0])
    with pytest.raises(MemoryRequestError, match="no episode yet"):
        semantic.observe(memory.facts, memory.confirmations, wordllama, NS, "run-1", artifacts.outcome,
                         artifacts.fact_candidates, now=NOW, episodes=memory.episodes)
    assert memory.confirmations.runs(NS, semantic.fact_key(REPHRASINGS[0])) == []
    episodic.remember(memory.episodes, wordllama, NS, "run-1", "review", artifacts, ttl_days=90, now=NOW)
    semantic.observe(memory.facts, memory.confirmations, wordllama, NS, "run-1", artifacts.outcome,
                     artifacts.fact_candidates, now=NOW + timedelta(seconds=1), episodes=memory.episodes)
    assert memory.confirmations.runs(NS, semantic.fact_key(REPHRASINGS[0])) == ["run-1"]
