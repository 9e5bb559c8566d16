"""Benchmark 3: retrieval quality of the episodic search, vectors vs BM25 vs hybrid.

Seeds one SQLite memory with the 32 labelled episodes of `retrieval_set` plus generated distractor
episodes (other parties, same vocabulary), then runs the 128 labelled queries through
`EpisodeStore.search` in each `VectorQuery.mode` at the calibrated episode threshold, with the
offline WordLlama embeddings. Reports recall@3 and MRR overall and per query kind.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.memory_data import episode_spec
from bench.retrieval_set import EPISODES, QUERIES
from memory.records import Episode, Namespace, Outcome

MODES = ("vector", "lexical", "hybrid")
KINDS = ("paraphrase", "clause", "party", "amount")
RECALL_TARGET = 0.9
NS = Namespace(tenant="bench", agent="reviewer")


def _seed(memory, embeddings, distractors: int, now: datetime) -> None:
    from memory.embeddings import model_name_of

    model = model_name_of(embeddings)
    episodes = [Episode(run_id=run_id, task_type="supplier_contract_review", task_summary=summary,
                        key_findings=findings, outcome=Outcome.COMPLETED, created_at=now - timedelta(days=i + 1),
                        expires_at=now + timedelta(days=60), embedding_model=model)
                for i, (run_id, (summary, findings)) in enumerate(EPISODES.items())]
    for i in range(distractors):
        spec = episode_spec(i, 42)
        episodes.append(Episode(run_id=f"distractor-{i}", task_type="supplier_contract_review",
                                task_summary=spec.summary(), key_findings=spec.findings, outcome=Outcome.COMPLETED,
                                created_at=now - timedelta(hours=i + 1), expires_at=now + timedelta(days=60),
                                embedding_model=model))
    vectors = embeddings.embed_documents([e.embedding_text() for e in episodes])
    for episode, vector in zip(episodes, vectors, strict=True):
        memory.episodes.add(NS, episode, vector)


def _summary(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {"recall_at_3": round(sum(r is not None for r in ranks) / n, 3),
            "mrr": round(sum(1 / r for r in ranks if r is not None) / n, 3), "queries": len(ranks)}


def run(*, distractors: int = 300, queries: list[tuple[str, str, str]] | None = None) -> dict[str, Any]:
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import calibrated_thresholds, load_embeddings, model_name_of
    from memory.stores import VectorQuery

    labelled = queries if queries is not None else QUERIES
    embeddings = load_embeddings("wordllama")
    model = model_name_of(embeddings)
    episode_min, _ = calibrated_thresholds(model)
    now = datetime.now(UTC)
    results: dict[str, Any] = {}
    misses: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as folder:
        with SqliteMemory(Path(folder) / "memory.sqlite") as memory:
            _seed(memory, embeddings, distractors, now)
            vectors = embeddings.embed_documents([q for q, _, _ in labelled])
            for mode in MODES:
                ranks: dict[str, list[int | None]] = {kind: [] for kind in KINDS}
                misses[mode] = []
                for (text, expected, kind), vector in zip(labelled, vectors, strict=True):
                    hits = memory.episodes.search(NS, VectorQuery(
                        text=text, vector=vector, embedding_model=model, k=3, min_score=episode_min, now=now, mode=mode))
                    ids = [h.item.run_id for h in hits]
                    rank = ids.index(expected) + 1 if expected in ids else None
                    ranks[kind].append(rank)
                    if rank is None:
                        misses[mode].append(text)
                every = [r for values in ranks.values() for r in values]
                results[mode] = {**_summary(every), "by_kind": {k: _summary(v) for k, v in ranks.items() if v}}
    hybrid = results["hybrid"]["recall_at_3"]
    return {
        "episodes": len(EPISODES), "distractors": distractors, "queries": len(labelled),
        "embedding_model": model, "min_score": episode_min, "modes": results,
        "hybrid_misses": misses["hybrid"],
        "target": {"hybrid_recall_at_3_min": RECALL_TARGET, "met": hybrid >= RECALL_TARGET},
    }
