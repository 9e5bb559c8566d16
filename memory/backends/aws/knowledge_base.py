"""The semantic tier's Knowledge Base side: fact documents in S3, batched ingestion, retrieval.

Facts are tenant-wide (shared by the tenant's agents). Each is an S3 object
`<prefix>/<tenant>/<fact id>.txt` plus the sidecar `<that key>.metadata.json` that the Knowledge
Base reads for filtering: `{"metadataAttributes": {"tenant", "domain", "fact_id", "confidence",
"embedding_model"}}`. Retrieval always filters on the tenant (and the domain when asked), and
every result is checked again against the tenant before use.

Ingestion is batched: puts and deletes only count; a job starts each time a full batch of
`ingest_batch` changes is waiting, and on `flush()` (the backend flushes on close). Only one job may run per data source: a
`ConflictException` defers the batch to the next flush rather than failing the write.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any
from urllib.parse import quote

from memory.backends.aws.codec import aws_errors, error_code
from memory.backends.aws.config import AwsConfig
from memory.records import Fact, Namespace

log = logging.getLogger(__name__)

SIDECAR_SUFFIX = ".metadata.json"
METADATA_KEYS = ("tenant", "domain", "fact_id", "confidence", "embedding_model")


def document_key(config: AwsConfig, ns: Namespace, fact_id: str) -> str:
    # quote(): a fact id can never add a path segment or leave the namespace's prefix
    return f"{config.facts_prefix}/{ns.tenant}/{quote(fact_id, safe='')}.txt"


def sidecar(ns: Namespace, fact: Fact) -> dict[str, Any]:
    return {
        "metadataAttributes": {
            "tenant": ns.tenant,
            "domain": fact.domain,
            "fact_id": fact.fact_id,
            "confidence": fact.confidence,
            "embedding_model": fact.embedding_model,
        }
    }


def retrieval_filter(ns: Namespace, domain: str | None) -> dict[str, Any]:
    tenant = {"equals": {"key": "tenant", "value": ns.tenant}}
    if domain is None:
        return tenant
    return {"andAll": [tenant, {"equals": {"key": "domain", "value": domain}}]}  # andAll needs >= 2


class KnowledgeBaseIndex:
    """S3 documents + Bedrock Knowledge Base ingestion and `retrieve` for one data source."""

    def __init__(self, config: AwsConfig, s3: Any, agent: Any | None, runtime: Any | None) -> None:
        self._config = config
        self._s3 = s3
        self._agent = agent  # bedrock-agent: ingestion jobs
        self._runtime = runtime  # bedrock-agent-runtime: retrieve

    @property
    def searchable(self) -> bool:
        return self._config.uses_knowledge_base

    def write(self, ns: Namespace, fact: Fact) -> None:
        key = document_key(self._config, ns, fact.fact_id)
        with aws_errors(f"write fact document s3://{self._config.bucket}/{key}"):
            self._s3.put_object(
                Bucket=self._config.bucket,
                Key=key,
                Body=fact.text.encode(),
                ContentType="text/plain; charset=utf-8",
            )
            self._s3.put_object(
                Bucket=self._config.bucket,
                Key=key + SIDECAR_SUFFIX,
                Body=json.dumps(sidecar(ns, fact)).encode(),
                ContentType="application/json",
            )

    def remove(self, ns: Namespace, fact_ids: list[str]) -> None:
        keys = []
        for fact_id in fact_ids:
            key = document_key(self._config, ns, fact_id)
            keys += [{"Key": key}, {"Key": key + SIDECAR_SUFFIX}]
        for start in range(0, len(keys), 1000):  # DeleteObjects takes 1,000 keys at most
            with aws_errors("delete fact documents"):
                self._s3.delete_objects(
                    Bucket=self._config.bucket, Delete={"Objects": keys[start : start + 1000], "Quiet": True}
                )

    def start_ingestion(self, description: str) -> str | None:
        """Start one ingestion job; None when another job is running (the caller retries later)."""
        from botocore.exceptions import ClientError

        with aws_errors("start a Knowledge Base ingestion job"):
            try:
                answer = self._agent.start_ingestion_job(
                    knowledgeBaseId=self._config.kb_id,
                    dataSourceId=self._config.data_source_id,
                    clientToken=str(uuid.uuid4()),
                    description=description[:200],
                )
            except ClientError as exc:
                if error_code(exc) == "ConflictException":
                    log.info("ingestion job already running for %s; batch deferred", self._config.kb_id)
                    return None
                raise
        return answer["ingestionJob"]["ingestionJobId"]

    def job_status(self, job_id: str) -> str:
        with aws_errors(f"read ingestion job {job_id}"):
            answer = self._agent.get_ingestion_job(
                knowledgeBaseId=self._config.kb_id,
                dataSourceId=self._config.data_source_id,
                ingestionJobId=job_id,
            )
        return answer["ingestionJob"]["status"]

    def retrieve(self, ns: Namespace, text: str, k: int, min_score: float, domain: str | None) -> dict[str, float]:
        """fact_id -> score of the tenant's facts the Knowledge Base finds for `text`."""
        with aws_errors("retrieve facts from the Knowledge Base"):
            answer = self._runtime.retrieve(
                knowledgeBaseId=self._config.kb_id,
                retrievalQuery={"text": text},
                retrievalConfiguration={
                    "vectorSearchConfiguration": {
                        # extra room for results dropped below (deleted facts not yet re-synced)
                        "numberOfResults": min(100, 2 * k + 5),
                        "filter": retrieval_filter(ns, domain),
                    }
                },
            )
        found: dict[str, float] = {}
        for result in answer.get("retrievalResults", []):
            meta = result.get("metadata") or {}
            score = float(result.get("score") or 0.0)
            if meta.get("tenant") != ns.tenant:
                continue  # never trust a filter alone with another tenant's data
            if domain is not None and meta.get("domain") != domain:
                continue
            fact_id = meta.get("fact_id")
            if fact_id and score >= min_score:
                found[str(fact_id)] = max(score, found.get(str(fact_id), score))
        return found
