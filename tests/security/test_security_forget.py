"""`memory forget --tenant T` erases every trace of T, leaves every other tenant whole, and says
what it removed; afterwards not even the raw bytes of the store hold T's data."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest

from cli.main import main
from graphs.runner import Reviewer, open_checkpointer
from memory import procedural, semantic
from memory.backends import open_memory
from memory.embeddings import load_embeddings
from memory.errors import MemoryRequestError
from memory.forget import forget_tenant
from memory.records import (
    Episode,
    FactCandidate,
    Namespace,
    Outcome,
    ProcedureProposal,
)
from tests.conftest import SAMPLES
from tests.security.support import MODEL, NOW, inner, query, raw_bytes, vector

EMBEDDINGS = load_embeddings("hash:16")
# "acme.eu" and "acmex" share a prefix with "acme": erasing "acme" must not touch them
TENANTS = ("acme", "acme.eu", "acmex")
AGENTS = ("reviewer", "auditor")


def marker(tenant: str) -> str:
    return f"zq{tenant.replace('.', 'dot')}marker"


def populate(backend, tenant: str) -> None:
    """Two agents' episodes and procedures, a confirmed fact, observations and a counted use."""
    for agent in AGENTS:
        ns = Namespace(tenant=tenant, agent=agent)
        for i in range(3):
            run = f"run-{agent}-{i}"
            text = f"Review for {marker(tenant)} number {i}"
            backend.episodes.add(ns, Episode(
                run_id=run, task_type="review", task_summary=text, outcome=Outcome.COMPLETED,
                key_findings=[f"liability_cap in section 9.{i}: deviation (high)"], created_at=NOW,
                expires_at=NOW + timedelta(days=90), embedding_model=MODEL), vector(text))
            semantic.observe(backend.facts, backend.confirmations, EMBEDDINGS, ns, run, Outcome.COMPLETED,
                             [FactCandidate(text=f"Caps below {marker(tenant)} are a red flag", confidence=0.9)],
                             now=NOW, source=run, counterparty=f"cp-{i}", template=f"tpl-{i}")
            proposed = procedural.propose(backend.procedures, ns, run, "review", Outcome.COMPLETED,
                                          ProcedureProposal(title=f"Steps of {marker(tenant)}", steps=["read 9.2"]),
                                          now=NOW)
        procedural.approve(backend.procedures, ns, proposed.procedure_id, by="dana")
        procedural.record_application(backend.procedures, ns, proposed.procedure_id, success=True, run_id="use-1")


def holdings(backend, tenant: str) -> dict[str, int]:
    found = {"episodes": 0, "facts": 0, "procedures": 0, "observations": 0}
    for agent in AGENTS:
        ns = Namespace(tenant=tenant, agent=agent)
        found["episodes"] += len(backend.episodes.list(ns, limit=100)) + len(backend.episodes.search(ns, query("Review")))
        found["procedures"] += len(backend.procedures.list(ns)) + int(backend.procedures.best(ns, "review") is not None)
    ns = Namespace(tenant=tenant, agent=AGENTS[0])
    found["facts"] = len(backend.facts.list(ns, limit=100)) + len(backend.facts.search(ns, query("Caps red flag")))
    key = semantic.fact_key(f"Caps below {marker(tenant)} are a red flag")
    found["observations"] = len(backend.confirmations.runs(ns, key))
    return found


def test_forgetting_a_tenant_removes_all_of_it_and_nothing_else(backend, tmp_path):
    for tenant in TENANTS:
        populate(backend, tenant)
    before = {tenant: holdings(backend, tenant) for tenant in TENANTS}
    assert all(all(before[t].values()) for t in TENANTS), "every tenant holds data in every tier"

    removed = forget_tenant(inner(backend), "acme")

    assert removed["episodes"] == 6  # 2 agents x 3 runs
    assert removed["facts"] == 1  # facts are tenant-wide: one confirmed fact
    assert removed["procedures"] == 2  # one per agent
    assert removed["confirmations"] >= 1
    assert holdings(backend, "acme") == {"episodes": 0, "facts": 0, "procedures": 0, "observations": 0}
    for other in TENANTS[1:]:
        assert holdings(backend, other) == before[other]
    stored = raw_bytes(backend, tmp_path)
    assert marker("acme").encode() not in stored, "erased text still lies in the store's raw bytes"
    for other in TENANTS[1:]:
        assert marker(other).encode() in stored
    assert forget_tenant(inner(backend), "acme")["episodes"] == 0  # erasing again finds nothing


def test_forget_refuses_a_crafted_tenant_id(backend):
    for crafted in ("acme/reviewer", "acme#", "", "*"):
        with pytest.raises(MemoryRequestError):
            forget_tenant(inner(backend), crafted)


def test_the_cli_erases_a_tenant_with_its_checkpoints_and_says_what_it_removed(settings, capsys):
    # finished runs' checkpoints kept a day (default: deleted when the episode is written)
    on_disk = settings.model_copy(update={"checkpointer": "sqlite", "checkpoint_keep_completed_days": 1})
    with open_checkpointer(on_disk) as saver:
        for tenant in ("acme", "globex"):
            Reviewer(on_disk, saver, tenant=tenant).review_path(SAMPLES / "northwind_msa_01.txt", thread_id=f"{tenant}-run")

    code = main(["memory", "forget", "--tenant", "acme", "--yes", "--format", "json"])
    out = json.loads(capsys.readouterr().out)

    assert code == 0
    assert out["tenant"] == "acme"
    assert out["removed"]["episodes"] == 1 and out["removed"]["checkpoint_threads"] == 1
    assert out["removed"]["procedures"] == 1 and out["removed"]["confirmations"] >= 1
    memory = open_memory(settings.resolved_memory_url())
    assert memory.episodes.list(Namespace(tenant="acme", agent=settings.agent)) == []
    assert [e.run_id for e in memory.episodes.list(Namespace(tenant="globex", agent=settings.agent))] == ["globex-run"]
    memory.close()
    with sqlite3.connect(settings.checkpoint_path) as conn:
        threads = {r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")}
    assert threads == {f"globex/{settings.agent}/globex-run"}
    assert b"acme-run" not in settings.checkpoint_path.read_bytes()

    code = main(["memory", "forget", "--tenant", "acme", "--yes"])
    text = capsys.readouterr().out
    assert code == 0 and "erased tenant acme: 0 record(s)" in text


def test_the_cli_asks_before_erasing_and_refuses_bad_requests(settings, capsys, monkeypatch):
    settings.home.mkdir(parents=True, exist_ok=True)  # an install with a data folder
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("n\n"))
    assert main(["memory", "forget", "--tenant", "acme"]) == 130  # declined: aborted, nothing done
    capsys.readouterr()
    assert main(["memory", "forget"]) == 2  # nothing named
    assert main(["memory", "forget", "--record", "f1", "--run", "r1"]) == 2
    assert main(["memory", "forget", "--tenant", "a#b", "--yes"]) == 3
    assert "invalid id" in capsys.readouterr().err


def test_erasing_a_tenant_on_aws_deletes_its_documents_and_resyncs_the_knowledge_base(tmp_path):
    pytest.importorskip("moto")
    from botocore.stub import ANY
    from moto import mock_aws

    from tests.aws.fixtures import KnowledgeBaseStubs
    from tests.aws.moto_support import clients, open_backend
    from tests.security.support import s3_objects

    with mock_aws():
        made = clients()
        with KnowledgeBaseStubs(made) as stubs:
            memory = open_backend(made, extra="&kb_id=KB12345678&data_source_id=DS12345678&ingest_batch=10"
                                              "&kb_embedding_model=test-model")
            for tenant in ("acme", "acmex"):
                ns = Namespace(tenant=tenant, agent="reviewer")
                for i in range(2):
                    semantic.observe(memory.facts, memory.confirmations, EMBEDDINGS, ns, f"r{i}", Outcome.COMPLETED,
                                     [FactCandidate(text=f"Fact {('alpha', 'beta')[i]} of {marker(tenant)} is usually standard",
                                                    confidence=0.9)],
                                     confirmations_needed=1, min_counterparties=1, min_templates=1, now=NOW)
            assert len(s3_objects(memory)) == 8  # 2 tenants x 2 facts x (document + sidecar)
            stubs.agent.add_response(
                "start_ingestion_job",
                {"ingestionJob": {"knowledgeBaseId": "KB12345678", "dataSourceId": "DS12345678",
                                  "ingestionJobId": "ERASE1", "status": "STARTING", "startedAt": NOW, "updatedAt": NOW}},
                {"knowledgeBaseId": "KB12345678", "dataSourceId": "DS12345678", "clientToken": ANY, "description": ANY},
            )
            removed = forget_tenant(memory, "acme")
            stubs.assert_all_used()  # one sync job, so the Knowledge Base index drops the documents
            remaining = sorted(s3_objects(memory))
    assert removed["facts"] == 2 and removed["fact_documents"] == 2
    assert removed["knowledge_base_sync_started"] == 1
    assert len(remaining) == 4 and all(key.startswith("facts/acmex/") for key in remaining)
    assert "acme" not in memory.facts.touched  # nothing of acme is left waiting to be flushed
