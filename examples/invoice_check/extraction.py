"""The stand-in's extraction: what it judges of a finished invoice check, from the run digest the
memory core sends (`MemoryAgent.digest`: the task, the outcome observed, the results, what is open,
the tools used). Deterministic, worded the same way on every run, so that the confirmation gate
can count the independent runs that observed a fact.

It claims the outcome by coverage (all six checks have a result: COMPLETED) and names no reason
to lower it; it proposes general facts (never a supplier, amount or number), patterns and the
procedure from where the purchase order was cited and how the lines matched.
"""

from __future__ import annotations

import re
from typing import Any

from examples.invoice_check.checks import CHECKS

PROCEDURE_TITLE = "Supplier invoice check"
METHOD_WORDS = {"part": "the supplier's part number", "description": "description", "line": "position"}
_RESULTS = re.compile(r"^Results \(\d+\): (.*)$", re.MULTILINE)
_FIELD = re.compile(r"^po_reference (?:in field|by) (.+?): ")
_METHOD = re.compile(r"^lines matched by (\w+): (\d+) of (\d+)$")
_TOOLS = re.compile(r"^Tools used: (.*); model steps: (\d+)$", re.MULTILINE)


def judge(digest: str) -> dict[str, Any]:
    """The judgement fields of `memory.extraction.judgement_schema()` for one run digest."""
    found = _RESULTS.search(digest)
    results = found[1].split("; ") if found and found[1] else []
    checked = {r.split(":")[0].split(" ")[0] for r in results}
    done = sum(1 for c in CHECKS if c in checked)
    outcome = "COMPLETED" if done == len(CHECKS) else "PARTIAL" if done else "FAILED"
    where = next((m[1] for r in results if (m := _FIELD.match(r))), "")
    method = next((m[1] for r in results if (m := _METHOD.match(r)) and m[2] == m[3]), "")
    approach = []
    patterns, facts = [], []
    if where == "order search":
        approach.append("found the purchase order among the supplier's open orders")
        patterns.append("No header field cited the purchase order: compare the supplier's open orders line by line.")
    elif where:
        approach.append(f"found the purchase order in the {where} field")
        if where != "po_number":
            patterns.append(f"Look for the PO number in the {where} field when po_number is empty.")
            facts.append({"text": f"Supplier invoices may cite the purchase order in the {where} field "
                                  "instead of po_number.", "confidence": 0.75})
    if method:
        approach.append(f"matched the lines by {METHOD_WORDS[method]}")
        if method != "line":
            patterns.append(f"Match lines by {method} for invoices laid out like this one.")
            facts.append({"text": f"Some suppliers' invoice lines match order lines only by {METHOD_WORDS[method]}.",
                          "confidence": 0.75})
    approach.append(f"ran {done} of {len(CHECKS)} checks")
    tools = _TOOLS.search(digest)
    sentence = "; ".join(approach)
    return {
        "outcome": outcome,
        "approach": sentence[0].upper() + sentence[1:] + (f" ({tools[2]} model steps)." if tools else "."),
        "reusable_patterns": patterns,
        "fact_candidates": facts if outcome == "COMPLETED" else [],
        "procedure": {"title": PROCEDURE_TITLE, "steps": [
            "Read the invoice.",
            "Take the PO number from the field past invoices of the supplier used, else po_number, "
            "else compare the supplier's open orders.",
            "Match the lines with the method that worked before, else by position, part number, description.",
            "Run the six checks in one turn.",
            "Summarise: hold the invoice on any failed check.",
        ]} if outcome == "COMPLETED" else None,
    }
