"""The LangChain tools as the reviewer model uses them: through a ToolNode in a graph, with
the contract injected from state and findings appended by record_finding."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage

from tools import TOOLS
from tools.contract import parse_contract

CONTRACT = parse_contract(
    "MASTER SUPPLY AGREEMENT\n\n"
    "9. LIABILITY\n\n"
    "9.2 Limitation of Liability. The Supplier's total aggregate liability shall not exceed one times (1x) "
    "the fees paid in the preceding twelve (12) months.\n\n"
    "16. GOVERNING LAW\n\n"
    "16.1 Governing Law. This Agreement shall be governed by the laws of the State of Texas.\n",
    "tiny.txt",
)


def call(graph, name: str, args: dict, contract=CONTRACT) -> tuple[dict, list[dict]]:
    message = AIMessage("", tool_calls=[{"name": name, "args": args, "id": "call-1", "type": "tool_call"}])
    out = graph.invoke({"messages": [message], "contract": contract.model_dump(), "findings": []})
    return json.loads(out["messages"][-1].content), out["findings"]


def test_tool_names_and_model_visible_arguments_match_the_architecture():
    visible = {t.name: set(t.tool_call_schema.model_json_schema()["properties"]) for t in TOOLS}
    assert visible == {
        "list_sections": set(),
        "read_section": {"section"},
        "search_contract": {"query", "k"},
        "find_clauses": {"clause_type"},
        "assess_clause": {"clause_type", "section", "record"},
        "record_finding": {"clause_type", "verdict", "severity", "recommendation", "section", "quote", "rationale"},
        "recall_locations": {"clause_type"},
    }
    assert all(t.description for t in TOOLS)


def test_list_and_read_sections(graph):
    listed, _ = call(graph, "list_sections", {})
    assert [s["id"] for s in listed["sections"]] == ["h1", "9", "9.2", "16", "16.1"]
    read, _ = call(graph, "read_section", {"section": "9.2"})
    assert read["title"] == "Limitation of Liability"
    assert CONTRACT.text[read["start"] : read["end"]] == read["text"]
    missing, _ = call(graph, "read_section", {"section": "42"})
    assert "unknown section" in missing["error"]


def test_search_find_and_assess(graph):
    hits, _ = call(graph, "search_contract", {"query": "governing law Texas", "k": 2})
    assert hits["hits"][0]["section"] in ("16", "16.1")
    found, _ = call(graph, "find_clauses", {"clause_type": "liability_cap"})
    best = found["candidates"][0]
    assert best["section"] == "9.2" and CONTRACT.text[best["start"] : best["end"]] == best["quote"]
    assert found["if_missing"] == {"verdict": "missing", "severity": "medium", "recommendation": found["if_missing"]["recommendation"]}
    assert found["if_missing"]["recommendation"].startswith("Raise the cap")
    assessed, _ = call(graph, "assess_clause", {"clause_type": "governing_law", "section": "16.1"})
    assert assessed["found"] is True and assessed["verdict"] == "deviation" and "Texas" in assessed["rationale"]
    absent, _ = call(graph, "assess_clause", {"clause_type": "insurance", "section": "16.1"})
    assert absent["found"] is False
    unknown, _ = call(graph, "find_clauses", {"clause_type": "pizza"})
    assert "unknown clause type" in unknown["error"]


def test_record_finding_appends_with_true_offsets(graph):
    answer, findings = call(graph, "record_finding", {
        "clause_type": "liability_cap", "verdict": "fallback", "severity": "low",
        "recommendation": "Raise the cap to 2x.", "section": "9.2",
        "quote": "The Supplier's total   aggregate\nliability shall not exceed",  # whitespace differs
    })
    assert len(findings) == 1
    finding = findings[0]
    # the answer echoes what the caller could not know (true offsets, heading), not its own quote
    assert {k: answer["recorded"][k] for k in ("clause_type", "section", "verdict", "start", "end")} == {
        k: finding[k] for k in ("clause_type", "section", "verdict", "start", "end")
    }
    assert "quote" not in answer["recorded"] and answer["recorded"]["section_title"]
    assert CONTRACT.text[finding["start"] : finding["end"]] == finding["quote"]
    assert finding["quote"].startswith("The Supplier's total aggregate liability")


def test_record_finding_by_reference_takes_the_assessed_quote_and_the_playbook_recommendation(graph):
    assessed, _ = call(graph, "assess_clause", {"clause_type": "liability_cap", "section": "9"})
    answer, findings = call(graph, "record_finding", {
        "clause_type": "liability_cap", "verdict": assessed["verdict"], "severity": assessed["severity"], "section": "9",
    })
    finding = findings[0]
    # the recommendation and rationale assess_clause wrote for this contract, its citation and stance
    keys = ("section", "quote", "start", "end", "recommendation", "rationale", "citation", "binds", "protects")
    assert {k: finding[k] for k in keys} == {k: assessed[k] for k in keys}
    assert finding["citation"] == "Section 9.2 (Limitation of Liability)"
    assert answer["recorded"]["section"] == assessed["section"] == "9.2"
    nothing, findings = call(graph, "record_finding", {
        "clause_type": "insurance", "verdict": "deviation", "severity": "high", "section": "9.2",
    })
    assert "pass a verbatim quote" in nothing["error"] and findings == []


def test_record_finding_missing_has_null_location(graph):
    _, findings = call(graph, "record_finding", {
        "clause_type": "insurance", "verdict": "missing", "severity": "medium", "recommendation": "",
    })
    assert findings[0]["section"] is None and findings[0]["start"] == -1
    assert findings[0]["recommendation"]  # the playbook's recommendation fills a blank one


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"clause_type": "pizza", "verdict": "deviation", "severity": "high", "recommendation": "x"}, "unknown clause type"),
        ({"clause_type": "liability_cap", "verdict": "terrible", "severity": "high", "recommendation": "x", "section": "9.2"}, "verdict: Input should be 'standard', 'fallback', 'deviation', 'missing', 'not_applicable' or 'favourable'"),
        ({"clause_type": "liability_cap", "verdict": "deviation", "severity": "purple", "recommendation": "x", "section": "9.2"}, "severity: Input should be 'high', 'medium', 'low' or 'none'"),
        ({"clause_type": "liability_cap", "verdict": "deviation", "severity": "high", "recommendation": "x", "section": "77"}, "unknown section"),
        ({"clause_type": "liability_cap", "verdict": "deviation", "severity": "high", "recommendation": "x", "section": "9.2", "quote": "words that are not there"}, "quote not found"),
        ({"clause_type": "liability_cap", "verdict": "deviation", "severity": "high", "recommendation": "x"}, "needs the section that holds the clause"),
    ],
)
def test_record_finding_rejects_bad_arguments_with_an_error_message(graph, args, error):
    answer, findings = call(graph, "record_finding", args)
    assert error in answer["error"]
    assert findings == []


def test_assess_clause_with_record_records_the_finding_record_finding_would(graph):
    """Issue 19: assessing a clause can record its finding in the same call; the finding is the
    one record_finding records by reference, and the answer stays short."""
    answer, findings = call(graph, "assess_clause", {"clause_type": "liability_cap", "section": "9", "record": True})
    _, by_reference = call(graph, "record_finding", {"clause_type": "liability_cap", "verdict": findings[0]["verdict"],
                                                     "severity": findings[0]["severity"], "section": "9"})
    assert findings == by_reference
    assert answer["recorded"]["section"] == "9.2" and answer["recorded"]["verdict"] == findings[0]["verdict"]
    assert "quote" not in answer and "rationale" not in answer  # the finding holds them, not the context


def test_assess_clause_with_record_records_nothing_where_the_clause_is_not(graph):
    answer, findings = call(graph, "assess_clause", {"clause_type": "insurance", "section": "16.1", "record": True})
    assert findings == [] and answer["found"] is False
    assert answer["recorded"] is None and "not in this section" in answer["not_recorded"]


def test_assess_clause_with_record_waits_when_the_contract_points_elsewhere(graph):
    """A remembered place holding the milder clause: `elsewhere` names a worse restraint on the
    buyer, so nothing is recorded until that section is assessed (memory never ends the search)."""
    contract = parse_contract(
        'SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Alder Mills Inc. ("Client") and Brightline '
        'Pumps LLC ("Vendor").\n\n2. PEOPLE AND CONDUCT\n\n'
        "2.1 No Poaching: During the term and for twelve (12) months after, neither party shall solicit for "
        "employment any employee of the other party. Nothing in this Agreement restricts either party from "
        "carrying on any business or from dealing with any customer or supplier.\n\n"
        "2.2 Competing Products: During the term and for twenty-four (24) months after it ends, the Client "
        "shall not purchase or distribute products manufactured by any competitor of the Vendor.\n",
        "alder.txt",
    )
    answer, findings = call(graph, "assess_clause", {"clause_type": "non_compete", "section": "2.1", "record": True},
                            contract)
    assert answer["found"] is True and answer["elsewhere"]["section"] == "2.2"
    assert findings == [] and answer["recorded"] is None and "section 2.2" in answer["not_recorded"]
    answer, findings = call(graph, "assess_clause", {"clause_type": "non_compete", "section": "2.2", "record": True},
                            contract)
    assert [(f["section"], f["verdict"]) for f in findings] == [("2.2", "deviation")]


def test_record_is_a_plain_boolean_in_the_schema_a_model_sees():
    schema = next(t for t in TOOLS if t.name == "assess_clause").tool_call_schema.model_json_schema()
    assert schema["properties"]["record"]["type"] == "boolean" and "anyOf" not in schema["properties"]["record"]
    assert schema["required"] == ["clause_type", "section"]
