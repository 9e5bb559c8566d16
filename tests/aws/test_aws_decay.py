"""The scheduled decay Lambda against moto: what it deletes, what it flags, what it leaves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.decay_lambda import handler
from memory.errors import MemoryConfigError
from memory.records import Episode, Namespace, Outcome, Procedure, ProcedureStatus
from tests.aws.moto_support import open_backend

NOW = datetime(2026, 6, 1, tzinfo=UTC)
ACME = Namespace(tenant="acme", agent="reviewer")
GLOBEX = Namespace(tenant="globex", agent="reviewer")


def episode(run_id: str, outcome: Outcome, age_days: int) -> Episode:
    created = NOW - timedelta(days=age_days)
    return Episode(run_id=run_id, task_type="review", task_summary="s", outcome=outcome, created_at=created,
                   expires_at=created + timedelta(days=90), embedding_model="m")


def procedure(memory, ns: Namespace, procedure_id: str, *, uses: tuple[bool, ...] = (), validate: bool = True,
              age_days: int = 0) -> None:
    moment = NOW - timedelta(days=age_days)
    memory.procedures.propose(ns, Procedure(procedure_id=procedure_id, task_type="review", title=procedure_id,
                                            steps=["a"], created_at=moment, updated_at=moment))
    if validate:
        memory.procedures.set_status(ns, procedure_id, ProcedureStatus.VALIDATED, by="dana")
    for success in uses:
        memory.procedures.record_application(ns, procedure_id, success=success)


def test_decay_deletes_old_failures_and_flags_stale_or_failing_procedures(aws, monkeypatch):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    memory = open_backend(aws)
    for ns in (ACME, GLOBEX):
        memory.episodes.add(ns, episode("old-failure", Outcome.FAILED, 8), [1.0, 0.0])
        memory.episodes.add(ns, episode("new-failure", Outcome.FAILED, 2), [1.0, 0.0])
        memory.episodes.add(ns, episode("old-success", Outcome.COMPLETED, 30), [1.0, 0.0])
    procedure(memory, ACME, "failing", uses=(False, False, True))
    procedure(memory, ACME, "healthy", uses=(True, True, True))
    procedure(memory, ACME, "pending", validate=False)
    procedure(memory, GLOBEX, "quiet")  # validated, never used

    later = datetime.now(UTC) + timedelta(days=61)  # updated_at is the (real) time of the last write
    event = {"memory_url": f"aws://?region=us-east-1&table_prefix={memory.config.table_prefix}"}
    totals = handler(event, None, now=NOW)
    assert totals == {"namespaces": 2, "failed_episodes_deleted": 2, "empty_episodes_deleted": 0, "procedures_flagged": 1,
                      "expired_episodes_deleted": 0, "episodes_merged": 0, "telemetry_pruned": 0, "episodes_redated": 0}
    for ns in (ACME, GLOBEX):
        assert {e.run_id for e in memory.episodes.list(ns)} == {"new-failure", "old-success"}
    status = {p.procedure_id: p.status for p in memory.procedures.list(ACME)}
    assert status == {"failing": ProcedureStatus.NEEDS_REVIEW, "healthy": ProcedureStatus.VALIDATED,
                      "pending": ProcedureStatus.PENDING}

    totals = handler({**event, "procedure_stale_days": 60}, None, now=later)
    assert totals["procedures_flagged"] == 2  # "healthy" and "quiet" went 60 days without an update
    assert memory.procedures.get(GLOBEX, "quiet").status == ProcedureStatus.NEEDS_REVIEW
    assert memory.procedures.get(ACME, "pending").status == ProcedureStatus.PENDING  # never served, never flagged
    assert memory.procedures.get(ACME, "failing") is not None  # flagged, never deleted


def test_an_event_without_a_memory_url_is_a_configuration_error():
    with pytest.raises(MemoryConfigError, match="memory_url"):
        handler({}, None)
