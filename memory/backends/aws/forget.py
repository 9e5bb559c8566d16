"""Erasure on AWS: every item and document of a tenant, or what given runs added to the gate.

A tenant's items are the partitions `"<tenant>"` (facts, confirmations) and `"<tenant>/<agent>"`
(episodes, procedures) of every table in `schema.TABLES`. DynamoDB cannot Query by a partition
key prefix, so `forget_tenant` Scans each table once with a filter on the key (billed as one full
read of the table: fine for an erasure request, never done per review) and deletes what matches
in batches of 25. Ids cannot contain '/', so the filter `begins_with(pk, "<tenant>/")` never
reaches tenant `"<tenant>x"`. The tenant's fact documents and sidecars under
`<facts_prefix>/<tenant>/` are deleted from S3, and with a Knowledge Base an ingestion job is
started so its vector index drops them too (until it completes, retrieval already ignores them:
Knowledge Base hits are re-read from the table, where they no longer exist).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import aws_errors, deserialize, error_code, serialize
from memory.records import Namespace

_APPLIED = "APPLIED#"

# (table, sort key prefix) -> name in the returned counts
_KINDS = {
    (schema.FACTS, "FACT#"): "facts",
    (schema.FACTS, ""): "fact_ingestion_state",
    (schema.PROCEDURES, "PROC#"): "procedures",
    (schema.PROCEDURES, ""): "procedure_applications",
    (schema.EPISODES, ""): "episodes",
    (schema.CONFIRMATIONS, ""): "confirmations",
}


def _kind(table: str, sk: str) -> str:
    for (name, prefix), kind in _KINDS.items():
        if name == table and prefix and sk.startswith(prefix):
            return kind
    return _KINDS.get((table, ""), table)


def tenant_items(memory: Any, tenant: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(logical table, raw item) of every item keyed by `tenant`, in every table."""
    db = memory.clients["dynamodb"]
    for table in schema.TABLES:
        request: dict[str, Any] = {
            "TableName": schema.table_name(memory.config.table_prefix, table),
            "FilterExpression": "#pk = :tenant OR begins_with(#pk, :agents)",
            "ExpressionAttributeNames": {"#pk": schema.PK},
            "ExpressionAttributeValues": serialize({":tenant": tenant, ":agents": f"{tenant}/"}),
            "ConsistentRead": True,
        }
        while True:
            page = db.scan(**request)
            for item in page.get("Items", []):
                yield table, item
            if not page.get("LastEvaluatedKey"):
                break
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _delete_keys(db: Any, table_name: str, keys: list[dict[str, Any]]) -> None:
    for start in range(0, len(keys), 25):  # BatchWriteItem takes 25 requests at most
        pending = {table_name: [{"DeleteRequest": {"Key": key}} for key in keys[start:start + 25]]}
        while pending:
            answer = db.batch_write_item(RequestItems=pending)
            pending = answer.get("UnprocessedItems") or {}


def _document_prefix(memory: Any, tenant: str) -> str:
    return f"{memory.config.facts_prefix}/{tenant}/"


def _delete_documents(memory: Any, tenant: str) -> int:
    s3, bucket = memory.clients["s3"], memory.config.bucket
    keys: list[str] = []
    request: dict[str, Any] = {"Bucket": bucket, "Prefix": _document_prefix(memory, tenant)}
    while True:
        page = s3.list_objects_v2(**request)
        keys += [entry["Key"] for entry in page.get("Contents", [])]
        if not page.get("IsTruncated"):
            break
        request["ContinuationToken"] = page["NextContinuationToken"]
    for start in range(0, len(keys), 1000):
        s3.delete_objects(
            Bucket=bucket, Delete={"Objects": [{"Key": k} for k in keys[start:start + 1000]], "Quiet": True}
        )
    return sum(not key.endswith(".metadata.json") for key in keys)


def forget_tenant(memory: Any, tenant: str) -> dict[str, int]:
    """Delete all of `tenant` from the tables and the bucket; counts per tier (and side tables)."""
    counts: dict[str, int] = {"episodes": 0, "facts": 0, "procedures": 0, "confirmations": 0}
    db = memory.clients["dynamodb"]
    with aws_errors(f"erase tenant {tenant!r}"):
        keys: dict[str, list[dict[str, Any]]] = {}
        for table, item in list(tenant_items(memory, tenant)):
            kind = _kind(table, item[schema.SK]["S"])
            counts[kind] = counts.get(kind, 0) + 1
            keys.setdefault(table, []).append({schema.PK: item[schema.PK], schema.SK: item[schema.SK]})
        for table, table_keys in keys.items():
            _delete_keys(db, schema.table_name(memory.config.table_prefix, table), table_keys)
        if memory.config.bucket:
            counts["fact_documents"] = _delete_documents(memory, tenant)
    if getattr(memory, "vectors", None) is not None:
        counts["vector_indexes"] = memory.vectors.drop_tenant(tenant)
    index = getattr(memory.facts, "_index", None)
    memory.facts.touched.pop(tenant, None)
    if index is not None and index.searchable and counts.get("fact_documents"):
        job = index.start_ingestion(f"contract-agent: erase tenant {tenant}")
        counts["knowledge_base_sync_started"] = int(job is not None)
    return counts


def tenant_run_ids(memory: Any, tenant: str) -> set[str]:
    """Every run id the tenant's memory mentions (episodes, observations, sources, uses)."""
    runs: set[str] = set()
    with aws_errors(f"list the runs of tenant {tenant!r}"):
        for table, item in tenant_items(memory, tenant):
            values = deserialize(item)
            if table == schema.EPISODES:
                runs.add(values[schema.SK])
            runs.update(values.get("runs", set()))
            runs.update(values.get("source_runs", []))
            if table == schema.PROCEDURES and values[schema.SK].startswith(_APPLIED):
                runs.add(json.loads(values[schema.SK][len(_APPLIED):])[-1])  # APPLIED#["<proc>", "<run>"]
    return runs


def forget_observations(memory: Any, ns: Namespace, run_ids: Sequence[str]) -> int:
    """Remove `run_ids` from every confirmation entry of the tenant; returns observations removed."""
    from botocore.exceptions import ClientError

    gone = set(run_ids)
    if not gone:
        return 0
    db = memory.clients["dynamodb"]
    table = schema.table_name(memory.config.table_prefix, schema.CONFIRMATIONS)
    removed = 0
    with aws_errors("remove fact observations"):
        request: dict[str, Any] = {
            "TableName": table,
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {"#pk": schema.PK},
            "ExpressionAttributeValues": serialize({":pk": schema.tenant_partition(ns)}),
            "ConsistentRead": True,
        }
        while True:
            page = db.query(**request)
            for item in page.get("Items", []):
                hit = deserialize(item).get("runs", set()) & gone
                if not hit:
                    continue
                key = {schema.PK: item[schema.PK], schema.SK: item[schema.SK]}
                answer = db.update_item(
                    TableName=table, Key=key, UpdateExpression="DELETE #runs :gone",
                    ExpressionAttributeNames={"#runs": "runs"}, ExpressionAttributeValues=serialize({":gone": hit}),
                    ReturnValues="ALL_NEW",
                )
                removed += len(hit)
                if not deserialize(answer.get("Attributes") or {}).get("runs"):
                    try:  # an entry left with no run is removed, unless a run arrived meanwhile
                        db.delete_item(TableName=table, Key=key, ConditionExpression="attribute_not_exists(#runs)",
                                       ExpressionAttributeNames={"#runs": "runs"})
                    except ClientError as exc:
                        if error_code(exc) != "ConditionalCheckFailedException":
                            raise
            if not page.get("LastEvaluatedKey"):
                break
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return removed


def discard_fact_key(memory: Any, ns: Namespace, fact_key: str) -> int:
    """Drop a fact key's observation history; returns how many runs it held."""
    with aws_errors("discard fact observations"):
        old = memory.clients["dynamodb"].delete_item(
            TableName=schema.table_name(memory.config.table_prefix, schema.CONFIRMATIONS),
            Key=serialize({schema.PK: schema.tenant_partition(ns), schema.SK: fact_key}),
            ReturnValues="ALL_OLD",
        ).get("Attributes")
    return len(deserialize(old).get("runs", set())) if old else 0


class AwsErasure:
    """The erasure operations `memory.forget` uses, bound to one `AwsMemory`."""

    def __init__(self, memory: Any) -> None:
        self._memory = memory

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        return forget_tenant(self._memory, tenant)

    def tenant_run_ids(self, tenant: str) -> set[str]:
        return tenant_run_ids(self._memory, tenant)

    def forget_observations(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        return forget_observations(self._memory, ns, run_ids)

    def discard_fact_key(self, ns: Namespace, fact_key: str) -> int:
        return discard_fact_key(self._memory, ns, fact_key)
