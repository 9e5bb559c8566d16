"""Benchmark 9: the whole graph driven by the realistic stand-in (agent.offline.realistic).

The other benchmarks use the offline reviewer, which never slips. This one uses the scripted model
that behaves like a small real model (one or two tool calls per turn, argument slips, prose
turns, a refusal, prose-wrapped JSON), to show what the graph makes of such a model:

* every sample contract reviewed with memory off, for each seed: outcome, findings, planted
  deviations found (labelled `deviation` or `missing` in sample_contracts/*expected_findings.json),
  beside what the offline reviewer finds on the same contract (the tools' own misses are not the
  model's), tool calls, model turns, nudges after prose turns, tool errors answered;
* the Northwind contracts in sequence on a fresh data folder with memory on: how each run's
  extraction went (ok, repaired, retried, failed), whether the episode was written, facts
  confirmed so far, and the third contract's tool calls against a memory-off review of it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from agent.progress import Steps, progress
from bench.common import REPO

SAMPLES = REPO / "sample_contracts"
RECALL_TARGET = 0.9


def planted(expected: list[dict[str, str]]) -> set[tuple[str, str]]:
    return {(e["clause_type"], e["verdict"]) for e in expected if e["verdict"] in ("deviation", "missing")}


def labels() -> dict[str, list[dict[str, str]]]:
    """Contract stem -> its expected findings, from every family's `*expected_findings.json`."""
    from bench.sequences import expected_rows

    return {name: row["expected"] for name, row in expected_rows().items()}


def _review(reviewer: Any, path: Path, expected: list[dict[str, str]], run_id: str,
            steps: Steps | None = None) -> dict[str, Any]:
    if steps is not None:
        steps.working_on(run_id)
    start = time.perf_counter()
    report = reviewer.review_path(path, thread_id=run_id)
    if steps is not None:
        steps.advance(label=run_id)
    seconds = time.perf_counter() - start
    found = {(f["clause_type"], f["verdict"]) for f in report["findings"]}
    wanted = planted(expected)
    memory = report.get("memory") or {}
    return {
        "contract": path.stem, "outcome": report["outcome"], "findings": len(report["findings"]),
        "planted": len(wanted), "planted_found": len(wanted & found),
        "tool_calls": report["usage"]["tool_calls"], "stand_in_calls": report["usage"]["stand_in_calls"],
        "tokens": report["usage"]["input_tokens"] + report["usage"]["output_tokens"],
        "extraction": (memory.get("extraction") or {}).get("status"),
        "episode_written": bool((memory.get("writes") or {}).get("episode")),
        "facts_confirmed": len((memory.get("writes") or {}).get("facts_confirmed") or []),
        "episodes_used": len(memory.get("episodes") or []),
        "wall_s": round(seconds, 2), "steps": report["review_loop"]["model_steps"],
        "nudges": report["review_loop"].get("nudges", 0), "tool_errors": report["review_loop"].get("tool_errors", 0),
    }


def run(*, seeds: tuple[int, ...] = (0, 1, 2), contracts: int | None = None, sequence: int = 4,
        home: Path | None = None) -> dict[str, Any]:
    from agent.settings import Settings
    from graphs.context import forget_cached
    from graphs.runner import Reviewer, open_checkpointer

    expected = labels()
    paths = sorted(SAMPLES.glob("*.pdf"))[:contracts]
    northwind = sorted(SAMPLES.glob("northwind_msa_*.pdf"))[:sequence]
    reviews = len(paths) + len(seeds) * (len(paths) + len(northwind) + (len(northwind) >= 3))
    with tempfile.TemporaryDirectory(prefix="bench-realistic-") as scratch, progress("realistic", reviews) as steps:
        root = home or Path(scratch)
        baseline = Settings(home=root / "offline")
        with open_checkpointer(baseline) as saver:
            offline = Reviewer(baseline, saver, use_memory=False)
            by_offline = {p.stem: _review(offline, p, expected[p.stem], f"offline-{p.stem}", steps)["planted_found"] for p in paths}
        cold: list[dict[str, Any]] = []
        sequences: list[dict[str, Any]] = []
        for seed in seeds:
            settings = Settings(home=root / f"seed-{seed}", model=f"realistic:{seed}")
            forget_cached("")
            with open_checkpointer(settings) as saver:
                off = Reviewer(settings, saver, use_memory=False)
                cold += [{"seed": seed, "offline_found": by_offline[p.stem],
                          **_review(off, p, expected[p.stem], f"off-{seed}-{p.stem}", steps)} for p in paths]
                on = Reviewer(settings, saver)
                runs = [{"seed": seed, **_review(on, p, expected[p.stem], f"on-{seed}-{p.stem}", steps)} for p in northwind]
                third = None
                if len(northwind) >= 3:
                    baseline = _review(off, northwind[2], expected[northwind[2].stem], f"third-off-{seed}", steps)
                    third = {"on": runs[2]["tool_calls"], "off": baseline["tool_calls"],
                             "ratio": round(runs[2]["tool_calls"] / baseline["tool_calls"], 3)}
                sequences.append({"seed": seed, "runs": runs, "third_tool_calls": third,
                                  "facts_after_3": sum(r["facts_confirmed"] for r in runs[:3])})
            forget_cached("")
    total_planted = sum(r["planted"] for r in cold)
    recall = sum(r["planted_found"] for r in cold) / total_planted if total_planted else 1.0
    offline_total = sum(r["offline_found"] for r in cold)
    offline_recall = offline_total / total_planted if total_planted else 1.0
    thirds = [s["third_tool_calls"] for s in sequences if s["third_tool_calls"]]
    return {
        "seeds": list(seeds), "cold": cold, "sequences": sequences,
        "summary": {
            "reviews": len(cold),
            "completed": sum(r["outcome"] == "COMPLETED" for r in cold),
            "mean_findings": round(sum(r["findings"] for r in cold) / len(cold), 2) if cold else 0.0,
            "planted_recall": round(recall, 3), "recall_target": RECALL_TARGET, "recall_met": recall >= RECALL_TARGET,
            "offline_recall": round(offline_recall, 3),
            "found_of_what_the_offline_reviewer_finds": round(
                sum(r["planted_found"] for r in cold) / offline_total, 3) if offline_total else 1.0,
            "mean_tool_calls": round(sum(r["tool_calls"] for r in cold) / len(cold), 1) if cold else 0.0,
            "mean_stand_in_calls": round(sum(r["stand_in_calls"] for r in cold) / len(cold), 1) if cold else 0.0,
            "nudges": sum(r["nudges"] for r in cold), "tool_errors": sum(r["tool_errors"] for r in cold),
            "memory_runs": sum(len(s["runs"]) for s in sequences),
            "episodes_written": sum(r["episode_written"] for s in sequences for r in s["runs"]),
            "extraction": {status: sum(r["extraction"] == status for s in sequences for r in s["runs"])
                           for status in ("ok", "repaired", "retried", "failed")},
            "facts_after_3_runs": [s["facts_after_3"] for s in sequences],
            "third_northwind_tool_ratio": [t["ratio"] for t in thirds],
        },
    }


COLUMNS = ["seed", "contract", "outcome", "findings", "planted found (offline)", "tool calls", "stand-in calls",
           "nudges", "tool errors"]


def table_rows(result: dict[str, Any]) -> list[list[str]]:
    return [[str(r["seed"]), r["contract"], r["outcome"], str(r["findings"]), f"{r['planted_found']}/{r['planted']} ({r['offline_found']})",
             str(r["tool_calls"]), str(r["stand_in_calls"]), str(r["nudges"]), str(r["tool_errors"])]
            for r in result["cold"]]


SEQUENCE_COLUMNS = ["seed", "contract", "extraction", "episode written", "facts confirmed", "episodes used",
                    "tool calls"]


def sequence_rows(result: dict[str, Any]) -> list[list[str]]:
    return [[str(r["seed"]), r["contract"], str(r["extraction"]), "yes" if r["episode_written"] else "NO",
             str(r["facts_confirmed"]), str(r["episodes_used"]), str(r["tool_calls"])]
            for s in result["sequences"] for r in s["runs"]]
