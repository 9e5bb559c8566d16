"""The invoice checker as the memory core sees it: its `memory.graph.MemoryAgent`.

What memory keeps of a check is what the graph derived, never the invoice's text: a summary
(`Supplier invoice check: 3 lines, EUR`), keyed tokens of the supplier and of the invoice's
layout (which reference fields it fills, whether its lines carry part numbers), and one result
line per check, with the header field the purchase order was cited in (a name from a closed
list) and how the lines were matched: what lets the next invoice of the same supplier go straight
to its order. Amounts, numbers and names stay out. The outcome is what the graph observed: all six
checks have a result (COMPLETED), some (PARTIAL), none (FAILED).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from examples.invoice_check.checks import CHECKS
from examples.invoice_check.prompts import EXTRACT_INSTRUCTIONS
from examples.invoice_check.records import REFERENCE_FIELDS, invoice_of, po_number
from examples.invoice_check.tools import best_match, latest_results
from memory.graph import MemoryAgent, Observed, Problem, Recalled, TaskProfile
from memory.pii import person_names
from memory.records import Outcome

KIND = "invoice_check"
ORDER_SEARCH = "order search"  # where a PO was found when no header field cites it
# What the checker does with no memory (the system prompt's order): the PO from the po_number
# field, lines matched by position. A lesson that says only this saves no call and is not served.
DEFAULT_FIELD, DEFAULT_METHOD = "po_number", "line"


def layout(invoice: Any) -> str:
    """How an invoice is laid out, in words memory may search by: the reference fields it fills
    and whether its lines carry the supplier's part numbers."""
    filled = [name for name in REFERENCE_FIELDS if invoice.field(name).strip()]
    parts = "part numbers" if all(line.supplier_part for line in invoice.lines) else "no part numbers"
    return f"fields {', '.join(filled) or 'none'}; lines with {parts}"


def cited_in(invoice: Any, number: str) -> str:
    """The header field that cites order `number` (the first in REFERENCE_FIELDS order), else ORDER_SEARCH."""
    return next((name for name in REFERENCE_FIELDS if po_number(invoice.field(name)) == number), ORDER_SEARCH)


_CITED = re.compile(r"^po_reference (?:in field|by) (.+?): ")
_MATCHED = re.compile(r"^lines matched by (\w+): (\d+) of (\d+)$")
FOUND_IN, MATCHED_BY = "PO number found in", "lines matched by"


def where_found(per_episode: list[list[str]]) -> list[str]:
    """How the block shows past results: only where each episode found the PO number and how its
    lines matched, with the episodes in brackets. Past check results are left out: a result comes
    from the current invoice, never from memory (and each line is re-sent with every model call)."""
    found: dict[str, dict[str, list[int]]] = {FOUND_IN: {}, MATCHED_BY: {}}
    for number, findings in enumerate(per_episode, start=1):
        for finding in findings:
            if cited := _CITED.match(finding):
                found[FOUND_IN].setdefault(cited[1], []).append(number)
            elif (matched := _MATCHED.match(finding)) and matched[2] == matched[3]:
                found[MATCHED_BY].setdefault(matched[1], []).append(number)
    return [f"{what}: " + "; ".join(f"{value} [{','.join(map(str, refs))}]" for value, refs in values.items())
            for what, values in found.items() if values]


def lessons(findings: list[str]) -> tuple[str, str]:
    """(the field a past check found the PO in, or ORDER_SEARCH; the method that matched every
    line), each "" when the episode's results do not say."""
    where = next((m[1] for f in findings if (m := _CITED.match(f))), "")
    method = next((m[1] for f in findings if (m := _MATCHED.match(f)) and m[2] == m[3]), "")
    return where, method


def cited_fields(invoice: Any) -> set[str]:
    """The header fields of `invoice` that hold a PO number."""
    return {name for name in REFERENCE_FIELDS if po_number(invoice.field(name))}


def bears_out(invoice: Any, where: str, method: str) -> bool:
    """Whether `invoice` bears out a past check's lessons, as far as the invoice alone can tell:
    the field it found the PO in holds a PO number here (order search: no field does), and lines
    matched by part number carry part numbers here."""
    cited = cited_fields(invoice)
    found_here = where in cited or (where == ORDER_SEARCH and not cited)
    return found_here and (method != "part" or all(line.supplier_part.strip() for line in invoice.lines))


_FIELD_WORDS = {name: re.compile(rf"\b{name.replace('_', '[ _]')}\b", re.IGNORECASE)
                for name in REFERENCE_FIELDS if name != DEFAULT_FIELD}
_PART_WORDS = re.compile(r"\bpart[ _-]?(?:no|numbers?)\b|\bsupplier'?s? part\b", re.IGNORECASE)


def fact_borne_out(invoice: Any, text: str) -> bool:
    """Whether a fact's own words fit `invoice`: a fact naming header fields other than po_number
    (in any wording: "the Notes", "customer order field") fits an invoice citing its PO in one of
    them; a fact naming part numbers fits an invoice whose lines carry them; any other fact fits."""
    named = {name for name, words in _FIELD_WORDS.items() if words.search(text)}
    if named and not named & cited_fields(invoice):
        return False
    return not _PART_WORDS.search(text) or all(line.supplier_part.strip() for line in invoice.lines)


class InvoiceMemoryAgent(MemoryAgent):
    kind = KIND
    extraction_instructions = EXTRACT_INSTRUCTIONS
    findings_view = staticmethod(where_found)

    def profile(self, state: Mapping[str, Any]) -> TaskProfile:
        invoice = invoice_of(state["invoice"])
        return TaskProfile(summary=f"Supplier invoice check: {len(invoice.lines)} lines, {invoice.currency}",
                           counterparty=invoice.supplier, template=layout(invoice))

    def search(self, state: Mapping[str, Any], profile: TaskProfile) -> str:
        return f"{profile.summary}; {profile.template}"  # never stored: the layout in words, beside its token

    def observe(self, state: Mapping[str, Any]) -> Observed:
        done = latest_results(state)
        open_items = tuple(c for c in CHECKS if c not in done)
        outcome = Outcome.COMPLETED if not open_items else Outcome.PARTIAL if done else Outcome.FAILED
        stopped = str(state.get("stop_reason") or "")
        return Observed(outcome, open_items=open_items, problems=(Problem("stopped", stopped),) if stopped else ())

    def results(self, state: Mapping[str, Any]) -> list[str]:
        invoice = invoice_of(state["invoice"])
        done = latest_results(state)
        lines = []
        for check, result in done.items():
            number = result.get("po_number") or ""
            if check == "po_reference" and number:
                where = cited_in(invoice, number)
                lines.append(f"po_reference {'by' if where == ORDER_SEARCH else 'in field'} {where}: {result['status']}")
                matched = best_match(state, number)
                if matched is not None:
                    lines.append(f"lines matched by {matched.method}: {matched.count} of {len(matched.pairs)}")
            else:
                lines.append(f"{check}: {result['status']}")
        return lines

    def recalled(self, state: Mapping[str, Any], recalled: Recalled) -> Recalled:
        """Only what the current invoice bears out, and says more than the checker's default: an
        episode whose field holds no PO number here (another supplier's layout), whose lines
        matched by part number where these lines carry none, or whose lesson is the default path;
        a fact naming a field or part numbers this invoice does not bear out. Each served line is
        re-sent with every model call, so a lesson that cannot help costs tokens at every step.
        The procedure, validated for the task type, is served as it is."""
        invoice = invoice_of(state["invoice"])

        def useful(where: str, method: str) -> bool:
            beyond_default = where not in (DEFAULT_FIELD, ORDER_SEARCH) or method not in (DEFAULT_METHOD, "")
            return beyond_default and bears_out(invoice, where, method)

        return Recalled(episodes=[s for s in recalled.episodes if useful(*lessons(s.item.key_findings))],
                        facts=[s for s in recalled.facts if fact_borne_out(invoice, s.item.text)],
                        procedure=recalled.procedure)

    def private_names(self, state: Mapping[str, Any], scrubber: Any) -> Sequence[str]:
        invoice = invoice_of(state["invoice"])
        found = person_names(f"{invoice.notes}\n{invoice.reference}", scrubber) if invoice.notes or invoice.reference else []
        return [name for name in [invoice.contact, *found] if name.strip()]
