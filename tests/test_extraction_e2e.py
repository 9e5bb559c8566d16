"""Consolidation with extraction models that behave like real ones, through the whole graph:
sloppy answers are read (and facts still confirmed after 3 runs), a failed extraction is reported
and recorded from the run itself (never as a copy of the task prompt), and the outcome that gates
fact writes comes from what the run did, not only from what the model claims."""

from __future__ import annotations

import json
import logging

import pytest

from agent.offline import OfflineReviewerModel, ScriptedChatModel
from agent.offline.extractor import extract_artifacts
from agent.report import render_markdown
from graphs.runner import Reviewer, open_checkpointer
from memory.backends import open_memory
from memory.records import Extraction, Namespace, Outcome
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CLAUSE_TYPES = len(load_playbook().clause_types)
NORTHWIND = [SAMPLES / f"northwind_msa_0{i}.txt" for i in (1, 2, 3)]


class SloppyExtractor(OfflineReviewerModel):
    """Distils the run like the offline extractor, but writes it as a small model does: prose and
    a code fence around the JSON, a lower-case outcome, confidences as percentages, steps as objects."""

    def respond(self, messages, stop=None, **kwargs):
        data = extract_artifacts(messages, domain=self.domain)
        data["outcome"] = data["outcome"].lower()
        for fact in data["fact_candidates"]:
            fact["confidence"] = round(fact["confidence"] * 100)
        if data["procedure"]:
            data["procedure"]["steps"] = [{"step": i + 1, "description": s} for i, s in enumerate(data["procedure"]["steps"])]
        from langchain_core.messages import AIMessage

        return AIMessage(f"Sure, here is the summary of the run:\n```json\n{json.dumps(data, indent=1)}\n```\n"
                         "Let me know if you need {anything} else!")


@pytest.fixture
def review(settings):
    def run(path, *, thread_id, **context):
        with open_checkpointer(settings) as saver:
            return Reviewer(settings, saver, **context).review_path(path, thread_id=thread_id)
    return run


def _memory(settings):
    return open_memory(settings.resolved_memory_url()), Namespace(tenant=settings.tenant, agent=settings.agent)


# three suppliers, three templates, one shared deviation: what the confirmation gate needs to learn it
INDEPENDENT = [SAMPLES / f"{name}.txt" for name in ("northwind_msa_01", "kestrel_supply_01", "tidewater_logistics_services")]


def test_sloppy_extraction_answers_still_write_episodes_and_confirm_facts(review, settings):
    reports = [review(p, thread_id=f"s{i}", extraction_model=SloppyExtractor()) for i, p in enumerate(INDEPENDENT)]
    for report in reports:
        extraction = report["memory"]["extraction"]
        assert extraction["status"] == "repaired" and extraction["method"] == "structured"
        assert any("prose" in r for r in extraction["repairs"])
        assert report["memory"]["writes"]["episode"] == report["run_id"]
    assert reports[2]["memory"]["writes"]["facts_confirmed"], "three completed runs confirm the facts"
    memory, ns = _memory(settings)
    episodes = memory.episodes.list(ns, limit=10)
    assert {e.outcome for e in episodes} == {Outcome.COMPLETED} and all(len(e.key_findings) == CLAUSE_TYPES for e in episodes)
    assert memory.procedures.list(ns)[0].steps[0] == "List the contract's sections once."


def test_a_failed_extraction_is_reported_and_recorded_from_the_run_itself(review, settings, caplog):
    broken = ScriptedChatModel(responses=["I'm sorry, I can't summarise this run."], repeat_last=True)
    with caplog.at_level(logging.WARNING):
        report = review(NORTHWIND[0], thread_id="broken", extraction_model=broken)
    extraction = report["memory"]["extraction"]
    assert extraction["status"] == "failed" and extraction["attempts"] == 2
    assert extraction["errors"] == ["no JSON object in the answer"] * 2
    assert "could not be read" in render_markdown(report)
    assert any("could not be read" in r.message for r in caplog.records)
    assert report["outcome"] == "COMPLETED"  # what the run did: 17 of 17 findings
    memory, ns = _memory(settings)
    episode = memory.episodes.get(ns, "broken")
    assert episode.extraction == Extraction.FAILED and episode.outcome == Outcome.COMPLETED
    assert len(episode.key_findings) == CLAUSE_TYPES and "liability_cap in section 9.2" in " ".join(episode.key_findings)
    task = memory.episodes.get(ns, "broken").task_summary
    assert task.startswith("Contract review: master supply agreement")  # what the run derived
    assert "Review the supplier contract" not in task and "northwind" not in task  # never the task prompt
    assert report["memory"]["writes"]["facts_confirmed"] == [] and report["memory"]["writes"]["procedure_proposed"] is None
    assert memory.procedures.list(ns) == []


def test_memory_stats_count_the_runs_recorded_after_a_failed_extraction(review, settings, capsys):
    from cli.main import main

    review(NORTHWIND[0], thread_id="ok")
    review(NORTHWIND[1], thread_id="bad", extraction_model=ScriptedChatModel(responses=["no"], repeat_last=True))
    capsys.readouterr()
    assert main(["memory", "stats", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["episodes_by_extraction"] == {"ok": 1, "failed": 1}
    assert main(["memory", "stats"]) == 0
    assert "1 of 2 episodes were recorded after the extraction model's answer could not be read" in " ".join(
        capsys.readouterr().out.split())


def test_a_summary_the_model_writes_is_never_stored_the_run_derives_its_own(review, settings):
    """Issue 31: the task summary an episode keeps (and embeds) is the run's own, derived from the
    graph state; a model that echoes the task prompt (contract name, opening) stores none of it."""
    from tests.test_fork_template import ARTIFACTS

    class Echo(OfflineReviewerModel):
        def respond(self, messages, stop=None, **kwargs):
            from langchain_core.messages import AIMessage, HumanMessage

            task = next(m.content for m in messages if isinstance(m, HumanMessage))
            return AIMessage(json.dumps({**ARTIFACTS, "task_summary": task}))

    review(NORTHWIND[0], thread_id="echo", extraction_model=Echo())
    memory, ns = _memory(settings)
    summary = memory.episodes.get(ns, "echo").task_summary
    assert summary.startswith("Contract review: master supply agreement") and "Task type:" not in summary
    assert "northwind" not in summary.casefold() and "Run digest" not in summary


def test_a_model_cannot_claim_completed_for_an_incomplete_run(review, settings):
    claims = {"task_summary": "Review of northwind", "outcome": "COMPLETED", "key_findings": ["x: missing (low)"],
              "approach": "a", "tools_used": [], "step_count": 1, "reusable_patterns": [],
              "fact_candidates": [{"text": "Liability caps are usually standard", "domain": "supplier_contracts",
                                   "confidence": 0.9}],
              "procedure": None}
    extractor = ScriptedChatModel(responses=[json.dumps(claims)], repeat_last=True)
    from tests.test_review_loop import OneCallPerTurn

    limited = settings.model_copy(update={"max_model_steps": 16})
    with open_checkpointer(limited) as saver:
        report = Reviewer(limited, saver, reviewer_model=OneCallPerTurn(), extraction_model=extractor).review_path(
            NORTHWIND[0], thread_id="short")
    assert 0 < len(report["findings"]) < CLAUSE_TYPES
    assert report["outcome"] == "PARTIAL" and report["incomplete"]["reason"] == "step budget of 16 model steps used up"
    memory, ns = _memory(settings)
    assert memory.episodes.get(ns, "short").outcome == Outcome.PARTIAL
    from memory.semantic import fact_key

    assert memory.confirmations.runs(ns, fact_key("Liability caps are usually standard")) == []  # not completed


def test_the_episode_keeps_the_findings_tools_and_steps_the_run_recorded_whatever_the_model_writes(review, settings):
    """Issue 19: what the run records about itself is filled by code, not written by the model:
    the extraction request asks only for what needs judgement, and a model that writes key
    findings, tools or a step count anyway cannot put them into memory."""
    from agent.offline.progress import finding_line
    from tools.contract import load_contract

    claims = {"task_summary": "Review of the Northwind supply agreement", "outcome": "COMPLETED",
              "key_findings": ["liability_cap in section 1: standard (none)"], "tools_used": ["made_up_tool"],
              "step_count": 99, "approach": "Assessed every clause.", "reusable_patterns": [], "fact_candidates": [],
              "procedure": None}
    extractor = ScriptedChatModel(responses=[json.dumps(claims)], repeat_last=True)
    report = review(NORTHWIND[0], thread_id="own", extraction_model=extractor)
    contract = load_contract(NORTHWIND[0], max_bytes=settings.max_input_bytes)
    recorded = [finding_line({**f, "section_title": contract.section(f["section"]).title if f.get("section") else ""})
                for f in report["findings"]]
    memory, ns = _memory(settings)
    episode = memory.episodes.get(ns, "own")
    assert episode.key_findings == recorded and len(recorded) == CLAUSE_TYPES
    assert "made_up_tool" not in episode.tools_used and {"list_sections", "assess_clause"} <= set(episode.tools_used)
    assert episode.step_count == report["review_loop"]["model_steps"] != 99
    assert episode.approach == "Assessed every clause." and episode.task_summary.startswith("Contract review:")
    system, digest = (m.content for m in extractor.received[0])
    assert not any(key in system for key in ("key_findings", "tools_used", "step_count"))
    assert "liability_cap 9.2 deviation high" in digest and report["findings"][0]["quote"][:40] not in digest
