"""`contract-review memory ...`: what a user sees after reviews, and curating procedures."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from tests.conftest import SAMPLES


def run_json(argv, capsys):
    code = main([*argv, "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


@pytest.fixture
def reviewed(capsys):
    for name in ("northwind_msa_01.txt", "northwind_msa_02.txt"):
        assert main(["review", str(SAMPLES / name), "--format", "json", "--thread-id", name[:-4]]) == 0
    capsys.readouterr()


def test_list_and_show_episodes_after_reviews(reviewed, capsys):
    listed = run_json(["memory", "list", "--tier", "episodes"], capsys)
    run_ids = [e["run_id"] for e in listed["episodes"]]
    assert sorted(run_ids) == ["northwind_msa_01", "northwind_msa_02"]
    shown = run_json(["memory", "show", "northwind_msa_01"], capsys)
    assert shown["outcome"] == "COMPLETED"
    assert any(line.startswith("liability_cap in section") for line in shown["key_findings"])


def test_pending_procedure_is_approved_from_the_cli_and_then_served(reviewed, capsys):
    procedures = run_json(["memory", "list", "--tier", "procedures"], capsys)["procedures"]
    assert procedures and all(p["status"] == "pending" for p in procedures)
    before = run_json(["memory", "search", "Review the supplier contract northwind_msa_03"], capsys)
    assert before["procedure"] is None  # pending procedures are never served

    pid = procedures[0]["procedure_id"]
    approved = run_json(["memory", "approve", pid, "--by", "alice"], capsys)
    assert approved["status"] == "validated" and approved["validated_by"] == "alice"
    after = run_json(["memory", "search", "Review the supplier contract northwind_msa_03"], capsys)
    assert after["procedure"]["procedure_id"] == pid
    assert "1. " in after["memory_block"] and after["memory_block"].startswith("<<MEMORY ")


def test_stats_count_each_tier(reviewed, capsys):
    stats = run_json(["memory", "stats"], capsys)
    assert stats["episodes"] == 2
    assert stats["procedures"]["pending"] >= 1


def test_unknown_procedure_and_bad_tenant_fail_cleanly(reviewed, capsys):
    assert main(["memory", "approve", "no-such-procedure"]) == 3
    assert "no procedure" in capsys.readouterr().err
    assert main(["memory", "list", "--tenant", "a#b"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1


def test_other_tenants_see_nothing(reviewed, capsys):
    listed = run_json(["memory", "list", "--tenant", "someone-else"], capsys)
    assert listed == {"episodes": [], "facts": [], "procedures": []}


def test_long_memory_work_reports_progress_on_stderr_unless_quiet(reviewed, capsys):
    assert main(["memory", "decay", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "decay (dry run) [1/1] default/contract-reviewer" in err
    assert main(["--quiet", "memory", "decay", "--dry-run"]) == 0
    assert capsys.readouterr().err == ""
