"""Hybrid retrieval finds more of the right past episodes than vectors or BM25 alone.

Runs the labelled set of tests/memory/retrieval_set.py through the SQLite episode store with the
offline WordLlama embeddings at the calibrated episode threshold, in each retrieval mode, and
prints recall@3 and MRR overall and per query kind (pytest -s shows them).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.embeddings import calibrated_thresholds
from memory.records import Episode, Namespace, Outcome
from memory.stores import VectorQuery
from tests.memory.retrieval_set import EPISODES, QUERIES

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
KINDS = ("paraphrase", "clause", "party", "amount")


@pytest.fixture(scope="module")
def scores(tmp_path_factory, wordllama):
    from memory.backends.sqlite import SqliteMemory

    memory = SqliteMemory(tmp_path_factory.mktemp("eval") / "memory.sqlite")
    for i, (run_id, (summary, findings)) in enumerate(EPISODES.items()):
        episode = Episode(run_id=run_id, task_type="review", task_summary=summary, key_findings=findings,
                          outcome=Outcome.COMPLETED, created_at=NOW - timedelta(days=i + 1),
                          expires_at=NOW + timedelta(days=60), embedding_model=wordllama.model_name)
        memory.episodes.add(NS, episode, wordllama.embed_query(episode.embedding_text()))
    episode_min, _ = calibrated_thresholds(wordllama.model_name)
    results: dict[str, dict[str, list[float]]] = {}
    for mode in ("hybrid", "vector", "lexical"):
        per_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for text, expected, kind in QUERIES:
            query = VectorQuery(text=text, vector=wordllama.embed_query(text), embedding_model=wordllama.model_name,
                                k=3, min_score=episode_min, now=NOW, mode=mode)
            ranked = [hit.item.run_id for hit in memory.episodes.search(NS, query)]
            per_kind[kind].append(1.0 / (ranked.index(expected) + 1) if expected in ranked else 0.0)
        results[mode] = per_kind
    memory.close()
    for mode, per_kind in results.items():
        every = [rr for values in per_kind.values() for rr in values]
        detail = "  ".join(f"{kind} {_recall(v):.2f}/{_mrr(v):.2f}" for kind, v in per_kind.items())
        print(f"\n{mode:8} recall@3 {_recall(every):.2f}  MRR {_mrr(every):.2f}  | per kind recall/MRR: {detail}")
    return results


def _recall(rr: list[float]) -> float:
    return sum(1 for r in rr if r > 0) / len(rr)


def _mrr(rr: list[float]) -> float:
    return sum(rr) / len(rr)


def _all(results: dict[str, list[float]]) -> list[float]:
    return [rr for values in results.values() for rr in values]


def test_the_set_is_large_enough():
    assert len(QUERIES) >= 40 and {kind for *_, kind in QUERIES} == set(KINDS)
    assert all(expected in EPISODES for _, expected, _ in QUERIES)


def test_hybrid_beats_vectors_only_and_bm25_only(scores):
    hybrid, vector, lexical = (_all(scores[mode]) for mode in ("hybrid", "vector", "lexical"))
    assert _recall(hybrid) >= max(_recall(vector), _recall(lexical))
    assert _mrr(hybrid) >= max(_mrr(vector), _mrr(lexical))
    assert _recall(hybrid) > _recall(vector)  # identifiers are what vectors miss


def test_hybrid_finds_identifiers_and_keeps_paraphrases(scores):
    assert _recall(scores["hybrid"]["paraphrase"]) >= _recall(scores["vector"]["paraphrase"])
    for kind in ("clause", "party", "amount"):
        assert _recall(scores["hybrid"][kind]) >= 0.9, kind
