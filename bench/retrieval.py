"""Benchmark 3: retrieval quality of the episodic search, vectors vs BM25 vs hybrid.

Seeds one SQLite memory with the 32 labelled episodes of `retrieval_set` plus generated distractor
episodes (other parties, same vocabulary), then runs every query of `retrieval_queries` (the 128
hand-written answerable ones, one generated answerable query per episode and kind, and 96
generated queries with no right answer) through `EpisodeStore.search` in each `VectorQuery.mode`
at the calibrated episode threshold, with the offline WordLlama embeddings. Per half (tuning,
held back) and retriever: recall@3 and MRR of the answerable queries, and the share of no-answer
queries that were served any memory (all of it irrelevant by construction).
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.memory_data import episode_spec
from bench.retrieval_queries import DISTRACTOR_TENANT, KINDS, Query, all_queries, split
from bench.retrieval_set import EPISODES
from memory.records import Episode, Namespace, Outcome

MODES = ("vector", "lexical", "hybrid")
RECALL_TARGET = 0.95  # hybrid recall@3 on the held-back half (and no lower than either retriever alone)
IRRELEVANT_TARGET = 0.05  # share of held-back no-answer queries served any memory
NS = Namespace(tenant="bench", agent="reviewer")


def _seed(memory, embeddings, distractors: int, now: datetime) -> None:
    from memory.embeddings import model_name_of

    model = model_name_of(embeddings)
    episodes = [Episode(run_id=run_id, task_type="supplier_contract_review", task_summary=summary,
                        key_findings=findings, outcome=Outcome.COMPLETED, created_at=now - timedelta(days=i + 1),
                        expires_at=now + timedelta(days=60), embedding_model=model)
                for i, (run_id, (summary, findings)) in enumerate(EPISODES.items())]
    for i in range(distractors):
        spec = episode_spec(i, DISTRACTOR_TENANT)
        episodes.append(Episode(run_id=f"distractor-{i}", task_type="supplier_contract_review",
                                task_summary=spec.summary(), key_findings=spec.findings, outcome=Outcome.COMPLETED,
                                created_at=now - timedelta(hours=i + 1), expires_at=now + timedelta(days=60),
                                embedding_model=model))
    vectors = embeddings.embed_documents([e.embedding_text() for e in episodes])
    for episode, vector in zip(episodes, vectors, strict=True):
        memory.episodes.add(NS, episode, vector)


def _summary(queries: list[Query], served: dict[str, list[str]]) -> dict[str, Any]:
    """recall@3 and MRR over the answerable queries; the share of no-answer queries served anything."""
    answerable = [q for q in queries if q.answerable]
    ranks = [served[q.text].index(q.expected) + 1 if q.expected in served[q.text] else None for q in answerable]
    empty = [q for q in queries if not q.answerable]
    n = len(ranks) or 1
    return {
        "recall_at_3": round(sum(r is not None for r in ranks) / n, 3),
        "mrr": round(sum(1 / r for r in ranks if r is not None) / n, 3),
        "answerable": len(ranks),
        "no_answer": len(empty),
        "irrelevant_served": round(sum(bool(served[q.text]) for q in empty) / (len(empty) or 1), 3),
        "irrelevant_per_query": round(sum(len(served[q.text]) for q in empty) / (len(empty) or 1), 2),
    }


def run(*, distractors: int = 300, queries: list[Query] | None = None) -> dict[str, Any]:
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import (
        calibrated_thresholds,
        calibrated_vector_alone,
        load_embeddings,
        model_name_of,
    )
    from memory.stores import VectorQuery

    labelled = queries if queries is not None else all_queries()
    tuning, held_back = split(labelled)
    embeddings = load_embeddings("wordllama")
    model = model_name_of(embeddings)
    episode_min, _ = calibrated_thresholds(model)
    vector_alone = calibrated_vector_alone(model)
    now = datetime.now(UTC)
    served: dict[str, dict[str, list[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as folder:
        with SqliteMemory(Path(folder) / "memory.sqlite") as memory:
            _seed(memory, embeddings, distractors, now)
            vectors = embeddings.embed_documents([q.text for q in labelled])
            for mode in MODES:
                served[mode] = {}
                for query, vector in zip(labelled, vectors, strict=True):
                    hits = memory.episodes.search(NS, VectorQuery(
                        text=query.text, vector=vector, embedding_model=model, k=3, min_score=episode_min, now=now,
                        mode=mode, vector_alone=vector_alone))
                    served[mode][query.text] = [h.item.run_id for h in hits]
    halves = {"tuning": tuning, "held_back": held_back}
    results = {half: {mode: {**_summary(part, served[mode]),
                             "by_kind": {kind: _summary([q for q in part if q.kind == kind], served[mode])
                                         for kind in KINDS}}
                      for mode in MODES}
               for half, part in halves.items()}
    held = results["held_back"]
    best_single = max(held["vector"]["recall_at_3"], held["lexical"]["recall_at_3"])
    misses = [q.text for q in held_back if q.answerable and q.expected not in served["hybrid"][q.text]]
    wrongly_served = {q.text: served["hybrid"][q.text] for q in held_back if not q.answerable and served["hybrid"][q.text]}
    return {
        "episodes": len(EPISODES), "distractors": distractors, "queries": len(labelled),
        "no_answer_share": round(sum(not q.answerable for q in labelled) / len(labelled), 3),
        "embedding_model": model, "min_score": episode_min, "vector_alone": vector_alone, "halves": results,
        "held_back_hybrid_misses": misses, "held_back_no_answer_served": wrongly_served,
        "target": {
            "hybrid_recall_at_3_min": RECALL_TARGET, "irrelevant_served_max": IRRELEVANT_TARGET,
            "recall_met": held["hybrid"]["recall_at_3"] >= max(RECALL_TARGET, best_single),
            "irrelevant_met": held["hybrid"]["irrelevant_served"] <= IRRELEVANT_TARGET,
        },
    }
