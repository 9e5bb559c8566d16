"""Typed tool schemas that small models (and the providers in front of them) can follow, and
answers to bad calls that say how to fix them in one step."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from tests.conftest import SAMPLES
from tests.tools.test_tool_node import call as tool_node_call
from tools import TOOLS, find_clauses, record_finding
from tools.contract import load_contract
from tools.detection.review import SEVERITIES, VERDICTS
from tools.playbook import load_playbook

CONTRACT = load_contract(SAMPLES / "northwind_msa_01.txt", max_bytes=10_000_000)


def _properties(tool) -> dict[str, Any]:
    return convert_to_openai_tool(tool)["function"]["parameters"]["properties"]


def test_enums_come_from_the_tool_constants_and_the_playbook():
    record = _properties(record_finding)
    assert record["verdict"]["enum"] == list(VERDICTS) and record["severity"]["enum"] == list(SEVERITIES)
    assert record["clause_type"]["enum"] == load_playbook().clause_types
    found = _properties(find_clauses)["clause_type"]["enum"]
    assert found[: len(load_playbook().clause_types)] == load_playbook().clause_types and len(found) > 17


def test_optional_arguments_reach_ollama_typed_not_as_empty_schemas():
    ollama_types = pytest.importorskip("ollama._types")
    for tool in TOOLS:
        sent = ollama_types.Tool.model_validate(convert_to_openai_tool(tool)).model_dump(exclude_none=True)
        for name, prop in sent["function"]["parameters"].get("properties", {}).items():
            assert prop.get("type"), f"{tool.name}.{name} reaches Ollama as {prop}"
    record = ollama_types.Tool.model_validate(convert_to_openai_tool(record_finding)).model_dump(exclude_none=True)
    properties = record["function"]["parameters"]["properties"]
    assert properties["section"]["type"] == "string" and properties["section"]["description"]
    assert properties["verdict"]["enum"] == list(VERDICTS)
    assert not any("anyOf" in json.dumps(p) for p in _properties(record_finding).values())


def call(graph, name: str, args: dict) -> tuple[dict, list[dict]]:
    return tool_node_call(graph, name, args, contract=CONTRACT)


def test_spelling_slips_of_small_models_are_accepted(graph):
    answer, findings = call(graph, "record_finding", {"clause_type": "Liability Cap", "verdict": "Deviation",
                                                      "severity": " HIGH ", "section": "9.2", "quote": ""})
    assert "recorded" in answer
    assert (findings[0]["clause_type"], findings[0]["verdict"], findings[0]["severity"]) == (
        "liability_cap", "deviation", "high")
    assert findings[0]["quote"]  # an empty quote counts as none: the assessed quote is recorded


@pytest.mark.parametrize(("args", "wrong", "fix"), [
    ({"clause_type": "liability_cap", "verdict": "bad", "severity": "high", "section": "9.2"},
     "verdict: Input should be", "verdict: standard | fallback | deviation | missing | not_applicable"),
    ({"clause_type": "liability_cap", "verdict": "deviation", "section": "9.2"},
     "severity: Field required", "severity: high | medium | low | none"),
    ({"verdict": "missing", "severity": "low"}, "clause_type: Field required", "clause_type: liability_cap | "),
])
def test_a_call_that_does_not_validate_is_answered_with_the_call_to_make(graph, args, wrong, fix):
    answer, findings = call(graph, "record_finding", args)
    assert findings == [] and wrong in answer["error"] and fix in answer["fix"]
    assert answer["fix"].startswith("call record_finding again with") and answer["you_sent"] == args
    assert "section: string (optional)" in answer["fix"]


@pytest.mark.parametrize(("name", "args", "says"), [
    ("read_section", {"section": "9.2.7"}, "Did you mean '9.2'"),
    ("record_finding", {"clause_type": "liability_cap", "verdict": "deviation", "severity": "high", "section": "9.2",
                        "quote": "words that are not there"}, "omit quote to record the sentence assess_clause gives"),
    ("record_finding", {"clause_type": "insurance", "verdict": "deviation", "severity": "high", "section": "9.2"},
     "pass that section instead"),
    ("record_finding", {"clause_type": "liability_cap", "verdict": "deviation", "severity": "high"},
     "record verdict 'missing'"),
])
def test_tool_errors_say_how_to_recover(graph, name, args, says):
    answer, _ = call(graph, name, args)
    assert says in answer["error"], answer["error"]
