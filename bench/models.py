"""Benchmark 10: every model double over same-template sequences, memory off and on.

Each model is given as a user gives one (`Settings(model=spec)`: `offline`, `realistic:0`, and the
test doubles of `bench.doubles` as `package.module:factory`), so every role (reviewer, compression,
extraction) is that model. Each sequence (`sample_contracts/sequences.json`) is reviewed in order
on a fresh data folder per model, every contract with memory (learning as it goes) and without.
Per model and contract: outcome (with memory: the outcome the episode stored), clause types
recorded, planted deviations found, tool calls (the model's own; the calls the graph made itself
before the model's first turn, assessing memory's confirmed places, apart as graph calls, and the
3rd contract's ratio once more with them), tokens (what the model read, the graph's results
included), the on/off ratios, what memory stored
(episode, facts confirmed, procedure proposed) and how many of the places memory remembered for a
clause type were wrong for this contract (the finding is elsewhere, or memory's place was not
confirmed by the current text). The loop's own counters (model steps, nudges, compressions,
rejected summaries, repeated batches) show what the graph had to do for each model.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from agent.progress import Steps, progress
from bench.doubles import DOUBLES
from bench.sequences import named_sequence, score

MODELS: dict[str, str] = {"offline": "offline", "realistic": "realistic:0", **DOUBLES}
SEQUENCES = ("northwind_msa", "kestrel_supply")
LOOP_KEYS = ("model_steps", "nudges", "compressions", "summaries_rejected", "repeated_batches", "calls_normalised",
             "tool_errors")


def hints_wrong(report: dict[str, Any]) -> tuple[int, int]:
    """(clause types memory named a place for, those whose place was wrong here)."""
    served = wrong = 0
    for finding in report.get("findings") or []:
        memory = finding.get("memory") or {}
        if not memory.get("remembered"):
            continue
        served += 1
        wrong += (not memory.get("pointed")) or memory.get("confirmed") is False
    return served, wrong


def _row(report: dict[str, Any], expected: dict[str, Any], path: Path, clause_types: list[str], seconds: float) -> dict[str, Any]:
    usage = report["usage"]
    memory = report.get("memory") or {}
    writes = memory.get("writes") or {}
    scored = score(report, expected, path, clause_types)
    served, wrong = hints_wrong(report)
    loop = report.get("review_loop") or {}
    return {
        "outcome": report["outcome"], "recorded": len(report["findings"]),
        "complete": len({f["clause_type"] for f in report["findings"]}) == len(clause_types),
        "deviations_found": scored["deviations_found"], "deviations_planted": scored["deviations_planted"],
        "recall": scored["recall"], "tool_calls": usage["tool_calls"], "graph_calls": int(usage.get("graph_calls", 0)),
        "tokens": usage["input_tokens"] + usage["output_tokens"],
        "episode_written": bool(writes.get("episode")), "facts_confirmed": len(writes.get("facts_confirmed") or []),
        "procedure_proposed": bool(writes.get("procedure_proposed")),
        "extraction": (memory.get("extraction") or {}).get("status"),
        "hints_served": served, "hints_wrong": wrong,
        "loop": {k: int(loop.get(k, 0) or 0) for k in LOOP_KEYS},
        "stop_reason": (report.get("incomplete") or {}).get("reason", ""), "wall_s": round(seconds, 2),
    }


def run_model(label: str, spec: str, sequences: tuple[str, ...], limit: int | None, home: Path,
              steps: Steps | None = None) -> dict[str, Any]:
    from agent.settings import Settings
    from graphs.context import forget_cached
    from graphs.runner import Reviewer, open_checkpointer
    from tools.playbook import load_playbook

    steps = steps or Steps("models", None, None, None)  # counted by nobody: no display
    clause_types = list(load_playbook().clause_types)
    results = []
    for name in sequences:
        sequence = named_sequence(name, limit=limit)
        settings = Settings(home=home / name, model=spec)
        forget_cached("")
        runs = []
        try:
            with open_checkpointer(settings) as saver:
                with_memory, without = Reviewer(settings, saver), Reviewer(settings, saver, use_memory=False)
                for index, path in enumerate(sequence.paths, start=1):
                    row: dict[str, Any] = {"run": index, "contract": path.stem}
                    for key, reviewer in (("off", without), ("on", with_memory)):
                        steps.working_on(f"{label}: {path.stem} (memory {key})")
                        start = time.perf_counter()
                        report = reviewer.review_path(path)
                        steps.advance(label=f"{label}: {path.stem} (memory {key})")
                        row[key] = _row(report, sequence.rows[path.stem], path, clause_types, time.perf_counter() - start)
                    row["tool_ratio"] = round(row["on"]["tool_calls"] / max(1, row["off"]["tool_calls"]), 3)
                    # the model's calls and the graph's (memory's places assessed before its first turn)
                    row["all_tool_ratio"] = round((row["on"]["tool_calls"] + row["on"]["graph_calls"])
                                                  / max(1, row["off"]["tool_calls"] + row["off"]["graph_calls"]), 3)
                    row["token_ratio"] = round(row["on"]["tokens"] / max(1, row["off"]["tokens"]), 3)
                    runs.append(row)
        finally:
            forget_cached("")
        results.append({"sequence": name, "runs": runs})
    return {"model": label, "spec": spec, "sequences": results, "summary": summarise(results)}


def summarise(sequences: list[dict[str, Any]]) -> dict[str, Any]:
    runs = [r for s in sequences for r in s["runs"]]
    n = len(runs) or 1

    def total(key: str, side: str) -> int:
        return sum(int(r[side][key]) for r in runs)

    thirds = [s["runs"][2] for s in sequences if len(s["runs"]) >= 3]
    return {
        "contracts": len(runs),
        "completed_off": sum(r["off"]["outcome"] == "COMPLETED" for r in runs),
        "completed_on": sum(r["on"]["outcome"] == "COMPLETED" for r in runs),
        "complete_stored_not_completed": sum(r["on"]["complete"] and r["on"]["outcome"] != "COMPLETED" for r in runs),
        "recorded_off": round(total("recorded", "off") / n, 1), "recorded_on": round(total("recorded", "on") / n, 1),
        "deviations_planted": total("deviations_planted", "off"),
        "deviations_found_off": total("deviations_found", "off"), "deviations_found_on": total("deviations_found", "on"),
        "recall_worse_with_memory": [r["contract"] for r in runs if r["on"]["recall"] < r["off"]["recall"]],
        "tool_calls_off": round(total("tool_calls", "off") / n, 1), "tool_calls_on": round(total("tool_calls", "on") / n, 1),
        "graph_calls_off": round(total("graph_calls", "off") / n, 1), "graph_calls_on": round(total("graph_calls", "on") / n, 1),
        "tokens_off": round(total("tokens", "off") / n), "tokens_on": round(total("tokens", "on") / n),
        "first_token_ratio": [s["runs"][0]["token_ratio"] for s in sequences if s["runs"]],
        "third_tool_ratio": [r["tool_ratio"] for r in thirds],
        "third_all_tool_ratio": [r["all_tool_ratio"] for r in thirds],
        "episodes_written": total("episode_written", "on"), "facts_confirmed": total("facts_confirmed", "on"),
        "procedures_proposed": total("procedure_proposed", "on"),
        "hints_served": total("hints_served", "on"), "hints_wrong": total("hints_wrong", "on"),
        "loop_off": {k: sum(r["off"]["loop"][k] for r in runs) for k in LOOP_KEYS},
        "loop_on": {k: sum(r["on"]["loop"][k] for r in runs) for k in LOOP_KEYS},
    }


def run(*, models: dict[str, str] | None = None, sequences: tuple[str, ...] = SEQUENCES, limit: int | None = None,
        home: Path | None = None) -> dict[str, Any]:
    chosen = models or MODELS
    with tempfile.TemporaryDirectory(prefix="bench-models-") as scratch:
        root = home or Path(scratch)
        reviews = 2 * len(chosen) * sum(len(named_sequence(name, limit=limit).paths) for name in sequences)
        with progress("models", reviews) as steps:
            results = [run_model(label, spec, sequences, limit, root / f"model-{i}", steps)
                       for i, (label, spec) in enumerate(chosen.items())]
    return {"sequences": list(sequences), "limit": limit, "models": results}


COLUMNS = ["model", "contract", "outcome", "recorded", "deviations found", "tool calls", "graph calls", "tokens",
           "on/off: tools, tokens", "memory stored", "hints wrong"]
_SHORT = {"COMPLETED": "C", "PARTIAL": "P", "FAILED": "F", "UNKNOWN": "?"}


def _k(tokens: int) -> str:
    return f"{tokens / 1000:.1f}k"


def table_rows(result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for model in result["models"]:
        for sequence in model["sequences"]:
            for r in sequence["runs"]:
                off, on = r["off"], r["on"]
                stored = ["episode"] if on["episode_written"] else []
                stored += [f"{on['facts_confirmed']} facts"] if on["facts_confirmed"] else []
                stored += ["procedure"] if on["procedure_proposed"] else []
                rows.append([model["model"], r["contract"],
                             f"{_SHORT.get(off['outcome'], off['outcome'])} / {_SHORT.get(on['outcome'], on['outcome'])}",
                             f"{off['recorded']} / {on['recorded']}",
                             f"{off['deviations_found']} / {on['deviations_found']} of {off['deviations_planted']}",
                             f"{off['tool_calls']} / {on['tool_calls']}", f"{off['graph_calls']} / {on['graph_calls']}",
                             f"{_k(off['tokens'])} / {_k(on['tokens'])}",
                             f"{r['tool_ratio']:.2f}, {r['token_ratio']:.2f}", ", ".join(stored) or "-",
                             f"{on['hints_wrong']} of {on['hints_served']}"])
    return rows


SUMMARY_COLUMNS = ["model", "completed", "complete, stored PARTIAL/FAILED", "recorded per contract",
                   "deviations found", "tool calls per contract", "graph calls per contract",
                   "tokens per contract", "3rd contract tools on/off", "3rd contract with the graph's calls",
                   "1st contract tokens on/off", "episodes, facts, procedures", "hints wrong"]
LOOP_COLUMNS = ["model", "memory", "model steps", "nudges", "compressions", "summaries rejected", "repeated batches",
                "calls normalised", "tool errors"]


def summary_rows(result: dict[str, Any]) -> list[list[str]]:
    rows = []
    for model in result["models"]:
        s = model["summary"]
        rows.append([model["model"], f"{s['completed_off']} / {s['completed_on']} of {s['contracts']}",
                     str(s["complete_stored_not_completed"]), f"{s['recorded_off']} / {s['recorded_on']}",
                     f"{s['deviations_found_off']} / {s['deviations_found_on']} of {s['deviations_planted']}",
                     f"{s['tool_calls_off']} / {s['tool_calls_on']}", f"{s['graph_calls_off']} / {s['graph_calls_on']}",
                     f"{_k(s['tokens_off'])} / {_k(s['tokens_on'])}",
                     ", ".join(f"{x:.2f}" for x in s["third_tool_ratio"]) or "-",
                     ", ".join(f"{x:.2f}" for x in s["third_all_tool_ratio"]) or "-",
                     ", ".join(f"{x:.2f}" for x in s["first_token_ratio"]) or "-",
                     f"{s['episodes_written']}, {s['facts_confirmed']}, {s['procedures_proposed']}",
                     f"{s['hints_wrong']} of {s['hints_served']}"])
    return rows


def loop_rows(result: dict[str, Any]) -> list[list[str]]:
    return [[model["model"], side, *(str(model["summary"][f"loop_{side}"][k]) for k in LOOP_KEYS)]
            for model in result["models"] for side in ("off", "on")]
