"""Issue 33: a fork keeps the memory core whole and drops the contract reviewer.

The repository is copied (the files git knows, tracked or new), the contract reviewer is deleted
as docs/FORK.md says (`tools/`, the CLI, the benchmarks, the contract modules of `agent/` and
`graphs/`, the contract tests and samples), and in the copy alone (this checkout's editable
install taken out of the import system) the example agent runs on the memory core: three checks
of one supplier's invoices with a SQLite checkpointer, memory read and written, the later checks
cheaper. Then docs/FORK.md's pyproject.toml sections are put in the copy: its import contracts
hold and the package builds with the agent and its data in it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

# What docs/FORK.md says to delete: the contract reviewer (checked against the doc below).
CONTRACT_PARTS = (
    "tools", "cli", "bench", "sample_contracts", "tests", "bench_results", "scripts/cuad_learned_baselines.py",
    "scripts/make_cuad_heldout.py", "scripts/make_sample_pdfs.py", "scripts/readme_tables.py", "scripts/ann_candidates.py",
    "agent/prompts.py", "agent/offline", "agent/report.py", "agent/report_text.py", "agent/report_html.py",
    "agent/memory_agent.py", "agent/memory_view.py", "agent/provenance.py",
    "graphs/review.py", "graphs/bootstrap.py", "graphs/analyze.py", "graphs/consolidate.py",
    "graphs/memory_steps.py", "graphs/approval.py", "graphs/review_state.py",
)
GONE = ("tools", "cli", "bench", "agent.prompts", "agent.offline", "agent.report", "agent.memory_agent",
        "agent.memory_view", "agent.provenance", "graphs.review", "graphs.bootstrap", "graphs.analyze",
        "graphs.consolidate", "graphs.memory_steps", "graphs.approval", "graphs.review_state")

# Runs in the copy: its own packages only (the editable install's finder, which would find this
# checkout's `tools`, is taken out first).
SCRIPT = r"""
import importlib.util, json, os, sys
sys.meta_path[:] = [f for f in sys.meta_path if "Editable" not in getattr(f, "__name__", type(f).__name__)]
GONE, OURS = %r, %r  # (site-packages has a `cli` of its own: python-hcl2's)
def ours(origin):  # a module of a checkout (the shared virtualenv sits in one: its packages are not ours)
    real = os.path.realpath(origin or "")
    return bool(origin) and "/site-packages/" not in real and any(real.startswith(root + "/") for root in OURS)
importable = [name for name in GONE if (spec := importlib.util.find_spec(name)) is not None and ours(spec.origin)]
from agent.settings import Settings
from examples.invoice_check.graph import build_graph, context
from examples.invoice_check.records import load_invoice, sample_books, sample_invoices
from graphs.runner import open_checkpointer

settings = Settings()
books = sample_books().model_dump()
rows = []
with open_checkpointer(settings) as saver:
    graph = build_graph(saver)
    for n, path in enumerate(p for p in sample_invoices() if "kestrel" in p.name):
        if n == 3:
            break
        state = graph.invoke({"invoice": load_invoice(path).model_dump(), "books": books, "run_id": f"fork-{n}"},
                             {"configurable": {"thread_id": f"fork-{n}"}}, context=context(settings))
        rows.append({"tool_calls": state["usage"]["tool_calls"], "block": state["memory_block"],
                     "episode": state["memory_writes"]["episode"], "decision": state["decision"],
                     "saver": type(saver).__name__})
loaded = sorted(m for m in sys.modules if any(m == g or m.startswith(g + ".") for g in GONE)
                and ours(getattr(sys.modules[m], "__file__", None)))
print(json.dumps({"importable": importable, "rows": rows, "loaded": loaded,
                  "memory": sys.modules["memory"].__file__}))
"""


def _copy(target: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # (a file deleted in the work tree but not yet in git is skipped)
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def fork(tmp_path_factory) -> Path:
    copy = _copy(tmp_path_factory.mktemp("fork"))
    for part in CONTRACT_PARTS:
        path = copy / part
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    return copy


def _env(fork: Path, home: Path) -> dict[str, str]:
    return {"PYTHONPATH": str(fork), "CONTRACT_AGENT_HOME": str(home), "CONTRACT_AGENT_ENV_FILE": "",
            "CONTRACT_AGENT_CHECKPOINTER": "sqlite", "PATH": "/usr/bin:/bin", "HOME": str(home),
            "XDG_CONFIG_HOME": str(home.parent / "config")}  # the checkpoint key, outside the data folder


def test_fork_md_deletes_what_this_test_deletes():
    guide = (ROOT / "docs" / "FORK.md").read_text()
    for part in CONTRACT_PARTS:
        assert f"`{part}" in guide, f"docs/FORK.md does not name {part}"


def test_the_memory_core_runs_the_example_agent_with_the_contract_reviewer_deleted(fork, tmp_path):
    # the copy, this checkout, and the checkout the shared editable install points at
    roots = tuple(os.path.realpath(p) for p in (fork, ROOT, ROOT.parent / "main"))
    result = subprocess.run([sys.executable, "-c", SCRIPT % (GONE, roots)], cwd=fork, capture_output=True, text=True,
                            env=_env(fork, tmp_path / "home"), timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["importable"] == [] and out["loaded"] == []  # nothing of the contract reviewer is left, or used
    assert Path(out["memory"]).is_relative_to(fork)  # the copy's memory core, not this checkout's
    first, second, third = out["rows"]
    assert {row["saver"] for row in out["rows"]} == {"RunCheckpoints"}  # the SqliteSaver that keeps what resume needs
    assert [row["episode"] for row in out["rows"]] == ["fork-0", "fork-1", "fork-2"]  # memory written
    assert first["block"] == "" and "PO number found in: reference" in second["block"]  # and read
    assert second["tool_calls"] < first["tool_calls"] and third["tool_calls"] < first["tool_calls"]
    assert [row["decision"] for row in out["rows"]] == ["approve", "hold", "hold"]


def _fork_pyproject(fork: Path) -> None:
    """docs/FORK.md's pyproject.toml sections in place of the contract reviewer's."""
    guide = (ROOT / "docs" / "FORK.md").read_text()
    block = re.search(r"<!-- fork-pyproject -->\s*```toml\n(.*?)```", guide, re.DOTALL)
    assert block, "docs/FORK.md has no pyproject.toml block marked <!-- fork-pyproject -->"
    path = fork / "pyproject.toml"
    text = path.read_text()
    text = re.sub(r"\[project\.scripts\]\n[^\[]*", "", text)  # the contract-review command is gone with cli/
    start, end = text.index("[tool.setuptools.packages.find]"), text.index("[tool.pytest.ini_options]")
    path.write_text(text[:start] + block[1].strip() + "\n\n" + text[end:])


def test_the_fork_installs_and_keeps_its_layers_once_pyproject_names_its_packages(fork, tmp_path):
    before = tmp_path / "before"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(before), str(fork)], check=True, capture_output=True, timeout=120)
    (wheel,) = before.glob("*.whl")
    assert not any(n.startswith("examples/") for n in zipfile.ZipFile(wheel).namelist())  # why the doc says so

    edited = tmp_path / "edited"
    shutil.copytree(fork, edited)
    _fork_pyproject(edited)
    lint = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
                           "--no-cache", "--config", str(edited / "pyproject.toml")],
                          cwd=edited, capture_output=True, text=True, timeout=300, env={"PYTHONPATH": str(edited), "PATH": ""})
    assert lint.returncode == 0 and "0 broken" in lint.stdout, lint.stdout + lint.stderr
    after = tmp_path / "after"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(after), str(edited)], check=True, capture_output=True, timeout=120)
    (wheel,) = after.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"examples/invoice_check/graph.py", "examples/invoice_check/data/purchase_orders.json",
            "memory/graph/steps.py", "graphs/context.py", "memory/pii/given_names.txt"} <= names
    assert not any(n.startswith(("tools/", "cli/", "agent/offline/")) for n in names)
