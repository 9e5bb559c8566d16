"""Forgetting: erase a tenant, trace a fact or procedure to its runs, remove a bad one with its runs.

Backends expose their erasure operations as `memory.erasure` (`SqliteErasure`, `AwsErasure`):
`forget_tenant`, `tenant_run_ids`, `forget_observations` and `discard_fact_key`. Everything else
here goes through the tier protocols of `memory.stores`, so the rules are the same on every
backend.

Removing a poisoned record treats the runs it came from as untrusted ("quarantine"):
- their episodes are deleted, and their observations leave the confirmation log, so they can
  never again count towards confirming any fact;
- every fact one of them helped confirm is deleted. A fact that also had enough untainted runs
  comes back by itself: the next trusted observation finds the count still at the gate and
  stores it again;
- a procedure that came only from them is deleted; one with other sources too is flagged
  `needs_review` (if it was being served) so a person decides again;
- the record itself is removed, and for a fact its whole observation history too, so the same
  wording must pass the gate afresh with new runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from memory.errors import MemoryConfigError, MemoryRequestError, UnknownRecordError
from memory.records import Fact, Namespace, Procedure, ProcedureStatus
from memory.semantic import observation_keys

_ALL = 1_000_000


def _erasure(memory: Any) -> Any:
    erasure = getattr(memory, "erasure", None)
    if erasure is None:
        raise MemoryConfigError(f"the {type(memory).__name__} memory backend does not support erasure")
    return erasure


def validate_tenant(tenant: str) -> str:
    """The tenant id as given, or MemoryRequestError if it is not a valid id."""
    try:
        Namespace(tenant=tenant, agent="check")
    except ValueError as exc:
        raise MemoryRequestError(f"invalid tenant id {tenant!r}: use 1-63 of a-z, 0-9, '_', '-', '.'") from exc
    return tenant


def forget_tenant(memory: Any, tenant: str) -> dict[str, int]:
    """Erase every record of `tenant` from every tier of `memory`; returns what was removed per
    tier (episodes, facts, procedures, confirmations, plus side tables and documents)."""
    return _erasure(memory).forget_tenant(validate_tenant(tenant))


def tenant_run_ids(memory: Any, tenant: str) -> set[str]:
    """Every run id the tenant's memory mentions (to erase their checkpoints too)."""
    return _erasure(memory).tenant_run_ids(validate_tenant(tenant))


@dataclass
class Provenance:
    """Where a fact or procedure came from, and what else those runs left in memory."""

    kind: Literal["fact", "procedure"]
    record_id: str
    text: str
    source_runs: list[str]
    episodes: list[str] = field(default_factory=list)  # source runs whose episode is stored
    facts: list[str] = field(default_factory=list)  # other facts a source run helped confirm
    procedures: list[str] = field(default_factory=list)  # other procedures a source run proposed

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "record_id": self.record_id, "text": self.text, "source_runs": self.source_runs,
            "episodes": self.episodes, "facts": self.facts, "procedures": self.procedures,
        }


def _find(memory: Any, ns: Namespace, record_id: str) -> Fact | Procedure:
    record = memory.facts.get(ns, record_id) or memory.procedures.get(ns, record_id)
    if record is None:
        raise UnknownRecordError(
            f"no fact or procedure {record_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}: "
            "`memory list` shows the ids"
        )
    return record


def _fact_runs(memory: Any, ns: Namespace, fact: Fact) -> list[str]:
    """A fact's source runs: the confirmation log (exact even when processes confirm at once)
    plus any run the stored record names."""
    logged = memory.confirmations.runs(ns, fact.fact_id)
    return logged + [run for run in fact.source_runs if run not in logged]


def _touched_by(memory: Any, ns: Namespace, runs: set[str]) -> tuple[list[Fact], list[Procedure]]:
    facts = [f for f in memory.facts.list(ns, limit=_ALL) if runs & set(_fact_runs(memory, ns, f))]
    procedures = [p for p in memory.procedures.list(ns) if runs & set(p.source_runs)]
    return facts, procedures


def trace(memory: Any, ns: Namespace, record_id: str) -> Provenance:
    """The runs a fact or procedure came from and everything else those runs left in memory."""
    record = _find(memory, ns, record_id)
    runs = _fact_runs(memory, ns, record) if isinstance(record, Fact) else list(record.source_runs)
    facts, procedures = _touched_by(memory, ns, set(runs))
    if isinstance(record, Fact):
        kind, text = "fact", record.text
    else:
        kind, text = "procedure", f"{record.title}: " + " | ".join(record.steps)
    return Provenance(
        kind=kind, record_id=record_id, text=text, source_runs=runs,
        episodes=[run for run in runs if memory.episodes.get(ns, run) is not None],
        facts=[f.fact_id for f in facts if f.fact_id != record_id],
        procedures=[p.procedure_id for p in procedures if p.procedure_id != record_id],
    )


def forget_runs(memory: Any, ns: Namespace, run_ids: Iterable[str]) -> dict[str, Any]:
    """Quarantine runs: remove their episodes and observations, the facts they helped confirm
    and the procedures only they proposed; flag served procedures they shared in."""
    runs = sorted(set(run_ids))
    if not runs:
        return {"runs": [], "episodes": [], "observations": 0, "facts": [],
                "procedures_deleted": [], "procedures_flagged": []}
    facts, procedures = _touched_by(memory, ns, set(runs))  # before their observations go
    episodes = [run for run in runs if memory.episodes.get(ns, run) is not None]
    memory.episodes.delete(ns, episodes)
    observations = _erasure(memory).forget_observations(ns, runs)
    memory.facts.delete(ns, [f.fact_id for f in facts])
    only_theirs = [p.procedure_id for p in procedures if set(p.source_runs) <= set(runs)]
    memory.procedures.delete(ns, only_theirs)
    flagged = []
    for procedure in procedures:
        if procedure.procedure_id not in only_theirs and procedure.status == ProcedureStatus.VALIDATED:
            memory.procedures.set_status(ns, procedure.procedure_id, ProcedureStatus.NEEDS_REVIEW)
            flagged.append(procedure.procedure_id)
    return {
        "runs": runs, "episodes": episodes, "observations": observations,
        "facts": [f.fact_id for f in facts], "procedures_deleted": only_theirs, "procedures_flagged": flagged,
    }


def forget_record(memory: Any, ns: Namespace, record_id: str) -> dict[str, Any]:
    """Remove a bad fact or procedure together with everything its source runs left behind."""
    provenance = trace(memory, ns, record_id)
    removed = forget_runs(memory, ns, provenance.source_runs)
    if provenance.kind == "fact":
        if record_id not in removed["facts"]:
            memory.facts.delete(ns, [record_id])
            removed["facts"].append(record_id)
        for key in observation_keys(record_id):  # its own key and those counting counterparties, templates
            removed["observations"] += _erasure(memory).discard_fact_key(ns, key)
    elif record_id not in removed["procedures_deleted"]:
        if record_id in removed["procedures_flagged"]:
            removed["procedures_flagged"].remove(record_id)
        memory.procedures.delete(ns, [record_id])
        removed["procedures_deleted"].append(record_id)
    return {"record": provenance.as_dict(), **removed}
