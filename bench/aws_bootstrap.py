"""What one bootstrap costs on AWS as the history grows: requests and bytes read, counted per call.

`contract-review bench aws`. The AWS backend runs on moto in process (DynamoDB, S3 Vectors
buckets, indexes and vectors); QueryVectors, which moto lacks, is answered in process by
`bench.s3vectors_fake` over moto's stored vectors. So latencies here are moto's and the fake's,
never AWS's, and are not reported; what is measured is what the backend asks for and what comes
back: requests per operation and bytes of the response bodies, counted with botocore event hooks
(`after-call`) on the backend's own clients.

The history grows 1k -> 10k -> 100k episodes of one tenant and agent (plus 1,000 facts, read by
the semantic tier). Episodes are the bootstrap benchmark's generated ones (`bench.memory_data`),
embedded by WordLlama and projected to 32 dimensions (a fixed random projection, which keeps
cosine order well enough for counting; moto keeps each vector as a Python list, so 100k x 256
would take gigabytes). They are bulk-loaded: the store's own item (`DynamoEpisodeStore.item`) in
BatchWriteItem calls of 25 and the store's own vector entries (`vector_entry`) in PutVectors calls
of 500: the rows and vectors `add` writes, minus two round trips per episode. A bootstrap is the
three tier reads of graphs/memory_steps.py: episodic recall (k=3), semantic recall (k=5) and the
procedure lookup. The same is measured without a vector bucket (the partition read of before) up
to 10k episodes, for comparison.
"""

from __future__ import annotations

import random
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from bench.bootstrap import QUERY_FORMS
from bench.memory_data import episode_spec

FULL_SIZES = (1_000, 10_000, 100_000)
PARTITION_MAX = 10_000  # the partition read is measured up to here (it reads everything: slow in moto)
DIM = 32
FACTS = 1_000
REGION = "us-east-1"
MODEL = "wordllama-projected-32"
TENANT, AGENT = "acme", "contract-reviewer"


class CallCounter:
    """Requests per operation and response bytes of some botocore clients (event hooks)."""

    def __init__(self, clients: dict[str, Any]) -> None:
        self.calls: Counter[str] = Counter()
        self.bytes: Counter[str] = Counter()
        self.capacity = 0.0
        for client in clients.values():
            client.meta.events.register("after-call", self._after_call)

    def _after_call(self, http_response: Any = None, parsed: Any = None, model: Any = None, **_: Any) -> None:
        name = f"{model.service_model.service_name}:{model.name}" if model is not None else "?"
        self.calls[name] += 1
        self.bytes[name] += len(getattr(http_response, "content", b"") or b"")
        for used in (parsed or {}).get("ConsumedCapacity", []) if isinstance(parsed, dict) else []:
            self.capacity += float(used.get("CapacityUnits", 0.0))

    def reset(self) -> None:
        self.calls.clear()
        self.bytes.clear()
        self.capacity = 0.0


def _projection(dim_in: int) -> np.ndarray:
    return np.random.default_rng(18).standard_normal((dim_in, DIM)).astype(np.float32) / np.sqrt(DIM)


def _project(vectors: np.ndarray, projection: np.ndarray) -> np.ndarray:
    out = vectors @ projection
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


class Fixture:
    """One moto backend (tables, vector bucket or not) and the clients it is counted on."""

    def __init__(self, *, vectors: bool) -> None:
        import boto3
        from botocore.config import Config

        from bench.s3vectors_fake import install
        from memory.backends.aws import open_aws_memory

        creds = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": REGION}
        config = Config(retries={"max_attempts": 2, "mode": "standard"})
        self.clients = {service: boto3.client(service, config=config, **creds)
                        for service in ("dynamodb", "s3", "s3vectors", "bedrock-agent", "bedrock-agent-runtime")}
        install(self.clients["s3vectors"])
        suffix = uuid.uuid4().hex[:8]
        url = f"aws://?region={REGION}&table_prefix=bench{suffix}&create_tables=true"
        if vectors:
            self.clients["s3vectors"].create_vector_bucket(vectorBucketName=f"bench-{suffix}")
            url += f"&vector_bucket=bench-{suffix}"
        self.memory = open_aws_memory(url, clients=self.clients)
        self.counter = CallCounter(self.clients)
        self.stored = 0


def load_episodes(fixture: Fixture, start: int, stop: int, embeddings: Any, projection: np.ndarray,
                  now: datetime) -> None:
    """Episodes start..stop-1, bulk-loaded through the store's own item and vector entry."""
    from memory.backends.aws.codec import serialize
    from memory.backends.aws.vectors import EPISODES
    from memory.records import Episode, Namespace, Outcome

    ns = Namespace(tenant=TENANT, agent=AGENT)
    store = fixture.memory.episodes
    table = store._table
    step = 2_000
    for lo in range(start, stop, step):
        specs = [episode_spec(i, 0) for i in range(lo, min(stop, lo + step))]
        texts = ["\n".join([s.summary(), *s.findings]) for s in specs]
        vectors = _project(np.asarray(embeddings.embed_documents(texts), dtype=np.float32), projection)
        episodes = [Episode(run_id=f"bench-{s.index:07d}", task_type="supplier_contract_review",
                            task_summary=s.summary(), outcome=Outcome.COMPLETED, key_findings=s.findings,
                            created_at=now - timedelta(minutes=s.index), expires_at=now + timedelta(days=60),
                            embedding_model=MODEL) for s in specs]
        for i in range(0, len(episodes), 25):
            request = {table: [{"PutRequest": {"Item": serialize(store.item(ns, ep, vec.tolist()))}}
                               for ep, vec in zip(episodes[i:i + 25], vectors[i:i + 25], strict=True)]}
            while request:
                request = fixture.clients["dynamodb"].batch_write_item(RequestItems=request).get("UnprocessedItems")
        if fixture.memory.vectors is not None:
            fixture.memory.vectors.put(EPISODES, TENANT, MODEL, [store.vector_entry(ns, ep, vec.tolist())
                                                                 for ep, vec in zip(episodes, vectors, strict=True)])
    fixture.stored = stop


def load_facts(fixture: Fixture, embeddings: Any, projection: np.ndarray, now: datetime, count: int) -> None:
    from memory.records import Fact, Namespace

    ns = Namespace(tenant=TENANT, agent=AGENT)
    texts = [f"{episode_spec(i, 7).party} usually puts the {episode_spec(i, 7).findings[0]}" for i in range(count)]
    vectors = _project(np.asarray(embeddings.embed_documents(texts), dtype=np.float32), projection)
    for i, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
        fixture.memory.facts.put(ns, Fact(fact_id=f"fact-{i:05d}", domain="supplier_contracts", text=text,
                                          confidence=0.8, source_runs=["a", "b", "c"], created_at=now,
                                          updated_at=now, embedding_model=MODEL), vector.tolist())


def bootstraps(fixture: Fixture, embeddings: Any, projection: np.ndarray, n_queries: int,
               now: datetime) -> dict[str, Any]:
    """Requests and bytes of `n_queries` bootstraps (episodic, semantic and procedural reads)."""
    from memory import episodic, procedural, semantic
    from memory.records import Namespace

    class Projected:  # the benchmark's embeddings: WordLlama, projected like the stored vectors
        def embed_query(self, text: str) -> list[float]:
            vector = np.asarray([embeddings.embed_query(text)], dtype=np.float32)
            return _project(vector, projection)[0].tolist()

        model = MODEL

    projected = Projected()
    ns = Namespace(tenant=TENANT, agent=AGENT)
    rng = random.Random(3)
    fixture.counter.reset()
    found = 0
    for n in range(n_queries):
        spec = episode_spec(rng.randrange(fixture.stored), 0)
        text = QUERY_FORMS[n % len(QUERY_FORMS)].format(kind=spec.kind, party=spec.party, ref=spec.ref)
        hits = episodic.recall(fixture.memory.episodes, projected, ns, text, k=3, min_score=0.25, now=now)
        semantic.recall(fixture.memory.facts, projected, ns, text, domain="supplier_contracts", k=5,
                        min_score=0.3, now=now)
        procedural.best(fixture.memory.procedures, ns, "supplier_contract_review")
        found += f"bench-{spec.index:07d}" in [h.item.run_id for h in hits]
    per = {op: round(count / n_queries, 2) for op, count in sorted(fixture.counter.calls.items())}
    size = {op: round(count / n_queries) for op, count in sorted(fixture.counter.bytes.items())}
    return {"requests_per_bootstrap": per, "requests_total": round(sum(per.values()), 2),
            "bytes_per_bootstrap": size, "bytes_total": sum(size.values()),
            "named_episode_found_at_3": round(found / n_queries, 3)}


def run(*, sizes: tuple[int, ...] = FULL_SIZES, n_queries: int = 20, partition_max: int = PARTITION_MAX,
        facts: int = FACTS, log: Callable[[str], None] = print) -> dict[str, Any]:
    from moto import mock_aws

    from memory.embeddings import load_embeddings

    embeddings = load_embeddings("wordllama")
    projection = _projection(len(embeddings.embed_query("probe")))
    now = datetime.now(UTC)
    results: list[dict[str, Any]] = []
    with mock_aws():
        for vectors in (True, False):
            fixture = Fixture(vectors=vectors)
            load_facts(fixture, embeddings, projection, now, facts)
            setup = "S3 Vectors top-k" if vectors else "partition read (no vector bucket)"
            for size in sizes:
                if not vectors and size > partition_max:
                    break
                tick = time.perf_counter()
                load_episodes(fixture, fixture.stored, size, embeddings, projection, now)
                log(f"aws bootstrap ({setup}): {size:,} episodes loaded in {time.perf_counter() - tick:.0f} s")
                figures = bootstraps(fixture, embeddings, projection, n_queries if vectors else min(n_queries, 3), now)
                results.append({"setup": setup, "episodes": size, **figures})
                log(f"  {figures['requests_total']} requests, {figures['bytes_total']:,} bytes per bootstrap")
            fixture.memory.close()
    flat = [r for r in results if r["setup"] == "S3 Vectors top-k"]
    growth = (flat[-1]["bytes_total"] / flat[0]["bytes_total"]) if flat and flat[0]["bytes_total"] else None
    return {"sizes": results, "facts": facts, "queries": n_queries, "dimensions": DIM,
            "query_vectors": "in process (bench.s3vectors_fake over moto's stored vectors)",
            "bytes_growth_largest_vs_smallest": round(growth, 2) if growth else None,
            "requests_flat": len({r["requests_total"] for r in flat}) <= 1 or
            max(r["requests_total"] for r in flat) <= 1.25 * min(r["requests_total"] for r in flat)}
