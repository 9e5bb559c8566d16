"""Episodic tier on DynamoDB (the record) and Amazon S3 Vectors (the search).

Layout: `pk` = "<tenant>/<agent>", `sk` = run id, GSI `by_created_at` (pk, created_at) for
newest-first listing and decay, TTL on `expires_at` (epoch seconds). TTL deletion is lazy (up
to days late), so expired items are also filtered out on every read.

Search, with `vector_bucket=` in the memory URL: the nearest unexpired vectors of the agent in the
tenant's S3 Vectors index (`memory.backends.aws.vectors`), plus the nearest ones sharing the
query's identifiers, ranked by `memory.retrieval` with BM25 over their stored text; then one
BatchGetItem reads back the k hits. The cost of a search no longer grows with the history.
Without a vector bucket (development), the namespace's whole partition is read and ranked in
process, as before: fine to a few thousand episodes, about 1,000 RCU per search at 10,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import (
    aws_errors,
    batch_get,
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
from memory.backends.aws.hybrid import rank_hits, rank_rows
from memory.backends.aws.vectors import EPISODES, S3VectorIndex, all_of, episode_metadata
from memory.errors import MemoryBackendError, UnknownRecordError
from memory.records import Episode, Namespace, Outcome, Scored
from memory.retrieval import RARE_NAME_ROWS, identifiers, query_identifiers
from memory.stores import VectorQuery

_RECORD_FIELDS = set(Episode.model_fields)


class DynamoEpisodeStore:
    """`memory.stores.EpisodeStore` over one DynamoDB table."""

    def __init__(self, dynamodb: Any, table: str, vectors: S3VectorIndex | None = None) -> None:
        self._db = dynamodb
        self._table = table
        self._vectors = vectors  # None: search reads the partition (no vector bucket configured)

    def _key(self, ns: Namespace, run_id: str) -> dict[str, Any]:
        return serialize({schema.PK: schema.agent_partition(ns), schema.SK: run_id})

    @staticmethod
    def item(ns: Namespace, episode: Episode, vector: Sequence[float]) -> dict[str, Any]:
        """The table item of one episode, as plain values (`add` writes it; a bulk loader may)."""
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
        return values

    def add(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> bool:
        values = self.item(ns, episode, vector)
        with aws_errors(f"store episode {episode.run_id!r}"):
            if not put_if_absent(self._db, self._table, values, key_attribute=schema.PK):
                return False
        if self._vectors is not None:
            try:
                self._vectors.put(EPISODES, ns.tenant, episode.embedding_model, [self.vector_entry(ns, episode, vector)])
            except MemoryBackendError:  # not searchable means not stored: the record goes too
                with aws_errors(f"undo episode {episode.run_id!r}"):
                    self._db.delete_item(TableName=self._table, Key=self._key(ns, episode.run_id))
                raise
        return True

    @staticmethod
    def vector_key(ns: Namespace, run_id: str) -> str:
        return f"{ns.agent}/{run_id}"  # one index per tenant: agents share it

    def vector_entry(self, ns: Namespace, episode: Episode, vector: Sequence[float]) -> tuple[str, Any, dict]:
        text = episode.embedding_text()
        metadata = episode_metadata(
            ns, expires=epoch_seconds(episode.expires_at), created=epoch_seconds(episode.created_at),
            completed=episode.outcome == Outcome.COMPLETED, idents=identifiers(text), text=text)
        return self.vector_key(ns, episode.run_id), unpack_vector(pack_vector(vector)), metadata

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
        if query.k <= 0:
            return []
        if self._vectors is not None:
            return self._search_index(ns, query)
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

    def _search_index(self, ns: Namespace, query: VectorQuery) -> list[Scored[Episode]]:
        assert self._vectors is not None
        vector = unpack_vector(pack_vector(query.vector))
        live = all_of({"agent": {"$eq": ns.agent}}, {"expires": {"$gt": epoch_seconds(query.now)}})
        pool = max(50, 10 * query.k)

        def nearest(where: dict, top_k: int = pool, metadata: bool = True) -> list[dict]:
            return self._vectors.query(EPISODES, ns.tenant, query.embedding_model, vector, top_k, where,
                                       metadata=metadata)

        found = {hit["key"]: hit for hit in nearest(live)}
        query_idents, tentative = query_identifiers(query.text)
        if query.mode != "vector":
            for name in sorted(tentative):  # a sentence-initial name counts if few episodes hold it
                held = nearest(all_of(live, {"idents": {"$in": [name]}}), RARE_NAME_ROWS + 1, metadata=False)
                if 0 < len(held) <= RARE_NAME_ROWS:
                    query_idents.add(name)
            if query_idents:  # the nearest of those sharing an identifier, however far
                for hit in nearest(all_of(live, {"idents": {"$in": sorted(query_idents)}})):
                    found.setdefault(hit["key"], hit)
        hits, ranked = rank_hits(query, found, recency="created", preferred="completed", query_idents=query_idents)
        prefix = ns.agent + "/"
        run_ids = [hits[i]["key"][len(prefix):] for i, _ in ranked if hits[i]["key"].startswith(prefix)]
        records = self._read_many(ns, run_ids)
        return [Scored[Episode](item=records[hits[i]["key"][len(prefix):]], score=cosine) for i, cosine in ranked
                if hits[i]["key"][len(prefix):] in records and records[hits[i]["key"][len(prefix):]].expires_at > query.now]

    def _read_many(self, ns: Namespace, run_ids: Sequence[str]) -> dict[str, Episode]:
        """The records of the hits, in one BatchGetItem (the k hits only, never the partition)."""
        found: dict[str, Episode] = {}
        if not run_ids:
            return found
        keys = [self._key(ns, run_id) for run_id in dict.fromkeys(run_ids)]
        with aws_errors("read the episodes found"):
            for item in batch_get(self._db, self._table, keys):
                episode = self._episode(item)
                found[episode.run_id] = episode
        return found

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
        gone: dict[str, list[str]] = {}  # embedding model -> vector keys
        with aws_errors("delete episodes"):
            for run_id in dict.fromkeys(run_ids):
                old = self._db.delete_item(
                    TableName=self._table, Key=self._key(ns, run_id), ReturnValues="ALL_OLD"
                ).get("Attributes")
                if old:
                    gone.setdefault(old["embedding_model"]["S"], []).append(self.vector_key(ns, run_id))
        if self._vectors is not None:
            for model, keys in gone.items():
                self._vectors.delete(EPISODES, ns.tenant, model, keys)
        return sum(len(keys) for keys in gone.values())

    def retime(self, ns: Namespace, run_id: str, created_at: Any, expires_at: Any) -> bool:
        """Re-date an episode (decay's clamp of a timestamp written by a clock running ahead): the
        item, its TTL and its vector's metadata. False if it is gone."""
        with aws_errors(f"re-date episode {run_id!r}"):
            raw = self._db.get_item(TableName=self._table, Key=self._key(ns, run_id)).get("Item")
            if not raw:
                return False
            episode = self._episode(raw).model_copy(update={"created_at": created_at, "expires_at": expires_at})
            vector = unpack_vector(deserialize(raw)["vector"])
            self._db.put_item(TableName=self._table, Item=serialize(self.item(ns, episode, vector)))
        if self._vectors is not None:
            self._vectors.put(EPISODES, ns.tenant, episode.embedding_model, [self.vector_entry(ns, episode, vector)])
        return True

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
