"""Decay rules with a controllable clock, on SQLite and on AWS (moto): each rule and its edge."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.decay import DecayPolicy, decay_namespace, near_duplicate_groups
from memory.records import Episode, Namespace, Outcome, Procedure, ProcedureStatus
from memory.telemetry import RetrievalEvent

NS = Namespace(tenant="acme", agent="reviewer")
OTHER = Namespace(tenant="globex", agent="reviewer")
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
POLICY = DecayPolicy()


def episode(run_id: str, *, outcome: Outcome = Outcome.COMPLETED, created: datetime = T0, ttl_days: float = 90,
            summary: str | None = None, findings: tuple[str, ...] = ()) -> Episode:
    return Episode(
        run_id=run_id, task_type="supplier_contract_review", outcome=outcome, created_at=created,
        task_summary=summary or f"Review contract {run_id} of supplier {run_id.upper()}",
        key_findings=list(findings), expires_at=created + timedelta(days=ttl_days), embedding_model="m",
    )


def add(memory, *episodes: Episode, ns: Namespace = NS) -> None:
    for e in episodes:
        assert memory.episodes.add(ns, e, [1.0, 0.5, 0.25])


def stored(memory, ns: Namespace = NS) -> set[str]:
    return {e.run_id for e in memory.episodes.list(ns, limit=1000)}


def test_failed_episodes_older_than_seven_days_are_deleted_and_the_edge_is_kept(backend):
    add(backend,
        episode("f-edge", outcome=Outcome.FAILED, created=T0 - timedelta(days=7)),
        episode("f-old", outcome=Outcome.FAILED, created=T0 - timedelta(days=7, seconds=1)),
        episode("f-new", outcome=Outcome.FAILED, created=T0 - timedelta(days=2)),
        episode("ok-old", outcome=Outcome.COMPLETED, created=T0 - timedelta(days=40)),
        episode("partial-old", outcome=Outcome.PARTIAL, created=T0 - timedelta(days=40)))
    report = decay_namespace(backend, NS, POLICY, T0)
    assert report.failed_deleted == ["f-old"]
    assert stored(backend) == {"f-edge", "f-new", "ok-old", "partial-old"}
    # a day later the edge case is past the limit too
    assert decay_namespace(backend, NS, POLICY, T0 + timedelta(days=1)).failed_deleted == ["f-edge"]


def test_expired_episodes_are_deleted_at_their_expiry_not_before(backend):
    add(backend,
        episode("expires-now", created=T0 - timedelta(days=90), ttl_days=90),
        episode("expires-soon", created=T0 - timedelta(days=90) + timedelta(seconds=1), ttl_days=90),
        episode("short-lived", created=T0 - timedelta(days=2), ttl_days=1),
        episode("latest", created=T0))  # the last run (decay never deletes it: test_clock_skew.py)
    report = decay_namespace(backend, NS, POLICY, T0)
    assert sorted(report.expired_deleted) == ["expires-now", "short-lived"]
    assert stored(backend) == {"expires-soon", "latest"}
    assert decay_namespace(backend, NS, POLICY, T0 + timedelta(seconds=1)).expired_deleted == ["expires-soon"]


def test_near_duplicates_merge_into_the_best_which_records_them(backend):
    text = "Review the Northwind master supply agreement for the buyer; liability cap in clause 7.3 is 1x fees"
    findings = ("Liability cap 7.3 below playbook", "Termination for convenience missing")
    add(backend,
        episode("dup-partial", outcome=Outcome.PARTIAL, summary=text, findings=findings),
        episode("dup-a", summary=text, findings=(findings[0], "Termination for convenience is missing"),
                created=T0 - timedelta(days=3)),
        episode("dup-b", summary=text + " today", findings=findings, created=T0 - timedelta(days=2)),
        episode("dup-c", summary=text, findings=findings, created=T0 - timedelta(days=1)),
        # same words, another party: identifiers differ, never merged
        episode("other-party", summary=text.replace("Northwind", "Globex"), findings=findings),
        # same party, a different amount in the text: not a duplicate either
        episode("other-clause", summary=text.replace("7.3", "9.1"), findings=findings))
    plan = decay_namespace(backend, NS, POLICY, T0, dry_run=True)
    assert [(m.kept, sorted(m.merged)) for m in plan.merges] == [("dup-c", ["dup-a", "dup-b"])]
    assert len(stored(backend)) == 6  # dry run
    decay_namespace(backend, NS, POLICY, T0)
    assert stored(backend) == {"dup-c", "dup-partial", "other-party", "other-clause"}
    assert sorted(backend.episodes.get(NS, "dup-c").merged_from) == ["dup-a", "dup-b"]
    assert decay_namespace(backend, NS, POLICY, T0).merges == []  # nothing left to merge


def test_merge_threshold_is_configurable_and_low_overlap_never_merges():
    base = episode("x", summary="Review the Acme supply agreement: payment terms, warranty, audit rights")
    close = episode("y", summary="Review the Acme supply agreement: payment terms, warranty, audit rights, insurance")
    far = episode("z", summary="Review the Acme supply agreement quickly for indemnity only")
    assert near_duplicate_groups([base, close, far], 0.95) == []  # they share 10 of 11 words
    groups = near_duplicate_groups([base, close, far], 0.9)
    assert [[e.run_id for e in g] for g in groups] == [["x", "y"]]
    assert near_duplicate_groups([base, far], 0.5) == []


def procedure(memory, pid: str, *, uses: tuple[bool, ...] = (), validate: bool = True, ns: Namespace = NS) -> None:
    memory.procedures.propose(ns, Procedure(procedure_id=pid, task_type="supplier_contract_review", title=pid,
                                            steps=["List sections", pid]))
    if validate:
        memory.procedures.set_status(ns, pid, ProcedureStatus.VALIDATED, by="dana")
    for success in uses:
        memory.procedures.record_application(ns, pid, success=success)


def test_failing_procedures_are_flagged_at_the_edges(backend, clock):
    procedure(backend, "fails-1-of-3", uses=(True, False, False))
    procedure(backend, "two-failures", uses=(False, False))  # too few uses to judge
    procedure(backend, "exactly-60pct", uses=(True, True, True, False, False))
    procedure(backend, "pending", validate=False)
    report = decay_namespace(backend, NS, POLICY, clock())
    assert [(f.procedure_id, f.reason.split(":")[0]) for f in report.procedures_flagged] == [("fails-1-of-3", "failing")]
    status = {p.procedure_id: p.status for p in backend.procedures.list(NS)}
    assert status == {"fails-1-of-3": ProcedureStatus.NEEDS_REVIEW, "two-failures": ProcedureStatus.VALIDATED,
                      "exactly-60pct": ProcedureStatus.VALIDATED, "pending": ProcedureStatus.PENDING}


def test_stale_procedures_are_flagged_after_sixty_days_never_deleted(backend, clock):
    procedure(backend, "quiet")
    procedure(backend, "pending", validate=False)
    clock.advance(days=59, hours=23)
    assert decay_namespace(backend, NS, POLICY, clock()).procedures_flagged == []
    clock.advance(hours=1, seconds=1)
    report = decay_namespace(backend, NS, POLICY, clock())
    assert [f.procedure_id for f in report.procedures_flagged] == ["quiet"]
    assert report.procedures_flagged[0].reason.startswith("stale: not updated for 60 days")
    assert backend.procedures.get(NS, "quiet").status == ProcedureStatus.NEEDS_REVIEW
    assert backend.procedures.get(NS, "pending").status == ProcedureStatus.PENDING  # never served, never flagged
    clock.advance(days=365)
    decay_namespace(backend, NS, POLICY, clock())
    assert {p.procedure_id for p in backend.procedures.list(NS)} == {"quiet", "pending"}  # flagged, not deleted


def test_dry_run_reports_exactly_what_the_real_run_then_does_and_changes_nothing(backend, clock):
    add(backend, episode("old-fail", outcome=Outcome.FAILED, created=clock() - timedelta(days=8)),
        episode("gone", created=clock() - timedelta(days=91)), episode("latest", created=clock()))
    procedure(backend, "failing", uses=(False, False, False))
    dry = decay_namespace(backend, NS, POLICY, clock(), dry_run=True)
    assert dry.dry_run and dry.counts()["failed_episodes_deleted"] == 1 and dry.counts()["expired_episodes_deleted"] == 1
    assert stored(backend) == {"old-fail", "gone", "latest"}
    assert backend.procedures.get(NS, "failing").status == ProcedureStatus.VALIDATED
    done = decay_namespace(backend, NS, POLICY, clock())
    assert done.model_dump(exclude={"dry_run"}) == dry.model_dump(exclude={"dry_run"})
    assert stored(backend) == {"latest"}
    again = decay_namespace(backend, NS, POLICY, clock())
    assert sum(again.counts().values()) == 0  # idempotent


def test_decay_is_confined_to_its_namespace(backend):
    old_failure = episode("f", outcome=Outcome.FAILED, created=T0 - timedelta(days=30))
    add(backend, old_failure, episode("latest"))
    add(backend, old_failure, episode("latest"), ns=OTHER)
    decay_namespace(backend, NS, POLICY, T0)
    assert stored(backend) == {"latest"} and stored(backend, OTHER) == {"f", "latest"}


def test_old_telemetry_is_pruned(backend, clock):
    old = RetrievalEvent(run_id="r-old", tier="episodic", at=clock() - timedelta(days=181), latency_ms=3.0)
    new = RetrievalEvent(run_id="r-new", tier="episodic", at=clock() - timedelta(days=179), latency_ms=3.0)
    for event in (old, new):
        backend.telemetry.record(NS, event)
    report = decay_namespace(backend, NS, POLICY, clock())
    assert report.telemetry_pruned == 1
    assert [e.run_id for e in backend.telemetry.events(NS, since=clock() - timedelta(days=400))] == ["r-new"]


@pytest.mark.parametrize("field,value", [("failed_episode_days", 0), ("procedure_min_success_rate", 1.5),
                                          ("merge_min_similarity", 0.0)])
def test_nonsense_policies_are_refused(field, value):
    with pytest.raises(ValueError):
        DecayPolicy(**{field: value})
