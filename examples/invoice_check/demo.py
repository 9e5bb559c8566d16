"""The invoice checker's memory demo: the sample invoices checked twice, memory off then memory on,
each pass in a fresh data folder, and what each check cost.

    python -m examples.invoice_check.demo [--home DIR] [--no-approve]

Kestrel's invoices cite their purchase order in the `reference` field and list their own part
numbers in their own order: without memory the checker lists the supplier's open orders, opens each
and tries line matching by position before part numbers; with memory it goes to the field and the
method the supplier's earlier invoices used. Harbor's invoices are standard, and memory cannot make
them cheaper (it adds the memory block and the extraction call). After the third check the demo
approves the procedure the runs proposed, as a person would (`contract-review memory approve`), so
later checks are served it. The decisions must be the same with memory off and on: memory decides
where to look, the tools decide every result.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from examples.invoice_check.records import load_invoice, sample_books, sample_invoices

APPROVE_AFTER = 3  # checks before the demo approves the proposed procedure


@dataclass
class Row:
    invoice: str
    decision: str
    tool_calls: int
    steps: int
    tokens: int  # input + output, the checker's calls and (memory on) the extraction call
    failed: str


def _quiet() -> None:
    """Libraries log at INFO (presidio, bm25s): the demo shows warnings only."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for name in ("presidio-analyzer", "presidio_analyzer", "bm25s", "wordllama"):
        logging.getLogger(name).setLevel(logging.WARNING)


def run_pass(home: Path, *, use_memory: bool, approve: bool = True) -> tuple[list[Row], dict[str, Any]]:
    """Check every sample invoice in order with one data folder; (rows, what memory holds after)."""
    from agent.settings import Settings
    from examples.invoice_check.graph import build_graph, context
    from graphs.context import forget_cached
    from memory.backends import open_memory
    from memory.records import Namespace, ProcedureStatus

    settings = Settings(home=home)
    ctx = context(settings, use_memory=use_memory)
    graph = build_graph()
    books = sample_books().model_dump()
    rows: list[Row] = []
    approved_at = None
    ns = Namespace(tenant=settings.tenant, agent=ctx.agent)
    memory = open_memory(settings.resolved_memory_url()) if use_memory else None
    for number, path in enumerate(sample_invoices(), start=1):
        state = graph.invoke({"invoice": load_invoice(path).model_dump(), "books": books, "run_id": f"check-{number}"},
                             {"configurable": {"thread_id": f"check-{number}"}}, context=ctx)
        usage = state["usage"]
        failed = ", ".join(r["check"] for r in state["checks"] if r["status"] == "fail")
        rows.append(Row(path.stem, state["decision"], usage["tool_calls"], state["steps"],
                        usage["input_tokens"] + usage["output_tokens"], failed))
        if memory is not None and approve and number == APPROVE_AFTER:
            pending = [p for p in memory.procedures.list(ns) if p.status == ProcedureStatus.PENDING]
            for procedure in pending[:1]:
                memory.procedures.set_status(ns, procedure.procedure_id, ProcedureStatus.VALIDATED, by="demo")
                approved_at = number
    held: dict[str, Any] = {}
    if memory is not None:
        held = {"episodes": len(memory.episodes.list(ns, limit=1000)), "facts": len(memory.facts.list(ns)),
                "procedures": [p.status.value for p in memory.procedures.list(ns)], "approved_after": approved_at}
        memory.close()
    forget_cached("")
    return rows, held


def table(off: list[Row], on: list[Row]) -> str:
    head = f"{'invoice':<26} {'decision':<8} {'tool calls':>12} {'model steps':>12} {'tokens':>15}  failed checks"
    lines = [head, f"{'':<26} {'':<8} {'off / on':>12} {'off / on':>12} {'off / on':>15}", "-" * len(head)]
    for a, b in zip(off, on, strict=True):
        lines.append(f"{a.invoice:<26} {b.decision:<8} {a.tool_calls:>5} / {b.tool_calls:<4} {a.steps:>5} / {b.steps:<4} "
                     f"{a.tokens:>7,} / {b.tokens:<6,} {b.failed or '-'}")
    return "\n".join(lines)


def totals(rows: list[Row], supplier: str, *, skip_first: bool = True) -> tuple[int, int, int]:
    """Tool calls, model steps and tokens over one supplier's invoices (after its first)."""
    mine = [r for r in rows if supplier in r.invoice][1 if skip_first else 0:]
    return sum(r.tool_calls for r in mine), sum(r.steps for r in mine), sum(r.tokens for r in mine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m examples.invoice_check.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--home", type=Path, help="keep the two data folders under DIR (default: a temporary folder)")
    parser.add_argument("--no-approve", action="store_true", help="leave the proposed procedure pending")
    args = parser.parse_args(argv)
    _quiet()
    with tempfile.TemporaryDirectory(prefix="invoice-demo-") as scratch:
        base = args.home or Path(scratch)
        off, _ = run_pass(base / "memory-off", use_memory=False)
        on, held = run_pass(base / "memory-on", use_memory=True, approve=not args.no_approve)
    print(table(off, on))
    print()
    for supplier in ("kestrel", "harbor"):
        (calls_off, steps_off, tokens_off), (calls_on, steps_on, tokens_on) = totals(off, supplier), totals(on, supplier)
        print(f"{supplier}, after its first invoice: tool calls {calls_off} -> {calls_on} "
              f"({calls_on / calls_off:.2f}x), model steps {steps_off} -> {steps_on}, tokens {tokens_off:,} -> "
              f"{tokens_on:,} ({tokens_on / tokens_off:.2f}x)")
    same = [a.decision for a in off] == [b.decision for b in on] and [a.failed for a in off] == [b.failed for b in on]
    print(f"memory after the run: {held['episodes']} episodes, {held['facts']} facts confirmed, procedures "
          f"{', '.join(held['procedures']) or 'none'}" + (f" (approved after check {held['approved_after']})"
                                                          if held.get("approved_after") else ""))
    print("same decisions and failed checks with memory off and on: " + ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
