"""The offline model's memory modes: working-memory summaries and run-artifacts extraction."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agent.offline import OfflineReviewerModel
from agent.prompts import EXTRACT_INSTRUCTIONS
from memory.records import Outcome, RunArtifacts
from memory.working import SUMMARIZE_INSTRUCTIONS, SUMMARY_PREFIX, compress, tool_pairs_intact
from tests.models.review_sim import TOOL_SCHEMAS, drive, standard_world, start_messages
from tests.models.test_offline_reviewer import TYPES, memory_block


def extract(messages) -> RunArtifacts:
    run = [m for m in messages if not isinstance(m, SystemMessage)]
    request = [SystemMessage(EXTRACT_INSTRUCTIONS), *run, HumanMessage("Extract the run artifacts as JSON now.")]
    answer = OfflineReviewerModel().invoke(request)
    return RunArtifacts.model_validate_json(answer.content)


def summary_of(messages) -> str:
    request = [SystemMessage(SUMMARIZE_INSTRUCTIONS), *messages, HumanMessage("Write the summary now.")]
    return OfflineReviewerModel().invoke(request).content


# ---------------------------------------------------------------- summaries


def test_summary_keeps_task_results_and_findings_in_parseable_lines():
    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    text = summary_of(run.messages[1:15])  # task, listing, find/search phase, reads
    lines = text.splitlines()
    assert lines[0].startswith('Task: Review the supplier contract "acme_msa.txt"')
    assert "Model steps so far: 3" in lines
    assert "Listed sections: 1, 9.2, 14, 7" in lines
    assert any(line.startswith("Candidates for liability_cap: sections 9.2") for line in lines)
    assert any(line.startswith("Search for governing_law: sections 14") for line in lines)
    assert "Read sections: 9.2, 14, 7" in lines


def test_reviewer_continues_from_a_summary_exactly_where_it_left_off():
    full = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    system, rest = full.messages[0], full.messages[1:]
    cut = 14  # after the read phase: the next step is the assessments
    summary = HumanMessage(f"{SUMMARY_PREFIX}\n{summary_of(rest[:cut])}")
    model = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS)
    assert model.invoke([system, summary]).tool_calls == model.invoke(full.messages[: cut + 1]).tool_calls


def test_summary_of_a_summary_keeps_recorded_findings():
    full = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    first = HumanMessage(f"{SUMMARY_PREFIX}\n{summary_of(full.messages[1:19])}")  # up to the assessments
    second = summary_of([first, *full.messages[19:23]])  # the recording phase
    for line in ("Recorded finding: liability_cap in section 9.2: deviation (high)",
                 "Recorded finding: governing_law in section 14: deviation (medium)"):
        assert line in second
    assert "Model steps so far: 5" in second


def test_summary_drops_resolved_errors_and_keeps_unresolved_ones():
    world = standard_world()
    world.failing = {"search_contract": 1, "find_clauses": 1}
    run = drive(OfflineReviewerModel(), world, start_messages(["liability_cap", "no_such_type"]))
    text = summary_of(run.messages[1:])
    assert "temporarily unavailable" not in text  # the failed search/find were resolved by later calls
    assert "Failed: find_clauses -> unknown clause type 'no_such_type'" in text
    assert "Recorded finding: liability_cap in section 9.2: deviation (high)" in text


def test_review_with_aggressive_compression_reaches_the_same_findings():
    world = standard_world()
    uncompressed = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    run = drive(OfflineReviewerModel(), world, start_messages(TYPES), compress_with=OfflineReviewerModel(),
                threshold=8, keep_recent=3)
    assert run.compressions >= 2
    assert tool_pairs_intact(run.messages)
    assert {t: f["section"] for t, f in world.findings.items()} == {"liability_cap": "9.2", "governing_law": "14",
                                                                      "warranty": "7"}
    assert len(run.calls_named("assess_clause")) == len(uncompressed.calls_named("assess_clause"))
    recorded = [c for c in run.calls_named("assess_clause") if c["args"].get("record")]
    assert len(recorded) + len(run.calls_named("record_finding")) == 3  # no finding recorded twice


def test_compress_uses_the_offline_summary():
    full = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    squeezed = compress(full.messages, OfflineReviewerModel(), threshold=10, keep_recent=1)
    assert squeezed is not None
    summary = next(m for m in squeezed.messages if isinstance(m, HumanMessage))
    assert summary.content.startswith(SUMMARY_PREFIX)
    assert "Recorded finding: warranty in section 7: deviation (high)" in summary.content
    assert squeezed.output_tokens > 0


# ---------------------------------------------------------------- extraction


def test_extraction_of_a_complete_run_is_valid_run_artifacts():
    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    artifacts = extract(run.messages)
    assert artifacts.outcome == Outcome.COMPLETED
    assert artifacts.key_findings == ["liability_cap in section 9.2: deviation (high)",
                                      "governing_law in section 14: deviation (medium)",
                                      "warranty in section 7: deviation (high)"]
    assert "acme_msa.txt" in artifacts.task_summary  # the stand-in handed a whole run reads its task message
    # assess_clause records each finding in the same call (record=true): no record_finding needed
    assert artifacts.tools_used == ["list_sections", "find_clauses", "search_contract", "read_section",
                                    "assess_clause"]
    assert artifacts.step_count == run.steps
    assert artifacts.reusable_patterns
    assert artifacts.procedure is not None and 4 <= len(artifacts.procedure.steps) <= 8
    assert artifacts.fact_candidates
    assert all(0.7 <= f.confidence <= 0.9 and f.domain == "supplier_contracts" for f in artifacts.fact_candidates)
    texts = [f.text for f in artifacts.fact_candidates]
    assert "Supplier contracts often deviate from the playbook on liability cap (high severity)." in texts
    assert not any("Acme" in t for t in texts)  # a fact never names a party (issue 31)


def test_location_facts_name_the_counterparty_by_its_token_only():
    from agent.offline.digest import digest_of, render

    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    digest = digest_of(run.messages[1:])
    digest.task = "Contract review: master supply agreement, 4 sections; counterparty CP4ABCDEFGH2"
    texts = [f.text for f in extract([HumanMessage(render(digest))]).fact_candidates]
    assert "Contracts of counterparty CP4ABCDEFGH2 place the liability cap clause in section 9." in texts


def test_extraction_wording_is_stable_across_runs_so_facts_can_be_confirmed():
    first = extract(drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES)).messages)
    block = memory_block("liability_cap in section 9.2: deviation (high)")
    second = extract(drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES, block)).messages)
    assert {f.text for f in first.fact_candidates} == {f.text for f in second.fact_candidates}
    assert first.procedure == second.procedure
    assert "remembered clause locations" in second.approach and "remembered" not in first.approach


def test_extraction_outcome_partial_and_failed():
    partial = drive(OfflineReviewerModel(), standard_world(), start_messages([*TYPES, "no_such_type"]))
    assert extract(partial.messages).outcome == Outcome.PARTIAL
    world = standard_world()
    world.failing = {"record_finding": 1000}
    failed = extract(drive(OfflineReviewerModel(), world, start_messages(TYPES)).messages)
    assert failed.outcome == Outcome.FAILED
    assert failed.key_findings == [] and failed.procedure is None and failed.fact_candidates == []


def test_extraction_after_compression_still_sees_the_task_and_all_findings():
    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES), compress_with=OfflineReviewerModel(),
                threshold=8, keep_recent=3)
    artifacts = extract(run.messages)
    assert artifacts.outcome == Outcome.COMPLETED
    assert len(artifacts.key_findings) == 3
    assert "acme_msa.txt" in artifacts.task_summary
    assert artifacts.step_count == run.steps


def test_extraction_ignores_findings_that_only_the_memory_block_mentions():
    messages = start_messages(TYPES, memory_block("liability_cap in section 9.2: deviation (high)"))
    artifacts = extract(messages)  # no tool was called in this run
    assert artifacts.outcome == Outcome.FAILED and artifacts.key_findings == []


def test_extraction_with_structured_output_returns_run_artifacts():
    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    request = [SystemMessage(EXTRACT_INSTRUCTIONS), *run.messages[1:]]
    for method in ("function_calling", "json_schema", "json_mode"):
        artifacts = OfflineReviewerModel().with_structured_output(RunArtifacts, method=method).invoke(request)
        assert isinstance(artifacts, RunArtifacts) and artifacts.outcome == Outcome.COMPLETED, method


@pytest.mark.parametrize("tool_result", ["not json at all", json.dumps(["a", "list"])])
def test_odd_tool_results_count_as_errors(tool_result):
    messages = [*start_messages(["liability_cap"]),
                AIMessage("", tool_calls=[{"name": "list_sections", "args": {}, "id": "c1"}]),
                ToolMessage(tool_result, tool_call_id="c1", name="list_sections")]
    answer = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS).invoke(messages)
    assert [c["name"] for c in answer.tool_calls] == ["list_sections"]  # retried once


def test_extraction_after_compression_keeps_the_headings_of_recorded_findings():
    """Issue 19: a finished clause type survives compression as its recorded finding; the heading
    it sat under must survive too, or the next run's memory cannot relocate a renumbered clause."""
    world = standard_world()
    run = drive(OfflineReviewerModel(), world, start_messages(TYPES))
    for message in run.messages:  # the real record_finding echoes the heading a finding sits under
        if isinstance(message, ToolMessage) and "recorded" in json.loads(message.content):
            data = json.loads(message.content)
            data["recorded"]["section_title"] = f"Heading of {data['recorded']['section']}"
            message.content = json.dumps(data)
    full = extract(run.messages)
    compressed = [HumanMessage(f"{SUMMARY_PREFIX}\n{summary_of(run.messages[1:])}")]
    assert extract(compressed).key_findings == full.key_findings
    assert full.key_findings[0] == 'liability_cap in section 9.2 "Heading of 9.2": deviation (high)'


def test_the_run_digest_gives_the_extraction_what_the_whole_run_gives_at_a_fraction_of_the_tokens():
    """Issue 19: the extraction reads a digest of the run (each clause type's verdict and section,
    the coverage, how clauses were located, the tools), not every tool result: the same judgement
    (outcome, approach, patterns, facts, procedure), far fewer tokens, no quotes, rationales or
    headings. (In the graph the digest is built from the state: agent.memory_agent.)"""
    from langchain_core.messages.utils import count_tokens_approximately

    from agent.offline.digest import digest_of, read_digest, render

    def run_digest(messages, open_types=None):
        return render(digest_of(messages, open_types))

    cold = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    block = memory_block("liability_cap in section 9.2: deviation (high)", "warranty in section 7: deviation (high)")
    warm = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES, block))
    for run in (cold, warm):
        digest = run_digest(run.messages[1:])
        assert "the liability cap is the fees paid" not in digest and "Heading of" not in digest
        full, short = extract(run.messages), extract([HumanMessage(digest)])
        judged = {"task_summary", "outcome", "approach", "reusable_patterns", "procedure"}
        assert short.model_dump(include=judged) == full.model_dump(include=judged)
        assert [(f.text, f.confidence) for f in short.fact_candidates] == [
            (f.text, f.confidence) for f in full.fact_candidates]
        assert short.key_findings == [line.replace(' "Heading of 9.2"', "") for line in full.key_findings]
        assert count_tokens_approximately([HumanMessage(digest)]) < count_tokens_approximately(run.messages[1:]) / 4
        recorded = [{k: f.get(k) or "none" if k == "severity" else f.get(k)
                     for k in ("clause_type", "section", "verdict", "severity")} for f in digest_of(run.messages[1:]).findings]
        assert read_digest(digest).findings == recorded and len(recorded) == len(TYPES)
    assert "remembered clause locations" in extract([HumanMessage(run_digest(warm.messages[1:]))]).approach


def test_a_digest_says_which_clause_types_the_run_left_open_so_the_outcome_is_partial():
    from agent.offline.digest import digest_of, read_digest, render

    run = drive(OfflineReviewerModel(), standard_world(), start_messages(TYPES))
    digest = render(digest_of(run.messages[1:], open_types=["insurance"]))
    assert "No finding: insurance" in digest and read_digest(digest).open_types == ["insurance"]
    assert f"Findings, {len(TYPES)} of {len(TYPES) + 1} clause types" in digest
    assert extract([HumanMessage(digest)]).outcome == Outcome.PARTIAL
