"""Semantic tier on AWS: a DynamoDB fact table (record of truth and fast path) + the Knowledge Base.

Facts are tenant-wide (every agent of a tenant shares its domain knowledge), as in the SQLite
backend. Layout: `pk` = "<tenant>", `sk` = "FACT#<fact_id>"; the item holds the fact, its
float32 vector and model name. With a Knowledge Base configured, a put also writes the S3
document + sidecar and marks the item `pending_since` (sparse LSI `pending_ingestion`): search
= Knowledge Base `retrieve` (filtered on tenant and domain; min score) merged with a
strongly consistent Query of the still-pending items, so a confirmed fact is visible at once
and the table is never scanned. Hits are re-read from the table, which drops facts deleted
since the last sync. Without a Knowledge Base the whole partition is searched in numpy.

The control item "INGEST#STATE" of each tenant counts unsynced writes and remembers the
last ingestion job; `flush()` starts a job (batched), `settle()` clears the pending marks of
facts a completed job has covered.

With a vector bucket (`vector_bucket=`), every fact is also a vector in the tenant's S3 Vectors
fact index, and a search the Knowledge Base cannot answer (none configured, or a query of another
embedding model) queries that index and reads back only its hits, instead of the partition.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import (
    aws_errors,
    batch_get,
    deserialize,
    pack_vector,
    query_all,
    serialize,
    timestamp,
    to_plain_values,
    unpack_vector,
)
from memory.backends.aws.config import AwsConfig
from memory.backends.aws.hybrid import rank_hits, rank_rows
from memory.backends.aws.knowledge_base import KnowledgeBaseIndex
from memory.backends.aws.vectors import FACTS, S3VectorIndex, all_of, fact_metadata
from memory.records import Fact, Namespace, Scored, utcnow
from memory.retrieval import identifiers
from memory.stores import VectorQuery

log = logging.getLogger(__name__)

_FACT = "FACT#"
_CONTROL = "INGEST#STATE"
_FIELDS = set(Fact.model_fields)


class DynamoFactStore:
    """`memory.stores.FactStore` over a DynamoDB table, S3 and (optionally) a Knowledge Base."""

    def __init__(self, dynamodb: Any, table: str, config: AwsConfig, index: KnowledgeBaseIndex | None,
                 vectors: S3VectorIndex | None = None) -> None:
        self._db = dynamodb
        self._table = table
        self._config = config
        self._index = index  # None: no bucket, facts live only in the table
        self._vectors = vectors  # None: a search the Knowledge Base cannot answer reads the partition
        self.touched: dict[str, Namespace] = {}  # tenant -> a namespace whose writes await a flush

    @property
    def _kb(self) -> bool:
        return self._index is not None and self._index.searchable

    def _key(self, ns: Namespace, sk: str) -> dict[str, Any]:
        return serialize({schema.PK: schema.tenant_partition(ns), schema.SK: sk})

    @staticmethod
    def _fact(item: dict[str, Any]) -> Fact:
        values = deserialize(item)
        return Fact.model_validate({k: v for k, v in values.items() if k in _FIELDS})

    # ------------------------------------------------------------------ writes

    def put(self, ns: Namespace, fact: Fact, vector: Sequence[float]) -> None:
        values = to_plain_values(fact.model_dump(mode="json"))
        values.update(
            {schema.PK: schema.tenant_partition(ns), schema.SK: _FACT + fact.fact_id, "vector": pack_vector(vector)}
        )
        if self._index is not None:
            self._index.write(ns, fact)  # document first: the table never points at nothing
        if self._kb:
            # stamped after the document exists: a job started later is sure to have seen it
            values[schema.PENDING_SINCE] = timestamp(utcnow())
        with aws_errors(f"store fact {fact.fact_id!r}"):
            old = self._db.put_item(TableName=self._table, Item=serialize(values), ReturnValues="ALL_OLD").get(
                "Attributes")
        if self._vectors is not None:
            self._vectors.put(FACTS, ns.tenant, fact.embedding_model, [self.vector_entry(fact, vector)])
            if old and old["embedding_model"]["S"] != fact.embedding_model:  # replaced under another model
                self._vectors.delete(FACTS, ns.tenant, old["embedding_model"]["S"], [fact.fact_id])
        if self._kb:
            self.touched.setdefault(ns.tenant, ns)
            if self._count_unsynced(ns, 1) % self._config.ingest_batch == 0:  # a full batch waits
                self.flush(ns)

    @staticmethod
    def vector_entry(fact: Fact, vector: Sequence[float]) -> tuple[str, Any, dict]:
        metadata = fact_metadata(domain=fact.domain, updated=int(fact.updated_at.timestamp()),
                                 idents=identifiers(fact.text), text=fact.text)
        return fact.fact_id, unpack_vector(pack_vector(vector)), metadata

    def delete(self, ns: Namespace, fact_ids: Sequence[str]) -> int:
        deleted: list[str] = []
        with aws_errors("delete facts"):
            for fact_id in dict.fromkeys(fact_ids):
                old = self._db.delete_item(
                    TableName=self._table, Key=self._key(ns, _FACT + fact_id), ReturnValues="ALL_OLD"
                ).get("Attributes")
                if old:
                    deleted.append(fact_id)
                    if self._vectors is not None:
                        self._vectors.delete(FACTS, ns.tenant, old["embedding_model"]["S"], [fact_id])
        if deleted and self._index is not None:
            self._index.remove(ns, deleted)
            if self._kb:  # the Knowledge Base forgets them at the next sync
                self.touched.setdefault(ns.tenant, ns)
                self._count_unsynced(ns, len(deleted))
        return len(deleted)

    # ------------------------------------------------------------------ ingestion

    def _control(self, ns: Namespace) -> dict[str, Any]:
        item = self._db.get_item(
            TableName=self._table, Key=self._key(ns, _CONTROL), ConsistentRead=True
        ).get("Item")
        return deserialize(item) if item else {}

    def _count_unsynced(self, ns: Namespace, n: int) -> int:
        with aws_errors("count facts waiting for ingestion"):
            answer = self._db.update_item(
                TableName=self._table,
                Key=self._key(ns, _CONTROL),
                UpdateExpression="ADD unsynced :n",
                ExpressionAttributeValues=serialize({":n": n}),
                ReturnValues="UPDATED_NEW",
            )
        return int(deserialize(answer["Attributes"])["unsynced"])

    def flush(self, ns: Namespace) -> str | None:
        """Start one ingestion job for the waiting writes; None if nothing waits or a job runs."""
        if not self._kb:
            return None
        self.settle(ns)
        with aws_errors("read the ingestion state"):
            control = self._control(ns)
        waiting = int(control.get("unsynced", 0))
        if waiting <= 0 or control.get("job_id"):
            return None  # nothing to do, or our last job still runs: it is retried on settle
        started = timestamp(utcnow())  # before the call: whatever is pending by now, the job sees
        job_id = self._index.start_ingestion(f"contract-agent: {waiting} change(s) for tenant {ns.tenant}")
        if job_id is None:
            return None  # deferred: another job is running on the data source
        with aws_errors("record the ingestion job"):
            self._db.update_item(
                TableName=self._table,
                Key=self._key(ns, _CONTROL),
                UpdateExpression="SET job_id = :job, job_started = :started ADD unsynced :minus",
                ExpressionAttributeValues=serialize({":job": job_id, ":started": started, ":minus": -waiting}),
            )
        return job_id

    def settle(self, ns: Namespace) -> str | None:
        """Check the namespace's last ingestion job; when complete, its facts leave the fast
        path. Returns the job status seen (None without a job)."""
        if not self._kb:
            return None
        with aws_errors("read the ingestion state"):
            control = self._control(ns)
        job_id = control.get("job_id")
        if not job_id:
            return None
        status = self._index.job_status(job_id)
        if status in ("STARTING", "IN_PROGRESS", "STOPPING"):
            return status
        with aws_errors("settle the ingestion job"):
            if status == "COMPLETE":
                started = control["job_started"]
                for item in self._pending(ns):
                    since = deserialize(item)[schema.PENDING_SINCE]
                    if since <= started:  # written before the job scanned the bucket
                        self._db.update_item(
                            TableName=self._table,
                            Key={schema.PK: item[schema.PK], schema.SK: item[schema.SK]},
                            UpdateExpression="REMOVE #since",
                            ConditionExpression="#since = :since",
                            ExpressionAttributeNames={"#since": schema.PENDING_SINCE},
                            ExpressionAttributeValues=serialize({":since": since}),
                        )
                update, values = "REMOVE job_id, job_started", None
            else:  # FAILED or STOPPED: its changes wait for the next flush
                update, values = "REMOVE job_id, job_started ADD unsynced :one", serialize({":one": 1})
                log.warning("ingestion job %s ended %s; will retry on the next flush", job_id, status)
            request: dict[str, Any] = {"TableName": self._table, "Key": self._key(ns, _CONTROL),
                                       "UpdateExpression": update}
            if values:
                request["ExpressionAttributeValues"] = values
            self._db.update_item(**request)
        return status

    # ------------------------------------------------------------------ reads

    def get(self, ns: Namespace, fact_id: str) -> Fact | None:
        with aws_errors(f"read fact {fact_id!r}"):
            item = self._db.get_item(
                TableName=self._table, Key=self._key(ns, _FACT + fact_id), ConsistentRead=True
            ).get("Item")
        return self._fact(item) if item else None

    def _all(self, ns: Namespace) -> list[dict[str, Any]]:
        return list(
            query_all(
                self._db,
                TableName=self._table,
                ConsistentRead=True,
                KeyConditionExpression="#pk = :pk AND begins_with(#sk, :fact)",
                ExpressionAttributeNames={"#pk": schema.PK, "#sk": schema.SK},
                ExpressionAttributeValues=serialize({":pk": schema.tenant_partition(ns), ":fact": _FACT}),
            )
        )

    def _pending(self, ns: Namespace) -> list[dict[str, Any]]:
        return list(
            query_all(
                self._db,
                TableName=self._table,
                IndexName=schema.FACTS_PENDING,
                ConsistentRead=True,
                KeyConditionExpression="#pk = :pk",
                ExpressionAttributeNames={"#pk": schema.PK},
                ExpressionAttributeValues=serialize({":pk": schema.tenant_partition(ns)}),
            )
        )

    def list(self, ns: Namespace, *, domain: str | None = None, limit: int = 50) -> list[Fact]:
        with aws_errors("list facts"):
            facts = [self._fact(item) for item in self._all(ns)]
        facts = [f for f in facts if domain is None or f.domain == domain]
        facts.sort(key=lambda f: (f.updated_at, f.fact_id), reverse=True)
        return facts[:limit]

    def _rank_local(self, items: list[dict[str, Any]], query: VectorQuery) -> dict[str, tuple[Fact, float]]:
        rows = []
        for item in items:
            fact = self._fact(item)
            if fact.embedding_model != query.embedding_model:
                continue  # vectors of different models are never compared
            if query.domain is not None and fact.domain != query.domain:
                continue
            rows.append((fact, unpack_vector(item["vector"]["B"])))
        if not rows:
            return {}
        hits = rank_rows(
            query,
            [vector for _, vector in rows],
            [fact.text for fact, _ in rows],
            preferred=[False] * len(rows),
            recency=[fact.updated_at.timestamp() for fact, _ in rows],
        )
        return {rows[i][0].fact_id: (rows[i][0], cosine) for i, cosine in hits}

    def _kb_usable(self, query: VectorQuery) -> bool:
        model = self._config.kb_embedding_model
        return self._kb and (model is None or model == query.embedding_model)

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]:
        if not self._kb_usable(query) and self._vectors is not None:
            return self._search_index(ns, query)
        with aws_errors("search facts"):
            if not self._kb_usable(query):
                found = self._rank_local(self._all(ns), query)
            else:
                found = self._rank_local(self._pending(ns), query)
                kb_scores = self._index.retrieve(ns, query.text, query.k, query.min_score, query.domain)
                for fact_id, fact in self._read_many(ns, [i for i in kb_scores if i not in found]).items():
                    found[fact_id] = (fact, kb_scores[fact_id])
        ranked = sorted(found.values(), key=lambda fs: (-fs[1], -fs[0].confidence, fs[0].fact_id))
        return [Scored[Fact](item=fact, score=score) for fact, score in ranked[: query.k]]

    def _search_index(self, ns: Namespace, query: VectorQuery) -> list[Scored[Fact]]:
        """The tenant's S3 Vectors fact index: nearest facts (of the domain), plus the nearest
        sharing an identifier with the query; only the k hits are read back from the table."""
        assert self._vectors is not None
        if query.k <= 0:
            return []
        vector = unpack_vector(pack_vector(query.vector))
        domain = {"domain": {"$eq": query.domain}} if query.domain is not None else {}
        pool = max(50, 10 * query.k)
        found = {hit["key"]: hit for hit in self._vectors.query(
            FACTS, ns.tenant, query.embedding_model, vector, pool, all_of(domain))}
        query_idents = identifiers(query.text, query=True)
        if query_idents and query.mode != "vector":
            for hit in self._vectors.query(FACTS, ns.tenant, query.embedding_model, vector, pool,
                                           all_of(domain, {"idents": {"$in": sorted(query_idents)}})):
                found.setdefault(hit["key"], hit)
        hits, ranked = rank_hits(query, found, recency="updated", query_idents=query_idents)
        with aws_errors("read the facts found"):
            records = self._read_many(ns, [hits[i]["key"] for i, _ in ranked])
        return [Scored[Fact](item=records[hits[i]["key"]], score=cosine) for i, cosine in ranked
                if hits[i]["key"] in records and records[hits[i]["key"]].embedding_model == query.embedding_model]

    def _read_many(self, ns: Namespace, fact_ids: list[str]) -> dict[str, Fact]:
        facts: dict[str, Fact] = {}
        for item in batch_get(self._db, self._table, [self._key(ns, _FACT + i) for i in fact_ids], consistent=True):
            fact = self._fact(item)
            facts[fact.fact_id] = fact
        return facts
