"""Decay: the rules that keep durable memory from only growing, shared by the CLI and the Lambda.

Per namespace, at a given `now` (injected, so tests and simulations control the clock):

* episodes past their `expires_at` are deleted (SQLite has no TTL; DynamoDB's TTL is days late);
* FAILED episodes created more than `failed_episode_days` ago are deleted, and so are
  undistilled ones (empty, with a failed extraction or an unknown outcome: `Episode.undistilled`),
  which no later run can use;
* near-duplicate episodes are merged: the best one is kept and records the merged run ids in
  `merged_from`, the others are deleted. Near-duplicates share the task type, the outcome and
  every identifier (clause numbers, amounts, names: `memory.retrieval.identifiers`), and their
  word sets overlap by at least `merge_min_similarity` (Jaccard). The test is lexical on purpose:
  it needs no embedding model, so it means the same whatever model made the vectors, and two
  runs about different parties or amounts are never merged. A FAILED and a COMPLETED run are
  never merged either: what failed is a lesson of its own;
* validated procedures not updated for `procedure_stale_days`, or applied at least
  `procedure_min_uses` times with a success rate below `procedure_min_success_rate`, are
  flagged needs_review (never deleted) and stop being served until a person reviews them;
* retrieval telemetry older than `telemetry_days` is pruned (where the backend keeps any).

Time (memory.clock): `now` must be a sane clock. An episode dated ahead of `now` (beyond
`FUTURE_SLACK`: its run's clock ran ahead) is read, and re-dated, as written at `now` with its
time to live kept, and listed in `redated`; otherwise it would be served past its time. The
episode of the last run by the store's counter (`Episode.run_seq`) is never deleted or merged
away, whatever the clocks said (`kept_last_run`).

`plan_namespace` only reads, so `--dry-run` prints exactly what `decay_namespace` would do.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from memory.clock import FUTURE_SLACK, checked
from memory.procedural import needs_review
from memory.records import Episode, Namespace, Outcome, ProcedureStatus
from memory.retrieval import identifiers, words
from memory.stores import MemoryBackend

log = logging.getLogger(__name__)

_OUTCOME_RANK = {Outcome.COMPLETED: 3, Outcome.PARTIAL: 2, Outcome.UNKNOWN: 1, Outcome.FAILED: 0}
ALL_EPISODES = 1_000_000_000


class DecayPolicy(BaseModel):
    """The decay rules' numbers (the design's defaults); the Lambda event and the CLI fill them."""

    failed_episode_days: int = Field(default=7, ge=1)
    procedure_stale_days: int = Field(default=60, ge=1)
    procedure_min_uses: int = Field(default=3, ge=1)
    procedure_min_success_rate: float = Field(default=0.6, ge=0.0, le=1.0)
    merge_min_similarity: float = Field(default=0.9, gt=0.0, le=1.0)
    telemetry_days: int = Field(default=180, ge=1)


class EpisodeMerge(BaseModel):
    kept: str
    merged: list[str]


class FlaggedProcedure(BaseModel):
    procedure_id: str
    title: str
    reason: str


class Redated(BaseModel):
    run_id: str
    was: datetime  # the timestamp its run's clock gave
    now: datetime  # what decay read (and, not dry, wrote) instead
    expires_at: datetime  # its expiry from `now`, its time to live kept


class NamespaceDecay(BaseModel):
    """What decay did (or, dry, would do) to one namespace, per tier."""

    namespace: str
    dry_run: bool = False
    expired_deleted: list[str] = Field(default_factory=list)
    failed_deleted: list[str] = Field(default_factory=list)
    empty_deleted: list[str] = Field(default_factory=list)
    merges: list[EpisodeMerge] = Field(default_factory=list)
    procedures_flagged: list[FlaggedProcedure] = Field(default_factory=list)
    telemetry_pruned: int = 0
    redated: list[Redated] = Field(default_factory=list)  # dated in the future: read as written now
    kept_last_run: str | None = None  # the last run's episode (by the counter), which a rule would have deleted

    def counts(self) -> dict[str, int]:
        return {
            "expired_episodes_deleted": len(self.expired_deleted),
            "failed_episodes_deleted": len(self.failed_deleted),
            "empty_episodes_deleted": len(self.empty_deleted),
            "episodes_merged": sum(len(m.merged) for m in self.merges),
            "procedures_flagged": len(self.procedures_flagged),
            "telemetry_pruned": self.telemetry_pruned,
            "episodes_redated": len(self.redated),
        }


def _similarity(a: set[str], b: set[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def _best_first(episode: Episode) -> tuple:
    """Keep the most useful record (one a model described over one recorded after its extraction
    failed), then the best outcome, then the richer record, then the newest."""
    return (-episode.usefulness, -_OUTCOME_RANK[episode.outcome], -len(episode.key_findings),
            -episode.created_at.timestamp(), episode.run_id)


def near_duplicate_groups(episodes: Iterable[Episode], min_similarity: float) -> list[list[Episode]]:
    """Groups (best first) of two or more near-duplicate episodes; see the module docstring."""
    buckets: dict[tuple, list[tuple[Episode, set[str]]]] = defaultdict(list)
    for episode in episodes:
        text = episode.embedding_text()
        key = (episode.task_type, episode.outcome, frozenset(identifiers(text)))
        buckets[key].append((episode, set(words(text))))
    groups: list[list[Episode]] = []
    for members in buckets.values():
        members.sort(key=lambda pair: _best_first(pair[0]))
        taken = [False] * len(members)
        for i, (keeper, keeper_words) in enumerate(members):
            if taken[i]:
                continue
            group = [keeper]
            for j in range(i + 1, len(members)):
                if not taken[j] and _similarity(keeper_words, members[j][1]) >= min_similarity:
                    taken[j] = True
                    group.append(members[j][0])
            if len(group) > 1:
                groups.append(group)
    return groups


def _flag_reason(procedure, policy: DecayPolicy, now: datetime) -> str | None:
    if not needs_review(procedure, min_uses=policy.procedure_min_uses,
                        min_success_rate=policy.procedure_min_success_rate,
                        stale_days=policy.procedure_stale_days, now=now):
        return None
    rate = procedure.success_rate
    if procedure.applications >= policy.procedure_min_uses and rate is not None \
            and rate < policy.procedure_min_success_rate:
        return (f"failing: {procedure.successes}/{procedure.applications} successful uses "
                f"(below {policy.procedure_min_success_rate:.0%})")
    return f"stale: not updated for {(now - procedure.updated_at).days} days"


def _redated(episode: Episode, now: datetime) -> Episode | None:
    """`episode` as written at `now` if its run's clock ran ahead of `now`, else None."""
    if episode.created_at <= now + FUTURE_SLACK:
        return None
    return episode.model_copy(update={"created_at": now, "expires_at": now + (episode.expires_at - episode.created_at)})


def plan_namespace(memory: MemoryBackend, ns: Namespace, policy: DecayPolicy, now: datetime) -> NamespaceDecay:
    """What decay would do to `ns` at `now`; reads only."""
    now = checked(now, "decay's clock")
    plan = NamespaceDecay(namespace=ns.key, dry_run=True)
    failed_cutoff = now - timedelta(days=policy.failed_episode_days)
    episodes = memory.episodes.list(ns, limit=ALL_EPISODES)
    last_seq = max((e.run_seq for e in episodes), default=0)
    survivors: list[Episode] = []
    for episode in episodes:
        if (moved := _redated(episode, now)) is not None:
            plan.redated.append(Redated(run_id=episode.run_id, was=episode.created_at, now=now,
                                        expires_at=moved.expires_at))
            episode = moved
        if episode.expires_at <= now:
            rule = plan.expired_deleted
        elif episode.outcome == Outcome.FAILED and episode.created_at < failed_cutoff:
            rule = plan.failed_deleted
        elif episode.undistilled and episode.created_at < failed_cutoff:
            rule = plan.empty_deleted
        elif not (last_seq and episode.run_seq == last_seq):
            survivors.append(episode)
            continue
        else:
            continue  # the last run's episode is never merged away either
        if last_seq and episode.run_seq == last_seq:
            plan.kept_last_run = episode.run_id  # a rule would delete it: its clock may have lied
        else:
            rule.append(episode.run_id)
    for group in near_duplicate_groups(survivors, policy.merge_min_similarity):
        plan.merges.append(EpisodeMerge(kept=group[0].run_id, merged=[e.run_id for e in group[1:]]))
    for procedure in memory.procedures.list(ns, status=ProcedureStatus.VALIDATED):
        reason = _flag_reason(procedure, policy, now)
        if reason:
            plan.procedures_flagged.append(
                FlaggedProcedure(procedure_id=procedure.procedure_id, title=procedure.title, reason=reason)
            )
    telemetry = getattr(memory, "telemetry", None)
    if telemetry is not None:
        plan.telemetry_pruned = telemetry.count_before(ns, now - timedelta(days=policy.telemetry_days))
    return plan


def apply_plan(memory: MemoryBackend, ns: Namespace, plan: NamespaceDecay, policy: DecayPolicy,
               now: datetime) -> NamespaceDecay:
    """Carry out a plan. Safe to interrupt and re-run: a merge records the merged runs on the
    kept episode before deleting them, so a re-run finds at worst the same merge again."""
    retime = getattr(memory.episodes, "retime", None)
    for moved in plan.redated:
        if retime is not None:
            retime(ns, moved.run_id, moved.now, moved.expires_at)
    memory.episodes.delete(ns, [*plan.expired_deleted, *plan.failed_deleted, *plan.empty_deleted])
    for merge in plan.merges:
        memory.episodes.record_merge(ns, merge.kept, merge.merged)
        memory.episodes.delete(ns, merge.merged)
    for flagged in plan.procedures_flagged:
        memory.procedures.set_status(ns, flagged.procedure_id, ProcedureStatus.NEEDS_REVIEW)
    telemetry = getattr(memory, "telemetry", None)
    pruned = telemetry.prune(ns, now - timedelta(days=policy.telemetry_days)) if telemetry is not None else 0
    return plan.model_copy(update={"dry_run": False, "telemetry_pruned": pruned})


def decay_namespace(
    memory: MemoryBackend, ns: Namespace, policy: DecayPolicy, now: datetime, *, dry_run: bool = False
) -> NamespaceDecay:
    """Apply (or with `dry_run`, only plan) the decay rules for one namespace."""
    plan = plan_namespace(memory, ns, policy, now)
    if dry_run:
        return plan
    done = apply_plan(memory, ns, plan, policy, now)
    log.info("decay %s: %s", ns.key, done.counts())
    return done


def decay_all(
    memory: MemoryBackend, namespaces: Iterable[Namespace], policy: DecayPolicy, now: datetime, *,
    dry_run: bool = False,
) -> list[NamespaceDecay]:
    return [decay_namespace(memory, ns, policy, now, dry_run=dry_run) for ns in namespaces]


def totals(reports: Iterable[NamespaceDecay]) -> dict[str, int]:
    """Summed counts over namespaces (what the Lambda returns)."""
    summed: dict[str, int] = {"namespaces": 0}
    for report in reports:
        summed["namespaces"] += 1
        for key, value in report.counts().items():
            summed[key] = summed.get(key, 0) + value
    return summed
