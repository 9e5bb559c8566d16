"""Procedures: proposed by completed runs, approved by people, served on trial, flagged when failing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import procedural
from memory.errors import MemoryRequestError, UnknownRecordError
from memory.records import Namespace, Outcome, ProcedureProposal, ProcedureStatus, RunArtifacts

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
STEPS = ["List the sections", "Find each clause type", "Assess and record findings"]


def run(outcome: Outcome = Outcome.COMPLETED, steps: list[str] = STEPS) -> RunArtifacts:
    return RunArtifacts(outcome=outcome, procedure=ProcedureProposal(title="Clause sweep", steps=steps))


def propose(memory, run_id: str = "run-1", artifacts: RunArtifacts | None = None):
    artifacts = artifacts or run()
    return procedural.propose(memory.procedures, NS, run_id, "review", artifacts.outcome, artifacts.procedure, now=NOW)


def test_only_completed_runs_with_steps_propose(memory):
    assert propose(memory, "r", run(Outcome.PARTIAL)) is None
    assert propose(memory, "r", run(steps=["  "])) is None
    assert propose(memory, "r", RunArtifacts(outcome=Outcome.COMPLETED)) is None
    assert memory.procedures.list(NS) == []
    assert propose(memory).status == ProcedureStatus.PENDING


def test_the_same_steps_reworded_in_case_and_spacing_merge_into_one_proposal(memory):
    propose(memory, "run-1")
    merged = propose(memory, "run-2", run(steps=["list the  sections.", "find each clause type", "Assess and record findings"]))
    assert merged.source_runs == ["run-1", "run-2"]
    assert len(memory.procedures.list(NS)) == 1


def test_pending_is_not_served_until_a_person_approves(memory):
    proposal = propose(memory)
    assert procedural.best(memory.procedures, NS, "review") is None
    with pytest.raises(MemoryRequestError, match="name of the person"):
        procedural.approve(memory.procedures, NS, proposal.procedure_id, by=" ")
    approved = procedural.approve(memory.procedures, NS, proposal.procedure_id, by="dana")
    assert approved.validated_by == "dana"
    served = procedural.best(memory.procedures, NS, "review")
    assert served.procedure_id == proposal.procedure_id and served.on_trial(3)


def test_a_new_procedure_earns_its_place_through_a_trial(memory):
    pid = propose(memory).procedure_id
    procedural.approve(memory.procedures, NS, pid, by="dana")
    for i, success in enumerate((True, False, True)):
        procedural.record_application(memory.procedures, NS, pid, success=success, run_id=f"run-{i}")
    procedural.record_application(memory.procedures, NS, pid, success=False, run_id="run-1")  # a retry
    served = procedural.best(memory.procedures, NS, "review")
    assert not served.on_trial(3)
    assert served.applications == 3 and round(served.success_rate, 2) == 0.67


def test_a_procedure_failing_its_trial_is_flagged_and_no_longer_served(memory):
    pid = propose(memory).procedure_id
    procedural.approve(memory.procedures, NS, pid, by="dana")
    assert procedural.record_application(memory.procedures, NS, pid, success=False).status == ProcedureStatus.VALIDATED
    procedural.record_application(memory.procedures, NS, pid, success=True)
    flagged = procedural.record_application(memory.procedures, NS, pid, success=False)
    assert flagged.status == ProcedureStatus.NEEDS_REVIEW
    assert procedural.best(memory.procedures, NS, "review") is None
    # a person may give it another chance; its record stays
    assert procedural.approve(memory.procedures, NS, pid, by="dana").applications == 3


def test_rejected_procedures_stay_rejected(memory):
    pid = propose(memory).procedure_id
    assert procedural.reject(memory.procedures, NS, pid, by="dana").status == ProcedureStatus.REJECTED
    with pytest.raises(MemoryRequestError, match="rejected"):
        procedural.approve(memory.procedures, NS, pid, by="dana")
    with pytest.raises(UnknownRecordError, match="no procedure"):
        procedural.approve(memory.procedures, NS, "p-missing", by="dana")


def test_needs_review_flags_stale_procedures():
    from memory.records import Procedure

    fresh = Procedure(procedure_id="p", task_type="t", title="t", steps=["a"], status=ProcedureStatus.VALIDATED,
                      updated_at=NOW - timedelta(days=59))
    stale = fresh.model_copy(update={"updated_at": NOW - timedelta(days=61)})
    assert not procedural.needs_review(fresh, stale_days=60, now=NOW)
    assert procedural.needs_review(stale, stale_days=60, now=NOW)
    assert not procedural.needs_review(stale.model_copy(update={"status": ProcedureStatus.PENDING}), stale_days=60, now=NOW)
