"""The example agent (examples/invoice_check): its checks, its graph on the memory core, and its
memory making repeated checks of a supplier's invoices cheaper without changing a result."""

from __future__ import annotations

import copy
import json

import pytest
from langchain_core.messages import AIMessage

from examples.invoice_check import checks
from examples.invoice_check.graph import build_graph, context
from examples.invoice_check.memory_agent import InvoiceMemoryAgent, where_found
from examples.invoice_check.records import (
    Books,
    InvoiceError,
    invoice_of,
    load_invoice,
    sample_books,
    sample_invoices,
)
from memory.backends import open_memory
from memory.errors import ExtractionNotSupported
from memory.records import Namespace, ProcedureStatus
from tests.conftest import ROOT

BOOKS = sample_books()
INVOICES = {path.stem: load_invoice(path) for path in sample_invoices()}
EXPECTED_FAILURES = {  # the planted problems of the sample invoices
    "01_kestrel_KIS-24-0311": set(), "02_harbor_HOG-5521": set(), "03_kestrel_KIS-24-0342": {"unit_prices"},
    "04_kestrel_KIS-24-0377": {"quantities"}, "05_harbor_HOG-5560": {"arithmetic"},
    "06_kestrel_KIS-24-0188": {"duplicate"}, "07_kestrel_KIS-24-0402": {"arithmetic", "payment_terms"},
    "08_harbor_HOG-5588": {"po_reference"},
}


def _check(graph, ctx, invoice, run_id: str, books: Books = BOOKS) -> dict:
    data = invoice.model_dump() if hasattr(invoice, "model_dump") else invoice
    return graph.invoke({"invoice": data, "books": books.model_dump(), "run_id": run_id},
                        {"configurable": {"thread_id": run_id}}, context=ctx)


def _failed(state: dict) -> set[str]:
    return {r["check"] for r in state["checks"] if r["status"] == "fail"}


# ---------------------------------------------------------------- the checks themselves


def test_the_checks_find_each_planted_problem_and_nothing_else(settings):
    graph, ctx = build_graph(), context(settings, use_memory=False)
    for number, (name, invoice) in enumerate(INVOICES.items()):
        state = _check(graph, ctx, invoice, f"c{number}")
        assert _failed(state) == EXPECTED_FAILURES[name], name
        assert state["outcome"] == "COMPLETED" and len({r["check"] for r in state["checks"]}) == 6
        assert state["decision"] == ("approve" if not EXPECTED_FAILURES[name] else "hold")


def test_checks_on_invoices_other_than_the_samples():
    invoice = INVOICES["01_kestrel_KIS-24-0311"]
    order = BOOKS.order("PO-10452")
    matched = checks.match_lines(invoice, order, "part")
    assert matched.complete and checks.match_lines(invoice, order, "line").count < 3
    run = lambda inv: {c: checks.run_check(c, inv, BOOKS, order, checks.match_lines(inv, order, "part"))["status"]  # noqa: E731
                       for c in checks.CHECKS}
    assert set(run(invoice).values()) == {"pass"}
    # the same supplier's total and date already in the ledger under another number: a duplicate
    ledger = Books(orders=BOOKS.orders, ledger=[*BOOKS.ledger, {"supplier": "KESTREL INDUSTRIAL SUPPLY",
                   "invoice_number": "X-1", "invoice_date": invoice.invoice_date, "total": invoice.total}])
    assert checks.run_check("duplicate", invoice, ledger, order, None)["status"] == "fail"
    # terms in words, a cent of rounding, a line billed twice over what was received
    words = invoice.model_copy(update={"payment_terms": "net thirty days"})
    assert run(words)["payment_terms"] == "pass"
    lines = [line.model_copy(update={"quantity": line.quantity * 2, "amount": line.amount * 2}) for line in invoice.lines]
    subtotal = round(sum(line.amount for line in lines), 2)
    doubled = invoice.model_copy(update={"lines": lines, "subtotal": subtotal, "tax": round(subtotal * 0.2, 2),
                                         "total": round(subtotal * 1.2, 2)})
    assert run(doubled) == {**dict.fromkeys(checks.CHECKS, "pass"), "quantities": "fail"}
    # an invoice citing no order at all, checked against the one its lines fit
    uncited = invoice.model_copy(update={"reference": "our SO-88120"})
    assert run(uncited)["po_reference"] == "fail"
    # a quantity or price check before the lines are matched says which call comes first
    with pytest.raises(ValueError, match="match_lines"):
        checks.run_check("quantities", invoice, BOOKS, order, None)


def test_a_bad_invoice_is_refused_before_anything_is_read_or_written(settings):
    broken = INVOICES["01_kestrel_KIS-24-0311"].model_dump()
    broken["lines"] = []
    with pytest.raises(InvoiceError, match="lines"):
        _check(build_graph(), context(settings), broken, "bad-1")
    memory = open_memory(settings.resolved_memory_url())
    assert memory.episodes.list(Namespace(tenant=settings.tenant, agent="invoice-checker"), limit=5) == []


# ---------------------------------------------------------------- memory


def test_memory_makes_a_suppliers_later_invoices_cheaper_with_the_same_results(settings, tmp_path):
    from examples.invoice_check.demo import run_pass, totals

    off, _ = run_pass(tmp_path / "off", use_memory=False)
    on, held = run_pass(tmp_path / "on", use_memory=True)
    assert [(r.decision, r.failed) for r in off] == [(r.decision, r.failed) for r in on]
    assert off[0].tool_calls == on[0].tool_calls  # the first check has nothing to remember
    calls_off, steps_off, _ = totals(off, "kestrel")
    calls_on, steps_on, _ = totals(on, "kestrel")
    assert calls_on <= 0.7 * calls_off and steps_on < steps_off
    harbor_off, harbor_on = totals(off, "harbor"), totals(on, "harbor")
    assert harbor_on[0] <= harbor_off[0]  # a standard supplier: never more calls
    # all three durable tiers hold something: episodes, confirmed facts, the approved procedure
    assert held["episodes"] == len(INVOICES) and held["facts"] >= 1 and held["procedures"] == ["validated"]
    readme = (ROOT / "README.md").read_text()  # its table is this demo's output
    for a, b in zip(off, on, strict=True):
        row = (f"| {a.tool_calls} / {b.tool_calls} | {a.steps} / {b.steps} | {a.tokens:,} / {b.tokens:,} |")
        assert row in readme, f"README.md's invoice demo table is out of date ({a.invoice}: {row})"


def test_the_saving_comes_from_what_memory_holds(settings):
    """Memory on, but the block emptied before the prompt: the checks cost what they cost without memory."""
    ctx = context(settings, memory_block_filter=lambda block: "")
    graph = build_graph()
    kestrel = [i for name, i in INVOICES.items() if "kestrel" in name]
    states = [_check(graph, ctx, invoice, f"e{n}") for n, invoice in enumerate(kestrel)]
    assert {s["usage"]["tool_calls"] for s in states} == {states[0]["usage"]["tool_calls"]}
    assert states[1]["episodes"]  # memory was read: only the block was withheld


def test_a_remembered_field_the_invoice_does_not_bear_out_is_dropped(settings):
    """Memory says Kestrel cites its order in `reference`; this invoice's reference names another
    supplier's order and its po_number field the right one: the check goes on to the right order."""
    graph, ctx = build_graph(), context(settings)
    _check(graph, ctx, INVOICES["01_kestrel_KIS-24-0311"], "w1")
    _check(graph, ctx, INVOICES["03_kestrel_KIS-24-0342"], "w2")
    odd = INVOICES["07_kestrel_KIS-24-0402"].model_copy(update={"reference": "see PO-10460", "po_number": "PO 10471"})
    state = _check(graph, ctx, odd, "w3")
    assert "reference" in state["memory_block"]
    asked = [c["args"].get("po_number") for m in state["messages"] for c in getattr(m, "tool_calls", None) or []
             if c["name"] == "get_purchase_order"]
    assert asked == ["PO-10460", "PO-10471"]  # memory's field first; another supplier's order: dropped
    cold = _check(build_graph(), context(settings, use_memory=False), odd, "w4")
    assert _failed(state) == _failed(cold) == {"arithmetic", "payment_terms"}
    assert {r["po_number"] for r in state["checks"] if r["check"] != "duplicate"} == {"PO-10471"}


def _checker_tokens(state: dict) -> int:
    """What the checker's own model calls cost (the extraction call at the end left out)."""
    return sum(m.usage_metadata["input_tokens"] + m.usage_metadata["output_tokens"]
               for m in state["messages"] if isinstance(m, AIMessage) and m.usage_metadata)


def test_memory_serves_an_invoice_only_what_it_bears_out_and_costs_it_nothing_more(settings):
    """Kestrel's lessons (its order cited in `reference`, lines matched by part number) are not
    true of an invoice with its PO in po_number and no part numbers: they are not served to it,
    and its check costs what it costs without memory but for the memory tools offered."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    from examples.invoice_check.graph import MEMORY_TOOLS

    graph, ctx = build_graph(), context(settings)
    for n, name in enumerate(("01_kestrel_KIS-24-0311", "03_kestrel_KIS-24-0342", "04_kestrel_KIS-24-0377")):
        _check(graph, ctx, INVOICES[name], f"s{n}")
    # a third supplier, laid out like Harbor: PO in po_number, no part numbers
    standard = INVOICES["05_harbor_HOG-5560"].model_copy(update={"supplier": "Tamsin Fasteners BV"})
    warm = _check(graph, ctx, standard, "s9")
    cold = _check(build_graph(), context(settings, use_memory=False), standard, "s10")
    assert warm["facts"] == [] and warm["episodes"] == []  # recalled, then left out: not true of this invoice
    assert "reference" not in warm["memory_block"] and "part number" not in warm["memory_block"]
    tool_schema = len(json.dumps([convert_to_openai_tool(t) for t in MEMORY_TOOLS])) // 4
    assert _checker_tokens(warm) <= _checker_tokens(cold) + warm["steps"] * (tool_schema + 1)
    assert warm["usage"]["tool_calls"] == cold["usage"]["tool_calls"] and _failed(warm) == _failed(cold)
    # a Kestrel invoice is still served its supplier's lessons, and the facts
    kestrel = _check(graph, ctx, INVOICES["06_kestrel_KIS-24-0188"], "s11")
    assert "PO number found in: reference" in kestrel["memory_block"] and kestrel["facts"]


def test_a_fact_is_served_when_the_invoice_bears_out_what_it_names():
    from memory.graph import Recalled
    from memory.records import Fact, Scored

    def fact(text: str) -> Scored:
        return Scored[Fact](item=Fact(fact_id=text[:8], domain="supplier_invoices", text=text, confidence=0.8,
                                      source_runs=["r"]), score=0.9)

    facts = [fact("Vendors often put their PO in the Notes."), fact("Some suppliers quote the customer order field."),
             fact("Match by the supplier part number where lines carry one."), fact("Check the tax rate on every invoice.")]
    agent = InvoiceMemoryAgent()
    served = lambda invoice: [s.item.text for s in agent.recalled({"invoice": invoice.model_dump()},  # noqa: E731
                                                                   Recalled(facts=facts)).facts]
    standard = INVOICES["02_harbor_HOG-5521"]
    assert served(standard) == ["Check the tax rate on every invoice."]
    noted = standard.model_copy(update={"notes": "PO 10460 per phone", "po_number": ""})
    assert served(noted) == ["Vendors often put their PO in the Notes.", "Check the tax rate on every invoice."]
    assert "Match by the supplier part number where lines carry one." in served(INVOICES["01_kestrel_KIS-24-0311"])


def test_what_memory_keeps_is_derived_never_names_or_amounts(settings):
    graph, ctx = build_graph(), context(settings)
    state = _check(graph, ctx, INVOICES["01_kestrel_KIS-24-0311"], "k1")
    memory = open_memory(settings.resolved_memory_url())
    stored = memory.episodes.get(Namespace(tenant=settings.tenant, agent="invoice-checker"), "k1").model_dump_json()
    for secret in ("Kestrel", "Maren", "Oyelaran", "KIS-24-0311", "PO-10452", "220.80", "SO-88120"):
        assert secret.casefold() not in stored.casefold(), secret
    assert "po_reference in field reference: pass" in state["artifacts"]["key_findings"]
    assert "lines matched by part: 3 of 3" in state["artifacts"]["key_findings"]
    assert "counterparty CP" in state["artifacts"]["task_summary"]


def test_facts_need_three_invoices_and_the_procedure_is_served_once_approved(settings):
    graph, ctx = build_graph(), context(settings)
    ns = Namespace(tenant=settings.tenant, agent="invoice-checker")
    memory = open_memory(settings.resolved_memory_url())
    kestrel = [i for name, i in INVOICES.items() if "kestrel" in name]
    first = _check(graph, ctx, kestrel[0], "f1")
    assert first["memory_writes"]["facts_confirmed"] == [] and first["memory_writes"]["procedure_proposed"]
    again = _check(graph, ctx, kestrel[0], "f2")  # the same invoice: one source, one observation
    second = _check(graph, ctx, kestrel[1], "f3")
    assert again["memory_writes"]["facts_confirmed"] == second["memory_writes"]["facts_confirmed"] == []
    third = _check(graph, ctx, kestrel[2], "f4")
    assert third["memory_writes"]["facts_confirmed"]
    assert "reference field" in " ".join(f.text for f in memory.facts.list(ns))
    assert "## Procedure" not in third["memory_block"]  # pending: never served
    (procedure,) = memory.procedures.list(ns)
    memory.procedures.set_status(ns, procedure.procedure_id, ProcedureStatus.VALIDATED, by="test")
    fourth = _check(graph, ctx, kestrel[3], "f5")
    assert "## Procedure: Supplier invoice check" in fourth["memory_block"]
    assert fourth["memory_writes"]["procedure_applied"] == procedure.procedure_id


def test_another_agent_of_the_tenant_is_served_the_confirmed_facts(settings):
    """Facts are per tenant, episodes per agent: a new agent goes to the field the facts name."""
    graph, ctx = build_graph(), context(settings)
    kestrel = [i for name, i in INVOICES.items() if "kestrel" in name]
    for n, invoice in enumerate(kestrel[:3]):
        _check(graph, ctx, invoice, f"a{n}")
    fresh = _check(graph, context(settings, agent="invoice-checker-2"), kestrel[3], "b1")
    cold = _check(graph, context(settings, use_memory=False), kestrel[3], "b2")
    assert fresh["episodes"] == [] and fresh["facts"]
    assert fresh["usage"]["tool_calls"] < cold["usage"]["tool_calls"]
    assert _failed(fresh) == _failed(cold)


def test_the_block_shows_where_and_how_never_past_results():
    shown = where_found([["po_reference in field reference: pass", "lines matched by part: 3 of 3", "duplicate: fail"],
                         ["po_reference in field po_number: pass", "lines matched by line: 1 of 2"]])
    assert shown == ["PO number found in: reference [1]; po_number [2]", "lines matched by: part [1]"]


# ---------------------------------------------------------------- the fork's mistakes, from the example's side


def test_forgetting_the_extraction_model_is_a_clear_error_never_a_silent_failed_episode(settings):
    """Bound to the generic run scope, the steps get the contract reviewer's offline stand-in as
    extraction model (the settings' default), which distils contract reviews only."""
    from graphs.context import run_scope
    from memory.graph import MemorySteps

    graph = build_graph(steps=MemorySteps(InvoiceMemoryAgent(), scope=run_scope))
    with pytest.raises(ExtractionNotSupported) as refused:
        _check(graph, context(settings), INVOICES["01_kestrel_KIS-24-0311"], "x1")
    assert "invoice_check" in str(refused.value) and "extraction model" in str(refused.value)
    memory = open_memory(settings.resolved_memory_url())
    assert memory.episodes.list(Namespace(tenant=settings.tenant, agent="invoice-checker"), limit=5) == []


def test_the_stand_in_refuses_to_distil_another_agents_runs(settings):
    from examples.invoice_check.standin import InvoiceStandIn
    from graphs.runner import Reviewer, open_checkpointer
    from tests.conftest import SAMPLES

    assert InvoiceStandIn.extracts_only == ("invoice_check",) and InvoiceStandIn.is_stand_in
    with open_checkpointer(settings) as saver, pytest.raises(ExtractionNotSupported):
        Reviewer(settings, saver, extraction_model=InvoiceStandIn()).review_path(SAMPLES / "northwind_msa_01.txt")


def test_the_checker_is_offered_the_memory_tools_and_may_call_them(settings):
    """A model that searches its memory and keeps a note before checking: the note joins the run's
    proposals (a pattern, kept with the episode) and the results are the tools'."""
    from examples.invoice_check.standin import InvoiceStandIn

    class Curious(InvoiceStandIn):
        def respond(self, messages, **kwargs):
            names = [t["function"]["name"] for t in kwargs.get("tools") or []]
            if "remember" in names and not any(getattr(m, "name", "") == "remember" for m in messages):
                return AIMessage("", tool_calls=[
                    {"name": "search_memory", "args": {"query": "where does this supplier cite the order"}, "id": "s1",
                     "type": "tool_call"},
                    {"name": "remember", "args": {"note": "Check the reference field first for this layout",
                                                  "kind": "pattern"}, "id": "r1", "type": "tool_call"}])
            return super().respond(messages, **kwargs)

    graph = build_graph()
    state = _check(graph, context(settings, reviewer_model=Curious()), INVOICES["03_kestrel_KIS-24-0342"], "m1")
    assert _failed(state) == {"unit_prices"}
    assert "Check the reference field first for this layout" in state["artifacts"]["reusable_patterns"]
    found = json.loads(next(m.content for m in state["messages"] if getattr(m, "name", "") == "search_memory"))
    assert found["memory"].startswith("data from past runs")


def test_the_invoice_input_is_validated_like_any_record():
    data = copy.deepcopy(INVOICES["02_harbor_HOG-5521"].model_dump())
    data["lines"][0]["quantity"] = -1
    with pytest.raises(InvoiceError, match="quantity"):
        invoice_of(data)
