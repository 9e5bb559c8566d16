"""Settings from the places a user puts them: the `.env` file the docs tell them to copy (below
the environment), and paths written with `~` or `$VARIABLES` (as `langgraph dev` passes them
on from the same file, unexpanded)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.settings import Settings, expand_url
from tests.conftest import SAMPLES


def cli(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CONTRACT_AGENT_")}
    environment.update(env)
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=300)


def test_the_cli_reads_dotenv_below_the_environment_and_expands_its_paths(tmp_path):
    user_home, project = tmp_path / "user", tmp_path / "project"
    user_home.mkdir()
    project.mkdir()
    (project / ".env").write_text(
        "# copied from .env.example\n"
        "CONTRACT_AGENT_HOME=~/.contract-agent\n"
        "CONTRACT_AGENT_TENANT=from-file\n"
        "CONTRACT_AGENT_AGENT=from-file\n"
        "AWS_PROFILE=not-a-setting\n", encoding="utf-8")
    proc = cli(["config", "--format", "json"], project, HOME=str(user_home), CONTRACT_AGENT_AGENT="from-env")
    assert proc.returncode == 0, proc.stderr
    rows = {row["setting"]: row for row in json.loads(proc.stdout)}
    assert rows["home"]["value"] == str(user_home / ".contract-agent") and rows["home"]["from"].endswith(".env")
    assert (rows["tenant"]["value"], rows["agent"]["value"]) == ("from-file", "from-env")
    assert rows["agent"]["from"] == "environment" and rows["checkpointer"]["from"] == "default"
    # a review with memory writes into the expanded folder, never into a literal ./~ folder
    proc = cli(["-q", "review", str(SAMPLES / "northwind_msa_01.txt"), "--format", "json"], project,
               HOME=str(user_home))
    assert proc.returncode == 0, proc.stderr
    assert (user_home / ".contract-agent" / "memory.sqlite").is_file()
    assert not (project / "~").exists()
    episodes = cli(["memory", "list", "--tier", "episodes", "--format", "json"], project, HOME=str(user_home))
    assert len(json.loads(episodes.stdout)["episodes"]) == 1  # the tenant of the file, the same folder


def test_env_file_variable_names_another_file_or_none(tmp_path):
    (tmp_path / ".env").write_text("CONTRACT_AGENT_TENANT=from-dotenv\n", encoding="utf-8")
    (tmp_path / "team.env").write_text("CONTRACT_AGENT_TENANT=from-team-file\n", encoding="utf-8")

    def tenant(**env: str) -> str:
        proc = cli(["config", "--format", "json"], tmp_path, **env)
        assert proc.returncode == 0, proc.stderr
        return next(r["value"] for r in json.loads(proc.stdout) if r["setting"] == "tenant")

    assert tenant() == "from-dotenv"
    assert tenant(CONTRACT_AGENT_ENV_FILE="team.env") == "from-team-file"
    assert tenant(CONTRACT_AGENT_ENV_FILE="") == "default"


def test_tilde_and_variables_are_expanded_in_every_path_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DATA", "/srv/data")
    monkeypatch.setenv("CONTRACT_AGENT_HOME", "~/.contract-agent")  # as langgraph dev passes it from .env
    monkeypatch.setenv("CONTRACT_AGENT_CUAD_DIR", "$DATA/cuad")
    settings = Settings()
    assert settings.home == tmp_path / ".contract-agent"
    assert settings.resolved_memory_url() == f"sqlite:///{tmp_path}/.contract-agent/memory.sqlite"
    assert settings.cuad_dir == Path("/srv/data/cuad")
    assert Settings(home="$DATA/agent").home == Path("/srv/data/agent")
    assert Settings(home="relative/folder").home == Path("relative/folder")  # relative stays relative
    assert Settings(cuad_dir="").cuad_dir is None
    with pytest.raises(ValueError, match="path is needed"):
        Settings(home="")
    paths = [name for name, field in Settings.model_fields.items() if "Path" in str(field.annotation)]
    assert set(paths) >= {"home", "cuad_dir", "env_file"}
    for name in paths:  # every path setting, including ones added later
        assert getattr(Settings(**{name: "~/x"}), name) == tmp_path / "x"


@pytest.mark.parametrize(("url", "expanded"), [
    ("sqlite:///~/m.sqlite", "sqlite:///{home}/m.sqlite"),
    ("sqlite:///$DATA/m.sqlite", "sqlite:////srv/data/m.sqlite"),
    ("sqlite:///relative/m.sqlite", "sqlite:///relative/m.sqlite"),
    ("sqlite:////abs/m.sqlite", "sqlite:////abs/m.sqlite"),
    ("chroma:///~/chroma", "chroma:///{home}/chroma"),
    ("chroma://127.0.0.1:8000?state=~/state.sqlite", "chroma://127.0.0.1:8000?state={home}/state.sqlite"),
    ("aws://?region=eu-west-1&table_prefix=cma", "aws://?region=eu-west-1&table_prefix=cma"),
])
def test_memory_url_paths_are_expanded(monkeypatch, tmp_path, url, expanded):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("DATA", "/srv/data")
    assert expand_url(url) == expanded.format(home=tmp_path)
    assert Settings(memory_url=url).memory_url == expanded.format(home=tmp_path)
