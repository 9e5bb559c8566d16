"""Benchmark 1: memory-driven improvement over sequences of contracts, and proof that memory never
makes a review worse.

Each sequence is reviewed in order on one fresh data folder, every contract twice: with memory
(the durable tiers on, learning as it goes) and with `use_memory=False` (the `--no-memory` path,
which neither reads nor writes memory). Per run: tool calls, model calls, tokens, wall time,
recall of the expected findings and section accuracy (`bench.sequences.score`).

Sequences (sample_contracts/sequences.json, plus generated SaaS variants): `northwind_msa` (one
template), `kestrel_supply` (the trap family: clauses moved, added, removed and renumbered),
`mixed_templates` (templates interleaved, so each template's first contract meets memory of the
others), `skyline_variant` (generated). Targets: on every contract, recall and section accuracy
with memory >= without; on the third contract of a same-template sequence at most 40% of the tool
calls and 50% of the tokens of memory off; the first contract of each template (first of the
sequence, or first of its supplier in the mixed one) at most 1.02x the tokens of memory off.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from agent.progress import Steps, progress
from bench.sequences import Sequence, named_sequence, score
from bench.variants import write_variants

TOOL_TARGET, TOKEN_TARGET, FIRST_RUN_TARGET = 0.4, 0.5, 1.02
SIMILAR = ("northwind_msa", "kestrel_supply")  # same-template sequences: the third-contract targets apply
NAMED = ("northwind_msa", "kestrel_supply", "mixed_templates")


def skyline_sequence(data: Path, limit: int | None = None) -> Sequence:
    import json

    paths = write_variants(data / "skyline_variants", limit or 4)
    labels = json.loads((data / "skyline_variants" / "expected.json").read_text())
    rows = {stem: {"contract": stem, "supplier": "Skyline Analytics, Inc.", "expected": items, "standard": []}
            for stem, items in labels.items()}
    return Sequence("skyline_variant", "generated SaaS variants", paths, rows)


def _row(report: dict[str, Any], seconds: float, scored: dict[str, Any]) -> dict[str, Any]:
    usage = report["usage"]
    memory = report.get("memory") or {}
    return {
        "tool_calls": usage["tool_calls"], "model_calls": usage["model_calls"],
        "stand_in_calls": usage.get("stand_in_calls", 0),
        "input_tokens": usage["input_tokens"], "output_tokens": usage["output_tokens"],
        "tokens": usage["input_tokens"] + usage["output_tokens"],
        "wall_s": round(seconds, 3), **scored,
        "outcome": report.get("outcome"), "findings": len(report["findings"]),
        "episodes_used": len(memory.get("episodes") or []), "facts_used": len(memory.get("facts") or []),
        "procedure_used": bool(memory.get("procedure")),
    }


def _not_worse(run: dict[str, Any]) -> bool:
    on, off = run["on"], run["off"]
    return on["recall"] >= off["recall"] and on["section_accuracy"] >= off["section_accuracy"]


def summarise(name: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The sequence's verdicts: no contract worse with memory, first runs, the third contract."""
    worse = [r["contract"] for r in runs if not _not_worse(r)]
    seen: set[str] = set()
    first_runs = []
    for run in runs:  # the first contract of each supplier's template
        if run["supplier"] not in seen:
            seen.add(run["supplier"])
            first_runs.append({"contract": run["contract"], "token_ratio": run["token_ratio"],
                               "episodes_used": run["on"]["episodes_used"],
                               "target_met": run["token_ratio"] <= FIRST_RUN_TARGET})
    summary: dict[str, Any] = {"no_contract_worse": not worse, "worse": worse, "first_runs": first_runs}
    if name in SIMILAR and len(runs) >= 3:
        third = runs[2]
        summary["third_run"] = {
            "contract": third["contract"], "tool_ratio": third["tool_ratio"], "token_ratio": third["token_ratio"],
            "recall_on": third["on"]["recall"], "recall_off": third["off"]["recall"],
            "tool_target_met": third["tool_ratio"] <= TOOL_TARGET,
            "token_target_met": third["token_ratio"] <= TOKEN_TARGET,
            "recall_unchanged": third["on"]["recall"] >= third["off"]["recall"],
        }
    return summary


def run_sequence(sequence: Sequence, home: Path, steps: Steps | None = None) -> dict[str, Any]:
    """Review the sequence memory on and off on a fresh data folder `home`; `steps` counts the
    reviews on a progress display."""
    from agent.settings import Settings
    from graphs.context import forget_cached
    from graphs.runner import Reviewer, open_checkpointer
    from tools.playbook import load_playbook

    steps = steps or Steps("improvement", None, None, None)  # counted by nobody: no display

    settings = Settings(home=home)
    clause_types = load_playbook().clause_types
    forget_cached("memory")
    runs = []
    try:
        with open_checkpointer(settings) as saver:
            with_memory = Reviewer(settings, saver)
            without = Reviewer(settings, saver, use_memory=False)
            for index, path in enumerate(sequence.paths, start=1):
                expected = sequence.rows[path.stem]
                row: dict[str, Any] = {"run": index, "contract": path.stem, "supplier": expected.get("supplier", "")}
                for label, reviewer in (("on", with_memory), ("off", without)):
                    steps.working_on(f"{path.stem} (memory {label})")
                    start = time.perf_counter()
                    report = reviewer.review_path(path)
                    row[label] = _row(report, time.perf_counter() - start, score(report, expected, path, clause_types))
                    steps.advance(label=f"{path.stem} (memory {label})")
                row["tool_ratio"] = round(row["on"]["tool_calls"] / max(1, row["off"]["tool_calls"]), 3)
                row["token_ratio"] = round(row["on"]["tokens"] / max(1, row["off"]["tokens"]), 3)
                runs.append(row)
    finally:
        forget_cached("memory")
    return {"sequence": sequence.name, "description": sequence.description, "runs": runs,
            **summarise(sequence.name, runs)}


def run(data: Path, *, limit: int | None = None, names: tuple[str, ...] = NAMED) -> dict[str, Any]:
    """Review the named sequences and the SaaS variants, each on its own fresh data folder."""
    sequences = [named_sequence(name, limit=limit) for name in names] + [skyline_sequence(data, limit)]
    results = []
    with progress("improvement", 2 * sum(len(s.paths) for s in sequences)) as steps:
        for number, sequence in enumerate(sequences):
            with tempfile.TemporaryDirectory(prefix=f"bench-improvement-{number}-") as home:
                results.append(run_sequence(sequence, Path(home), steps))
    return {"targets": {"tool_ratio_max": TOOL_TARGET, "token_ratio_max": TOKEN_TARGET,
                        "first_run_token_ratio_max": FIRST_RUN_TARGET, "no_contract_worse": True},
            "token_note": "tokens are the offline reviewer's approximate counts (count_tokens_approximately)",
            "no_contract_worse": all(seq["no_contract_worse"] for seq in results),
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


def _calls(on: dict[str, Any], off: dict[str, Any]) -> str:
    """Model calls on/off, saying when they were calls of the offline stand-in, not of a model."""
    model = f"{on['model_calls']}/{off['model_calls']}"
    stand_in = f"{on.get('stand_in_calls', 0)}/{off.get('stand_in_calls', 0)}"
    if not (on["model_calls"] or off["model_calls"]):
        return f"{stand_in} stand-in"
    return model if stand_in == "0/0" else f"{model} (+{stand_in} stand-in)"


def table_rows(result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for seq in result["sequences"]:
        for r in seq["runs"]:
            on, off = r["on"], r["off"]
            rows.append([seq["sequence"], r["contract"],
                         f"{on['tool_calls']}/{off['tool_calls']} ({r['tool_ratio']:.0%})",
                         _calls(on, off),
                         f"{on['tokens']}/{off['tokens']} ({r['token_ratio']:.0%})",
                         f"{on['wall_s']:.2f}/{off['wall_s']:.2f}",
                         f"{on['recall']:.2f}/{off['recall']:.2f}",
                         f"{on['section_accuracy']:.2f}/{off['section_accuracy']:.2f}",
                         "yes" if _not_worse(r) else "NO"])
    return rows


COLUMNS = ["sequence", "contract", "tool calls on/off", "model calls on/off", "tokens on/off", "wall s",
           "recall on/off", "sections on/off", "not worse"]
