"""Procedure store rules every backend must keep."""

from __future__ import annotations

import threading

import pytest

from memory.errors import UnknownRecordError
from memory.records import Namespace, ProcedureStatus
from tests.conformance.support import NS, procedure


def test_pending_procedures_are_never_served(backend):
    backend.procedures.propose(NS, procedure("p1"))
    assert backend.procedures.get(NS, "p1").status == ProcedureStatus.PENDING
    assert backend.procedures.best(NS, "review") is None
    backend.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    served = backend.procedures.best(NS, "review")
    assert served.procedure_id == "p1" and served.validated_by == "dana"
    assert backend.procedures.best(NS, "other-task") is None


@pytest.mark.parametrize("status", [ProcedureStatus.REJECTED, ProcedureStatus.NEEDS_REVIEW])
def test_rejected_and_flagged_procedures_are_not_served(backend, status):
    backend.procedures.propose(NS, procedure("p1"))
    backend.procedures.set_status(NS, "p1", status)
    assert backend.procedures.best(NS, "review") is None


def test_an_identical_proposal_gains_the_run_and_keeps_the_state(backend):
    backend.procedures.propose(NS, procedure("p1", runs=("r1",)))
    backend.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    again = backend.procedures.propose(NS, procedure("p1", runs=("r2",)))
    assert again.status == ProcedureStatus.VALIDATED
    assert again.source_runs == ["r1", "r2"]
    assert backend.procedures.propose(NS, procedure("p1", runs=("r2",))).source_runs == ["r1", "r2"]


def test_counters_are_atomic_under_threads_and_the_rate_is_derived_on_read(backend):
    backend.procedures.propose(NS, procedure("p1"))
    backend.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")

    def apply(worker: int) -> None:
        for i in range(25):
            backend.procedures.record_application(NS, "p1", success=(worker + i) % 4 != 0)

    threads = [threading.Thread(target=apply, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = backend.procedures.get(NS, "p1")
    assert stored.applications == 200
    assert stored.successes == 150
    assert stored.success_rate == 0.75


def test_a_run_counts_once_per_procedure_when_named(backend):
    backend.procedures.propose(NS, procedure("p1"))
    backend.procedures.propose(NS, procedure("p2"))
    for _ in range(3):  # a retried consolidation
        backend.procedures.record_application(NS, "p1", success=True, run_id="run-1")
    backend.procedures.record_application(NS, "p1", success=False, run_id="run-2")
    backend.procedures.record_application(NS, "p2", success=True, run_id="run-1")  # another procedure
    stored = backend.procedures.get(NS, "p1")
    assert (stored.applications, stored.successes) == (2, 1)
    assert backend.procedures.get(NS, "p2").applications == 1
    with pytest.raises(UnknownRecordError):
        backend.procedures.record_application(NS, "missing", success=True, run_id="run-1")


def test_proven_procedures_beat_trials_and_failing_ones_are_not_served(backend):
    for pid in ("proven", "trial", "failing"):
        backend.procedures.propose(NS, procedure(pid))
        backend.procedures.set_status(NS, pid, ProcedureStatus.VALIDATED, by="dana")
    for success in (True, True, True, False):
        backend.procedures.record_application(NS, "proven", success=success)
    backend.procedures.record_application(NS, "trial", success=True)
    for success in (False, False, True):
        backend.procedures.record_application(NS, "failing", success=success)
    assert backend.procedures.best(NS, "review").procedure_id == "proven"
    backend.procedures.set_status(NS, "proven", ProcedureStatus.NEEDS_REVIEW)
    assert backend.procedures.best(NS, "review").procedure_id == "trial"
    backend.procedures.set_status(NS, "trial", ProcedureStatus.REJECTED)
    assert backend.procedures.best(NS, "review") is None  # "failing": 1/3 < 0.6 over 3 uses
    assert backend.procedures.best(NS, "review", min_uses=4).procedure_id == "failing"  # still on trial


def test_procedures_are_isolated_by_tenant_and_agent(backend):
    backend.procedures.propose(NS, procedure("p1"))
    backend.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    for ns in (Namespace(tenant=NS.tenant, agent="drafter"), Namespace(tenant="globex", agent=NS.agent)):
        assert backend.procedures.best(ns, "review") is None
        assert backend.procedures.get(ns, "p1") is None
        assert backend.procedures.list(ns) == []
        with pytest.raises(UnknownRecordError):
            backend.procedures.record_application(ns, "p1", success=True)
        with pytest.raises(UnknownRecordError):
            backend.procedures.set_status(ns, "p1", ProcedureStatus.VALIDATED, by="mallory")
    assert backend.procedures.get(NS, "p1").applications == 0


def test_list_filters_and_delete(backend):
    backend.procedures.propose(NS, procedure("p1"))
    backend.procedures.propose(NS, procedure("p2", task_type="triage"))
    backend.procedures.set_status(NS, "p2", ProcedureStatus.VALIDATED, by="dana")
    assert [p.procedure_id for p in backend.procedures.list(NS, task_type="triage")] == ["p2"]
    assert [p.procedure_id for p in backend.procedures.list(NS, status=ProcedureStatus.PENDING)] == ["p1"]
    assert backend.procedures.delete(NS, ["p1", "nope"]) == 1
    assert [p.procedure_id for p in backend.procedures.list(NS)] == ["p2"]
