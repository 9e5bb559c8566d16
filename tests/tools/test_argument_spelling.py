"""A model's spelling of a tool call becomes the tools' own (tools/arguments.py): what a model
means is found whatever the case, separators or usual synonym, and a value that fits two clause
types, or none, is left for the tool to refuse with the names it accepts."""

from __future__ import annotations

import pytest

from tools.arguments import (
    argument_names,
    clause_type,
    normalise_call,
    severity,
    tool_name,
    verdict,
)
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
NAMES = PLAYBOOK.clause_types
TITLES = {name: entry.title for name, entry in PLAYBOOK.clauses.items()}
TOOLS = ["list_sections", "read_section", "search_contract", "find_clauses", "assess_clause", "record_finding"]


@pytest.mark.parametrize(("spelled", "meant"), [
    ("LIABILITY_CAP", "liability_cap"), ("Liability Cap", "liability_cap"), ("liability-cap", "liability_cap"),
    ("liabilityCap", "liability_cap"), ("Limitation of Liability", "liability_cap"),
    ("Indemnification", "uncapped_liability"), ("confidential", "confidentiality"), ("NDA", "confidentiality"),
    ("Audit Right", "audit_rights"), ("audit", "audit_rights"), ("Non-Solicitation", "non_compete"),
    ("choice of law", "governing_law"), ("Warranties", "warranty"), ("Warranty Disclaimer", "warranty_disclaimer"),
    ("Termination for Convenience", "termination_convenience"), ("sole and exclusive remedy", "sole_remedy"),
    ("Minimum purchase commitment", "minimum_commitment"), ("GDPR", "data_protection"),
])
def test_a_clause_type_in_any_spelling_or_a_usual_name_is_the_playbook_id(spelled, meant):
    assert clause_type(spelled, NAMES, TITLES) == meant


@pytest.mark.parametrize("unclear", ["termination", "liability", "pizza delivery"])
def test_a_name_two_clause_types_fit_or_none_is_not_guessed(unclear):
    assert clause_type(unclear, NAMES, TITLES) not in NAMES


@pytest.mark.parametrize(("spelled", "meant"), [
    ("Non-Compliant", "deviation"), ("DEVIATION", "deviation"), ("Red flag", "deviation"), ("COMPLIANT", "standard"),
    ("Absent", "missing"), ("not found", "missing"), ("N/A", "not_applicable"), ("fall-back", "fallback"),
])
def test_verdict_words(spelled, meant):
    assert verdict(spelled) == meant


@pytest.mark.parametrize(("spelled", "meant"), [("Critical", "high"), ("HIGH", "high"), ("Moderate", "medium"),
                                                ("minor", "low"), ("n/a", "none"), ("None", "none")])
def test_severity_words(spelled, meant):
    assert severity(spelled) == meant


@pytest.mark.parametrize(("spelled", "meant"), [
    ("Record_Finding", "record_finding"), ("recordFinding", "record_finding"), ("RECORD-FINDING", "record_finding"),
    ("find_clause", "find_clauses"), ("assess", "assess_clause"), ("functions.read_section", "read_section"),
    ("listSections", "list_sections"),
])
def test_tool_names(spelled, meant):
    assert tool_name(spelled, TOOLS) == meant


def test_an_unknown_tool_or_value_is_passed_on_for_the_tool_to_refuse():
    assert tool_name("summarise_contract", TOOLS) == "summarise_contract"
    assert verdict("terrible") == "terrible" and severity("purple") == "purple"


def test_argument_names_follow_the_tool_and_never_overwrite_a_given_one():
    params = ["clause_type", "verdict", "severity", "section", "quote"]
    assert argument_names({"clauseType": "x", "Verdict": "y", "section_id": "9.2"}, params) == {
        "clause_type": "x", "verdict": "y", "section": "9.2"}
    assert argument_names({"clause_type": "a", "type": "b"}, params) == {"clause_type": "a", "type": "b"}


def test_a_whole_call_is_normalised_against_the_run_playbook():
    name, args = normalise_call("Record-Finding", {"ClauseType": "Limitation of Liability", "verdict": "Non-Compliant",
                                                   "Severity": "CRITICAL", "section": "9.2"},
                                {"record_finding": ["clause_type", "verdict", "severity", "section"]}, NAMES, TITLES)
    assert (name, args) == ("record_finding", {"clause_type": "liability_cap", "verdict": "deviation",
                                               "severity": "high", "section": "9.2"})
