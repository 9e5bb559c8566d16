"""`make demo`: real reviews of the sample contracts, showing what memory changes run by run."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from agent.progress import progress
from agent.report import render_markdown
from agent.settings import Settings
from graphs.context import forget_cached
from graphs.runner import Reviewer, open_checkpointer

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"
TEMPLATE_PREFIX = "northwind_msa_"


def sample_paths(prefix: str = "") -> list[Path]:
    return sorted(p for p in SAMPLES.glob(f"{prefix}*.pdf"))


def memory_used(report: dict) -> str:
    memory = report["memory"]
    parts = [f"episode {e['run_id'][:8]} ({e['score']:.2f})" for e in memory["episodes"]]
    if memory["facts"]:
        parts.append(f"{len(memory['facts'])} fact(s)")
    if memory["procedure"]:
        parts.append("procedure")
    return ", ".join(parts) or "-"


COLUMNS = ("contract", "memory", "tool calls", "model calls", "tokens in/out", "findings", "deviations", "memories used")


def demo_row(contract: str, memory: str, report: dict[str, Any]) -> dict[str, Any]:
    """One run of the demo as data (what `--format json` prints, one object per run)."""
    usage = report["usage"]
    return {
        "contract": contract,
        "memory": memory,
        "run_id": report["run_id"],
        "outcome": report["outcome"],
        **usage,
        "findings": len(report["findings"]),
        "deviations": sum(f["verdict"] == "deviation" for f in report["findings"]),
        "memories_used": memory_used(report) if memory == "on" else "-",
    }


def run_demo(
    console: Console,
    *,
    home: Path | None = None,
    show_reports: bool = True,
    fmt: str = "text",
    quiet: bool | None = None,
) -> list[dict[str, Any]]:
    """Run the demo; print reports and the comparison table (`fmt="text"`) or the rows as JSON.
    Progress goes to stderr unless quiet. Returns the rows."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="contract-agent-demo-") as scratch:
        settings = Settings(home=home or Path(scratch) / "home")
        forget_cached("memory")
        template = sample_paths(TEMPLATE_PREFIX)
        others = [p for p in sample_paths() if not p.name.startswith(TEMPLATE_PREFIX)]
        runs = len(template) * 2 + len(others)
        with open_checkpointer(settings) as saver, progress("demo", runs, quiet=quiet) as steps:
            with_memory = Reviewer(settings, saver)
            without = Reviewer(settings, saver, use_memory=False)
            for path in template + others:
                steps.working_on(f"{path.stem} (memory on)")
                report = with_memory.review_path(path)
                steps.advance(label=f"{path.stem} (memory on)")
                if show_reports and fmt == "text":
                    console.print(Markdown(render_markdown(report)))
                rows.append(demo_row(path.stem, "on", report))
                if path in template:
                    steps.working_on(f"{path.stem} (memory off)")
                    rows.append(demo_row(path.stem, "off", without.review_path(path)))
                    steps.advance(label=f"{path.stem} (memory off)")
        forget_cached("memory")
    if fmt == "json":
        console.file.write(json.dumps(rows, indent=2) + "\n")
        return rows
    table = Table(title=f"Same-template reviews in sequence (data folder {settings.home if home else 'temporary'})")
    for column in COLUMNS:
        table.add_column(column)
    for row in rows:
        table.add_row(
            row["contract"], row["memory"], str(row["tool_calls"]), str(row["model_calls"]),
            f"{row['input_tokens']}/{row['output_tokens']}", str(row["findings"]), str(row["deviations"]),
            row["memories_used"],
        )
    console.print(table)
    return rows
