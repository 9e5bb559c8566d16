"""Tenants across a run's whole life: interrupted, resumed, reusing a thread id, erased."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from agent.settings import Settings
from cli.main import main
from graphs.runner import Reviewer, checkpoint_key, open_checkpointer
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES
from tests.test_graph_runtime import CrashingReviewer

ACME_CONTRACT = SAMPLES / "northwind_msa_01.txt"
GLOBEX_CONTRACT = SAMPLES / "skyline_saas_subscription.txt"


def _crash(settings: Settings, run_id: str, contract: Path = ACME_CONTRACT, **context) -> None:
    """A review killed inside its tool loop (its checkpoints stay, no memory is written)."""
    with open_checkpointer(settings) as saver:
        crashing = Reviewer(settings, saver, reviewer_model=CrashingReviewer(model="offline-reviewer"), **context)
        with pytest.raises(ConnectionError):
            crashing.review_path(contract, thread_id=run_id)


@pytest.fixture
def on_disk(home, monkeypatch) -> Settings:
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")  # for the CLI runs too
    # finished runs' checkpoints are kept a day (default: deleted at once), so erasure and tenant
    # isolation are checked on checkpoints of finished runs too
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEEP_COMPLETED_DAYS", "1")
    return Settings(home=home, checkpointer="sqlite", checkpoint_keep_completed_days=1)


def _episodes(settings: Settings, tenant: str) -> list:
    memory = open_memory(settings.resolved_memory_url())
    try:
        return memory.episodes.list(Namespace(tenant=tenant, agent=settings.agent), limit=100)
    finally:
        memory.close()


def test_resume_continues_as_the_tenant_that_started_the_run(on_disk, capsys):
    _crash(on_disk, "run-1", tenant="acme")
    # `resume` is given no tenant (the settings say `default`): the checkpoint says acme
    assert main(["resume", "run-1", "--format", "json", "--home", str(on_disk.home)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "COMPLETED"
    assert [e.run_id for e in _episodes(on_disk, "acme")] == ["run-1"]
    assert _episodes(on_disk, "default") == []


def test_resume_keeps_a_memory_off_run_memory_off(on_disk, capsys):
    _crash(on_disk, "quiet-run", use_memory=False)
    assert main(["resume", "quiet-run", "--format", "json", "--home", str(on_disk.home)]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "COMPLETED"
    assert _episodes(on_disk, on_disk.tenant) == []


def test_a_thread_id_reused_by_another_tenant_never_shows_it_the_first_tenants_run(on_disk, capsys):
    home = str(on_disk.home)
    base = ["review", "--format", "json", "--thread-id", "shared", "--home", home]
    assert main([*base[:1], str(ACME_CONTRACT), *base[1:], "--tenant", "acme"]) == 0
    acme = json.loads(capsys.readouterr().out)
    assert main([*base[:1], str(GLOBEX_CONTRACT), *base[1:], "--tenant", "globex"]) == 0
    globex = json.loads(capsys.readouterr().out)

    assert acme["contract"] == ACME_CONTRACT.name and globex["contract"] == GLOBEX_CONTRACT.name
    assert "NORTHWIND" not in json.dumps(globex).upper()
    [episode] = _episodes(on_disk, "globex")
    assert episode.task_summary.startswith("Contract review: software service subscription agreement")
    assert "NORTHWIND" not in episode.task_summary.upper() and "SKYLINE" not in episode.task_summary.upper()
    # both runs are kept, each in its tenant's thread; resuming the shared id must name the tenant
    assert main(["resume", "shared", "--home", home]) == 3
    assert "several tenants" in capsys.readouterr().err
    assert main(["resume", "shared", "--tenant", "globex", "--format", "json", "--home", home]) == 0
    assert json.loads(capsys.readouterr().out)["contract"] == GLOBEX_CONTRACT.name


CRAFTED_RUN_IDS = ["../x", "a/b", "a\nb", "x" * 3000, "", " ", "-a", "a b", "a\x00b", "é", "a:b", "a%2Fb"]


@pytest.mark.parametrize("crafted", CRAFTED_RUN_IDS, ids=lambda v: repr(v)[:20])
def test_a_crafted_thread_id_is_refused_in_one_line_by_review_and_resume(crafted, on_disk, capsys):
    home = str(on_disk.home)
    assert main(["review", str(ACME_CONTRACT), "--thread-id", crafted, "--home", home]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: invalid run id") and len(err) < 300
    assert main(["resume", "--home", home, "--", crafted]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: invalid run id")
    assert not on_disk.sqlite_path.exists()  # refused before anything was opened or written


def _blob_slices(path: Path, tenant: str) -> list[bytes]:
    """32-byte slices of every encrypted checkpoint and pending write of `tenant`, as on disk."""
    with sqlite3.connect(path) as conn:
        blobs = [r[0] for r in conn.execute(
            "SELECT checkpoint FROM checkpoints WHERE thread_id LIKE ? UNION ALL "
            "SELECT value FROM writes WHERE thread_id LIKE ?", (f"{tenant}/%", f"{tenant}/%"))]
    return [blob[i:i + 32] for blob in blobs if blob for i in range(0, max(len(blob) - 32, 1), 512)]


def _decrypted_text(settings: Settings) -> str:
    """Every checkpoint left in the file, decrypted with the key, as one text."""
    parts = []
    with open_checkpointer(settings) as saver:
        for saved in saver.list(None):
            parts.append(json.dumps(saved.checkpoint, default=str))
            parts.extend(json.dumps(w, default=str) for w in saved.pending_writes or [])
    return "\n".join(parts)


def test_erasing_a_tenant_leaves_no_byte_of_its_interrupted_runs_even_with_the_key(on_disk, capsys):
    _crash(on_disk, "acme-open", tenant="acme")  # interrupted: never reached memory
    with open_checkpointer(on_disk) as saver:
        Reviewer(on_disk, saver, tenant="acme").review_path(ACME_CONTRACT, thread_id="acme-done")
        Reviewer(on_disk, saver, tenant="globex").review_path(GLOBEX_CONTRACT, thread_id="globex-done")
    slices = _blob_slices(on_disk.checkpoint_path, "acme")
    assert len(slices) > 20
    assert "NORTHWIND" in _decrypted_text(on_disk).upper()  # the key does read them before

    assert main(["memory", "forget", "--tenant", "acme", "--yes", "--format", "json",
                 "--home", str(on_disk.home)]) == 0
    assert json.loads(capsys.readouterr().out)["removed"]["checkpoint_threads"] == 2

    files = [p for p in on_disk.home.rglob("*") if p.is_file()]
    raw = b"".join(p.read_bytes() for p in files)
    assert not [s for s in slices if s in raw]  # no ciphertext of acme's checkpoints anywhere
    assert b"acme" not in raw.lower()
    text = _decrypted_text(on_disk).upper()
    assert "NORTHWIND" not in text and "HARBOR POINT" not in text and "ACME" not in text
    assert "SKYLINE" in text  # the other tenant keeps its checkpoints
    assert checkpoint_key(on_disk)  # and the key is the same key
