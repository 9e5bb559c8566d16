"""Episodic and semantic top-k on S3 Vectors, DynamoDB as the record (memory/backends/aws/vectors.py).

moto implements S3 Vectors buckets, indexes and Put/Get/List/DeleteVectors but not QueryVectors:
tests named `..._moto_fake_queryvectors` answer QueryVectors with `bench.s3vectors_fake` over
moto's stored vectors; tests named `..._stubber` check the exact QueryVectors request with a
botocore Stubber. DynamoDB is moto throughout.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import numpy as np
from botocore.stub import ANY, Stubber

from memory.backends.aws.vectors import EPISODES, index_name
from memory.records import Episode, Fact, Namespace, Outcome
from memory.stores import VectorQuery
from tests.aws.moto_support import open_backend

NS = Namespace(tenant="acme", agent="reviewer")
NOW = datetime(2026, 6, 1, tzinfo=UTC)
MODEL = "test-model"


def unit(seed: int, dim: int = 8) -> list[float]:
    v = np.random.default_rng(seed).normal(size=dim)
    return (v / np.linalg.norm(v)).tolist()


def episode(run_id: str, summary: str = "review a supply agreement", *, days_old: int = 1) -> Episode:
    created = NOW - timedelta(days=days_old)
    return Episode(run_id=run_id, task_type="review", task_summary=summary, outcome=Outcome.COMPLETED,
                   created_at=created, expires_at=created + timedelta(days=90), embedding_model=MODEL)


def query(vector: list[float], text: str = "zzz", *, k: int = 3, model: str = MODEL) -> VectorQuery:
    return VectorQuery(text=text, vector=vector, embedding_model=model, k=k, min_score=-1.0, now=NOW)


class Calls:
    """Every AWS call the clients make while in the `with` block, counted with botocore event hooks."""

    def __init__(self, clients: dict) -> None:
        self.seen: Counter[str] = Counter()
        self.keys_read: list[int] = []
        self._clients = list(clients.values())

    def _count(self, model, params, **_):
        self.seen[model.name] += 1
        if model.name == "BatchGetItem":
            self.keys_read.append(sum(len(table["Keys"]) for table in params["RequestItems"].values()))

    def __enter__(self) -> Calls:
        for client in self._clients:
            client.meta.events.register("before-parameter-build", self._count)
        return self

    def __exit__(self, *exc) -> None:
        for client in self._clients:
            client.meta.events.unregister("before-parameter-build", self._count)


def test_episode_search_queries_s3_vectors_and_reads_back_only_the_hits_moto_fake_queryvectors(aws):
    memory = open_backend(aws)
    for i in range(40):
        memory.episodes.add(NS, episode(f"r{i}", f"review number {i}"), unit(i))
    with Calls(aws) as calls:
        found = memory.episodes.search(NS, query(unit(7)))
    assert found[0].item.run_id == "r7" and abs(found[0].score - 1.0) < 1e-4
    assert calls.seen["Query"] == 0 and calls.seen["Scan"] == 0  # the partition is never read
    assert calls.seen["QueryVectors"] >= 1
    assert calls.keys_read == [3]  # one BatchGetItem of the k hits


def test_an_identifier_finds_a_far_episode_through_a_filtered_query_moto_fake_queryvectors(aws):
    memory = open_backend(aws)
    for i in range(120):
        memory.episodes.add(NS, episode(f"r{i}"), unit(i))
    memory.episodes.add(NS, episode("named", "review the Globex order PO-4471"), unit(999))
    found = [s.item.run_id for s in memory.episodes.search(NS, query(unit(5), "what did we do on PO-4471?"))]
    assert found[0] == "named"  # not among the 50 nearest: found by its identifier


def test_query_filters_agent_and_expiry_before_the_search_stubber(aws):
    memory = open_backend(aws)
    memory.episodes.add(NS, episode("r1"), unit(1))
    stub = Stubber(aws["s3vectors"])
    name = index_name(memory.config.table_prefix, EPISODES, NS.tenant, MODEL)
    stub.add_response("query_vectors", {
        "vectors": [{"key": "reviewer/r1", "distance": 0.25,
                     "metadata": {"text": "review a supply agreement", "completed": True, "created": 1}}],
        "distanceMetric": "cosine"}, {
        "vectorBucketName": memory.config.vector_bucket, "indexName": name, "topK": 50,
        "queryVector": {"float32": ANY}, "returnMetadata": True, "returnDistance": True,
        "filter": {"$and": [{"agent": {"$eq": "reviewer"}}, {"expires": {"$gt": int(NOW.timestamp())}}]}})
    with stub:
        found = memory.episodes.search(NS, query(unit(1)))
        stub.assert_no_pending_responses()
    assert [(s.item.run_id, round(s.score, 2)) for s in found] == [("r1", 0.75)]  # cosine = 1 - distance


def test_each_tenant_and_model_has_its_own_index_moto_fake_queryvectors(aws):
    memory = open_backend(aws)
    other = Namespace(tenant="globex", agent="reviewer")
    memory.episodes.add(NS, episode("mine"), unit(1))
    memory.episodes.add(other, episode("theirs"), unit(1))
    names = {i["indexName"] for i in aws["s3vectors"].list_indexes(vectorBucketName=memory.config.vector_bucket)[
        "indexes"]}
    assert names == {index_name(memory.config.table_prefix, EPISODES, t, MODEL) for t in ("acme", "globex")}
    assert [s.item.run_id for s in memory.episodes.search(other, query(unit(1)))] == ["theirs"]


def test_forgetting_a_tenant_deletes_its_vector_indexes_moto_fake_queryvectors(aws):
    from memory.forget import forget_tenant

    memory = open_backend(aws)
    other = Namespace(tenant="globex", agent="reviewer")
    memory.episodes.add(NS, episode("mine"), unit(1))
    memory.episodes.add(other, episode("theirs"), unit(2))
    memory.facts.put(NS, Fact(fact_id="f1", domain="supply", text="caps are low", confidence=0.8,
                              source_runs=["a", "b", "c"], created_at=NOW, updated_at=NOW, embedding_model=MODEL),
                     unit(3))
    counts = forget_tenant(memory, "acme")
    assert counts["vector_indexes"] == 2  # the tenant's episode and fact indexes
    names = {i["indexName"] for i in aws["s3vectors"].list_indexes(vectorBucketName=memory.config.vector_bucket)[
        "indexes"]}
    assert names == {index_name(memory.config.table_prefix, EPISODES, "globex", MODEL)}
    assert memory.episodes.search(NS, query(unit(1))) == []


def test_a_reembedding_switch_moves_vectors_to_the_new_models_index_moto_fake_queryvectors(aws):
    memory = open_backend(aws)
    for i in range(5):
        memory.episodes.add(NS, episode(f"r{i}"), unit(i))
    pending = list(memory.reembedding.pending("acme", "model-b"))
    memory.reembedding.stage("acme", "model-b", [(p, unit(100 + n)) for n, p in enumerate(pending)])
    assert memory.reembedding.switch("acme", "model-b").switched == 5
    assert memory.episodes.search(NS, query(unit(1))) == []  # the old model's index is gone
    found = memory.episodes.search(NS, query(unit(100), model="model-b", k=5))
    assert len(found) == 5 and found[0].score > 0.999


def test_facts_without_a_knowledge_base_search_the_vector_index_moto_fake_queryvectors(aws):
    memory = open_backend(aws)
    for i in range(30):
        memory.facts.put(NS, Fact(fact_id=f"f{i}", domain="supply" if i % 2 else "saas", text=f"fact {i}",
                                  confidence=0.8, source_runs=["a", "b", "c"], created_at=NOW, updated_at=NOW,
                                  embedding_model=MODEL), unit(i))
    with Calls(aws) as calls:
        found = memory.facts.search(NS, query(unit(3)).model_copy(update={"domain": "supply", "k": 2}))
    assert found[0].item.fact_id == "f3" and {s.item.domain for s in found} == {"supply"}
    assert calls.seen["Query"] == 0 and calls.keys_read == [2]
