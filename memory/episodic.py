"""The episodic tier: remember a finished run as an episode, recall similar past runs.

The embedded text is the task summary plus the key findings (design rule); recall embeds the
current task and searches the namespace's whole unexpired history (see `memory.retrieval` for
the hybrid threshold rule). Callers scrub PII before `remember`.

Recall is outcome-aware: similarity alone would let an episode that teaches nothing (no key
findings: its extraction failed and its summary repeats a task prompt, which embeds close to
every later task) crowd out useful ones. So the store is asked for more candidates than `k`,
undistilled episodes (`Episode.undistilled`) are dropped (and more are asked for while they leave
fewer than `k`), and the rest are ordered by `Episode.usefulness` (a described
completed or partial run before a failed, unknown or self-recorded one), then, within a level,
episodes of the same counterparty as the current task first (`same_party`: the same organisation
however its name is cased or punctuated; the same supplier usually means the same template), the
store's ranking deciding within each group. The similarity threshold still decides what is
admitted: the counterparty only orders what passed it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from langchain_core.embeddings import Embeddings

from memory.clock import FUTURE_SLACK, checked
from memory.embeddings import model_name_of
from memory.errors import MemoryConfigError
from memory.records import Episode, Namespace, RunArtifacts, Scored
from memory.stores import EpisodeStore, VectorQuery

OVERFETCH = 3  # candidates asked for per episode returned, so outcome ranking has room to work
MAX_FETCH = 300  # the most candidates one recall asks for while undistilled episodes crowd the top


def party_key(name: str) -> str:
    """An organisation's name compared loosely: case, punctuation and spacing aside."""
    return " ".join(re.findall(r"[^\W_]+", name.casefold()))


def same_party(a: str, b: str) -> bool:
    return bool(party_key(a)) and party_key(a) == party_key(b)


def rank_by_use(found: list[Scored[Episode]], k: int, counterparty: str = "") -> list[Scored[Episode]]:
    """The `k` best of a store's results: undistilled episodes dropped, useful ones first, then
    those of `counterparty` (stable: the store's ranking decides within each group)."""
    kept = [scored for scored in found if not scored.item.undistilled]
    kept.sort(key=lambda scored: (-scored.item.usefulness, not same_party(scored.item.counterparty, counterparty)))
    return kept[:k]


def recall(
    store: EpisodeStore,
    embeddings: Embeddings,
    ns: Namespace,
    task_text: str,
    *,
    k: int,
    min_score: float,
    now: datetime,
    vector_alone: float | None = None,
    counterparty: str = "",
) -> list[Scored[Episode]]:
    """Up to `k` useful past episodes similar to `task_text`, best first (see module doc).
    `vector_alone`: the cosine that passes without lexical evidence
    (`memory.embeddings.calibrated_vector_alone`); `counterparty`: the current task's, whose
    episodes come first within a usefulness level."""
    if k <= 0 or not task_text.strip():
        return []
    query = VectorQuery(
        text=task_text,
        vector=embeddings.embed_query(task_text),
        embedding_model=model_name_of(embeddings),
        k=k * OVERFETCH,
        min_score=min_score,
        now=now,
        vector_alone=vector_alone,
    )
    while True:  # ask for more only while undistilled episodes leave fewer than k usable ones
        found = store.search(ns, query)
        kept = rank_by_use(found, k, counterparty)
        if len(kept) >= k or len(found) < query.k or query.k >= MAX_FETCH:
            return kept
        query = query.model_copy(update={"k": min(query.k * 4, MAX_FETCH)})


def after_newest(store: EpisodeStore, ns: Namespace, episode: Episode) -> Episode:
    """`episode`, dated no earlier than the newest episode already stored (memory.clock): a run
    whose clock runs behind would otherwise be written already expired. Its time to live is kept."""
    newest = store.list(ns, limit=1)
    if not newest or newest[0].created_at <= episode.created_at + FUTURE_SLACK:
        return episode
    shift = newest[0].created_at - episode.created_at
    return episode.model_copy(update={"created_at": episode.created_at + shift,
                                      "expires_at": episode.expires_at + shift})


def remember(
    store: EpisodeStore,
    embeddings: Embeddings,
    ns: Namespace,
    run_id: str,
    task_type: str,
    artifacts: RunArtifacts,
    *,
    ttl_days: int,
    now: datetime,
    counterparty: str = "",
) -> Episode | None:
    """Store the run as an episode expiring after `ttl_days`; None if `run_id` is already stored
    (so a resumed or retried consolidation never writes twice). `now` must be a sane clock
    (`memory.clock.checked`); an episode it dates before the newest stored one is dated as that
    one (`after_newest`: the returned episode says when it was dated). `counterparty`: the deal's other
    side, already checked by the caller to be an organisation's name free of PII."""
    now = checked(now, "the run's clock")
    if ttl_days <= 0:
        raise MemoryConfigError(f"episode TTL must be a positive number of days, got {ttl_days}")
    if not run_id:
        raise MemoryConfigError("an episode needs the run id it came from")
    episode = Episode(
        run_id=run_id,
        task_type=task_type,
        task_summary=artifacts.task_summary,
        outcome=artifacts.outcome,
        key_findings=list(artifacts.key_findings),
        approach=artifacts.approach,
        tools_used=list(artifacts.tools_used),
        step_count=artifacts.step_count,
        reusable_patterns=list(artifacts.reusable_patterns),
        extraction=artifacts.extraction,
        created_at=now,
        expires_at=now + timedelta(days=ttl_days),
        embedding_model=model_name_of(embeddings),
        counterparty=counterparty,
    )
    if store.get(ns, run_id) is not None:
        return None  # skip the embedding call; add() below is still idempotent on a race
    episode = after_newest(store, ns, episode)
    vector = embeddings.embed_documents([episode.embedding_text()])[0]
    return episode if store.add(ns, episode, vector) else None
