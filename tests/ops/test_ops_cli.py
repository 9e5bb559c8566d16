"""The operator's commands as a user meets them: decay, review, reembed, stats."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from cli.main import main
from memory.backends import open_memory
from memory.embeddings import HashEmbeddings
from memory.records import Episode, Namespace, Outcome, Procedure, ProcedureStatus
from tests.conftest import SAMPLES
from tests.ops.conftest import HAVE_AWS

NS = Namespace(tenant="default", agent="contract-reviewer")
EMB = HashEmbeddings(256)


def run(argv, capsys, input_text: str | None = None, monkeypatch=None):
    if input_text is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(input_text))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def memory(home):
    opened = open_memory(f"sqlite:///{home / 'memory.sqlite'}")
    yield opened
    opened.close()


def proposal(memory, pid: str, steps: list[str], *, runs: tuple[str, ...] = ("run-1",), status=None) -> None:
    memory.procedures.propose(NS, Procedure(procedure_id=pid, task_type="supplier_contract_review", title=pid,
                                            steps=steps, source_runs=list(runs)))
    if status is not None:
        memory.procedures.set_status(NS, pid, status, by="dana")


def test_review_queue_shows_sources_figures_and_the_diff_against_the_served_procedure(memory, capsys):
    proposal(memory, "served", ["List sections", "Assess liability", "Summarise"], status=ProcedureStatus.VALIDATED)
    proposal(memory, "better", ["List sections", "Assess liability", "Assess termination", "Summarise"],
             runs=("run-7", "run-9"))
    proposal(memory, "failing", ["Guess"], status=ProcedureStatus.VALIDATED)
    for success in (False, False, True):
        memory.procedures.record_application(NS, "failing", success=success)
    memory.procedures.set_status(NS, "failing", ProcedureStatus.NEEDS_REVIEW)

    code, out, _ = run(["memory", "review", "--format", "json"], capsys)
    assert code == 0
    queue = {item["procedure"]["procedure_id"]: item for item in json.loads(out)}
    assert set(queue) == {"better", "failing"}
    assert queue["better"]["baseline"]["procedure_id"] == "served"
    assert queue["better"]["changes"] == ["+ Assess termination"]
    assert queue["better"]["procedure"]["source_runs"] == ["run-7", "run-9"]
    assert "1/3 successful uses" in queue["failing"]["reason"]

    code, out, _ = run(["memory", "review"], capsys)
    assert "+ Assess termination" in out and "run-7, run-9" in out and "flagged for review" in out


def test_approve_reject_and_retire_from_the_cli(memory, capsys):
    proposal(memory, "a", ["one"])
    proposal(memory, "b", ["two"])
    proposal(memory, "c", ["three"], status=ProcedureStatus.VALIDATED)
    assert run(["memory", "review", "approve", "a", "--by", "dana"], capsys)[0] == 0
    assert run(["memory", "review", "reject", "b", "--by", "dana"], capsys)[0] == 0
    code, out, _ = run(["memory", "review", "retire", "c", "--by", "dana"], capsys)
    assert code == 0 and "now retired" in out
    status = {p.procedure_id: p.status for p in memory.procedures.list(NS)}
    assert status == {"a": ProcedureStatus.VALIDATED, "b": ProcedureStatus.REJECTED, "c": ProcedureStatus.RETIRED}
    assert memory.procedures.best(NS, "supplier_contract_review").procedure_id == "a"  # retired is not served
    code, _, err = run(["memory", "review", "retire", "b", "--by", "dana"], capsys)
    assert code == 3 and "was rejected" in err
    code, _, err = run(["memory", "review", "approve", "nope"], capsys)
    assert code == 3 and "no procedure 'nope'" in err


def test_interactive_review_decides_each_item_in_turn(memory, capsys, monkeypatch):
    proposal(memory, "p1", ["one"])
    proposal(memory, "p2", ["two"])
    proposal(memory, "p3", ["three"])
    code, _, err = run(["memory", "review", "--interactive"], capsys, "", monkeypatch)
    assert code == 3 and "--by" in err  # decisions are signed
    code, out, _ = run(["memory", "review", "--interactive", "--by", "dana"], capsys, "a\nr\n\n", monkeypatch)
    assert code == 0 and "-> validated" in out and "-> rejected" in out
    status = {p.procedure_id: p.status for p in memory.procedures.list(NS)}
    assert status == {"p1": ProcedureStatus.VALIDATED, "p2": ProcedureStatus.REJECTED, "p3": ProcedureStatus.PENDING}


def _episode(run_id: str, outcome: Outcome, age_days: int) -> Episode:
    created = datetime.now(UTC) - timedelta(days=age_days)
    return Episode(run_id=run_id, task_type="supplier_contract_review", outcome=outcome, created_at=created,
                   task_summary=f"Review contract {run_id.upper()}", expires_at=created + timedelta(days=90),
                   embedding_model=EMB.model_name)


def test_decay_dry_run_then_real_run_per_tier(memory, capsys):
    for e in (_episode("old-fail", Outcome.FAILED, 8), _episode("new-fail", Outcome.FAILED, 1)):
        memory.episodes.add(NS, e, EMB.embed_documents([e.embedding_text()])[0])
    other = Namespace(tenant="globex", agent="contract-reviewer")
    memory.episodes.add(other, _episode("gx", Outcome.FAILED, 30), [1.0, 0.0])
    memory.episodes.add(other, _episode("gx-new", Outcome.COMPLETED, 0), [1.0, 0.0])  # its last run
    proposal(memory, "quiet", ["one"], status=ProcedureStatus.VALIDATED)

    code, out, _ = run(["memory", "decay", "--dry-run", "--format", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["dry_run"] and data["totals"]["failed_episodes_deleted"] == 2 and data["totals"]["namespaces"] == 2
    assert len(memory.episodes.list(NS)) == 2  # nothing changed

    code, out, _ = run(["memory", "decay", "--dry-run", "--as-of", (datetime.now(UTC) + timedelta(days=61))
                        .strftime("%Y-%m-%dT%H:%M:%S"), "--tenant", "default"], capsys)
    assert code == 0 and "quiet" in out and "stale" in out and "globex" not in out

    code, out, _ = run(["memory", "decay", "--tenant", "default"], capsys)
    assert code == 0 and "1 FAILED and 0 empty (extraction failed) older than 7 days deleted" in " ".join(out.split())
    assert [e.run_id for e in memory.episodes.list(NS)] == ["new-fail"]
    assert {e.run_id for e in memory.episodes.list(other)} == {"gx", "gx-new"}  # only the namespace asked for


def test_reembed_command_moves_a_tenant_and_reports_progress(memory, capsys):
    for i in range(3):
        e = _episode(f"r{i}", Outcome.COMPLETED, 1)
        memory.episodes.add(NS, e, EMB.embed_documents([e.embedding_text()])[0])
    code, out, _ = run(["memory", "reembed", "--embeddings", "hash:64", "--status", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["missing"] == 3
    code, out, _ = run(["memory", "reembed", "--embeddings", "hash:64"], capsys)
    assert code == 0 and "embedded 3, switched 3 records to hash-64" in out
    assert "CONTRACT_AGENT_EMBEDDINGS=hash:64" in out
    assert {e.embedding_model for e in memory.episodes.list(NS)} == {"hash-64"}
    code, out, _ = run(["memory", "stats", "--format", "json"], capsys)
    assert json.loads(out)["embedding_models"]["episodes"] == {"hash-64": 3}
    code, _, err = run(["memory", "reembed", "--embeddings", "nonsense:1"], capsys)
    assert code == 3 and "nonsense" in err


def test_stats_after_real_reviews_reports_each_tier(capsys, home):
    contract = str(SAMPLES / "northwind_msa_01.txt")
    for _ in range(2):
        assert run(["review", contract, "--format", "json"], capsys)[0] == 0
    code, out, _ = run(["memory", "stats", "--format", "json", "--days", "7"], capsys)
    assert code == 0
    data = json.loads(out)
    episodic = data["retrieval"]["episodic"]
    assert episodic["reads"] == 2 and episodic["hit_rate"] == 0.5  # the second run found the first
    assert episodic["scores"]["count"] == 1 and episodic["latency_ms"]["p95"] > 0
    assert {t: s["reads"] for t, s in data["retrieval"].items()} == {"episodic": 2, "semantic": 2, "procedural": 2}
    code, out, _ = run(["memory", "stats"], capsys)
    assert "retrieval over the last 30 days" in out and "hit rate" in out


@pytest.mark.skipif(not HAVE_AWS, reason="the aws extra is not installed")
def test_the_lambda_runs_the_same_rules(monkeypatch):
    from moto import mock_aws

    from memory.decay_lambda import handler
    from tests.aws.moto_support import clients, open_backend

    with mock_aws():
        memory = open_backend(clients())
        text = "Review the Northwind supply agreement: liability cap in clause 7.3"
        now = datetime.now(UTC)
        for run_id, age in (("a", 3), ("b", 2), ("c", 1)):
            created = now - timedelta(days=age)
            memory.episodes.add(NS, Episode(run_id=run_id, task_type="t", task_summary=text, outcome=Outcome.COMPLETED,
                                            created_at=created, expires_at=created + timedelta(days=2.5),
                                            embedding_model="m"), [1.0, 0.0])
        event = {"memory_url": f"aws://?region=us-east-1&table_prefix={memory.config.table_prefix}"}
        totals = handler(event, None, now=now)
        assert (totals["expired_episodes_deleted"], totals["episodes_merged"]) == (1, 1)
        assert [(e.run_id, e.merged_from) for e in memory.episodes.list(NS)] == [("c", ["b"])]


def test_the_decay_lambda_imports_without_langchain_or_langgraph():
    """The Lambda package holds only `memory` + boto3, pydantic, numpy, bm25s (infrastructure/README.md)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = ("import sys\nfor m in ('langchain_core', 'langgraph', 'agent', 'graphs'): sys.modules[m] = None\n"
            "import memory.decay_lambda, memory.backends.aws\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
