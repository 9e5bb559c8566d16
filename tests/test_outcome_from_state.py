"""Issue 29, "outcome and findings come from state": the graph owns the facts of a run.

The outcome an episode records is the one the graph observed; an extraction model may lower it
only with a reason the run's state confirms (an item it names is open, a problem it names was
recorded), never raise or replace it. What the extraction reads of the run (findings, what is
still open, sections checked, tools used) is read from graph state, never from a summary's
wording: a model whose summaries use its own words still sees every finding the run recorded.
"""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import HumanMessage

from agent.offline import ScriptedChatModel
from graphs.runner import Reviewer, build_graph, context_from_settings, open_checkpointer
from memory.backends import open_memory
from memory.records import Namespace, Outcome
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CONTRACT = SAMPLES / "northwind_msa_01.txt"
CLAUSE_TYPES = load_playbook().clause_types
JUDGED = {"task_summary": "Review of a supplier contract", "approach": "Assessed every clause type.",
          "reusable_patterns": [], "fact_candidates": [], "procedure": None}


def claims_failed_with_a_wrongly_cased_open_type() -> ScriptedChatModel:
    """The extraction double of the issue: it claims FAILED and lists CONFIDENTIALITY as open."""
    claim = {**JUDGED, "outcome": "FAILED", "open_clause_types": ["CONFIDENTIALITY"]}
    return ScriptedChatModel(responses=[json.dumps(claim)], repeat_last=True, model="claims-failed")


def _episode(settings, run_id):
    memory = open_memory(settings.resolved_memory_url())
    return memory.episodes.get(Namespace(tenant=settings.tenant, agent=settings.agent), run_id)


def test_a_claimed_failure_on_a_complete_run_is_stored_completed_and_the_cli_exits_0(settings, monkeypatch, capsys):
    from cli.main import main

    monkeypatch.setenv("CONTRACT_AGENT_EXTRACTION_MODEL",
                       "tests.test_outcome_from_state:claims_failed_with_a_wrongly_cased_open_type")
    code = main(["review", str(CONTRACT), "--format", "json", "--thread-id", "complete"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 0, captured.err
    assert "no finding for" not in captured.err
    assert report["outcome"] == "COMPLETED" and report["incomplete"] is None
    assert len({f["clause_type"] for f in report["findings"]}) == len(CLAUSE_TYPES)
    assert _episode(settings, "complete").outcome == Outcome.COMPLETED
    shown = report["memory"]["extraction"]["outcome"]
    assert shown["observed"] == "COMPLETED" and shown["claimed"] == "FAILED" and shown["recorded"] == "COMPLETED"
    assert "confidentiality" in shown["refused"].lower()  # said why the claim was not taken


def _partial_review(settings, extractor, run_id):
    from tests.test_review_loop import OneCallPerTurn

    limited = settings.model_copy(update={"max_model_steps": 16})
    with open_checkpointer(limited) as saver:
        return Reviewer(limited, saver, reviewer_model=OneCallPerTurn(), extraction_model=extractor).review_path(
            CONTRACT, thread_id=run_id)


def _claim(outcome: str, **reason) -> ScriptedChatModel:
    return ScriptedChatModel(responses=[json.dumps({**JUDGED, "outcome": outcome, **reason})], repeat_last=True)


def test_a_lower_outcome_with_a_reason_the_state_confirms_is_honoured_and_shown(settings):
    report = _partial_review(settings, None, "probe")
    open_types = report["incomplete"]["open_clause_types"]
    assert report["outcome"] == "PARTIAL" and open_types
    named = open_types[-1].upper().replace("_", " ")  # named in the model's own spelling
    lowered = _partial_review(settings, _claim("FAILED", lowered_because=[named]), "lowered")
    assert lowered["outcome"] == "FAILED"
    assert _episode(settings, "lowered").outcome == Outcome.FAILED
    shown = lowered["memory"]["extraction"]["outcome"]
    assert shown["observed"] == "PARTIAL" and shown["recorded"] == "FAILED"
    assert shown["lowered_because"] == [open_types[-1]]
    from agent.report import render_markdown

    assert "lowered" in render_markdown(lowered).lower()


@pytest.mark.parametrize("reason", [{}, {"lowered_because": ["liability_cap"]},
                                    {"lowered_because": ["the compression model failed"]}])
def test_a_lower_outcome_without_a_confirmed_reason_is_refused(settings, reason):
    """No reason, an item the run did record (liability_cap is found first), or a problem the run
    never recorded: the outcome stays what the graph observed."""
    report = _partial_review(settings, _claim("FAILED", **reason), "refused")
    assert "liability_cap" in {f["clause_type"] for f in report["findings"]}
    assert report["outcome"] == "PARTIAL"
    assert _episode(settings, "refused").outcome == Outcome.PARTIAL
    assert report["memory"]["extraction"]["outcome"]["refused"]


def test_a_problem_the_run_recorded_is_a_confirmed_reason(settings):
    """The step budget ran out (the run recorded why it stopped): a model naming it lowers the run."""
    report = _partial_review(settings, _claim("FAILED", lowered_because=["the step budget ran out"]), "budget")
    assert report["outcome"] == "FAILED" and report["memory"]["extraction"]["outcome"]["lowered_because"] == ["stopped"]


def test_a_model_cannot_raise_the_outcome(settings):
    report = _partial_review(settings, _claim("COMPLETED"), "raised")
    assert report["outcome"] == "PARTIAL" and _episode(settings, "raised").outcome == Outcome.PARTIAL


def test_the_extraction_reads_findings_from_state_whatever_a_summary_kept(settings):
    """A summary in a model's own words (accepted: long enough, naming every recorded clause type)
    stands for most of the run; the extraction still sees all 20 findings, what is open, the
    sections checked and the tools used, from the state."""
    run = build_graph().invoke({"contract": _contract(), "run_id": "source"},
                               {"configurable": {"thread_id": "source"}},
                               context=context_from_settings(settings, use_memory=False))
    assert len({f["clause_type"] for f in run["findings"]}) == len(CLAUSE_TYPES)
    prose = HumanMessage("Summary of earlier steps\nThese are my working notes in my own words. Done so far: "
                         + ", ".join(t.replace("_", " ").title() for t in CLAUSE_TYPES) + ".")
    squeezed = {**run, "messages": [*run["messages"][:2], prose, *run["messages"][-3:]], "run_id": "squeezed"}
    extractor = _claim("COMPLETED")
    from graphs.consolidate import build_consolidate

    done = build_consolidate().compile().invoke(squeezed, context=context_from_settings(settings,
                                                                                         extraction_model=extractor))
    digest = str(extractor.received[0][-1].content)
    assert f"{len(CLAUSE_TYPES)} of {len(CLAUSE_TYPES)} clause types" in digest
    assert all(t in digest for t in CLAUSE_TYPES)
    assert "assess_clause" in digest and "list_sections" in digest  # the tools the run used
    assert done["artifacts"]["outcome"] == "COMPLETED" and len(done["artifacts"]["key_findings"]) == len(CLAUSE_TYPES)


def _contract() -> dict:
    from tools.contract import load_contract

    return load_contract(CONTRACT, max_bytes=10_000_000).model_dump()
