"""`make demo`: real reviews of the sample contracts, showing what memory changes run by run.

The demo keeps its memory in a data folder of its own (`<CONTRACT_AGENT_HOME>/demo` unless
`--home` names one), emptied at the start so the first review starts from nothing, and kept
afterwards for `contract-review memory list --home <folder>`. The terminal gets one line per
contract as its reviews finish, the comparison table and one computed sentence of conclusion;
the full reports go to Markdown files in `<folder>/reports/` (`--reports` prints them too). A folder is emptied only if it is
empty or an earlier demo made it (a marker file says so): the demo never deletes other data.
The comparison table is one set of cells (`table_cells`) shown three ways: a table that fits the
terminal (80 columns: one block of rows per contract), JSON rows, and the Markdown table of the
README (`--format markdown`, checked against README.md by tests/test_readme_tables.py).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from agent.errors import ConfigurationError
from agent.progress import is_quiet, progress
from agent.settings import Settings
from graphs.context import forget_cached
from graphs.runner import Reviewer, open_checkpointer

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"
# same-template families, each reviewed with memory on and off: Northwind, then the trap family
TEMPLATE_PREFIXES = ("northwind_msa_", "kestrel_supply_")
DEMO_MARKER = ".contract-review-demo"
FORMATS = ("text", "json", "markdown")
TITLE = "Same-template reviews in sequence, memory on and off, then the other samples"
COLUMNS = ("contract", "memory", "tool calls", "model calls", "tokens in / out", "findings", "deviations",
           "memories used")
# Below this many columns the table drops its contract column and heads each contract's rows.
WIDE_COLUMNS = 110
# Column widths of the narrow table (the last column takes the rest): every header fits.
NARROW_WIDTHS = {"memory": 6, "tool calls": 5, "model calls": 5, "tokens in / out": 15, "findings": 8,
                 "deviations": 10}


def sample_paths(prefix: str = "") -> list[Path]:
    return sorted(p for p in SAMPLES.glob(f"{prefix}*.pdf"))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def memory_used(report: dict) -> str:
    """What memory gave the run: '2 episodes, 3 facts, procedure', or 'none yet'."""
    memory = report["memory"]
    parts = []
    if memory["episodes"]:
        parts.append(_plural(len(memory["episodes"]), "episode"))
    if memory["facts"]:
        parts.append(_plural(len(memory["facts"]), "fact"))
    if memory["procedure"]:
        parts.append("procedure")
    return ", ".join(parts) or "none yet"


def demo_row(contract: str, memory: str, report: dict[str, Any],
             concluded: list[list[str]] | None = None) -> dict[str, Any]:
    """One run of the demo as data (what `--format json` prints, one object per run);
    `concluded` is its `verdicts` (clause type, verdict, section), kept to compare the runs."""
    used = report["memory"]
    return {
        "contract": contract,
        "memory": memory,
        "run_id": report["run_id"],
        "outcome": report["outcome"],
        **report["usage"],
        "findings": len(report["findings"]),
        "deviations": sum(f["verdict"] == "deviation" for f in report["findings"]),
        "memories_used": memory_used(report) if memory == "on" else "-",
        "episodes_used": [{"run_id": e["run_id"], "score": e["score"]} for e in used["episodes"]],
        "facts_used": len(used["facts"]),
        "procedure_used": bool(used["procedure"]),
        "verdicts": concluded if concluded is not None else verdicts(report),
    }


def model_calls_cell(row: dict[str, Any]) -> str:
    """Language-model calls, or the offline stand-in's calls named as such (never as model calls)."""
    model, stand_in = int(row.get("model_calls", 0)), int(row.get("stand_in_calls", 0))
    if stand_in and not model:
        return f"{stand_in} stand-in"
    return f"{model} + {stand_in} stand-in" if stand_in else str(model)


def table_cells(row: dict[str, Any]) -> dict[str, str]:
    """The demo table's cells for one run, by column: the same text on a terminal and in the README."""
    return {
        "contract": row["contract"],
        "memory": row["memory"],
        "tool calls": str(row["tool_calls"]),
        "model calls": model_calls_cell(row),
        "tokens in / out": f"{row['input_tokens']:,} / {row['output_tokens']:,}",
        "findings": str(row["findings"]),
        "deviations": str(row["deviations"]),
        "memories used": row["memories_used"],
    }


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """The table as Markdown (the README's demo table), numbers right-aligned."""
    numeric = {"tool calls", "model calls", "tokens in / out", "findings", "deviations"}
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---:" if c in numeric else "---" for c in COLUMNS) + "|"]
    for row in rows:
        cells = table_cells(row)
        lines.append("| " + " | ".join(cells[c].replace("|", "\\|") for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def _table(columns: tuple[str, ...], widths: dict[str, int], *, header: bool) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True, show_header=header,
                  expand=bool(widths))
    for column in columns:
        numeric = column not in ("contract", "memory", "memories used")
        table.add_column(column, justify="right" if numeric else "left", width=widths.get(column),
                         ratio=1 if widths and column == "memories used" else None, overflow="fold")
    return table


def comparison_table(rows: list[dict[str, Any]], width: int, home: Path) -> RenderableType:
    """The comparison table for a terminal `width` columns wide: one table when wide; below
    WIDE_COLUMNS, each contract's name on a line of its own above its runs."""
    title = Text(f"{TITLE}\n(data folder {home})", style="bold")
    if width >= WIDE_COLUMNS:
        table = _table(COLUMNS, {}, header=True)
        for row in rows:
            cells = table_cells(row)
            table.add_row(*(Text(cells[c]) for c in COLUMNS))
        return Group(title, table)
    columns = COLUMNS[1:]
    # One table per contract, all with the same column widths (so they line up): each column as
    # wide as its widest cell or header word; "memories used" takes the rest and wraps.
    cells = [table_cells(row) for row in rows]
    widths = {c: max([len(word) for word in c.split()] + [len(cell[c]) for cell in cells])
              for c in columns if c != "memories used"}
    parts: list[RenderableType] = [title]
    contracts = list(dict.fromkeys(row["contract"] for row in rows))
    for i, contract in enumerate(contracts):
        parts.append(Text(contract, style="bold", overflow="fold"))
        table = _table(columns, widths, header=i == 0)
        for row in rows:
            if row["contract"] == contract:
                cells = table_cells(row)
                table.add_row(*(Text(cells[c]) for c in columns))
        parts.append(table)
    return Group(*parts)


def default_home() -> Path:
    return Settings().home / "demo"


def prepare_home(home: Path) -> None:
    """Empty the demo's data folder, which must be empty, absent, or made by an earlier demo."""
    if home.exists() and not home.is_dir():
        raise ConfigurationError(f"demo data folder {home} is a file: give --home a folder")
    if home.is_dir() and any(home.iterdir()) and not (home / DEMO_MARKER).exists():
        raise ConfigurationError(
            f"demo data folder {home} holds data the demo did not make, and the demo empties its folder: "
            "give --home an empty or new folder")
    if home.is_dir():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    (home / DEMO_MARKER).write_text("made by `contract-review demo`, which empties this folder on every run\n",
                                    encoding="utf-8")


def verdicts(report: dict[str, Any]) -> list[list[str]]:
    """What a review concluded, clause type by clause type (to compare memory on with off)."""
    return sorted([f["clause_type"], f["verdict"], f.get("section") or ""] for f in report["findings"])


def contract_line(done: int, total: int, contract: str, on: dict[str, Any], off: dict[str, Any] | None) -> str:
    """The one line the demo prints when a contract's reviews are done, e.g.
    `[2/16] northwind_msa_02: 25 tool calls, 15.4k tokens (memory off: 84, 54.5k)`; an outcome
    other than COMPLETED is named."""
    line = f"[{done}/{total}] {contract}: {on['tool_calls']} tool calls, {_tokens(on) / 1000:.1f}k tokens"
    if off is not None:
        line += f" (memory off: {off['tool_calls']}, {_tokens(off) / 1000:.1f}k)"
    return line + ("" if on["outcome"] == "COMPLETED" else f", {on['outcome']}")


def _tokens(row: dict[str, Any]) -> int:
    return int(row["input_tokens"]) + int(row["output_tokens"])


def conclusion(rows: list[dict[str, Any]]) -> str:
    """One sentence on what memory changed, computed from the rows: the same-template reviews
    after the first of their template, memory on against the same review with memory off."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seen_templates: set[str] = set()
    by_contract: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_contract.setdefault(row["contract"], {})[row["memory"]] = row
    for contract, runs in by_contract.items():
        template = next((p for p in TEMPLATE_PREFIXES if contract.startswith(p)), None)
        if template is None or "off" not in runs:
            continue
        if template in seen_templates:
            pairs.append((runs["on"], runs["off"]))
        seen_templates.add(template)
    if not pairs:
        return "No contract was reviewed after another of its template, so there is nothing to compare yet."
    calls = sum(on["tool_calls"] for on, _ in pairs) / max(1, sum(off["tool_calls"] for _, off in pairs))
    tokens = sum(_tokens(on) for on, _ in pairs) / max(1, sum(_tokens(off) for _, off in pairs))
    same = sum(on["verdicts"] == off["verdicts"] for on, off in pairs)
    reviews = "the review that" if len(pairs) == 1 else f"the {len(pairs)} reviews that"
    return (f"With memory, {reviews} followed an earlier contract of their template took "
            f"{calls:.0%} of the tool calls and {tokens:.0%} of the tokens of the same reviews without memory, "
            f"and {same} of {len(pairs)} reached the same verdicts at the same sections.")


def write_report(folder: Path, contract: str, memory: str, report: dict[str, Any]) -> Path:
    from agent.report import render_markdown

    path = folder / f"{contract}.memory-{memory}.md"
    path.write_text(render_markdown(report), encoding="utf-8")
    return path


def run_demo(
    console: Console,
    *,
    home: Path | None = None,
    show_reports: bool = False,
    fmt: str = "text",
    quiet: bool | None = None,
) -> list[dict[str, Any]]:
    """Run the demo: one line per contract as its reviews finish, then the comparison table and
    one sentence of conclusion (`fmt="text"`), the rows as JSON, or the table as Markdown. Every
    full report is written as Markdown into `<home>/reports/` (named at the end);
    `show_reports` also prints each on the terminal. Progress goes to stderr unless quiet.
    Returns the rows."""
    home = (home or default_home()).expanduser().resolve()
    prepare_home(home)
    if not (quiet or is_quiet()):
        sys.stderr.write(f"demo: data folder {home} (emptied first, kept afterwards)\n")
    reports_folder = home / "reports"
    reports_folder.mkdir(mode=0o700)
    # The demo's own memory: a SQLite file in its folder, whatever memory URL is configured.
    settings = Settings(home=home, memory_url="")
    rows: list[dict[str, Any]] = []
    forget_cached("memory")
    template = [path for prefix in TEMPLATE_PREFIXES for path in sample_paths(prefix)]
    others = [p for p in sample_paths() if not p.name.startswith(TEMPLATE_PREFIXES)]
    contracts = template + others
    runs = len(template) * 2 + len(others)
    text = fmt == "text"
    try:
        with open_checkpointer(settings) as saver, progress("demo", runs, quiet=quiet) as steps:
            with_memory = Reviewer(settings, saver)
            without = Reviewer(settings, saver, use_memory=False)
            for done, path in enumerate(contracts, 1):
                steps.working_on(f"{path.stem} (memory on)")
                report = with_memory.review_path(path)
                steps.advance(label=f"{path.stem} (memory on)")
                write_report(reports_folder, path.stem, "on", report)
                if show_reports and text:
                    from agent.report_text import render_terminal

                    console.print(render_terminal(report, console.width))
                    console.print()
                on = demo_row(path.stem, "on", report, verdicts(report))
                rows.append(on)
                off = None
                if path in template:
                    steps.working_on(f"{path.stem} (memory off)")
                    report_off = without.review_path(path)
                    write_report(reports_folder, path.stem, "off", report_off)
                    off = demo_row(path.stem, "off", report_off, verdicts(report_off))
                    rows.append(off)
                    steps.advance(label=f"{path.stem} (memory off)")
                if text:
                    console.print(contract_line(done, len(contracts), path.stem, on, off), markup=False,
                                  highlight=False)
    finally:
        forget_cached("memory")
    if fmt == "json":
        console.file.write(json.dumps(rows, indent=2) + "\n")
    elif fmt == "markdown":
        console.file.write(markdown_table(rows))
    else:
        console.print()
        console.print(comparison_table(rows, console.width, home))
        console.print(conclusion(rows), markup=False, highlight=False)
        console.print(f"Full reports ({len(rows)} Markdown files): {reports_folder}", markup=False, highlight=False)
        console.print(f"What the demo remembered stays in {home}: see it with "
                      f"contract-review memory list --home {home}", markup=False, highlight=False)
    return rows
