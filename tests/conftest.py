"""Shared fixtures: a temp data folder per test, settings pointing at it, sample paths."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from agent.settings import Settings

# A developer's own .env never reaches the suite (tests/test_settings_env.py sets one on purpose).
os.environ["CONTRACT_AGENT_ENV_FILE"] = ""
# Nor does the suite write checkpoint keys into the user's config folder (the key file's default,
# issue 31): not in module-wide fixtures and subprocesses either, which see no per-test setting.
_CONFIG = tempfile.mkdtemp(prefix="contract-agent-tests-config-")
os.environ["XDG_CONFIG_HOME"] = _CONFIG
atexit.register(shutil.rmtree, _CONFIG, ignore_errors=True)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_contracts"
CUAD = ROOT.parent / "shared" / "cuad"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """No test ever touches the user's real data folder."""
    home = tmp_path / "agent-home"
    monkeypatch.setenv("CONTRACT_AGENT_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the checkpoint key files' default folder
    from agent.settings import get_settings

    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()
    from graphs.context import forget_cached

    forget_cached("")  # models built from specs too: a test's endpoint or factory must not leak into the next


@pytest.fixture
def home(_isolated_home) -> Path:
    return _isolated_home


@pytest.fixture
def settings(home) -> Settings:
    return Settings(home=home)


@pytest.fixture()
def reviewers(tmp_path):
    """(with memory, without) reviewers on one fresh data folder and checkpointer: memory off reviews
    the same contract the way memory on does, for the two to be compared."""
    from graphs.context import forget_cached
    from graphs.runner import Reviewer, open_checkpointer

    settings = Settings(home=tmp_path / "home")
    forget_cached("memory")
    try:
        with open_checkpointer(settings) as saver:
            yield Reviewer(settings, saver), Reviewer(settings, saver, use_memory=False)
    finally:
        forget_cached("memory")


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of this test session (one per xdist worker); skips without the binaries."""
    from tests.postgres import postgres_server

    with postgres_server(pytest.skip) as server:
        yield server


@pytest.fixture(scope="session")
def expected_findings() -> dict[str, list[dict]]:
    """Contract stem -> expected findings, from every sample_contracts/*expected_findings.json."""
    from bench.sequences import expected_rows

    return {name: row["expected"] for name, row in expected_rows().items()}
