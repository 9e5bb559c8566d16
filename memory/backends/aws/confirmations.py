"""Confirmation log on DynamoDB: the distinct runs of a tenant that observed each normalised fact.

One item per (tenant, fact key), tenant-wide like the facts it gates. `ADD runs :run` on a
string set is atomic and idempotent, so concurrent runs and retries of one run count exactly;
`ReturnValues=ALL_OLD` hands back the set as it was just before, so the count is that set plus
this run. (Not UPDATED_NEW: re-adding a present run changes nothing, and DynamoDB-compatible
servers may then return no attribute at all.) A new run is also appended to `order` (guarded by
`NOT contains`), so `runs()` lists runs in the order they were first seen. What a run observed the
fact in (its source, e.g. a contract's content hash) is the attribute `source/<run id>`, set in
the same update: the count is the number of distinct sources of the runs in the set.
"""

from __future__ import annotations

from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import aws_errors, deserialize, error_code, serialize, timestamp
from memory.records import Namespace, utcnow


class DynamoConfirmationLog:
    """`memory.stores.ConfirmationLog` over one DynamoDB table."""

    def __init__(self, dynamodb: Any, table: str) -> None:
        self._db = dynamodb
        self._table = table

    def _key(self, ns: Namespace, fact_key: str) -> dict[str, Any]:
        return serialize({schema.PK: schema.tenant_partition(ns), schema.SK: fact_key})

    def observe(self, ns: Namespace, fact_key: str, run_id: str, source: str | None = None) -> int:
        from botocore.exceptions import ClientError

        with aws_errors("record a fact observation"):
            answer = self._db.update_item(
                TableName=self._table,
                Key=self._key(ns, fact_key),
                # `if_not_exists`: a run's first source stays its source (a retry changes nothing)
                UpdateExpression="ADD #runs :run SET #seen = :now, #source = if_not_exists(#source, :source)",
                ExpressionAttributeNames={"#runs": "runs", "#seen": "last_seen", "#source": f"source/{run_id}"},
                ExpressionAttributeValues=serialize({":run": {run_id}, ":now": timestamp(utcnow()),
                                                     ":source": source or run_id}),
                ReturnValues="ALL_OLD",
            )
            old = deserialize(answer.get("Attributes") or {})
            before = old.get("runs", set())
            sources = {old.get(f"source/{run}", run) for run in before}
            sources.add(old.get(f"source/{run_id}", source or run_id))
            if run_id not in before:
                try:
                    self._db.update_item(
                        TableName=self._table,
                        Key=self._key(ns, fact_key),
                        UpdateExpression="SET #order = list_append(if_not_exists(#order, :empty), :run)",
                        ConditionExpression="attribute_not_exists(#order) OR NOT contains(#order, :id)",
                        ExpressionAttributeNames={"#order": "order"},
                        ExpressionAttributeValues=serialize({":empty": [], ":run": [run_id], ":id": run_id}),
                    )
                except ClientError as exc:
                    if error_code(exc) != "ConditionalCheckFailedException":
                        raise
        return len(sources)

    def runs(self, ns: Namespace, fact_key: str) -> list[str]:
        with aws_errors("read fact observations"):
            item = self._db.get_item(
                TableName=self._table, Key=self._key(ns, fact_key), ConsistentRead=True
            ).get("Item")
        if not item:
            return []
        values = deserialize(item)
        counted = values.get("runs", set())
        ordered = [run for run in values.get("order", []) if run in counted]
        # a writer that died between its two updates left its run only in the set
        return ordered + sorted(counted - set(ordered))
