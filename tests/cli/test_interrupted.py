"""A review stopped by SIGTERM or Ctrl-C says so in one line, names the run and how to continue
it (issue 32: both ended with no message, exit 143 / 130, and no hint that `resume` could go on)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import SAMPLES

REPO = SAMPLES.parent


def _start(home, checkpointer: str) -> subprocess.Popen:
    env = {**os.environ, "CONTRACT_AGENT_HOME": str(home), "CONTRACT_AGENT_CHECKPOINTER": checkpointer,
           "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "cli.main", "review", str(SAMPLES / "kestrel_supply_03.txt"),
                             "--model", "tests.cli.slow_model:make", "--format", "json"],
                            env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop(process: subprocess.Popen, sig: int, home) -> tuple[int, str]:
    """Signal the review once it is under way (its memory file open, then two slow steps)."""
    deadline = time.monotonic() + 120
    while not (home / "memory.sqlite").exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)
    assert process.poll() is None, "the review ended before it was stopped"
    process.send_signal(sig)
    _, err = process.communicate(timeout=120)
    return process.returncode, err.strip()


@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "Ctrl-C")])
def test_a_stopped_review_names_its_run_and_resumes(tmp_path, sig, code, word):
    home = tmp_path / "home"
    returncode, err = _stop(_start(home, "sqlite"), sig, home)
    assert returncode == code, err
    [line] = err.splitlines()
    assert word in line
    run_id = re.search(r"contract-review resume (\S+)`", line).group(1)
    env = {**os.environ, "CONTRACT_AGENT_HOME": str(home), "CONTRACT_AGENT_CHECKPOINTER": "sqlite",
           "PYTHONPATH": str(REPO)}
    resumed = subprocess.run([sys.executable, "-m", "cli.main", "resume", run_id, "--format", "json"],
                             env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["outcome"] == "COMPLETED"


def test_without_the_sqlite_checkpointer_it_says_the_run_cannot_be_resumed(tmp_path):
    returncode, err = _stop(_start(tmp_path / "home", "memory"), signal.SIGTERM, tmp_path / "home")
    assert returncode == 143
    [line] = err.splitlines()
    assert "cannot be resumed" in line and "CONTRACT_AGENT_CHECKPOINTER=sqlite" in line
