"""The review command's warm-up (graphs/warmup.py): what it reads beside the library imports is
what the graph then uses, and a warm-up that fails or is not wanted changes nothing a user sees."""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest

from agent.settings import Settings
from cli.main import main
from graphs.context import open_memory_for, resources, run_scope
from graphs.runner import context_from_settings
from graphs.warmup import Warmup
from tests.conftest import SAMPLES
from tools.contract import ContractInputError, load_contract

CONTRACT = SAMPLES / "northwind_msa_01.pdf"


def _review(args, capsys) -> dict:
    assert main(["review", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _scope(settings: Settings):
    return run_scope(SimpleNamespace(context=context_from_settings(settings)))


def test_the_graph_reads_from_the_memory_and_embeddings_the_warm_up_opened(home, settings, capsys):
    _review([str(CONTRACT)], capsys)  # the memory file now exists
    from graphs.context import forget_cached

    forget_cached("")
    warmup = Warmup.start(settings, CONTRACT, use_memory=True).join()
    assert warmup.memory is not None and warmup.embeddings is not None
    memory, embeddings = warmup.memory, warmup.embeddings
    warmup.hand_over()
    assert warmup.memory is None and warmup.embeddings is None  # the graph's cache owns them now
    scope = _scope(settings)
    assert open_memory_for(scope) is memory
    assert resources(scope).embeddings.inner is embeddings
    # the contract was read once, as the graph would read it
    assert warmup.contract_for(CONTRACT) == load_contract(CONTRACT, max_bytes=settings.max_input_bytes)


def test_a_review_with_the_warm_up_recalls_what_one_without_it_recalls(tmp_path, capsys, monkeypatch):
    def history(home) -> dict:  # the same first run in each data folder, then the one compared
        _review([str(CONTRACT), "--home", str(home), "--thread-id", "first"], capsys)
        from graphs.context import forget_cached

        forget_cached("")
        return _review([str(SAMPLES / "northwind_msa_02.pdf"), "--home", str(home), "--thread-id", "second"], capsys)

    warm = history(tmp_path / "warm")

    def cold(settings, path, *, use_memory):  # noqa: ANN001 - Warmup.start's signature
        return Warmup.inline(settings, path, use_memory=False)  # reads the contract, warms nothing

    monkeypatch.setattr(Warmup, "start", cold)
    cold_run = history(tmp_path / "cold")
    assert warm["memory"]["episodes"] and warm["memory"]["episodes"][0]["run_id"] == "first"
    def recalled(report: dict) -> list:  # what the block was built from (the runs' dates aside)
        memory = report["memory"]
        return [[{k: v for k, v in item.items() if k != "created_at"} for item in memory[key] or []]
                for key in ("episodes", "facts")] + [memory["procedure"]]

    assert recalled(cold_run) == recalled(warm)
    assert cold_run["findings"] == warm["findings"]
    assert cold_run["usage"]["tool_calls"] == warm["usage"]["tool_calls"]


def test_a_contract_that_cannot_be_read_warms_no_memory(home, settings, capsys, tmp_path):
    _review([str(CONTRACT)], capsys)
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\nnot a pdf body\n")
    warmup = Warmup.start(settings, corrupt, use_memory=True).join()
    assert warmup.memory is None and warmup.embeddings is None
    with pytest.raises(ContractInputError):
        warmup.contract_for(corrupt)
    assert warmup.contract_for(CONTRACT) is None  # another file: the command reads it itself


def test_a_fresh_data_folder_and_a_review_without_memory_warm_nothing(home, settings, tmp_path):
    fresh = Warmup.start(settings, CONTRACT, use_memory=True).join()
    assert fresh.contract is not None and fresh.memory is None
    assert not (home / "memory.sqlite").exists()  # the graph, not a warm-up, creates the memory file
    settings.home.mkdir(parents=True, exist_ok=True)
    sqlite3.connect(settings.sqlite_path).close()
    off = Warmup.start(settings, CONTRACT, use_memory=False).join()
    assert off.contract is not None and off.memory is None and off.embeddings is None


def test_a_memory_file_the_warm_up_cannot_open_fails_the_review_as_before(home, capsys):
    home.mkdir(parents=True, exist_ok=True)
    (home / "memory.sqlite").write_bytes(b"this is not a database" * 200)
    assert main(["review", str(CONTRACT), "--format", "json"]) == 4
    err = capsys.readouterr().err
    assert "cannot open the memory file" in err and "Traceback" not in err


def test_a_crafted_tenant_fails_before_the_warm_up_opens_memory(home, capsys, monkeypatch):
    _review([str(CONTRACT)], capsys)
    from graphs.context import forget_cached

    forget_cached("")
    opened = []
    import memory.backends

    real = memory.backends.open_memory
    monkeypatch.setattr(memory.backends, "open_memory", lambda url: opened.append(url) or real(url))
    assert main(["review", str(CONTRACT), "--tenant", "../other", "--format", "json"]) != 0
    assert opened == []
