"""The scheduled decay job on AWS: the Lambda handler EventBridge runs (see infrastructure/decay.tf).

Its settings come in the scheduled event (the Terraform target's input), so nothing here reads
the environment: `{"memory_url": "aws://?...", "failed_episode_days": 7, "procedure_stale_days":
60, "procedure_min_uses": 3, "procedure_min_success_rate": 0.6}`. For every namespace it deletes
FAILED episodes older than `failed_episode_days` and flags (never deletes) validated procedures
that are stale or failing as needs_review; DynamoDB's TTL expires all other episodes.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from memory.errors import MemoryConfigError
from memory.procedural import needs_review
from memory.records import Namespace, Outcome, ProcedureStatus
from memory.stores import MemoryBackend

log = logging.getLogger(__name__)


class DecayPolicy(BaseModel):
    """The decay rules' numbers (the design's defaults); usable by a local decay command too."""

    failed_episode_days: int = Field(default=7, ge=1)
    procedure_stale_days: int = Field(default=60, ge=1)
    procedure_min_uses: int = Field(default=3, ge=1)
    procedure_min_success_rate: float = Field(default=0.6, ge=0.0, le=1.0)


class DecayEvent(DecayPolicy):
    """What the schedule sends the Lambda."""

    memory_url: str


def decay_namespace(memory: MemoryBackend, ns: Namespace, policy: DecayPolicy, now: datetime) -> dict[str, int]:
    """Apply the decay rules to one namespace; returns what was done."""
    cutoff = now - timedelta(days=policy.failed_episode_days)
    failed = memory.episodes.list(ns, limit=1_000_000, outcome=Outcome.FAILED)
    old = [e.run_id for e in failed if e.created_at < cutoff]
    deleted = memory.episodes.delete(ns, old) if old else 0
    flagged = 0
    for procedure in memory.procedures.list(ns, status=ProcedureStatus.VALIDATED):
        if needs_review(procedure, min_uses=policy.procedure_min_uses,
                        min_success_rate=policy.procedure_min_success_rate,
                        stale_days=policy.procedure_stale_days, now=now):
            memory.procedures.set_status(ns, procedure.procedure_id, ProcedureStatus.NEEDS_REVIEW)
            flagged += 1
    return {"failed_episodes_deleted": deleted, "procedures_flagged": flagged}


def handler(event: dict[str, Any], context: Any = None, *, now: datetime | None = None) -> dict[str, Any]:
    """Lambda entry point: decay every namespace of the backend named in the event."""
    try:
        policy = DecayEvent.model_validate(event or {})
    except ValueError as exc:
        raise MemoryConfigError(f"the decay event needs memory_url and valid numbers: {exc}") from exc
    from memory.backends.aws import open_aws_memory

    memory = open_aws_memory(policy.memory_url)
    moment = now or datetime.now(UTC)
    totals = {"namespaces": 0, "failed_episodes_deleted": 0, "procedures_flagged": 0}
    try:
        for ns in memory.namespaces():
            done = decay_namespace(memory, ns, policy, moment)
            log.info("decay %s: %s", ns.key, done)
            totals["namespaces"] += 1
            for key, value in done.items():
                totals[key] += value
    finally:
        memory.close()
    return totals
