"""Run the benchmarks, print their tables, write their JSON (and the improvement PNG).

`run_benchmark(name, ...)` runs one; `run_all` runs them all in one process, side by side, so
machine noise cancels. Sizes: "full" is what `make bench` measures, "tiny" is what the test
suite runs to prove every benchmark works end to end (its figures mean nothing).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from agent.errors import ConfigurationError
from agent.progress import track
from bench import (
    aws_bootstrap,
    bootstrap,
    compression,
    cuad,
    firstrun,
    improvement,
    models,
    realistic,
    retrieval,
    startup,
    writepath,
)
from bench.common import write_result

NAMES = ("improvement", "bootstrap", "retrieval", "compression", "writepath", "cuad", "startup", "realistic", "models")
# Run on their own only, never by `bench all`: firstrun installs a whole environment from a fresh clone;
# aws loads 100k episodes into moto (about ten minutes).
ALONE = ("firstrun", "aws")
SIZES: dict[str, dict[str, dict[str, Any]]] = {
    "full": {
        "improvement": {},
        "bootstrap": {"sizes": bootstrap.FULL_SIZES, "facts": 10_000, "n_queries": 200},
        "retrieval": {"distractors": 300},
        "compression": {"steps": 220},
        "writepath": {"count": 100, "episodes": 1000},
        "cuad": {"runs": 5},
        "startup": {"own": bootstrap.FULL_SIZES[-1], "facts": 10_000, "runs": 5},
        "firstrun": {},
        "realistic": {"seeds": (0, 1, 2)},
        "models": {},
        "aws": {"sizes": aws_bootstrap.FULL_SIZES, "n_queries": 20},
    },
    # `contract-review bench bootstrap --size 1m`: 100k and 1M own episodes, cold start at both
    "1m": {
        "bootstrap": {"sizes": (100_000, 1_000_000), "facts": 10_000, "n_queries": 200, "cold_runs": 3},
    },
    "tiny": {
        "improvement": {"limit": 2, "names": ("northwind_msa", "kestrel_supply")},
        "bootstrap": {"sizes": (40, 120), "facts": 30, "n_queries": 5},
        "retrieval": {"distractors": 5},
        "compression": {"steps": 40},
        "writepath": {"count": 2, "episodes": 20, "sources": 1},
        "cuad": {"runs": 1, "evaluate": False},
        "startup": {"own": 120, "facts": 30, "runs": 1},
        "firstrun": {},
        "realistic": {"seeds": (0,), "contracts": 1, "sequence": 3},
        "models": {"sequences": ("northwind_msa",), "limit": 2},
        "aws": {"sizes": (30, 90), "n_queries": 2, "partition_max": 90, "facts": 10},
    },
}


def _pct(x: float) -> str:
    return f"{x:.0%}"


class FitTable:
    """A benchmark's table that keeps every cell whole at any width: a rich table where it fits
    (a wide terminal, or the 150 columns of piped output); on a narrower terminal, one block per
    row, its first cell as a heading and `column: value` pairs below, wrapped between pairs, so
    no name is cut short ("north…") and no figure is folded."""

    def __init__(self, title: str, columns: list[str], rows: list[list[str]]):
        self.title, self.columns, self.rows = title, list(columns), [list(map(str, row)) for row in rows]

    def table(self) -> Table:
        table = Table(title=self.title, title_justify="left")
        for column in self.columns:
            table.add_column(column, overflow="fold")
        for row in self.rows:
            table.add_row(*row)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table()
        natural = Measurement.get(console, options.update_width(100_000), table).maximum
        if natural <= options.max_width:
            yield table
            return
        yield Text(self.title, style="bold italic")
        for row in self.rows:
            yield Text(row[0] if row else "", style="bold", overflow="fold")
            pairs = [f"{column}: {cell}" for column, cell in zip(self.columns[1:], row[1:], strict=False)]
            line, lines = "", []
            for pair in pairs:
                if line and len(line) + 3 + len(pair) > options.max_width - 2:
                    lines.append(line)
                    line = ""
                line = f"{line} · {pair}" if line else pair
            lines.append(line)
            for text in filter(None, lines):
                yield Text("  " + text, overflow="fold")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.table()).clamp(max_width=options.max_width)


def _table(title: str, columns: list[str], rows: list[list[str]]) -> FitTable:
    return FitTable(title, columns, rows)


def render(name: str, result: dict[str, Any]) -> list[FitTable]:
    """The result as rich tables (what the command prints)."""
    if name == "improvement":
        tables = [_table("1. Memory-driven improvement (memory on / off per run)", improvement.COLUMNS,
                         improvement.table_rows(result))]
        targets = result["targets"]
        rows = []
        for seq in result["sequences"]:
            third = seq.get("third_run")
            if third:
                rows.append([seq["sequence"], third["contract"],
                             f"{_pct(third['tool_ratio'])} (target <= {_pct(targets['tool_ratio_max'])}: "
                             f"{'met' if third['tool_target_met'] else 'MISSED'})",
                             f"{_pct(third['token_ratio'])} (target <= {_pct(targets['token_ratio_max'])}: "
                             f"{'met' if third['token_target_met'] else 'MISSED'})",
                             f"{third['recall_on']:.2f} vs {third['recall_off']:.2f}"])
        if rows:
            tables.append(_table("Third similar contract: memory on as a share of memory off",
                                 ["sequence", "contract", "tool calls", "tokens", "recall on vs off"], rows))
        firsts = [[seq["sequence"], first["contract"], str(first["episodes_used"]),
                   f"{first['token_ratio']:.2f}x (target <= {targets['first_run_token_ratio_max']:.2f}x: "
                   f"{'met' if first['target_met'] else 'MISSED'})"]
                  for seq in result["sequences"] for first in seq.get("first_runs", [])]
        if firsts:
            tables.append(_table("First contract of each template: tokens with memory / without",
                                 ["sequence", "contract", "episodes recalled", "tokens on / off"], firsts))
        verdicts = [[seq["sequence"], "yes" if seq["no_contract_worse"] else "NO: " + ", ".join(seq["worse"])]
                    for seq in result["sequences"]]
        tables.append(_table("Memory never worse: recall and section accuracy with memory >= without, every contract",
                             ["sequence", "no contract worse"], verdicts))
        return tables
    if name == "bootstrap":
        rows = []
        for size in result["sizes"]:
            lat, exact = size["latency_ms"], size["exact_scan"]["latency_ms"]
            found = size["target_found_at_3"]
            cold = size.get("cold_start")
            rows.append([f"{size['own_episodes']:,}",
                         *(f"{lat[k]['p50']:.1f} / {lat[k]['p95']:.1f}" for k in ("bootstrap", "episodic", "semantic")),
                         f"{exact['bootstrap']['p50']:.1f} / {exact['bootstrap']['p95']:.1f}",
                         f"{lat['reference']['p50']:.1f} / {lat['reference']['p95']:.1f}",
                         f"{size['ann_recall_at_10']:.3f}",
                         f"{size['first_search_ms']:.0f} / {size['exact_scan']['first_search_ms']:.0f}",
                         f"{cold['median_ms']:.0f}" if cold else "-",
                         f"{found['full']:.2f} / {found['reference']:.2f}"])
        tables = [_table(f"2. Bootstrap latency, ms p50 / p95 ({result['sizes'][0]['queries']} queries; "
                         f"{result['own_facts']:,} facts; other tenants x{result['sizes'][-1]['other_tenant_factor']})",
                         ["own episodes", "bootstrap (index)", "episodic", "semantic", "bootstrap (exact scan)",
                          "reference (100 newest)", "ANN recall@10", "first search ms: index / exact",
                          "cold start ms", "named episode in top 3: full / reference"], rows)]
        t = result["targets"]
        summary = [[f"bootstrap p95 at {int(own):,} episodes {v['measured']:.1f} ms (target <= {v['target']:.0f})",
                    "met" if v["met"] else "MISSED"] for own, v in t["p95_ms"].items()]
        summary.append([f"ANN recall@10 against the exact scan (target >= {t['ann_recall_at_10_min']})",
                        "met" if t["ann_recall_met"] else "MISSED"])
        summary.append([f"p95 growth largest / smallest {t['growth']}x (target <= {t['growth_target']:.0f}x)",
                        "met" if t["growth_met"] else "MISSED"])
        for size in result["sizes"]:
            summary.append([f"{size['own_episodes']:,} episodes: data build (bulk loader) / index build",
                            f"{_build_note(size)} / {size['index_build']}"])
        tables.append(_table("Bootstrap targets", ["figure", "value"], summary))
        return tables
    if name == "retrieval":
        kinds = list(result["halves"]["held_back"]["hybrid"]["by_kind"])
        rows = [[half.replace("_", " "), mode, f"{m['recall_at_3']:.3f}", f"{m['mrr']:.3f}",
                 f"{m['irrelevant_served']:.3f}",
                 *(f"{m['by_kind'][k]['recall_at_3']:.2f} / {m['by_kind'][k]['irrelevant_served']:.2f}" for k in kinds)]
                for half, modes in result["halves"].items() for mode, m in modes.items()]
        t = result["target"]
        title = (f"3. Retrieval quality: {result['queries']} queries ({result['no_answer_share']:.0%} with no right "
                 f"answer), {result['episodes']} episodes + {result['distractors']} distractors; held-back hybrid "
                 f"recall@3 >= {t['hybrid_recall_at_3_min']} and >= each retriever: "
                 f"{'met' if t['recall_met'] else 'MISSED'}; irrelevant served <= {t['irrelevant_served_max']}: "
                 f"{'met' if t['irrelevant_met'] else 'MISSED'}")
        return [_table(title, ["half", "retriever", "recall@3", "MRR", "no-answer queries served",
                               *(f"{k} R@3 / served" for k in kinds)], rows)]
    if name == "compression":
        rows = []
        for key in ("with_compression", "without_compression"):
            r = result[key]
            rows.append([key.replace("_", " "), str(r["tool_steps"]), f"{r['peak_context_tokens']:,}",
                         f"{r['total_input_tokens']:,}", str(r["peak_context_messages"]), str(r["compressions"]),
                         f"{r['findings_in_report']} / {r['findings_visible_at_last_step']}",
                         str(r["histories_with_split_tool_pairs"])])
        return [_table(f"4. Working-memory compression over a long run ({result['planned_tool_steps']} tool steps; "
                       f"peak ratio {_pct(result['peak_ratio'])})",
                       ["run", "tool steps", "peak context tokens", "input tokens (all calls)", "peak messages",
                        "compressions", "findings: report / visible at end", "histories with split tool pairs"], rows)]
    if name == "writepath":
        c, f, r = result["consolidation"], result["footprint"], result["review_rss"]
        rows = [["consolidations per second", f"{c['per_second']} (p50 {c['latency_ms']['p50']:.0f} ms, "
                 f"p95 {c['latency_ms']['p95']:.0f} ms, n={c['count']})"],
                ["bytes per 1,000 episodes", f"{f['bytes_per_1000']:,} ({f['mb_per_1000']} MiB; vectors "
                 f"{f['vector_bytes_per_1000']:,}, records {f['record_json_bytes_per_1000']:,})"],
                ["episode writes per second (public add, one transaction each)", f"{f['adds_per_second']}"],
                ["peak RSS of one review (fresh process)", f"{r['peak_rss_mb']} MiB (after imports {r['after_imports_mb']} MiB)"]]
        return [_table("5. Write path and footprint", ["figure", "value"], rows)]
    if name == "cuad":
        if not result["available"]:
            return [_table("6. Real filings (CUAD)", ["figure", "value"], [["not run", f"{result['reason']} ({result['folder']})"]])]
        longest = result["longest"]
        rows = [[f"whole-graph review of the longest contract ({longest['bytes']:,} bytes), median of {len(longest['runs_s'])}",
                 f"{longest['median_s']:.2f} s (target < {longest['target_s']:.0f} s: {'met' if longest['met'] else 'MISSED'}; "
                 f"{longest['findings']} findings)"]]
        if "evaluation" in result:
            ev = result["evaluation"]
            rows.append([f"eval cuad on {ev['contracts']} contracts", f"{ev['seconds']:.1f} s (macro F1 {ev['macro_f1']:.3f})"])
        return [_table("6. Real filings (CUAD)", ["figure", "value"], rows)]
    if name == "startup":
        return _startup_tables(result)
    if name == "aws":
        rows = [[r["setup"], f"{r['episodes']:,}", f"{r['requests_total']:.1f}",
                 ", ".join(f"{op.split(':')[1]} {n:g}" for op, n in r["requests_per_bootstrap"].items()),
                 f"{r['bytes_total']:,}", f"{r['named_episode_found_at_3']:.2f}"] for r in result["sizes"]]
        return [_table("AWS bootstrap cost per history size (moto; QueryVectors in process): per bootstrap, "
                       f"requests flat: {'yes' if result['requests_flat'] else 'NO'}",
                       ["set-up", "episodes", "requests", "by operation", "bytes read", "named episode found"],
                       rows)]
    if name == "firstrun":
        m = result["milestones_s"]
        rows = [["pip install of the runtime dependencies", f"{result['install_s']:.0f} s"],
                ["make demo -> first report", f"{result['first_report_s']:.0f} s"],
                ["make demo -> comparison table (13 reviews)", f"{m.get('demo_table', 0):.0f} s"],
                ["make demo, whole", f"{result['seconds_total']:.0f} s"],
                ["warnings printed (the project's packaging and the demo)", str(len(result["warnings"]))]]
        return [_table(f"8. First run: fresh clone of {result['commit']} -> make demo", ["figure", "value"], rows)]
    if name == "realistic":
        summary = result["summary"]
        extraction = ", ".join(f"{k} {v}" for k, v in summary["extraction"].items())
        rows = [["reviews completed (memory off)", f"{summary['completed']} / {summary['reviews']} "
                 f"(mean {summary['mean_findings']} findings)"],
                ["planted deviations found", f"{_pct(summary['planted_recall'])} (target >= "
                 f"{_pct(summary['recall_target'])}: {'met' if summary['recall_met'] else 'MISSED'}); the offline "
                 f"reviewer {_pct(summary['offline_recall'])}, so {_pct(summary['found_of_what_the_offline_reviewer_finds'])} "
                 "of what the tools can find"],
                ["mean tool calls / stand-in calls per review", f"{summary['mean_tool_calls']} / {summary['mean_stand_in_calls']}"],
                ["prose turns nudged / tool errors answered", f"{summary['nudges']} / {summary['tool_errors']}"],
                ["memory-on runs: episodes written", f"{summary['episodes_written']} / {summary['memory_runs']} "
                 f"(extraction: {extraction})"],
                ["facts confirmed after 3 runs, per seed", ", ".join(map(str, summary["facts_after_3_runs"]))],
                ["3rd Northwind contract, tool calls memory on / off", ", ".join(
                    _pct(r) for r in summary["third_northwind_tool_ratio"])]]
        return [_table(f"9. Realistic stand-in (seeds {', '.join(map(str, result['seeds']))}), memory off",
                       realistic.COLUMNS, realistic.table_rows(result)),
                _table("Realistic stand-in, Northwind in sequence with memory on", realistic.SEQUENCE_COLUMNS,
                       realistic.sequence_rows(result)),
                _table("Realistic stand-in: summary", ["figure", "value"], rows)]
    if name == "models":
        return [_table(f"10. Models over same-template sequences ({', '.join(result['sequences'])}): memory off / on "
                       "(outcome C completed, P partial, F failed; with memory, the outcome the episode stored)",
                       models.COLUMNS, models.table_rows(result)),
                _table("Models: per model, memory off / on", models.SUMMARY_COLUMNS, models.summary_rows(result)),
                _table("Models: what the review loop did (totals)", models.LOOP_COLUMNS, models.loop_rows(result))]
    raise ConfigurationError(f"unknown benchmark {name!r}")


def _startup_tables(result: dict[str, Any]) -> list[FitTable]:
    t, cold = result["targets"], result["cold_start"]
    n = result["runs"]
    rows = [[f"python -c pass (median of {n}, for scale)", f"{result['python_pass']['median_ms']:.0f} ms"],
            [f"contract-review --help (median of {n})",
             f"{t['help_ms']:.0f} ms (target <= {t['help_target_ms']:.0f}: {'met' if t['help_met'] else 'MISSED'})"],
            [f"review: process start -> first model call, {result['own_episodes']:,} own episodes on disk "
             f"({result['memory_file_mb']} MB), median of {n}",
             f"{t['first_call_ms']:.0f} ms (target <= {t['first_call_target_ms']:.0f}: "
             f"{'met' if t['first_call_met'] else 'MISSED'})"]]
    phases = [[phase.removesuffix("_ms").replace("_", " "), f"{cold['phases_median_ms'][phase]:.0f}", owner]
              for phase, owner in result["owners"].items()]
    return [_table("7. Start-up", ["figure", "value"], rows),
            _table("Where the cold start goes (median ms per phase)", ["phase", "ms", "whose"], phases)]


def _build_note(size: dict[str, Any]) -> str:
    """How long the size's memory file took to build: in this run, or when it was built (the
    file is kept between runs, its build record in fill.json)."""
    build = size.get("build")
    if not build:
        return "reused (no build record)"
    when = "this run" if size.get("fill_seconds") else f"built {build.get('finished_at', '?')}"
    return (f"{build['seconds']:.0f} s wall, {build.get('cpu_seconds', '?')} s CPU "
            f"(load {build.get('load_average_before', '?')} -> {build.get('load_average_after', '?')}; {when})")


def _runner(name: str, data: Path, params: dict[str, Any], log: Callable[[str], None]) -> dict[str, Any]:
    if name == "improvement":
        return improvement.run(data, **params)
    if name == "bootstrap":
        params = dict(params)
        cold_runs = params.pop("cold_runs", 0)
        cold = (lambda home: startup.cold_start(home, startup.CONTRACT, cold_runs)) if cold_runs else None
        return bootstrap.run(data, log=log, cold_start=cold, **params)
    if name == "retrieval":
        return retrieval.run(**params)
    if name == "compression":
        return compression.run(**params)
    if name == "writepath":
        return writepath.run(**params)
    if name == "cuad":
        return cuad.run(**params)
    if name == "startup":
        return startup.run(data, log=log, **params)
    if name == "firstrun":
        return firstrun.run(log=log, **params)
    if name == "realistic":
        return realistic.run(**params)
    if name == "models":
        return models.run(**params)
    if name == "aws":
        return aws_bootstrap.run(log=log, **params)
    raise ConfigurationError(f"unknown benchmark {name!r}: choose from {', '.join(NAMES)}")


def run_benchmark(name: str, *, out: Path, data: Path, size: str = "full", console: Console | None = None,
                  command: str = "") -> dict[str, Any]:
    if size not in SIZES:
        raise ConfigurationError(f"unknown size {size!r}: use full or tiny (or 1m for bootstrap)")
    if name not in NAMES + ALONE:
        raise ConfigurationError(f"unknown benchmark {name!r}: choose from {', '.join(NAMES + ALONE)}")
    if name not in SIZES[size]:
        raise ConfigurationError(f"size {size!r} exists for {', '.join(SIZES[size])} only")
    console = console or Console()
    data.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    result = _runner(name, data, SIZES[size][name], lambda text: console.print(text, style="dim"))
    seconds = time.perf_counter() - start
    result["size"] = size
    if name == "improvement":
        result["png"] = improvement.plot(result, out / "improvement.png").name
    write_result(out, name, result, command=command or f"contract-review bench {name}", seconds=seconds)
    for table in render(name, result):
        console.print(table)
    console.print(f"[dim]{name}: {seconds:.1f} s -> {out / (name + '.json')}[/dim]")
    return result


def run_all(*, out: Path, data: Path, size: str = "full", only: list[str] | None = None,
            console: Console | None = None) -> dict[str, dict[str, Any]]:
    console = console or Console()
    start = time.perf_counter()
    results = {name: run_benchmark(name, out=out, data=data, size=size, console=console,
                                   command="contract-review bench all")
               for name in track(list(only or NAMES), "bench")}
    console.print(f"all benchmarks: {time.perf_counter() - start:.0f} s")
    return results
