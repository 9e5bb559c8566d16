"""Benchmark 7: start-up, as a user waits for it.

In one run, each in fresh processes, median of `runs`:
- `python -c pass`: the interpreter alone, for scale on this machine;
- `contract-review --help`;
- cold start: `contract-review review` from process start to the first model call, on the
  bootstrap benchmark's largest memory file (100k own episodes, 1M in all at full size), with
  where the time goes (bench/cold.py): the interpreter, the CLI, the LangGraph/LangChain
  libraries, this project's modules, the contract's text (pypdf), the graph, the bootstrap reads
  (embeddings, memory open, first episode and fact search).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench import bootstrap
from bench.common import REPO

HELP_TARGET_MS = 500.0
FIRST_CALL_TARGET_MS = 1500.0
CONTRACT = REPO / "sample_contracts" / "northwind_msa_01.pdf"
# Who answers for each phase of the cold start (bench/cold.py names them).
OWNERS = {
    "interpreter_start_ms": "Python",
    "cli_import_ms": "the CLI (typer, rich)",
    "langgraph_langchain_import_ms": "LangGraph, LangChain, LangSmith (libraries)",
    "project_modules_import_ms": "graph, tools, clause rules (regex compilation), models",
    "contract_read_ms": "pypdf: import and text extraction",
    "graph_build_ms": "compiling the graph",
    "embeddings_load_ms": "wordllama model load",
    "memory_open_ms": "opening the memory store",
    "episode_search_ms": "first episode search (vector index and BM25)",
    "fact_search_ms": "first fact search",
    "bootstrap_reads_span_ms": "the bootstrap read step (read_memory), end to end: the four rows above",
    "other_ms": "the rest: typer parsing, settings, chat models, prompt, memory block",
}


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def process_ms(argv: list[str], runs: int) -> dict[str, Any]:
    """Wall time of a fresh process running `argv` to its exit, `runs` times."""
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)
        timings.append((time.perf_counter() - start) * 1000)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return {"runs_ms": [round(t, 1) for t in timings], "median_ms": _median(timings)}


def cold_start(home: Path, contract: Path, runs: int) -> dict[str, Any]:
    """Process start -> first model call of `contract-review review` on the memory in `home`."""
    details = []
    for _ in range(runs):
        start = time.time()
        proc = subprocess.run(
            [sys.executable, "-m", "bench.cold", repr(start), str(home), str(contract)],
            cwd=REPO, capture_output=True, text=True, timeout=300,
        )
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
        if proc.returncode != 0 or line is None:
            raise RuntimeError(f"cold-start run failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
        result = json.loads(line)
        result.pop("loaded", None)
        details.append(result)
    phases = {name: _median([d["phases_ms"].get(name, 0.0) for d in details]) for name in OWNERS}
    return {"runs": details, "median_ms": _median([d["first_model_call_ms"] for d in details]),
            "phases_median_ms": phases,
            "note": "new Python process each time; the OS file cache is warm (the memory file was just built "
                    "or read); phase medians are taken one by one, so they need not add up to the median"}


def run(data: Path, *, own: int = 100_000, facts: int = 10_000, runs: int = 5, log=print) -> dict[str, Any]:
    """The three figures in one run; the memory file is the bootstrap benchmark's (reused)."""
    home = data / "bootstrap" / f"episodes-{own}"
    log(f"startup: memory with {own} own episodes in {home}")
    fill = bootstrap.grow(home, own, facts, capacity=own, log=log)
    bootstrap.ensure_indexes(home)  # the bulk loader writes rows; a user's file has its indexes
    python = process_ms([sys.executable, "-c", "pass"], runs)
    script = Path(sys.executable).with_name("contract-review")
    help_run = process_ms([str(script), "--help"] if script.exists() else
                          [sys.executable, "-m", "cli.main", "--help"], runs)
    cold = cold_start(home, CONTRACT, runs)
    return {
        "own_episodes": own, "memory_file_mb": fill["file_mb"], "contract": CONTRACT.name, "runs": runs,
        "python_pass": python, "help": help_run, "cold_start": cold,
        "owners": OWNERS,
        "targets": {
            "help_ms": help_run["median_ms"], "help_target_ms": HELP_TARGET_MS,
            "help_met": help_run["median_ms"] <= HELP_TARGET_MS,
            "first_call_ms": cold["median_ms"], "first_call_target_ms": FIRST_CALL_TARGET_MS,
            "first_call_met": cold["median_ms"] <= FIRST_CALL_TARGET_MS,
        },
    }
