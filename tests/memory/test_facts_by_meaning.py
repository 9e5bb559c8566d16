"""Facts keyed by meaning, and the stricter gate: independent evidence, no party, no contradiction.

A fact is the claim it makes (subject, relation, value), not its words: a party's name around a
claim is not part of it, a fact naming a party or a company is refused, and a claim is promoted
only from three contracts of at least two counterparties and two templates. A claim that
contradicts the playbook's standard position is never promoted by runs: it waits in the review
queue for a person.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory import semantic
from memory.claims import Vocabulary, party_token, read_claims, template_token
from memory.fact_review import decide_fact, fact_queue
from memory.records import FactCandidate, FactStatus, Namespace, Outcome

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
VOCABULARY = Vocabulary(
    topics={"liability_cap": ["liability cap", "limitation of liability"], "payment_terms": ["payment terms"],
            "warranty": ["warranty"], "warranty_disclaimer": ["warranty disclaimer"]},
    positions={"liability_cap": {"unit": "x", "standard_min": 2.0}, "payment_terms": {"unit": "days", "standard_min": 60}},
)


def observe(memory, embeddings, run_id: str, text: str, *, contract: str, counterparty: str | None,
            template: str | None, parties: tuple[str, ...] = (), vocabulary: Vocabulary = VOCABULARY):
    return semantic.observe(
        memory.facts, memory.confirmations, embeddings, NS, run_id, Outcome.COMPLETED,
        [FactCandidate(text=text, domain="supplier_contracts", confidence=0.8)], now=NOW, source=contract,
        counterparty=party_token(counterparty) if counterparty else None,
        template=template_token(template.split("|")) if template else None, parties=parties, vocabulary=vocabulary)


def test_the_words_around_a_claim_are_not_the_fact(memory, wordllama):
    """Three suppliers' names around one claim: before, one bag of words "confirmed three times"
    (names included). Now the fact is the claim alone, its stored wording names no one."""
    suppliers = ["Quillon Trading", "Marrowgate Supply", "Oskarsson Haulage"]
    for i, name in enumerate(suppliers):
        observe(memory, wordllama, f"r{i}", f"{name} contracts place the liability cap clause in section 8.",
                contract=f"c{i}", counterparty=name, template=f"Definitions|Supply of {'ABC'[i]}|Liability")
    [fact] = memory.facts.list(NS)
    assert fact.text == "The liability_cap clause is usually in section 8.".replace("liability_cap", "liability cap")
    assert not any(word in fact.text for name in suppliers for word in name.split())


def test_a_fact_naming_a_party_or_a_company_is_refused(memory, wordllama):
    for i, (text, parties) in enumerate([
        ("Brightwater Ltd contracts place the liability cap clause in section 8.", ()),
        ("NORTHBANK GMBH contracts often deviate from the playbook on liability cap (high severity).", ()),
        ("Contracts from verity components place the liability cap clause in section 8.", ("Verity Components plc",)),
        ("Supplier contracts often deviate on payment terms for <PERSON>.", ()),
    ]):
        for run in range(3):
            observe(memory, wordllama, f"r{i}-{run}", text, contract=f"c{i}-{run}", counterparty=f"Party {run}",
                    template=f"T{run}", parties=parties)
    assert memory.facts.list(NS) == []


def test_rephrasings_share_a_key_and_other_values_do_not():
    same = ["Supplier contracts often deviate from the playbook on liability cap (high severity).",
            "Liability caps are often off-playbook (high severity)",
            "The limitation of liability usually deviates from the playbook - high severity"]
    assert len({semantic.fact_key(t, VOCABULARY) for t in same}) == 1
    assert semantic.fact_key("Payment terms are usually 30 days", VOCABULARY) != semantic.fact_key(
        "Payment terms are usually 45 days", VOCABULARY)
    # "warranty" inside "warranty disclaimer" names the longer topic
    assert read_claims("The warranty disclaimer is often missing", VOCABULARY)[0].subject == "warranty_disclaimer"
    assert read_claims("Warranty and payment terms often deviate", VOCABULARY) == ()  # two subjects: no claim


@pytest.mark.parametrize("contracts, counterparties, templates, confirmed", [
    (["c1", "c2", "c3"], ["Acme", "Acme", "Acme"], ["A", "B", "C"], False),  # one counterparty
    (["c1", "c2", "c3"], ["Acme", "Globex", "Initech"], ["A", "A", "A"], False),  # one template
    (["c1", "c1", "c1"], ["Acme", "Globex", "Initech"], ["A", "B", "C"], False),  # one contract
    (["c1", "c2", "c3"], [None, None, None], [None, None, None], False),  # not said: never enough
    (["c1", "c2", "c3"], ["Acme", "Globex", "Acme"], ["A", "B", "A"], True),
])
def test_confirmation_needs_three_contracts_two_counterparties_two_templates(memory, wordllama, contracts,
                                                                              counterparties, templates, confirmed):
    text = "Supplier contracts often deviate from the playbook on liability cap (high severity)."
    for i, (contract, counterparty, template) in enumerate(zip(contracts, counterparties, templates, strict=True)):
        observe(memory, wordllama, f"run-{i}", text, contract=contract, counterparty=counterparty,
                template=f"Definitions|{template}|Liability" if template else None)
    assert bool(memory.facts.list(NS)) is confirmed


def _three_independent(memory, wordllama, text: str, prefix: str = "r"):
    for i, (counterparty, template) in enumerate([("Acme", "A"), ("Globex", "B"), ("Initech", "C")]):
        observe(memory, wordllama, f"{prefix}{i}", text, contract=f"{prefix}c{i}", counterparty=counterparty,
                template=template)


def test_a_claim_against_the_playbook_waits_for_a_person_and_is_never_served(memory, wordllama):
    _three_independent(memory, wordllama, "Liability caps of 0.1x are usually standard in supplier contracts.")
    [fact] = memory.facts.list(NS)
    assert fact.status == FactStatus.QUEUED and "below the playbook's standard minimum of 2x" in fact.review_reason
    assert semantic.recall(memory.facts, wordllama, NS, "liability cap standard", k=5, min_score=0.0, now=NOW) == []
    [item] = fact_queue(memory.facts, memory.confirmations, NS)
    assert item.fact.fact_id == fact.fact_id and item.runs == ["r0", "r1", "r2"]
    # a claim the playbook agrees with is promoted at once
    _three_independent(memory, wordllama, "Liability caps of 3x are usually standard.", prefix="g")
    served = semantic.recall(memory.facts, wordllama, NS, "liability cap standard", k=5, min_score=0.0, now=NOW)
    assert [s.item.text for s in served] == ["Liability cap at 3x is usually standard."]


def test_a_person_approves_or_rejects_a_queued_fact(memory, wordllama):
    _three_independent(memory, wordllama, "Payment terms of 15 days are acceptable.")
    [fact] = memory.facts.list(NS)
    with pytest.raises(ValueError, match="needs the name"):
        decide_fact(memory.facts, wordllama, NS, fact.fact_id, "approve", by=" ")
    rejected = decide_fact(memory.facts, wordllama, NS, fact.fact_id, "reject", by="dana")
    assert rejected.status == FactStatus.REJECTED and rejected.decided_by == "dana"
    # later runs observing it again do not bring it back
    _three_independent(memory, wordllama, "Payment terms of 15 days are acceptable.", prefix="later")
    assert memory.facts.get(NS, fact.fact_id).status == FactStatus.REJECTED
    assert semantic.recall(memory.facts, wordllama, NS, "payment terms", k=5, min_score=0.0, now=NOW) == []
    assert fact_queue(memory.facts, memory.confirmations, NS) == []

    _three_independent(memory, wordllama, "Liability caps of 0.5x are usually standard.", prefix="h")
    [queued] = [f for f in memory.facts.list(NS) if f.status == FactStatus.QUEUED]
    approved = decide_fact(memory.facts, wordllama, NS, queued.fact_id, "approve", by="dana")
    assert approved.served and approved.decided_by == "dana"
    assert [s.item.fact_id for s in semantic.recall(memory.facts, wordllama, NS, "liability cap", k=5,
                                                    min_score=0.0, now=NOW)] == [queued.fact_id]


def test_a_fact_that_claims_nothing_readable_is_not_learned(memory, wordllama):
    for text in ("Indemnities are typically mutual and fair.", "Always be careful with this supplier."):
        _three_independent(memory, wordllama, text)
    assert memory.facts.list(NS) == []


def test_tokens_keep_no_name_and_fold_spellings():
    assert party_token("Acme Widgets Ltd") == party_token("ACME WIDGETS LIMITED") == party_token("acme widgets, ltd.")
    assert "acme" not in party_token("Acme Widgets Ltd") and party_token("Acme") != party_token("Globex")
    assert template_token(["1. Definitions", "2. Supply"]) == template_token(["1 DEFINITIONS", "2 Supply"])
    assert template_token(["Definitions", "Supply"]) != template_token(["Definitions", "Liability"])
