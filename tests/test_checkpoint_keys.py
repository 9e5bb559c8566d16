"""The checkpoint key (issue 32): a wrong key or a lost key file is named in one line (exit 3),
never an "internal error: MAC check failed", and a lost key file is never silently replaced by a
new one that leaves the existing checkpoints unreadable."""

from __future__ import annotations

import pytest

from agent.settings import Settings
from cli.main import main
from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES
from tests.test_graph_runtime import CrashingReviewer


@pytest.fixture
def interrupted(home, monkeypatch) -> Settings:
    """A data folder holding the checkpoint of an interrupted review, written with the key file."""
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")
    monkeypatch.delenv("CONTRACT_AGENT_CHECKPOINT_KEY", raising=False)
    settings = Settings(home=home, checkpointer="sqlite")
    with open_checkpointer(settings) as saver:
        crashing = Reviewer(settings, saver, reviewer_model=CrashingReviewer(model="offline-reviewer"))
        with pytest.raises(ConnectionError):
            crashing.review_path(SAMPLES / "kestrel_supply_02.txt", thread_id="cut")
    return settings


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("command", [["resume", "cut"], ["review", str(SAMPLES / "northwind_msa_02.txt")]])
def test_another_key_in_the_environment_is_named(interrupted, capsys, monkeypatch, command):
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", "ab" * 32)
    assert main([*command, "--home", str(interrupted.home)]) == 3
    err = _one_line(capsys)
    assert "another key" in err and "CONTRACT_AGENT_CHECKPOINT_KEY" in err and "MAC" not in err


def test_a_deleted_key_file_is_not_replaced_while_checkpoints_need_it(interrupted, capsys):
    key_file = interrupted.home / "checkpoint.key"
    saved = key_file.read_bytes()
    key_file.unlink()
    assert main(["resume", "cut", "--home", str(interrupted.home)]) == 3
    err = _one_line(capsys)
    assert "checkpoint.key" in err and "missing" in err
    assert not key_file.exists()  # no new key was made
    key_file.write_bytes(saved)  # restored: the run resumes
    key_file.chmod(0o600)
    assert main(["resume", "cut", "--home", str(interrupted.home), "--format", "json"]) == 0


def test_keys_add_makes_a_new_data_folder_owner_only(tmp_path, capsys):
    home = tmp_path / "new-home"
    assert main(["keys", "add", "--tenant", "acme", "--name", "ci", "--home", str(home)]) == 0
    assert home.stat().st_mode & 0o777 == 0o700  # issue 32: was 0755
