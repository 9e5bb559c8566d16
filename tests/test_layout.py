"""The layout stays layered: imports go downward only (cli > bench > graphs > agent > tools | memory),
one package per storage backend, no import circles. The contracts live in pyproject.toml
([tool.importlinter]); these tests run them, and prove they can fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
         "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root, capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(root), "PATH": ""},
    )


def test_every_import_contract_is_kept():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_top_level_package_is_in_a_layer():
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages == set(config()["root_packages"])
    layers = {name.strip() for layer in config()["contracts"][0]["layers"] for name in layer.split("|")}
    assert layers == packages


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in (*config()["root_packages"], "pyproject.toml"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    return tmp_path


def add_import(module: Path, statement: str) -> None:
    module.write_text(module.read_text() + f"\n{statement}\n")


def test_an_upward_import_breaks_the_layers(copy: Path):
    add_import(copy / "tools" / "search.py", "from graphs.state import ReviewState  # noqa")
    result = lint(copy)
    assert result.returncode == 1
    assert "Imports go downward only" in result.stdout and "BROKEN" in result.stdout
    assert "tools.search -> graphs.state" in result.stdout


def test_an_import_circle_breaks_the_acyclic_contract(copy: Path):
    # memory.block already imports memory.records; the way back closes a circle inside one layer
    add_import(copy / "memory" / "records.py", "import memory.block  # noqa")
    result = lint(copy)
    assert result.returncode == 1
    assert "No import circles" in result.stdout and "BROKEN" in result.stdout


def test_one_backend_never_imports_another(copy: Path):
    add_import(copy / "memory" / "backends" / "sqlite" / "search.py", "import memory.backends.aws.codec  # noqa")
    result = lint(copy)
    assert result.returncode == 1
    assert "One package per storage backend" in result.stdout and "BROKEN" in result.stdout
