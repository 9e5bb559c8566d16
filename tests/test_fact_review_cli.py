"""`contract-review memory review facts`: a person sees the facts that contradict the playbook and decides."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cli.main import main
from memory import semantic
from memory.backends import open_memory
from memory.claims import Vocabulary, party_token, template_token
from memory.embeddings import load_embeddings
from memory.records import FactCandidate, Namespace, Outcome

NOW = datetime(2026, 6, 1, tzinfo=UTC)
VOCABULARY = Vocabulary(topics={"liability_cap": ["liability cap"]},
                        positions={"liability_cap": {"unit": "x", "standard_min": 2.0}})


def _queue_one(settings) -> str:
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    embeddings = load_embeddings(settings.embeddings)
    for i, (party, heading) in enumerate([("Acme", "A"), ("Globex", "B"), ("Initech", "C")]):
        semantic.observe(memory.facts, memory.confirmations, embeddings, ns, f"r{i}", Outcome.COMPLETED,
                         [FactCandidate(text="Liability caps of 0.25x are usually standard.", confidence=0.9)],
                         now=NOW, source=f"c{i}", counterparty=party_token(party), template=template_token([heading]),
                         vocabulary=VOCABULARY)
    [fact] = memory.facts.list(ns)
    memory.close()
    return fact.fact_id


def test_the_queue_is_listed_and_a_person_approves_from_the_cli(settings, capsys):
    fact_id = _queue_one(settings)
    assert main(["memory", "review", "facts", "--format", "json"]) == 0
    [item] = json.loads(capsys.readouterr().out)
    assert item["fact"]["fact_id"] == fact_id and item["fact"]["status"] == "queued"
    assert "0.25x is below the playbook's standard minimum of 2x" in item["reason"]
    assert item["runs"] == ["r0", "r1", "r2"]

    assert main(["memory", "review", "facts", "approve", fact_id]) == 3  # a decision needs a name
    assert "--by" in capsys.readouterr().err
    assert main(["memory", "review", "facts", "approve", fact_id, "--by", "dana", "--format", "json"]) == 0
    approved = json.loads(capsys.readouterr().out)
    assert approved["status"] == "confirmed" and approved["decided_by"] == "dana"
    assert main(["memory", "review", "facts"]) == 0
    assert "is empty" in capsys.readouterr().out
    assert main(["memory", "review", "facts", "reject", fact_id, "--by", "dana"]) == 3  # no longer waiting
    assert "not waiting for review" in capsys.readouterr().err


def test_a_rejected_fact_stays_out_of_a_search(settings, capsys):
    fact_id = _queue_one(settings)
    assert main(["memory", "review", "facts", "reject", fact_id, "--by", "dana"]) == 0
    capsys.readouterr()
    assert main(["memory", "search", "Review the liability cap", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["facts"] == []
