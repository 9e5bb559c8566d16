"""The procedural tier: step lists proposed by completed runs, approved by people, served and scored.

Lifecycle: a COMPLETED run proposes a procedure -> `pending` (never served). A person approves it
(`approve`, from the CLI) -> `validated`, or rejects it -> `rejected` (kept, never served).

The design's deadlock (serve only validated procedures with >= 3 prior applications, yet a
procedure that is never served never gains applications) is resolved with a *trial*: a validated
procedure with fewer than `trial_uses` applications IS served, and the memory block labels it
"on trial" so the reader weighs it accordingly. Each use is counted atomically with its outcome;
as soon as a procedure has >= `trial_uses` applications and a success rate below
`min_success_rate`, `record_application` flags it `needs_review` and it stops being served
(decay also flags procedures not updated for 60 days). A person may re-approve a flagged one;
its counters are kept, so it must then improve. Proven procedures are preferred over trials
(`memory.stores.serving_order`).
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from memory.errors import MemoryRequestError, UnknownRecordError
from memory.records import Namespace, Outcome, Procedure, ProcedureProposal, ProcedureStatus
from memory.stores import ProcedureStore


def procedure_id_for(task_type: str, steps: list[str]) -> str:
    """Same task type and same steps (ignoring case, spacing, punctuation) -> same id, so an
    identical proposal from another run adds a source run instead of a duplicate."""
    canon = "\n".join(re.sub(r"[^a-z0-9]+", " ", step.lower()).strip() for step in steps)
    return "p" + hashlib.sha256(f"{task_type}\n{canon}".encode()).hexdigest()[:24]


def propose(
    store: ProcedureStore,
    ns: Namespace,
    run_id: str,
    task_type: str,
    outcome: Outcome,
    proposal: ProcedureProposal | None,
    *,
    now: datetime,
) -> Procedure | None:
    """Store the run's proposed procedure as pending; None unless the run COMPLETED with steps."""
    if outcome != Outcome.COMPLETED or proposal is None:
        return None
    steps = [step.strip() for step in proposal.steps if step.strip()]
    if not steps or not proposal.title.strip():
        return None
    procedure = Procedure(
        procedure_id=procedure_id_for(task_type, steps), task_type=task_type, title=proposal.title.strip(),
        steps=steps, source_runs=[run_id], created_at=now, updated_at=now,
    )
    return store.propose(ns, procedure)


def _require(store: ProcedureStore, ns: Namespace, procedure_id: str) -> Procedure:
    procedure = store.get(ns, procedure_id)
    if procedure is None:
        raise UnknownRecordError(
            f"no procedure {procedure_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}: list them to see the ids"
        )
    return procedure


def approve(store: ProcedureStore, ns: Namespace, procedure_id: str, *, by: str) -> Procedure:
    """A person validates a pending (or flagged) procedure; it is served from the next run on."""
    if not by.strip():
        raise MemoryRequestError("approving a procedure needs the name of the person approving it")
    procedure = _require(store, ns, procedure_id)
    if procedure.status == ProcedureStatus.REJECTED:
        raise MemoryRequestError(f"procedure {procedure_id!r} was rejected; propose it again instead of approving")
    return store.set_status(ns, procedure_id, ProcedureStatus.VALIDATED, by=by.strip())


def reject(store: ProcedureStore, ns: Namespace, procedure_id: str, *, by: str) -> Procedure:
    """A person rejects a procedure: it is kept for the record and never served."""
    if not by.strip():
        raise MemoryRequestError("rejecting a procedure needs the name of the person rejecting it")
    _require(store, ns, procedure_id)
    return store.set_status(ns, procedure_id, ProcedureStatus.REJECTED, by=by.strip())


def best(
    store: ProcedureStore, ns: Namespace, task_type: str, *, trial_uses: int = 3, min_success_rate: float = 0.6
) -> Procedure | None:
    """The procedure to serve for `task_type` (proven first, else a trial), or None."""
    return store.best(ns, task_type, min_uses=trial_uses, min_success_rate=min_success_rate)


def record_application(
    store: ProcedureStore,
    ns: Namespace,
    procedure_id: str,
    *,
    success: bool,
    run_id: str | None = None,
    trial_uses: int = 3,
    min_success_rate: float = 0.6,
) -> Procedure:
    """Count one use of a served procedure (atomically; once per `run_id` when given, so a retried
    consolidation does not count twice); flag it needs_review once it has >= `trial_uses` uses
    and a success rate below `min_success_rate`. Returns it as stored."""
    store.record_application(ns, procedure_id, success=success, run_id=run_id)
    procedure = _require(store, ns, procedure_id)
    if needs_review(procedure, min_uses=trial_uses, min_success_rate=min_success_rate):
        procedure = store.set_status(ns, procedure_id, ProcedureStatus.NEEDS_REVIEW)
    return procedure


def needs_review(
    procedure: Procedure,
    *,
    min_uses: int = 3,
    min_success_rate: float = 0.6,
    stale_days: int | None = None,
    now: datetime | None = None,
) -> bool:
    """Whether a served procedure should be flagged: it failed too often over enough uses, or
    (with `stale_days` and `now`) it was not updated for that long. Used by decay too."""
    if procedure.status != ProcedureStatus.VALIDATED:
        return False
    rate = procedure.success_rate
    if procedure.applications >= min_uses and rate is not None and rate < min_success_rate:
        return True
    return stale_days is not None and now is not None and (now - procedure.updated_at).days >= stale_days
