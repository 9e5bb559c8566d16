"""`make demo`: real reviews of the sample contracts, showing what memory changes run by run."""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from agent.report import render_markdown
from agent.runner import Reviewer, open_checkpointer
from agent.settings import Settings
from graphs.context import forget_cached

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


def run_demo(console: Console, *, home: Path | None = None, show_reports: bool = True) -> None:
    with tempfile.TemporaryDirectory(prefix="contract-agent-demo-") as scratch:
        settings = Settings(home=home or Path(scratch) / "home")
        forget_cached("memory")
        template = sample_paths(TEMPLATE_PREFIX)
        others = [p for p in sample_paths() if not p.name.startswith(TEMPLATE_PREFIX)]
        table = Table(title=f"Same-template reviews in sequence (data folder {settings.home})")
        for column in ("contract", "memory", "tool calls", "model calls", "tokens in/out", "findings", "deviations", "memories used"):
            table.add_column(column)
        with open_checkpointer(settings) as saver:
            with_memory = Reviewer(settings, saver)
            without = Reviewer(settings, saver, use_memory=False)
            for path in template + others:
                report = with_memory.review_path(path)
                if show_reports:
                    console.print(Markdown(render_markdown(report)))
                baseline = without.review_path(path) if path in template else None
                for label, r in (("on", report), ("off", baseline)):
                    if r is None:
                        continue
                    u = r["usage"]
                    table.add_row(
                        path.stem, label, str(u["tool_calls"]), str(u["model_calls"]),
                        f"{u['input_tokens']}/{u['output_tokens']}", str(len(r["findings"])),
                        str(sum(f["verdict"] == "deviation" for f in r["findings"])),
                        memory_used(r) if label == "on" else "-",
                    )
        console.print(table)
        forget_cached("memory")
