"""The scheduled decay job on AWS: the Lambda handler EventBridge runs (see infrastructure/decay.tf).

Its settings come in the scheduled event (the Terraform target's input), so nothing here reads
the environment: `{"memory_url": "aws://?...", "failed_episode_days": 7, "procedure_stale_days":
60, "procedure_min_uses": 3, "procedure_min_success_rate": 0.6}` (and optionally
`merge_min_similarity`, `telemetry_days`, `dry_run`). The rules are `memory.decay`'s, the same
code `contract-review memory decay` runs locally; this module only opens the backend and loops
over its namespaces.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from memory.decay import DecayPolicy, decay_namespace, totals
from memory.errors import MemoryConfigError

log = logging.getLogger(__name__)

__all__ = ["DecayEvent", "DecayPolicy", "handler"]


class DecayEvent(DecayPolicy):
    """What the schedule sends the Lambda."""

    memory_url: str
    dry_run: bool = False


def handler(event: dict[str, Any], context: Any = None, *, now: datetime | None = None) -> dict[str, Any]:
    """Lambda entry point: decay every namespace of the backend named in the event; returns the
    summed counts (`namespaces`, `expired_episodes_deleted`, `failed_episodes_deleted`,
    `episodes_merged`, `procedures_flagged`, `telemetry_pruned`)."""
    try:
        request = DecayEvent.model_validate(event or {})
    except ValueError as exc:
        raise MemoryConfigError(f"the decay event needs memory_url and valid numbers: {exc}") from exc
    from memory.backends.aws import open_aws_memory

    memory = open_aws_memory(request.memory_url)
    policy = DecayPolicy.model_validate(request.model_dump(include=set(DecayPolicy.model_fields)))
    moment = now or datetime.now(UTC)
    reports = []
    try:
        for ns in memory.namespaces():
            reports.append(decay_namespace(memory, ns, policy, moment, dry_run=request.dry_run))
    finally:
        memory.close()
    return totals(reports)
