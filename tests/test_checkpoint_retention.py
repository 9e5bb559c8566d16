"""Working memory ends with its run (issue 34): checkpoints of finished reviews do not pile up.

Before: every super-step of every review stayed in `checkpoints.sqlite` forever (2.5 MB for one
sample contract), each with the whole contract. Now a live thread keeps its latest checkpoint
only, a COMPLETED review's thread is deleted when it ends, an unfinished one stays for `resume`
until `memory decay` expires it, and `memory stats` shows what is there.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from agent.settings import Settings
from cli.main import main
from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES
from tests.test_graph_runtime import CrashingReviewer

CONTRACTS = [SAMPLES / "northwind_msa_01.txt", SAMPLES / "kestrel_supply_01.txt", SAMPLES / "skyline_saas_subscription.txt"]


@pytest.fixture
def on_disk(home, monkeypatch) -> Settings:
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")  # the CLI commands see the same file
    return Settings(home=home, checkpointer="sqlite")


def _rows(settings: Settings) -> list[tuple[str, str]]:
    with sqlite3.connect(settings.checkpoint_path) as conn:
        return conn.execute("SELECT thread_id, checkpoint_ns FROM checkpoints").fetchall()


def _crash(settings: Settings, run_id: str) -> None:
    with open_checkpointer(settings) as saver:
        # memory off: with the memory of an earlier run the graph assesses its places before the
        # first turn (issue 29) and the reviewer can finish before the step it crashes at
        crashing = Reviewer(settings, saver, use_memory=False, reviewer_model=CrashingReviewer(model="offline-reviewer"))
        with pytest.raises(ConnectionError):
            crashing.review_path(CONTRACTS[0], thread_id=run_id)


def test_completed_reviews_leave_no_checkpoint_and_a_small_file(on_disk):
    with open_checkpointer(on_disk) as saver:
        reviewer = Reviewer(on_disk, saver)
        for i, path in enumerate(CONTRACTS):
            assert reviewer.review_path(path, thread_id=f"done-{i}")["outcome"] == "COMPLETED"
    assert _rows(on_disk) == []
    assert not on_disk.checkpoint_path.with_name("checkpoints.sqlite-wal").exists() or \
        on_disk.checkpoint_path.with_name("checkpoints.sqlite-wal").stat().st_size == 0
    assert on_disk.checkpoint_path.stat().st_size < 1_000_000  # was 2.5 MB after one sample contract
    assert main(["resume", "done-0", "--home", str(on_disk.home)]) == 3


def test_a_live_run_keeps_only_its_latest_checkpoint_and_still_resumes(on_disk, capsys):
    _crash(on_disk, "cut")
    rows = _rows(on_disk)
    assert rows and len(rows) == len(set(rows))  # one checkpoint per thread and namespace
    assert main(["resume", "cut", "--format", "json", "--home", str(on_disk.home)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == 20
    assert _rows(on_disk) == []  # resumed to the end: gone too


def test_kept_completed_threads_and_expired_unfinished_ones_go_at_decay(on_disk, capsys, monkeypatch):
    kept = on_disk.model_copy(update={"checkpoint_keep_completed_days": 2})
    with open_checkpointer(kept) as saver:
        Reviewer(kept, saver).review_path(CONTRACTS[1], thread_id="kept")
    _crash(on_disk, "stuck")
    assert {t for t, _ in _rows(on_disk)} == {f"{on_disk.tenant}/{on_disk.agent}/kept",
                                               f"{on_disk.tenant}/{on_disk.agent}/stuck"}

    assert main(["memory", "stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)["checkpoints"]
    assert stats["threads"] == 2 and stats["finished"] == 1 and stats["bytes"] > 0

    def decay(days: float) -> str:
        moment = (datetime.now(UTC) + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S")
        assert main(["memory", "decay", "--as-of", moment]) == 0
        return capsys.readouterr().out

    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEEP_COMPLETED_DAYS", "2")  # the CLI's setting, as the run's
    assert "0 thread(s)" in decay(1)  # nothing is past its retention yet
    assert "1 thread(s)" in decay(3)  # the finished run kept 2 days
    assert {t for t, _ in _rows(on_disk)} == {f"{on_disk.tenant}/{on_disk.agent}/stuck"}
    assert main(["resume", "stuck", "--format", "json", "--home", str(on_disk.home)]) == 0  # still resumable
    capsys.readouterr()

    _crash(on_disk, "stuck-2")
    out = decay(8)  # past the 7 days an unfinished run is kept (and the 2 of the resumed, finished one)
    assert "2 thread(s)" in out
    assert _rows(on_disk) == []
    assert main(["resume", "stuck-2", "--home", str(on_disk.home)]) == 3
    assert "memory decay" in capsys.readouterr().err


def test_forgetting_a_run_erases_its_checkpoints(on_disk, capsys):
    _crash(on_disk, "erase-me")
    _crash(on_disk, "keep-me")
    code = main(["memory", "forget", "--run", "erase-me", "--format", "json", "--home", str(on_disk.home)])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["checkpoint_threads"] == 1
    assert {t for t, _ in _rows(on_disk)} == {f"{on_disk.tenant}/{on_disk.agent}/keep-me"}
    assert b"erase-me" not in on_disk.checkpoint_path.read_bytes()
