"""The invoice checker's prompts: the system prompt (with the memory block), the task, and the
extraction request the memory core sends when a run ends."""

from __future__ import annotations

from examples.invoice_check.checks import CHECKS

CHECKS_LINE = "Checks to run: "
SYSTEM = """You check a supplier invoice against the purchase order it bills, for accounts payable.
Read the invoice, find its purchase order (the PO number may be in any header field; else list the
supplier's open orders and compare), match the invoice lines to the order lines, then run every
check with run_check and answer with a one-paragraph summary. Never decide a check yourself: the
tools compute every result.
{checks_line}{checks}
Memory tools: search_memory looks up your past runs; remember proposes a fact or pattern worth
keeping (kept only if later runs bear it out)."""

TASK = "Check invoice {number} from {supplier} ({lines} lines, total {total:.2f} {currency})."

# The extraction request (memory.graph.MemoryAgent.extraction_instructions). Its first line names
# the task so that a stand-in can tell it from the checker's own calls.
EXTRACT_HEADER = "TASK: extract-invoice-run"
EXTRACT_INSTRUCTIONS = f"""{EXTRACT_HEADER}
You distil one finished invoice check for the agent's memory. You are given a digest of the run,
read from the graph's state. Answer one JSON object with: outcome (COMPLETED, PARTIAL or FAILED;
the run's observed outcome stands unless you name what is still open or a problem the digest
records, in lowered_because), approach (one sentence: how the purchase order was found and the
lines matched), reusable_patterns (short lessons for the next invoice of this kind),
fact_candidates (general facts about supplier invoices, each {{"text", "confidence"}}: never a
name, an amount or an invoice number), procedure ({{"title", "steps"}}: the steps that worked, or
null). Do not repeat the results: the graph keeps them."""


def system_prompt(memory_block: str = "") -> str:
    text = SYSTEM.format(checks_line=CHECKS_LINE, checks=", ".join(CHECKS))
    return f"{text}\n\n{memory_block}" if memory_block else text
