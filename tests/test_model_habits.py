"""The review loop with models that do not behave like our stand-ins (issue 29): tool names,
clause types and enums spelled any way, summaries that lose the run, turns of prose or nothing,
repeated batches, and a tool hint (`other_side`, `elsewhere`) that a model ignores. Each test
drives the whole review graph; the test doubles of bench/doubles are driven as a user gives them
(`--model package.module:factory`)."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from pydantic import PrivateAttr

from agent.offline import OfflineReviewerModel, ScriptedChatModel
from bench.doubles.terse import make as terse
from graphs.runner import Reviewer, open_checkpointer
from memory.working import is_summary
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CLAUSE_TYPES = len(load_playbook().clause_types)
NORTHWIND = SAMPLES / "northwind_msa_01.txt"
KESTREL = SAMPLES / "kestrel_supply_01.txt"


def _call(name: str, args: dict, n: int) -> dict:
    return {"name": name, "args": args, "id": f"call-{n}", "type": "tool_call"}


def _review(settings, model, contract=NORTHWIND, **context):
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver, use_memory=False, reviewer_model=model, **context)
        report = reviewer.review_path(contract, thread_id="habits")
        state = reviewer.graph.get_state(reviewer.thread_config("habits")).values
    return report, state


def _tool_answers(state, name: str) -> list[dict]:
    return [json.loads(m.content) for m in state["messages"] if isinstance(m, ToolMessage) and m.name == name]


# ---------------------------------------------------------------- spelling at the tool boundary

def test_miscased_tool_names_clause_types_and_enum_words_reach_the_tools(settings):
    scripted = ScriptedChatModel(responses=[
        AIMessage("", tool_calls=[
            _call("Assess_Clause", {"clause_type": "GOVERNING-LAW", "section": "16.1"}, 1),
            _call("recordFinding", {"clauseType": "Limitation of Liability", "Verdict": "Non-Compliant",
                                    "severity": "Critical", "section": "9.2"}, 2),
            _call("RECORD-FINDING", {"clause_type": "Audit Rights", "verdict": "Absent", "severity": "Minor"}, 3),
        ]),
        "Done.",
    ], repeat_last=True)
    report, state = _review(settings.model_copy(update={"max_nudges": 0}), scripted)
    findings = {f["clause_type"]: f for f in report["findings"]}
    assert (findings["liability_cap"]["verdict"], findings["liability_cap"]["severity"]) == ("deviation", "high")
    assert findings["liability_cap"]["section"] == "9.2"
    assert (findings["audit_rights"]["verdict"], findings["audit_rights"]["severity"]) == ("missing", "low")
    assessed = _tool_answers(state, "assess_clause")
    assert assessed and assessed[0]["clause_type"] == "governing_law" and assessed[0]["found"] is True
    assert report["review_loop"]["tool_errors"] == 0 and report["review_loop"]["calls_normalised"] == 3
    # what the model reads back is the history with the names the tools have
    ai = next(m for m in scripted.received[1] if isinstance(m, AIMessage) and m.tool_calls)
    assert [c["name"] for c in ai.tool_calls] == ["assess_clause", "record_finding", "record_finding"]


def test_a_name_no_tool_or_clause_type_matches_is_answered_with_the_names_there_are(settings):
    scripted = ScriptedChatModel(responses=[
        AIMessage("", tool_calls=[_call("summarise_contract", {}, 1),
                                  _call("find_clauses", {"clause_type": "pizza delivery"}, 2)]),
        "Done.",
    ], repeat_last=True)
    _, state = _review(settings.model_copy(update={"max_nudges": 0}), scripted)
    answers = [m.content for m in state["messages"] if isinstance(m, ToolMessage)]
    assert "record_finding" in answers[0] and "liability_cap" in answers[1]


# ---------------------------------------------------------------- a loop that finishes

class ProseAt(OfflineReviewerModel):
    """The offline reviewer, answering with `text` (prose, or nothing) at the given model calls."""

    prose_at: tuple[int, ...] = (3,)
    text: str = "Let me think about which clause to look at next."
    _calls: int = PrivateAttr(default=0)
    _nudges: list[str] = PrivateAttr(default_factory=list)  # the loop's notes it was sent

    def respond(self, messages, stop=None, **kwargs):
        self._calls += 1
        if messages and isinstance(messages[-1], HumanMessage) and "no finding yet" in messages[-1].content:
            self._nudges.append(messages[-1].content)
        if kwargs.get("tools") and self._calls in self.prose_at:
            return AIMessage(self.text)
        return super().respond(messages, stop, **kwargs)


@pytest.mark.parametrize("text", ["Let me think about which clause to look at next.", ""], ids=["prose", "empty"])
def test_three_nudges_answered_in_prose_or_nothing_do_not_end_the_review(settings, text):
    model = ProseAt(prose_at=(3, 4, 5, 6), text=text)
    report, _ = _review(settings, model)
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES
    assert report["review_loop"]["nudges"] == 4
    nudges = model._nudges
    # each nudge names what is open and the call to make next, with its arguments
    assert nudges and all("find_clauses" in n or "assess_clause" in n for n in nudges)
    assert any('clause_type="' in n for n in nudges)


def test_a_model_that_never_calls_a_tool_again_stops_before_the_budget(settings):
    stubborn = ScriptedChatModel(responses=["I would rather summarise the contract in my own words."], repeat_last=True)
    report, _ = _review(settings, stubborn)
    assert report["outcome"] == "FAILED"
    assert report["review_loop"]["model_steps"] == settings.max_nudges + 1 < report["review_loop"]["step_budget"]


def test_an_identical_batch_is_answered_from_the_previous_results(settings):
    batch = [_call("find_clauses", {"clause_type": "governing_law"}, 1), _call("list_sections", {}, 2)]
    again = [dict(c, id=f"{c['id']}-again") for c in batch]
    third = [dict(c, id=f"{c['id']}-third") for c in reversed(batch)]  # the same calls in another order
    scripted = ScriptedChatModel(responses=[AIMessage("", tool_calls=batch), AIMessage("", tool_calls=again),
                                            AIMessage("", tool_calls=third), "Done."], repeat_last=True)
    report, state = _review(settings.model_copy(update={"max_nudges": 0}), scripted)
    answers = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert [m.content for m in answers[2:4]] == [m.content for m in answers[:2]]
    assert [m.content for m in answers[4:6]] == [m.content for m in reversed(answers[:2])]
    assert report["review_loop"]["repeated_batches"] == 2
    note = scripted.received[3][-1]
    assert isinstance(note, HumanMessage) and "same calls" in note.content and "were not run again" in note.content


# ---------------------------------------------------------------- other_side and elsewhere enforced

POINTERS = [(KESTREL, "audit_rights", "1.2", "other_side", "11.2"), (NORTHWIND, "audit_rights", "3.3", "elsewhere", "12.2")]


def _assess_and_record(settings, contract, clause_type, section, *, first: list[str]):
    """Assess `section`, then each section of `first`, then record `section`."""
    turns = [AIMessage("", tool_calls=[_call("assess_clause", {"clause_type": clause_type, "section": s}, i)])
             for i, s in enumerate([section, *first])]
    record = _call("record_finding", {"clause_type": clause_type, "verdict": "standard", "severity": "none",
                                      "section": section}, 9)
    model = ScriptedChatModel(responses=[*turns, AIMessage("", tool_calls=[record]), "Done."], repeat_last=True)
    return _review(settings.model_copy(update={"max_nudges": 0}), model, contract)


@pytest.mark.parametrize(("contract", "clause_type", "section", "key", "pointed"), POINTERS, ids=["other_side", "elsewhere"])
def test_recording_a_section_the_assessment_pointed_away_from_needs_that_section_assessed_first(
        settings, contract, clause_type, section, key, pointed):
    report, state = _assess_and_record(settings, contract, clause_type, section, first=[])
    assert _tool_answers(state, "assess_clause")[0][key]["section"] == pointed
    assert not [f for f in report["findings"] if f["clause_type"] == clause_type]
    refusal = [m.content for m in state["messages"] if isinstance(m, ToolMessage) and m.name == "record_finding"][-1]
    assert "error" in json.loads(refusal) and pointed in refusal and "assess_clause" in refusal


@pytest.mark.parametrize(("contract", "clause_type", "section", "key", "pointed"), POINTERS, ids=["other_side", "elsewhere"])
def test_once_the_named_section_was_assessed_the_model_may_record_its_own_choice(
        settings, contract, clause_type, section, key, pointed):
    report, _ = _assess_and_record(settings, contract, clause_type, section, first=[pointed])
    recorded = [f for f in report["findings"] if f["clause_type"] == clause_type]
    assert recorded and recorded[0]["section"] == section


def test_assessing_the_named_section_in_the_same_turn_as_the_record_is_not_first(settings):
    both = [_call("assess_clause", {"clause_type": "audit_rights", "section": "11.2"}, 2),
            _call("record_finding", {"clause_type": "audit_rights", "verdict": "standard", "severity": "none",
                                     "section": "1.2"}, 3)]
    model = ScriptedChatModel(responses=[
        AIMessage("", tool_calls=[_call("assess_clause", {"clause_type": "audit_rights", "section": "1.2"}, 1)]),
        AIMessage("", tool_calls=both), "Done."], repeat_last=True)
    report, _ = _review(settings.model_copy(update={"max_nudges": 0}), model, KESTREL)
    assert not [f for f in report["findings"] if f["clause_type"] == "audit_rights"]


# ---------------------------------------------------------------- compression that cannot lose the run

@pytest.mark.parametrize("reviewer", ["offline", "realistic:1"])
def test_one_line_summaries_are_replaced_by_the_run_state_and_the_review_completes(settings, reviewer):
    """The terse double as the compression model writes "Checking liability cap next." (issue 29:
    such summaries made reviews use the whole budget and record 0-8 of 20 findings)."""
    report, state = _review(settings, reviewer, compression_model=terse("compression"))
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES
    loop = report["review_loop"]
    assert loop["compressions"] >= 1 and loop["summaries_rejected"] == loop["compressions"]
    assert loop["model_steps"] < loop["step_budget"] // 2
    summaries = [m.content for m in state["messages"] if is_summary(m)]
    assert summaries and all("next." not in s and "Recorded finding:" in s for s in summaries)
    assert report["usage"]["tool_calls"] < 200


def test_the_run_state_is_restated_after_an_accepted_summary(settings):
    report, state = _review(settings, "offline")
    assert report["review_loop"]["compressions"] >= 1 and report["review_loop"]["summaries_rejected"] == 0
    summaries = [m.content for m in state["messages"] if is_summary(m)]
    assert summaries and all("No finding yet for:" in s for s in summaries)


# ---------------------------------------------------------------- the doubles through the whole graph

@pytest.mark.parametrize("spec", ["bench.doubles.batcher:make", "bench.doubles.terse:make"])
def test_each_test_double_completes_a_review_memory_off(settings, spec):
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings.model_copy(update={"model": spec}), saver, use_memory=False).review_path(KESTREL)
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES
    audit = next(f for f in report["findings"] if f["clause_type"] == "audit_rights")
    assert audit["section"] == "11.2"  # never the other side's audit clause (1.2), whatever the double does
