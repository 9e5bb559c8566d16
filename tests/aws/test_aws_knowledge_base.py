"""Semantic tier on AWS: S3 documents + sidecars, batched ingestion, retrieve merged with the fast path.

moto has no Bedrock Knowledge Base data sources, ingestion jobs or `retrieve`, so those calls go
to botocore Stubbers that check each request exactly.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from botocore.stub import ANY

from memory.errors import MemoryBackendError
from memory.records import Fact, Namespace
from memory.stores import VectorQuery

NS = Namespace(tenant="acme", agent="reviewer")
MODEL = "test-model"
KB_ID, DS_ID = "KB12345678", "DS12345678"
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def fact(fact_id: str, text: str = "suppliers cap liability at twice the fees", domain: str = "supply") -> Fact:
    return Fact(fact_id=fact_id, domain=domain, text=text, confidence=0.8, source_runs=["r1", "r2", "r3"],
                created_at=NOW, updated_at=NOW, embedding_model=MODEL)


def query(text: str = "liability cap", *, k: int = 3, domain: str | None = "supply", model: str = MODEL,
          min_score: float = 0.6) -> VectorQuery:
    return VectorQuery(text=text, vector=[1.0, 0.0, 0.0], embedding_model=model, k=k, min_score=min_score,
                       now=NOW, domain=domain)


def start_job(stubs, job_id: str = "JOB1") -> None:
    stubs.agent.add_response(
        "start_ingestion_job",
        {"ingestionJob": {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID, "ingestionJobId": job_id,
                          "status": "STARTING", "startedAt": NOW, "updatedAt": NOW}},
        {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID, "clientToken": ANY, "description": ANY},
    )


def job_status(stubs, status: str, job_id: str = "JOB1") -> None:
    stubs.agent.add_response(
        "get_ingestion_job",
        {"ingestionJob": {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID, "ingestionJobId": job_id,
                          "status": status, "startedAt": NOW, "updatedAt": NOW}},
        {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID, "ingestionJobId": job_id},
    )


def retrieve(stubs, results: list[dict], *, text: str = "liability cap", k: int = 3,
             domain: str | None = "supply") -> None:
    tenant = {"equals": {"key": "tenant", "value": NS.tenant}}
    expected_filter = tenant if domain is None else {
        "andAll": [tenant, {"equals": {"key": "domain", "value": domain}}]
    }
    stubs.runtime.add_response(
        "retrieve",
        {"retrievalResults": results},
        {"knowledgeBaseId": KB_ID, "retrievalQuery": {"text": text},
         "retrievalConfiguration": {"vectorSearchConfiguration": {"numberOfResults": 2 * k + 5,
                                                                  "filter": expected_filter}}},
    )


def hit(fact_id: str, score: float, *, tenant: str = NS.tenant, domain: str = "supply") -> dict:
    return {"content": {"text": "..."}, "score": score,
            "location": {"type": "S3", "s3Location": {"uri": f"s3://bucket/facts/{tenant}/{fact_id}.txt"}},
            "metadata": {"tenant": tenant, "domain": domain, "fact_id": fact_id}}


def test_a_fact_is_written_to_s3_with_the_sidecar_the_knowledge_base_filters_on(kb, aws):
    memory, stubs = kb
    memory.facts.put(NS, fact("liability/cap 1"), [1.0, 0.0, 0.0])
    bucket = memory.config.bucket
    keys = sorted(o["Key"] for o in aws["s3"].list_objects_v2(Bucket=bucket)["Contents"])
    # the id is quoted: it can add no path segment and never leaves the tenant's prefix
    assert keys == ["facts/acme/liability%2Fcap%201.txt", "facts/acme/liability%2Fcap%201.txt.metadata.json"]
    body = aws["s3"].get_object(Bucket=bucket, Key=keys[0])["Body"].read().decode()
    assert body == "suppliers cap liability at twice the fees"
    sidecar = json.loads(aws["s3"].get_object(Bucket=bucket, Key=keys[1])["Body"].read())
    assert sidecar == {"metadataAttributes": {"tenant": "acme", "domain": "supply", "fact_id": "liability/cap 1",
                                              "confidence": 0.8, "embedding_model": MODEL}}
    stubs.assert_all_used()  # one fact started no ingestion job


def test_ingestion_is_batched_one_job_per_batch_not_per_fact(kb):
    memory, stubs = kb
    memory.facts.put(NS, fact("f1"), [1.0, 0.0, 0.0])
    memory.facts.put(NS, fact("f2"), [1.0, 0.0, 0.0])
    start_job(stubs)
    memory.facts.put(NS, fact("f3"), [1.0, 0.0, 0.0])  # the third fact fills the batch of 3
    stubs.assert_all_used()
    job_status(stubs, "IN_PROGRESS")
    assert memory.flush() == []  # nothing new waits, and our job still runs
    stubs.assert_all_used()


def test_a_running_job_defers_the_batch_instead_of_failing_the_write(kb):
    memory, stubs = kb
    memory.facts.put(NS, fact("f1"), [1.0, 0.0, 0.0])
    stubs.agent.add_client_error("start_ingestion_job", service_error_code="ConflictException",
                                 service_message="another ingestion job is running", http_status_code=409)
    assert memory.flush() == []  # deferred, not raised
    assert memory.facts.get(NS, "f1") is not None
    start_job(stubs, "JOB2")
    assert memory.flush() == ["JOB2"]  # the deferred change goes with the next flush
    stubs.assert_all_used()


def test_other_ingestion_errors_are_reported(kb):
    memory, stubs = kb
    memory.facts.put(NS, fact("f1"), [1.0, 0.0, 0.0])
    stubs.agent.add_client_error("start_ingestion_job", service_error_code="AccessDeniedException",
                                 service_message="not allowed", http_status_code=403)
    with pytest.raises(MemoryBackendError, match="AccessDeniedException"):
        memory.facts.flush(NS)


def test_search_merges_the_fast_path_with_knowledge_base_results(kb):
    memory, stubs = kb
    start_job(stubs)  # the 3rd put starts one job covering all three
    for fact_id in ("ingested", "fresh", "deleted"):
        memory.facts.put(NS, fact(fact_id), [1.0, 0.0, 0.0] if fact_id == "fresh" else [0.0, 1.0, 0.0])
    stubs.assert_all_used()
    job_status(stubs, "COMPLETE")
    assert memory.facts.settle(NS) == "COMPLETE"
    memory.facts.put(NS, fact("fresh"), [1.0, 0.0, 0.0])  # rewritten after the job: still pending
    memory.facts.delete(NS, ["deleted"])  # gone from the table, not yet from the index
    retrieve(stubs, [
        hit("ingested", 0.82),
        hit("deleted", 0.9),  # deleted since the last sync: dropped
        hit("weak", 0.4),  # below min_score: dropped
        hit("theirs", 0.95, tenant="globex"),  # another tenant's: never returned, whatever the filter did
    ])
    results = memory.facts.search(NS, query())
    stubs.assert_all_used()
    assert [(s.item.fact_id, round(s.score, 2)) for s in results] == [("fresh", 1.0), ("ingested", 0.82)]
    assert results[1].item.text == "suppliers cap liability at twice the fees"


def test_a_completed_job_takes_facts_off_the_fast_path(kb):
    memory, stubs = kb
    memory.facts.put(NS, fact("f1"), [1.0, 0.0, 0.0])
    start_job(stubs)
    memory.flush()
    job_status(stubs, "COMPLETE")
    memory.facts.settle(NS)
    retrieve(stubs, [], domain=None)  # the index has not got it (yet): the fast path no longer answers
    assert memory.facts.search(NS, query(domain=None)) == []
    assert memory.facts.get(NS, "f1") is not None
    stubs.assert_all_used()


def test_a_failed_job_leaves_the_facts_pending_and_retries(kb):
    memory, stubs = kb
    memory.facts.put(NS, fact("f1"), [1.0, 0.0, 0.0])
    start_job(stubs)
    memory.flush()
    job_status(stubs, "FAILED")
    start_job(stubs, "JOB2")
    assert memory.flush() == ["JOB2"]
    retrieve(stubs, [])
    assert [s.item.fact_id for s in memory.facts.search(NS, query())] == ["f1"]  # still on the fast path
    stubs.assert_all_used()


def test_queries_from_another_embedding_model_never_use_knowledge_base_scores(kb):
    memory, stubs = kb
    other = fact("other-model").model_copy(update={"embedding_model": "other"})
    memory.facts.put(NS, other, [1.0, 0.0, 0.0])
    # no retrieve is stubbed: calling it would fail the test
    results = memory.facts.search(NS, query(model="other"))
    assert [s.item.fact_id for s in results] == ["other-model"]
    stubs.assert_all_used()
