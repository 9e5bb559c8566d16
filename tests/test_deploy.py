"""What docs/DEPLOY.md says about building the server image, checked where no Docker engine runs:
the LangGraph CLI's `build` exists, both langgraph.json files validate, `langgraph dockerfile`
writes the image's Dockerfile from them, and the package the image installs (`pip install -e .`
of pyproject's package list) holds every module the served graphs and the auth handler import."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.server.harness import langgraph_cli

CONFIGS = (ROOT / "langgraph.json", ROOT / "examples" / "invoice_check" / "langgraph.json")


@pytest.fixture(scope="module")
def cli() -> str:
    found = langgraph_cli()
    if found is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]' (in the [dev] extra)")
    return found


def test_langgraph_build_is_there_to_build_the_image(cli):
    result = subprocess.run([cli, "build", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "--tag" in result.stdout


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.parent.name)
def test_the_server_configs_validate_and_give_the_image_its_graphs_and_auth(cli, config, tmp_path):
    valid = subprocess.run([cli, "validate", "-c", str(config)], capture_output=True, text=True, timeout=60)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    dockerfile = tmp_path / "Dockerfile"
    made = subprocess.run([cli, "dockerfile", "-c", str(config), str(dockerfile)], capture_output=True, text=True,
                          timeout=60, cwd=config.parent)
    assert made.returncode == 0, made.stdout + made.stderr
    text = dockerfile.read_text()
    assert "pip install" in text and " -e ." in text  # the image installs the package pyproject describes
    graphs = json.loads(next(line for line in text.splitlines() if line.startswith("ENV LANGSERVE_GRAPHS="))
                        .split("=", 1)[1].strip("'"))
    assert set(graphs) == set(json.loads(config.read_text())["graphs"])
    assert "graphs/auth.py:auth" in next(line for line in text.splitlines() if line.startswith("ENV LANGGRAPH_AUTH="))


def test_the_installed_package_holds_what_the_served_graph_imports(tmp_path):
    """Built as the image builds it, and imported from the wheel alone (no checkout on the path)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=120)
    (wheel,) = tmp_path.glob("*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    config = json.loads((ROOT / "langgraph.json").read_text())
    modules = [target.split(":")[0].removeprefix("./").removesuffix(".py").replace("/", ".")
               for target in [*config["graphs"].values(), config["auth"]["path"]]]
    script = ("import importlib, sys\n"
              "sys.meta_path[:] = [f for f in sys.meta_path if 'Editable' not in getattr(f, '__name__', '')]\n"
              f"for name in {modules!r}:\n"
              "    module = importlib.import_module(name)\n"
              f"    assert module.__file__.startswith({str(site)!r}), module.__file__\n"
              "print('ok')")
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "CONTRACT_AGENT_HOME": str(tmp_path / "h"),
                                 "CONTRACT_AGENT_ENV_FILE": ""})
    assert result.stdout.strip() == "ok", result.stderr[-2000:]
    assert Path(site / "tools" / "playbook.yaml").exists()  # package data the tools read
