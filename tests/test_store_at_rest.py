"""The memory store is one file at rest (issue 32): a finished command leaves nothing only in
the write-ahead log. Before, every CLI run's memory sat in `memory.sqlite-wal` (the main file
stayed 4 KB): deleting or damaging the log lost the episodes, and a backup that copied
`memory.sqlite` alone got an empty store, all with exit 0 and no warning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import SAMPLES

REPO = SAMPLES.parent


def _cli(home, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CONTRACT_AGENT_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """A data folder after two reviews run as a user runs them: separate processes."""
    home = tmp_path_factory.mktemp("at-rest") / "home"
    for name in ("northwind_msa_01.txt", "kestrel_supply_01.txt"):
        done = _cli(home, "review", str(SAMPLES / name), "--format", "json")
        assert done.returncode == 0, done.stderr
    return home


def _episodes(home) -> list:
    listed = _cli(home, "memory", "list", "--tier", "episodes", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)["episodes"]


@pytest.mark.parametrize("damage", ["delete", "truncate", "garble"])
def test_memory_survives_a_lost_or_damaged_log(reviewed, tmp_path, damage):
    home = tmp_path / "home"
    shutil.copytree(reviewed, home)
    log = home / "memory.sqlite-wal"
    if log.exists():
        if damage == "delete":
            log.unlink()
        elif damage == "truncate":
            log.write_bytes(log.read_bytes()[: len(log.read_bytes()) // 2])
        else:
            data = bytearray(log.read_bytes())
            for i in range(64, len(data), 97):
                data[i] ^= 0xFF
            log.write_bytes(bytes(data))
    assert len(_episodes(home)) == 2


def test_a_copy_of_the_main_file_alone_holds_the_memory(reviewed, tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    shutil.copy2(reviewed / "memory.sqlite", home / "memory.sqlite")
    assert len(_episodes(home)) == 2
