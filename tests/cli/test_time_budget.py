"""A time budget per contract (issue 32): a review that runs past it ends with exit 2 and one
line naming the contract and the setting, instead of holding the command for minutes; the other
contracts of a batch are still reviewed; nothing of the stopped run is in memory."""

from __future__ import annotations

import re
import signal
import time

import pytest

from agent.settings import Settings
from cli.main import main
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES


def _run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _episodes(home) -> list[str]:
    settings = Settings(home=home)
    memory = open_memory(settings.resolved_memory_url())
    try:
        return [e.run_id for e in memory.episodes.list(Namespace(tenant=settings.tenant, agent=settings.agent))]
    finally:
        memory.close()


def test_a_review_over_its_budget_ends_with_exit_2_and_one_line(home, capsys, monkeypatch):
    monkeypatch.setenv("CONTRACT_AGENT_CONTRACT_TIME_BUDGET_S", "1.5")
    started = time.monotonic()
    code, _, err = _run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--model", "tests.cli.slow_model:make",
                         "--format", "json"], capsys)
    elapsed = time.monotonic() - started
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith(("error:", "internal error:"))]
    assert len(lines) == 1 and "northwind_msa_01.txt" in lines[0] and "CONTRACT_AGENT_CONTRACT_TIME_BUDGET_S" in lines[0]
    assert "Traceback" not in err
    assert elapsed < 30  # the slow reviewer alone would take ~ 0.3 s x 30 steps
    assert _episodes(home) == []  # the stopped run wrote no memory
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the alarm is cleared


def test_a_batch_goes_on_past_a_contract_over_budget(home, capsys, monkeypatch, tmp_path):
    calls = {"n": 0}
    from tools import contract as contract_module

    real = contract_module.load_contract

    def slow_first(path, **kwargs):  # the first contract's reading never ends (a text bomb's stand-in)
        calls["n"] += 1
        if calls["n"] == 1:
            until = time.monotonic() + 40  # without a budget it ends after 40 s (the test then fails)
            while time.monotonic() < until:
                re.match(r"(a+)+$", "a" * 30 + "b")  # catastrophic backtracking: only the alarm stops it
        return real(path, **kwargs)

    monkeypatch.setattr(contract_module, "load_contract", slow_first)
    monkeypatch.setenv("CONTRACT_AGENT_CONTRACT_TIME_BUDGET_S", "8")  # a review takes ~ 2 s on a loaded machine
    code, out, err = _run(["review", str(SAMPLES / "northwind_msa_01.txt"), str(SAMPLES / "kestrel_supply_01.txt"),
                           "--format", "json", "--quiet"], capsys)
    assert code == 2, err
    assert "northwind_msa_01.txt: stopped after" in err and "kestrel" not in err
    assert len(_episodes(home)) == 1  # the second contract was reviewed and remembered


def test_budgets_nest_and_zero_means_none():
    from graphs.budget import OverBudget, time_budget

    with time_budget(0, "x"):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with pytest.raises(OverBudget, match="outer"), time_budget(0.5, "outer"), time_budget(60, "inner"):
        time.sleep(2)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
