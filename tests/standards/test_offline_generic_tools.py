"""The offline model with tools other than the contract tools: it calls the tool a request is about,
with the values the request states, and reports the tool's result back (a generic agent loop)."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import tool

from agent.offline import OfflineReviewerModel


@tool
def convert_currency(amount: float, currency: str) -> str:
    """Convert an amount of money into another currency."""
    return f"{amount} in {currency}"


@tool
def lookup_party(name: str, include_subsidiaries: bool = False) -> str:
    """Look up a contract party's registration details."""
    return f"{name}: registered"


TOOLS = [convert_currency, lookup_party]


def test_a_call_written_out_in_the_request_is_made_with_its_literal_values():
    answer = OfflineReviewerModel().bind_tools(TOOLS).invoke("Please run lookup_party('Globex GmbH', include_subsidiaries=True)")
    assert [(c["name"], c["args"]) for c in answer.tool_calls] == [
        ("lookup_party", {"name": "Globex GmbH", "include_subsidiaries": True})
    ]


def test_the_tool_sharing_words_with_the_request_is_chosen_and_stated_values_fill_it():
    answer = OfflineReviewerModel().bind_tools(TOOLS).invoke("Convert 2,500 dollars into 'EUR' for the liability cap")
    [call] = answer.tool_calls
    assert call["name"] == "convert_currency" and call["args"] == {"amount": 2500.0, "currency": "EUR"}
    party = OfflineReviewerModel().bind_tools(TOOLS).invoke("look up the party Initech Systems")
    assert party.tool_calls[0]["args"] == {"name": "Initech Systems"}


def test_after_the_tool_answers_the_model_reports_the_result_instead_of_calling_again():
    bound = OfflineReviewerModel().bind_tools(TOOLS)
    request = HumanMessage("look up the party Initech Systems")
    call = bound.invoke([request])
    result = lookup_party.invoke(call.tool_calls[0])
    assert isinstance(result, ToolMessage)
    answer = bound.invoke([request, call, result])
    assert not answer.tool_calls and answer.text == "lookup_party returned: Initech Systems: registered"


def test_an_unrelated_request_or_tool_choice_none_gets_the_honest_note_not_a_call():
    bound = OfflineReviewerModel().bind_tools(TOOLS)
    assert not bound.invoke("what is the weather like?").tool_calls
    assert "not a language model" in bound.invoke("what is the weather like?").text
    refused = OfflineReviewerModel().bind_tools(TOOLS, tool_choice="none").invoke("look up the party Initech")
    assert not refused.tool_calls
