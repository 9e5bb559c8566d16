"""Reading run artifacts as real models write them: the usual slips repaired and listed, what
cannot be read reported with its reason (never a silent UNKNOWN), and one retry with that reason."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from agent.offline import ScriptedChatModel
from memory.extraction import ArtifactsError, extract, read_artifacts
from memory.records import Extraction, Outcome

CLEAN = {
    "task_summary": "Review of supplier contract northwind_msa_01 between Northwind and Buyer",
    "outcome": "COMPLETED",
    "key_findings": ["liability_cap in section 9.2: deviation (high)", "insurance: missing (medium)"],
    "approach": "Listed sections, assessed each clause type, recorded findings.",
    "tools_used": ["list_sections", "assess_clause", "record_finding"],
    "step_count": 9,
    "reusable_patterns": ["Assess remembered sections first."],
    "fact_candidates": [{"text": "Northwind contracts cap liability in section 9.", "domain": "supplier_contracts",
                         "confidence": 0.8}],
    "procedure": {"title": "Supplier review", "steps": ["List sections", "Assess", "Record"]},
}


def test_a_clean_answer_is_read_as_is():
    reading = read_artifacts(json.dumps(CLEAN))
    assert reading.repairs == [] and reading.artifacts.outcome == Outcome.COMPLETED
    assert reading.artifacts.fact_candidates[0].confidence == 0.8


def test_the_slips_of_the_issue_are_repaired_and_listed():
    sloppy = {**CLEAN, "outcome": "completed",
              "fact_candidates": [{"text": "Northwind contracts cap liability in section 9.", "confidence": 80}],
              "procedure": {"title": "Supplier review", "steps": [{"step": 1, "description": "List sections"},
                                                                  {"step": 2, "description": "Assess"}]}}
    answer = f"Sure! Here is the JSON you asked for:\n\n{json.dumps(sloppy, indent=2)}\n\nHope it helps."
    reading = read_artifacts(answer)
    artifacts = reading.artifacts
    assert artifacts.outcome == Outcome.COMPLETED
    assert artifacts.fact_candidates[0].confidence == pytest.approx(0.8)
    assert artifacts.procedure.steps == ["List sections", "Assess"]
    assert artifacts.key_findings == CLEAN["key_findings"]
    assert any("prose" in r for r in reading.repairs) and any("percentage" in r for r in reading.repairs)


@pytest.mark.parametrize("answer", [
    "```json\n" + json.dumps(CLEAN) + "\n```\nLet me know if you need {more} detail.",
    "Result: " + json.dumps({"run_artifacts": CLEAN}),
    json.dumps(CLEAN)[:-1] + ",}",  # a trailing comma
    "Thinking {about it} first. " + json.dumps(CLEAN) + " And {another} aside.",
], ids=["fence-and-braces-after", "wrapper", "trailing-comma", "braces-around"])
def test_json_is_found_wherever_a_model_puts_it(answer):
    assert read_artifacts(answer).artifacts.key_findings == CLEAN["key_findings"]


def test_other_common_shapes_are_read():
    odd = {"summary": CLEAN["task_summary"], "status": "Success", "findings": CLEAN["key_findings"],
           "approach": CLEAN["approach"], "tools": "list_sections, record_finding", "step_count": "9",
           "facts": [{"fact": "Caps sit in section 9.", "confidence": "75%"}],
           "procedure": ["1. List sections", "2. Record"]}
    artifacts = read_artifacts(odd).artifacts
    assert artifacts.task_summary == CLEAN["task_summary"] and artifacts.outcome == Outcome.COMPLETED
    assert artifacts.tools_used == ["list_sections", "record_finding"] and artifacts.step_count == 9
    assert artifacts.fact_candidates[0].text == "Caps sit in section 9." and artifacts.fact_candidates[0].confidence == 0.75
    assert artifacts.procedure.steps == ["List sections", "Record"]


@pytest.mark.parametrize(("answer", "reason"), [
    ("", "empty"),
    ("I reviewed the contract and everything went fine.", "no JSON object"),
    ('Here it is: {"task_summary": "Review", "outcome": "COMPL', "cut off"),
    (json.dumps({"task_summary": "x", "outcome": "maybe"}), "outcome 'maybe'"),
    (json.dumps({"task_summary": "x", "key_findings": []}), "no outcome"),
    (json.dumps({**CLEAN, "fact_candidates": [{"text": "t", "confidence": 250}]}), "outside 0-1"),
])
def test_what_cannot_be_read_says_why(answer, reason):
    with pytest.raises(ArtifactsError, match=reason):
        read_artifacts(answer)


def test_an_unreadable_answer_is_sent_back_once_with_the_reason():
    model = ScriptedChatModel(responses=['{"task_summary": "Review", "outcome": "COMPL', json.dumps(CLEAN)])
    request = [SystemMessage("TASK: extract-run-artifacts"), HumanMessage("Extract now.")]
    result = extract(model, request)
    assert result.status == Extraction.RETRIED and result.attempts == 2 and len(result.usage) == 2
    assert result.errors == ["the JSON object in the answer is cut off or malformed"]
    retry = model.received[1][-1]
    assert isinstance(retry, HumanMessage) and "cut off or malformed" in retry.content


def test_two_unreadable_answers_fail_loudly_not_silently():
    model = ScriptedChatModel(responses=["I cannot do that.", "Still no JSON, sorry."])
    result = extract(model, [SystemMessage("TASK: extract-run-artifacts"), HumanMessage("Extract now.")])
    assert result.artifacts is None and result.status == Extraction.FAILED
    assert result.report() == {"status": "failed", "method": "structured", "attempts": 2,
                               "errors": ["no JSON object in the answer", "no JSON object in the answer"], "repairs": []}


def test_native_structured_output_is_used_where_the_model_has_it():
    from agent.offline import OfflineReviewerModel

    model = OfflineReviewerModel()
    transcript = [SystemMessage("TASK: extract-run-artifacts\nClause types to review: liability_cap"),
                  HumanMessage('Review the supplier contract "a.pdf" for the buyer against the playbook.'),
                  AIMessage("", tool_calls=[{"name": "list_sections", "args": {}, "id": "1"}])]
    result = extract(model, transcript)
    assert result.method == "structured" and result.status == Extraction.OK
    assert result.artifacts.tools_used == ["list_sections"]
