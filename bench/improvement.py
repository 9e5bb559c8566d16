"""Benchmark 1: memory-driven improvement over a sequence of similar contracts.

Each sequence is reviewed in order on one fresh data folder, every contract twice: with memory
(the durable tiers on, learning as it goes) and with `use_memory=False` (the `--no-memory` path,
which neither reads nor writes memory). Per run: tool calls, model calls, tokens, wall time and
recall of the planted deviations. Targets (third similar contract): at most 50% of the tool calls
and 60% of the tokens of the memory-off run, recall unchanged.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import REPO
from bench.variants import write_variants

SAMPLES = REPO / "sample_contracts"
TOOL_TARGET, TOKEN_TARGET = 0.5, 0.6


@dataclass(frozen=True)
class Sequence:
    name: str
    paths: list[Path]
    labels: dict[str, list[dict[str, str]]]  # contract stem -> [{clause_type, verdict}]


def northwind_sequence(limit: int | None = None) -> Sequence:
    expected = {e["contract"]: e["expected"] for e in json.loads((SAMPLES / "expected_findings.json").read_text())}
    paths = sorted(SAMPLES.glob("northwind_msa_*.pdf"))[:limit]
    return Sequence("northwind_msa (same template, PDF)", paths, {p.stem: expected[p.stem] for p in paths})


def skyline_sequence(data: Path, limit: int | None = None) -> Sequence:
    paths = write_variants(data / "skyline_variants", limit or 4)
    labels = json.loads((data / "skyline_variants" / "expected.json").read_text())
    return Sequence("skyline_variant (generated SaaS variants)", paths, labels)


def recall(findings: list[dict[str, Any]], labels: list[dict[str, str]]) -> tuple[float, int, int]:
    """Share of the planted deviations (labelled verdict 'deviation') reported with that verdict."""
    found = {(f["clause_type"], f["verdict"]) for f in findings}
    planted = [(x["clause_type"], x["verdict"]) for x in labels if x["verdict"] == "deviation"]
    hits = sum(item in found for item in planted)
    return (hits / len(planted) if planted else 1.0), hits, len(planted)


def _row(report: dict[str, Any], seconds: float, labels: list[dict[str, str]]) -> dict[str, Any]:
    usage = report["usage"]
    rec, hits, planted = recall(report["findings"], labels)
    memory = report.get("memory") or {}
    return {
        "tool_calls": usage["tool_calls"], "model_calls": usage["model_calls"],
        "input_tokens": usage["input_tokens"], "output_tokens": usage["output_tokens"],
        "tokens": usage["input_tokens"] + usage["output_tokens"],
        "wall_s": round(seconds, 3), "recall": round(rec, 3), "deviations_found": hits, "deviations_planted": planted,
        "outcome": report.get("outcome"), "findings": len(report["findings"]),
        "episodes_used": len(memory.get("episodes") or []), "facts_used": len(memory.get("facts") or []),
        "procedure_used": bool(memory.get("procedure")),
    }


def run_sequence(sequence: Sequence, home: Path) -> dict[str, Any]:
    from agent.settings import Settings
    from graphs.context import forget_cached
    from graphs.runner import Reviewer, open_checkpointer

    settings = Settings(home=home)
    forget_cached("memory")
    runs = []
    try:
        with open_checkpointer(settings) as saver:
            with_memory = Reviewer(settings, saver)
            without = Reviewer(settings, saver, use_memory=False)
            for index, path in enumerate(sequence.paths, start=1):
                row: dict[str, Any] = {"run": index, "contract": path.stem}
                for label, reviewer in (("on", with_memory), ("off", without)):
                    start = time.perf_counter()
                    report = reviewer.review_path(path)
                    row[label] = _row(report, time.perf_counter() - start, sequence.labels[path.stem])
                row["tool_ratio"] = round(row["on"]["tool_calls"] / max(1, row["off"]["tool_calls"]), 3)
                row["token_ratio"] = round(row["on"]["tokens"] / max(1, row["off"]["tokens"]), 3)
                runs.append(row)
    finally:
        forget_cached("memory")
    result: dict[str, Any] = {"sequence": sequence.name, "runs": runs}
    if len(runs) >= 3:
        third = runs[2]
        result["third_run"] = {
            "tool_ratio": third["tool_ratio"], "token_ratio": third["token_ratio"],
            "recall_on": third["on"]["recall"], "recall_off": third["off"]["recall"],
            "tool_target_met": third["tool_ratio"] <= TOOL_TARGET,
            "token_target_met": third["token_ratio"] <= TOKEN_TARGET,
            "recall_unchanged": third["on"]["recall"] >= third["off"]["recall"],
        }
    return result


def run(data: Path, *, limit: int | None = None) -> dict[str, Any]:
    """Review both sequences (each on its own fresh data folder under a temporary directory)."""
    sequences = [northwind_sequence(limit), skyline_sequence(data, limit)]
    results = []
    for number, sequence in enumerate(sequences):
        with tempfile.TemporaryDirectory(prefix=f"bench-improvement-{number}-") as home:
            results.append(run_sequence(sequence, Path(home)))
    return {"targets": {"tool_ratio_max": TOOL_TARGET, "token_ratio_max": TOKEN_TARGET},
            "token_note": "tokens are the offline reviewer's approximate counts (count_tokens_approximately)",
            "sequences": results}


def plot(result: dict[str, Any], path: Path) -> Path:
    """Cost per run, memory on vs off: tokens (top) and tool calls (bottom), one column per sequence."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sequences = result["sequences"]
    fig, axes = plt.subplots(2, len(sequences), figsize=(5.2 * len(sequences), 6.4), squeeze=False)
    for column, seq in enumerate(sequences):
        runs = [r["run"] for r in seq["runs"]]
        for row, (metric, title) in enumerate((("tokens", "tokens (in + out)"), ("tool_calls", "tool calls"))):
            ax = axes[row][column]
            for label, style in (("off", "o--"), ("on", "o-")):
                ax.plot(runs, [r[label][metric] for r in seq["runs"]], style,
                        label=f"memory {label}", color="#999999" if label == "off" else "#1f77b4")
            share = TOKEN_TARGET if metric == "tokens" else TOOL_TARGET
            ax.plot(runs, [r["off"][metric] * share for r in seq["runs"]], ":", color="#d62728",
                    label=f"target ({share:.0%} of off)")
            ax.set_xticks(runs)
            ax.set_ylim(bottom=0)
            ax.set_ylabel(title)
            ax.grid(alpha=0.3)
            if row == 0:
                ax.set_title(seq["sequence"], fontsize=10)
            else:
                ax.set_xlabel("run in the sequence")
            ax.legend(fontsize=8)
    fig.suptitle("Cost per review, memory on vs off (offline reviewer)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def table_rows(result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for seq in result["sequences"]:
        for r in seq["runs"]:
            on, off = r["on"], r["off"]
            rows.append([seq["sequence"].split(" ")[0], r["contract"],
                         f"{on['tool_calls']}/{off['tool_calls']} ({r['tool_ratio']:.0%})",
                         f"{on['model_calls']}/{off['model_calls']}",
                         f"{on['tokens']}/{off['tokens']} ({r['token_ratio']:.0%})",
                         f"{on['wall_s']:.2f}/{off['wall_s']:.2f}",
                         f"{on['recall']:.2f}/{off['recall']:.2f}"])
    return rows


COLUMNS = ["sequence", "contract", "tool calls on/off", "model calls", "tokens on/off", "wall s", "recall"]
