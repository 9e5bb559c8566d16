"""The episodic tier: remember a finished run as an episode, recall similar past runs.

The embedded text is the task summary plus the key findings (design rule); recall embeds the
current task and searches the namespace's whole unexpired history (see `memory.retrieval` for
the hybrid threshold rule). Callers scrub PII before `remember`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from langchain_core.embeddings import Embeddings

from memory.embeddings import model_name_of
from memory.errors import MemoryConfigError
from memory.records import Episode, Namespace, RunArtifacts, Scored
from memory.stores import EpisodeStore, VectorQuery


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
) -> list[Scored[Episode]]:
    """Up to `k` past episodes similar to `task_text`, most similar first. `vector_alone`: the
    cosine that passes without lexical evidence (`memory.embeddings.calibrated_vector_alone`)."""
    if k <= 0 or not task_text.strip():
        return []
    query = VectorQuery(
        text=task_text,
        vector=embeddings.embed_query(task_text),
        embedding_model=model_name_of(embeddings),
        k=k,
        min_score=min_score,
        now=now,
        vector_alone=vector_alone,
    )
    return store.search(ns, query)


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
) -> Episode | None:
    """Store the run as an episode expiring after `ttl_days`; None if `run_id` is already stored
    (so a resumed or retried consolidation never writes twice)."""
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
        created_at=now,
        expires_at=now + timedelta(days=ttl_days),
        embedding_model=model_name_of(embeddings),
    )
    if store.get(ns, run_id) is not None:
        return None  # skip the embedding call; add() below is still idempotent on a race
    vector = embeddings.embed_documents([episode.embedding_text()])[0]
    return episode if store.add(ns, episode, vector) else None
