"""Re-embedding on DynamoDB: new vectors staged on each item, then swept live.

`stage` writes `next_model` + `next_vector` beside the live `embedding_model` + `vector`
(searches read only the live pair, filtered on the query's model, so nothing changes for
retrieval). A fact is staged only if its text is still the one embedded (a rewrite since would
otherwise get a vector of other words); episodes never change text. `switch` first checks that
every episode and fact of the tenant has a vector of the new model, then sweeps item by item
(`SET embedding_model = next_model, vector = next_vector`, guarded on `next_model`). DynamoDB
cannot update a whole partition atomically, so during the sweep (a few seconds per thousand
items) a query of the old model sees fewer records and one of the new model more; run it in a
quiet hour (docs/OPERATING.md). Records written with the old model meanwhile are reported as
missing, and `memory.reembed` embeds them and sweeps again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import aws_errors, error_code, pack_vector, query_all, serialize
from memory.reembed import PendingVector, ReembedProgress, SwitchResult

_FACT = "FACT#"


class DynamoReembedding:
    """`memory.reembed.Reembeddable` over the episode and fact tables."""

    def __init__(self, memory: Any) -> None:
        self._memory = memory
        self._db = memory.clients["dynamodb"]
        self._tables = {"episodes": memory._name(schema.EPISODES), "facts": memory._name(schema.FACTS)}

    def tenants(self) -> list[str]:
        found = {ns.tenant for ns in self._memory.namespaces()}
        with aws_errors("list the tenants holding facts"):
            request: dict[str, Any] = {"TableName": self._tables["facts"], "ProjectionExpression": "#pk",
                                       "ExpressionAttributeNames": {"#pk": schema.PK}}
            while True:
                page = self._db.scan(**request)
                found.update(item[schema.PK]["S"] for item in page.get("Items", []))
                if not page.get("LastEvaluatedKey"):
                    break
                request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        return sorted(found)

    def _items(self, tenant: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every episode (of every agent of the tenant) and fact item, with its kind."""
        names = {"#pk": schema.PK}
        for ns in self._memory.namespaces():
            if ns.tenant == tenant:
                yield from (("episodes", item) for item in query_all(
                    self._db, TableName=self._tables["episodes"], ConsistentRead=True,
                    KeyConditionExpression="#pk = :pk", ExpressionAttributeNames=names,
                    ExpressionAttributeValues=serialize({":pk": schema.agent_partition(ns)}),
                ))
        yield from (("facts", item) for item in query_all(
            self._db, TableName=self._tables["facts"], ConsistentRead=True,
            KeyConditionExpression="#pk = :pk AND begins_with(#sk, :fact)",
            ExpressionAttributeNames={**names, "#sk": schema.SK},
            ExpressionAttributeValues=serialize({":pk": tenant, ":fact": _FACT}),
        ))

    @staticmethod
    def _text(kind: str, item: dict[str, Any]) -> str:
        if kind == "facts":
            return item["text"]["S"]
        summary = item.get("task_summary", {}).get("S", "")
        findings = [v["S"] for v in item.get("key_findings", {}).get("L", [])]
        return "\n".join([summary, *findings])  # Episode.embedding_text()

    def pending(self, tenant: str, model: str) -> Iterator[PendingVector]:
        with aws_errors("list records to re-embed"):
            for kind, item in self._items(tenant):
                if item["embedding_model"]["S"] == model or item.get("next_model", {}).get("S") == model:
                    continue
                key = json.dumps([item[schema.PK]["S"], item[schema.SK]["S"]])
                yield PendingVector(kind=kind, key=key, text=self._text(kind, item))

    def stage(self, tenant: str, model: str, vectors: list[tuple[PendingVector, list[float]]]) -> int:
        from botocore.exceptions import ClientError

        staged = 0
        with aws_errors("stage re-embedded vectors"):
            for pending, vector in vectors:
                pk, sk = json.loads(pending.key)
                if pk != tenant and not pk.startswith(tenant + "/"):
                    raise ValueError(f"record {pending.key} is not of tenant {tenant!r}")
                condition = "attribute_exists(#pk) AND #model <> :model"
                names = {"#pk": schema.PK, "#model": "embedding_model", "#nm": "next_model", "#nv": "next_vector"}
                values: dict[str, Any] = {":model": model, ":vector": pack_vector(vector)}
                if pending.kind == "facts":
                    condition += " AND #text = :text"
                    names["#text"] = "text"
                    values[":text"] = pending.text
                try:
                    self._db.update_item(
                        TableName=self._tables[pending.kind], Key=serialize({schema.PK: pk, schema.SK: sk}),
                        UpdateExpression="SET #nm = :model, #nv = :vector", ConditionExpression=condition,
                        ExpressionAttributeNames=names, ExpressionAttributeValues=serialize(values),
                    )
                except ClientError as exc:
                    if error_code(exc) != "ConditionalCheckFailedException":
                        raise
                    continue  # deleted or rewritten since it was listed: pending again if it exists
                staged += 1
        return staged

    def progress(self, tenant: str, model: str) -> ReembedProgress:
        total = on_model = staged = 0
        with aws_errors("measure re-embedding progress"):
            for _, item in self._items(tenant):
                total += 1
                if item["embedding_model"]["S"] == model:
                    on_model += 1
                elif item.get("next_model", {}).get("S") == model:
                    staged += 1
        return ReembedProgress(tenant=tenant, model=model, total=total, on_model=on_model, staged=staged)

    def switch(self, tenant: str, model: str) -> SwitchResult:
        from botocore.exceptions import ClientError

        before = self.progress(tenant, model)
        if before.missing:
            return SwitchResult(switched=0, missing=before.missing)
        switched = 0
        retired: set[tuple[str, str]] = set()  # (kind, model) the tenant's records leave
        with aws_errors("switch re-embedded vectors live"):
            for kind, item in list(self._items(tenant)):
                if item.get("next_model", {}).get("S") != model:
                    continue
                retired.add((kind, item["embedding_model"]["S"]))
                try:
                    self._db.update_item(
                        TableName=self._tables[kind], Key={schema.PK: item[schema.PK], schema.SK: item[schema.SK]},
                        UpdateExpression="SET #model = #nm, #vector = #nv REMOVE #nm, #nv",
                        ConditionExpression="#nm = :model",
                        ExpressionAttributeNames={"#model": "embedding_model", "#vector": "vector",
                                                  "#nm": "next_model", "#nv": "next_vector"},
                        ExpressionAttributeValues=serialize({":model": model}),
                    )
                except ClientError as exc:
                    if error_code(exc) != "ConditionalCheckFailedException":
                        raise
                    continue  # rewritten meanwhile: counted as missing below
                switched += 1
        if switched and getattr(self._memory, "vectors", None) is not None:
            self._reindex(tenant, model, retired)
        return SwitchResult(switched=switched, missing=self.progress(tenant, model).missing)

    def _reindex(self, tenant: str, model: str, retired: set[tuple[str, str]]) -> None:
        """Put the tenant's new vectors into the new model's S3 Vectors indexes and drop the old
        model's (a planned, rare operation: reading the partitions here is expected)."""
        from memory.backends.aws.codec import unpack_vector
        from memory.backends.aws.episodes import DynamoEpisodeStore
        from memory.backends.aws.facts import DynamoFactStore
        from memory.backends.aws.vectors import EPISODES, FACTS
        from memory.records import Namespace

        vectors = self._memory.vectors
        entries: dict[str, list] = {EPISODES: [], FACTS: []}
        for kind, item in self._items(tenant):
            if item["embedding_model"]["S"] != model:
                continue
            vector = unpack_vector(item["vector"]["B"])
            if kind == "episodes":
                ns = Namespace(tenant=tenant, agent=item[schema.PK]["S"].partition("/")[2])
                entries[EPISODES].append(self._memory.episodes.vector_entry(
                    ns, DynamoEpisodeStore._episode(item), vector))
            else:
                entries[FACTS].append(DynamoFactStore.vector_entry(DynamoFactStore._fact(item), vector))
        for kind, batch in entries.items():
            vectors.put(kind, tenant, model, batch)
        for kind, old_model in retired:
            if old_model != model:
                vectors.drop_index(EPISODES if kind == "episodes" else FACTS, tenant, old_model)
