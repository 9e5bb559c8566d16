"""Retrieval telemetry on DynamoDB: one item per (run, tier) in the telemetry table.

Layout: `pk` = "<tenant>/<agent>" (the tenant roles' leading-key condition covers it), `sk` =
"<ISO time>#<run id>#<tier>", so "events since T" is one Query on a key range; `expires_at`
(epoch seconds) is the table's TTL, set `telemetry_days` after the event. TTL deletes lazily,
so `prune` (run by decay) deletes what it has not yet.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import (
    aws_errors,
    deserialize,
    epoch_seconds,
    parse_timestamp,
    query_all,
    serialize,
    timestamp,
)
from memory.records import Namespace
from memory.telemetry import Hit, RetrievalEvent


class DynamoTelemetry:
    """`memory.telemetry.TelemetryStore` over one DynamoDB table."""

    def __init__(self, dynamodb: Any, table: str, retention_days: int) -> None:
        self._db = dynamodb
        self._table = table
        self._retention = timedelta(days=retention_days)

    def record(self, ns: Namespace, event: RetrievalEvent) -> None:
        values = {
            schema.PK: schema.agent_partition(ns),
            schema.SK: f"{timestamp(event.at)}#{event.run_id}#{event.tier}",
            "run_id": event.run_id,
            "tier": event.tier,
            "latency_ms": Decimal(str(round(event.latency_ms, 3))),
            "hits": json.dumps([h.model_dump() for h in event.hits]),
            schema.EXPIRES_AT: epoch_seconds(event.at + self._retention),
        }
        with aws_errors("record retrieval telemetry"):
            self._db.put_item(TableName=self._table, Item=serialize(values))

    def _range(self, ns: Namespace, condition: str, moment: datetime, **extra: Any) -> list[dict[str, Any]]:
        return list(query_all(
            self._db,
            TableName=self._table,
            KeyConditionExpression=f"#pk = :pk AND #sk {condition} :at",
            ExpressionAttributeNames={"#pk": schema.PK, "#sk": schema.SK},
            ExpressionAttributeValues=serialize({":pk": schema.agent_partition(ns), ":at": timestamp(moment)}),
            **extra,
        ))

    def events(self, ns: Namespace, *, since: datetime) -> list[RetrievalEvent]:
        with aws_errors("read retrieval telemetry"):
            items = self._range(ns, ">=", since)
        events = []
        for item in items:
            values = deserialize(item)
            events.append(RetrievalEvent(
                run_id=values["run_id"], tier=values["tier"], at=parse_timestamp(values[schema.SK].split("#", 1)[0]),
                latency_ms=float(values["latency_ms"]), hits=[Hit.model_validate(h) for h in json.loads(values["hits"])],
            ))
        return events

    def count_before(self, ns: Namespace, cutoff: datetime) -> int:
        with aws_errors("count old retrieval telemetry"):
            return len(self._range(ns, "<", cutoff, ProjectionExpression="#pk, #sk"))

    def prune(self, ns: Namespace, cutoff: datetime) -> int:
        with aws_errors("prune old retrieval telemetry"):
            keys = self._range(ns, "<", cutoff, ProjectionExpression="#pk, #sk")
            for key in keys:
                self._db.delete_item(TableName=self._table, Key=key)
        return len(keys)
