"""The procedure review queue: what waits for a person, with what they need to decide.

The queue holds pending proposals and procedures decay (or a failing trial) flagged as
needs_review. Each entry carries its source runs, its success figures, why it is in the queue,
and what it changes against the procedure currently served for its task type (a diff of the
steps). A person approves (it is served from the next run), rejects (kept, never served) or
retires it (a procedure that served once and is withdrawn; it may be approved again later).
"""

from __future__ import annotations

import difflib
from datetime import datetime

from pydantic import BaseModel

from memory import procedural
from memory.errors import MemoryRequestError
from memory.records import Namespace, Procedure, ProcedureStatus
from memory.stores import ProcedureStore

QUEUED = (ProcedureStatus.PENDING, ProcedureStatus.NEEDS_REVIEW)


class ReviewItem(BaseModel):
    procedure: Procedure
    reason: str  # why it waits
    baseline: Procedure | None  # the procedure currently served for its task type, if another
    changes: list[str]  # unified diff of the steps against the baseline ("+"/"-" lines)


def _reason(procedure: Procedure, now: datetime) -> str:
    if procedure.status == ProcedureStatus.PENDING:
        runs = len(procedure.source_runs)
        return f"proposed by {runs} completed run{'s' if runs != 1 else ''}, never validated"
    rate = procedure.success_rate
    figures = (f"{procedure.successes}/{procedure.applications} successful uses ({rate:.0%})"
               if rate is not None else "never applied")
    idle = (now - procedure.updated_at).days
    return f"flagged for review: {figures}, last updated {idle} days ago"


def step_changes(baseline: Procedure | None, procedure: Procedure) -> list[str]:
    """The step-list diff from `baseline` to `procedure` (every step is new without a baseline)."""
    if baseline is None:
        return [f"+ {step}" for step in procedure.steps]
    diff = difflib.ndiff(baseline.steps, procedure.steps)
    return [line.rstrip() for line in diff if line[:1] in "+-"]


def review_queue(
    store: ProcedureStore, ns: Namespace, *, now: datetime, trial_uses: int = 3, min_success_rate: float = 0.6
) -> list[ReviewItem]:
    """Pending and flagged procedures of the namespace, oldest first."""
    items = []
    served: dict[str, Procedure | None] = {}
    for procedure in store.list(ns):
        if procedure.status not in QUEUED:
            continue
        if procedure.task_type not in served:
            served[procedure.task_type] = store.best(
                ns, procedure.task_type, min_uses=trial_uses, min_success_rate=min_success_rate
            )
        baseline = served[procedure.task_type]
        if baseline is not None and baseline.procedure_id == procedure.procedure_id:
            baseline = None
        items.append(ReviewItem(procedure=procedure, reason=_reason(procedure, now), baseline=baseline,
                                changes=step_changes(baseline, procedure)))
    return items


def decide(store: ProcedureStore, ns: Namespace, procedure_id: str, decision: str, *, by: str) -> Procedure:
    """Apply a reviewer's decision: "approve", "reject" or "retire"."""
    if decision == "approve":
        return procedural.approve(store, ns, procedure_id, by=by)
    if decision == "reject":
        return procedural.reject(store, ns, procedure_id, by=by)
    if decision == "retire":
        return retire(store, ns, procedure_id, by=by)
    raise MemoryRequestError(f"unknown review decision {decision!r}: use approve, reject or retire")


def retire(store: ProcedureStore, ns: Namespace, procedure_id: str, *, by: str) -> Procedure:
    """Withdraw a procedure from serving without calling it wrong (it may be approved again)."""
    if not by.strip():
        raise MemoryRequestError("retiring a procedure needs the name of the person retiring it")
    procedure = store.get(ns, procedure_id)
    if procedure is None:
        raise MemoryRequestError(f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
    if procedure.status == ProcedureStatus.REJECTED:
        raise MemoryRequestError(f"procedure {procedure_id!r} was rejected; it is not served, nothing to retire")
    return store.set_status(ns, procedure_id, ProcedureStatus.RETIRED, by=by.strip())
