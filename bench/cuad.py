"""Benchmark 6: real filings.

- the whole review graph (bootstrap -> analyze -> consolidate, offline reviewer, memory off,
  in-memory checkpointer) on the longest contract of a CUAD-style folder: one warm-up run, then
  the median of several timed runs (issue 7's target: under 10 s offline);
- how long `contract-review eval cuad` takes on the whole folder, with the macro F1 it prints.

The folder is `../shared/cuad` next to the repository unless CONTRACT_AGENT_CUAD_DIR names
another one with the same layout (contracts/*.txt, labels.jsonl). Without one the benchmark says
so and records nothing it did not measure.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import REPO

TARGET_SECONDS = 10.0


def default_folder() -> Path:
    from agent.settings import Settings

    return Settings().cuad_dir or REPO.parent / "shared" / "cuad"


def _review_seconds(path: Path, runs: int) -> tuple[list[float], dict[str, Any]]:
    from langgraph.checkpoint.memory import InMemorySaver

    from agent.settings import Settings
    from graphs.runner import Reviewer

    with tempfile.TemporaryDirectory(prefix="bench-cuad-") as home:
        reviewer = Reviewer(Settings(home=Path(home)), InMemorySaver(), use_memory=False)
        report = reviewer.review_path(path, thread_id="warm-up")  # imports, playbook, embeddings
        timings = []
        for i in range(runs):
            started = time.perf_counter()
            report = reviewer.review_path(path, thread_id=f"run-{i}")
            timings.append(time.perf_counter() - started)
    return timings, report


def run(*, folder: Path | None = None, runs: int = 3, evaluate: bool = True) -> dict[str, Any]:
    folder = folder or default_folder()
    contracts = sorted((folder / "contracts").glob("*.txt"))
    if not contracts or not (folder / "labels.jsonl").is_file():
        return {"available": False, "folder": str(folder),
                "reason": "no CUAD-style folder (contracts/*.txt + labels.jsonl); set CONTRACT_AGENT_CUAD_DIR"}
    longest = max(contracts, key=lambda p: p.stat().st_size)
    timings, report = _review_seconds(longest, runs)
    median = statistics.median(timings)
    result: dict[str, Any] = {
        "available": True,
        "folder": str(folder),
        "longest": {"file": longest.name, "bytes": longest.stat().st_size, "outcome": report["outcome"],
                    "findings": len(report["findings"]), "runs_s": [round(t, 3) for t in timings],
                    "median_s": round(median, 3), "target_s": TARGET_SECONDS, "met": median < TARGET_SECONDS},
    }
    if evaluate:
        from agent.progress import progress
        from tools.detection.cuad_eval import evaluate_cuad

        started = time.perf_counter()
        with progress("cuad: eval", len(contracts)) as steps:
            scores = evaluate_cuad(folder, on_contract=lambda name: steps.advance(label=name))
        result["evaluation"] = {"contracts": scores["contracts"], "seconds": round(time.perf_counter() - started, 2),
                                "macro_f1": round(scores["macro"]["f1"], 4)}
    return result
