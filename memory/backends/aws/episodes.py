"""Episodic tier on DynamoDB: one item per run in the namespace's partition, searched in full.

Layout: `pk` = "<tenant>/<agent>", `sk` = run id, GSI `by_created_at` (pk, created_at) for
newest-first listing and decay, TTL on `expires_at` (epoch seconds). TTL deletion is lazy (up
to days late), so expired items are also filtered out on every read.

Search cost and where it stops scaling: `search` Queries the namespace's whole partition
(LastEvaluatedKey pagination; 1 MB per page) and ranks in numpy (cosine, fused with BM25).
An episode item is ~2-4 KB (a 1024-dim float32 vector is 4 KB as Binary), so one search costs
about items x 4 KB / 4 KB x 0.5 RCU (eventually consistent): ~1,000 RCU for 10,000 episodes,
and ~10 pages of latency. That is fine to a few thousand episodes per agent (tens of ms, cents
per thousand searches); past ~10-20k episodes per namespace, or at many searches per second,
move the vectors to a vector index -- S3 Vectors (cheapest, metadata filter on tenant), an
OpenSearch Serverless collection, or a Bedrock Knowledge Base like the semantic tier -- and
keep this table as the record of truth that the index points into.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import (
    aws_errors,
    deserialize,
    epoch_seconds,
    error_code,
    pack_vector,
    put_if_absent,
    query_all,
    serialize,
    timestamp,
    to_plain_values,
    unpack_vector,
)
from memory.backends.aws.hybrid import rank_rows
from memory.errors import UnknownRecordError
from memory.records import Episode, Namespace, Outcome, Scored
from memory.stores import VectorQuery

_RECORD_FIELDS = set(Episode.model_fields)


class DynamoEpisodeStore:
    """`memory.stores.EpisodeStore` over one DynamoDB table."""

    def __init__(self, dynamodb: Any, table: str) -> None:
        self._db = dynamodb
        self._table = table

    def _key(self, ns: Namespace, run_id: str) -> dict[str, Any]:
        return serialize({schema.PK: schema.agent_partition(ns), schema.SK: run_id})

    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        values = to_plain_values(episode.model_dump(mode="json"))
        values.update(
            {
                schema.PK: schema.agent_partition(ns),
                schema.SK: episode.run_id,
                schema.CREATED_AT: timestamp(episode.created_at),
                schema.EXPIRES_AT: epoch_seconds(episode.expires_at),
                "expires_at_iso": values["expires_at"],
                "vector": pack_vector(vector),
            }
        )
        with aws_errors(f"store episode {episode.run_id!r}"):
            return put_if_absent(self._db, self._table, values, key_attribute=schema.PK)

    @staticmethod
    def _episode(item: dict[str, Any]) -> Episode:
        values = deserialize(item)
        values["expires_at"] = values.get("expires_at_iso", values.get("expires_at"))
        values["created_at"] = values.get("created_at")
        return Episode.model_validate({k: v for k, v in values.items() if k in _RECORD_FIELDS})

    def get(self, ns: Namespace, run_id: str) -> Episode | None:
        with aws_errors(f"read episode {run_id!r}"):
            item = self._db.get_item(TableName=self._table, Key=self._key(ns, run_id)).get("Item")
        return self._episode(item) if item else None

    def _partition(self, ns: Namespace, **extra: Any) -> list[dict[str, Any]]:
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {"#pk": schema.PK},
            "ExpressionAttributeValues": serialize({":pk": schema.agent_partition(ns)}),
        }
        for name, value in extra.items():
            if name in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
                request[name] = {**request[name], **value}
            else:
                request[name] = value
        return list(query_all(self._db, **request))

    def search(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        # Expired and other-model items are filtered server-side (still read, so still billed).
        with aws_errors("search episodes"):
            items = self._partition(
                ns,
                FilterExpression="#exp > :now AND #model = :model",
                ExpressionAttributeNames={"#exp": schema.EXPIRES_AT, "#model": "embedding_model"},
                ExpressionAttributeValues=serialize(
                    {":now": epoch_seconds(query.now) - 1, ":model": query.embedding_model}
                ),
            )
        rows = [(self._episode(item), item) for item in items]
        live = [(ep, item) for ep, item in rows if ep.expires_at > query.now]  # the exact expiry decides
        if not live:
            return []
        hits = rank_rows(
            query,
            [unpack_vector(item["vector"]["B"]) for _, item in live],
            [ep.embedding_text() for ep, _ in live],
            preferred=[ep.outcome == Outcome.COMPLETED for ep, _ in live],
            recency=[ep.created_at.timestamp() for ep, _ in live],
        )
        return [Scored[Episode](item=live[i][0], score=cosine) for i, cosine in hits]

    def list(self, ns: Namespace, *, limit: int = 50, outcome: Outcome | None = None) -> list[Episode]:
        request: dict[str, Any] = {
            "TableName": self._table,
            "IndexName": schema.EPISODES_BY_CREATED,
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {"#pk": schema.PK},
            "ExpressionAttributeValues": serialize({":pk": schema.agent_partition(ns)}),
            "ScanIndexForward": False,
        }
        if outcome is not None:
            request["FilterExpression"] = "#outcome = :outcome"
            request["ExpressionAttributeNames"]["#outcome"] = "outcome"
            request["ExpressionAttributeValues"].update(serialize({":outcome": outcome.value}))
        found: list[Episode] = []
        with aws_errors("list episodes"):
            for item in query_all(self._db, **request):
                found.append(self._episode(item))
                if len(found) >= limit:
                    break
        return found

    def delete(self, ns: Namespace, run_ids: Sequence[str]) -> int:
        deleted = 0
        with aws_errors("delete episodes"):
            for run_id in dict.fromkeys(run_ids):
                answer = self._db.delete_item(
                    TableName=self._table, Key=self._key(ns, run_id), ReturnValues="ALL_OLD"
                )
                deleted += bool(answer.get("Attributes"))
        return deleted

    def record_merge(self, ns: Namespace, run_id: str, merged: Sequence[str]) -> Episode:
        """Add `merged` run ids to the episode's `merged_from` (decay's near-duplicate merge)."""
        from botocore.exceptions import ClientError

        episode = self.get(ns, run_id)
        if episode is None:
            raise UnknownRecordError(f"no episode {run_id!r} for agent {ns.agent!r} of tenant {ns.tenant!r}")
        episode.merged_from = list(dict.fromkeys([*episode.merged_from, *merged]))
        with aws_errors(f"record the merge into episode {run_id!r}"):
            try:
                self._db.update_item(
                    TableName=self._table, Key=self._key(ns, run_id), UpdateExpression="SET #merged = :merged",
                    ConditionExpression="attribute_exists(#pk)",
                    ExpressionAttributeNames={"#merged": "merged_from", "#pk": schema.PK},
                    ExpressionAttributeValues=serialize({":merged": episode.merged_from}),
                )
            except ClientError as exc:
                if error_code(exc) == "ConditionalCheckFailedException":
                    raise UnknownRecordError(f"episode {run_id!r} was deleted while being merged") from exc
                raise
        return episode
