"""Episodic and semantic top-k on Amazon S3 Vectors; DynamoDB stays the record.

One vector index per tenant, tier and embedding model in the vector bucket the memory URL names
(`vector_bucket=`): `<prefix>-<ep|fa>-<tenant hash>-<model hash>`. A tenant's IAM role is granted
only the indexes of its own hash (infrastructure/iam.tf), so the storage layer, not a filter,
keeps tenants apart; inside a tenant's episode index a metadata filter selects the agent and the
unexpired vectors *before* the nearest-neighbour search. Vectors of different models live in
different indexes and are never compared.

Each vector carries what ranking needs: filterable `agent`, `expires`, `created`, `completed`,
`domain`, `idents` (identifier tokens, for an identifier-filtered second query) and the
non-filterable embedded `text` (for BM25 over the candidates). A search therefore costs a few
QueryVectors calls and one BatchGetItem of the k hits, however long the history is.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from memory.backends.aws.codec import aws_errors, error_code
from memory.records import Namespace

EPISODES = "ep"
FACTS = "fa"
PUT_BATCH = 500  # PutVectors takes at most 500 vectors
DELETE_BATCH = 500
TOP_K_MAX = 100  # QueryVectors returns at most 100 results
MAX_IDENTS = 40  # identifier tokens kept per vector (filterable metadata is limited to 2 KB)
NON_FILTERABLE = ["text"]


def short_hash(value: str, length: int) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:length]


def slug(prefix: str) -> str:
    """The table prefix as an index-name prefix (lowercase letters, digits, hyphens)."""
    return re.sub(r"[^a-z0-9]+", "-", prefix.lower()).strip("-")[:20] or "cma"


def index_name(prefix: str, kind: str, tenant: str, model: str) -> str:
    """`<prefix>-<kind>-<12 hex of sha256(tenant)>-<8 hex of sha256(model)>` (Terraform derives the
    same tenant part for IAM: `substr(sha256(tenant), 0, 12)`)."""
    return f"{slug(prefix)}-{kind}-{short_hash(tenant, 12)}-{short_hash(model, 8)}"


def tenant_index_prefix(prefix: str, kind: str, tenant: str) -> str:
    return f"{slug(prefix)}-{kind}-{short_hash(tenant, 12)}-"


class S3VectorIndex:
    """The S3 Vectors side of the AWS backend (one client, one vector bucket)."""

    def __init__(self, client: Any, bucket: str, prefix: str, *, create: bool = True) -> None:
        self._client = client
        self._bucket = bucket
        self._prefix = prefix
        self._create = create  # create a missing index on first write (Terraform creates the default ones)
        self._known: set[str] = set()

    def name(self, kind: str, tenant: str, model: str) -> str:
        return index_name(self._prefix, kind, tenant, model)

    def _ensure(self, name: str, dimension: int) -> None:
        from botocore.exceptions import ClientError

        if name in self._known:
            return
        try:
            self._client.get_index(vectorBucketName=self._bucket, indexName=name)
        except ClientError as exc:
            if error_code(exc) != "NotFoundException" or not self._create:
                raise
            try:
                self._client.create_index(
                    vectorBucketName=self._bucket, indexName=name, dataType="float32", dimension=dimension,
                    distanceMetric="cosine", metadataConfiguration={"nonFilterableMetadataKeys": NON_FILTERABLE})
            except ClientError as race:
                if error_code(race) != "ConflictException":  # created meanwhile by another writer
                    raise
        self._known.add(name)

    def put(self, kind: str, tenant: str, model: str, vectors: Sequence[tuple[str, Sequence[float], dict]]) -> None:
        """Insert or replace vectors (key, unit vector, metadata) in the tenant's index of the model."""
        if not vectors:
            return
        name = self.name(kind, tenant, model)
        with aws_errors(f"write vectors to S3 Vectors index {name}"):
            self._ensure(name, len(vectors[0][1]))
            for start in range(0, len(vectors), PUT_BATCH):
                self._client.put_vectors(vectorBucketName=self._bucket, indexName=name, vectors=[
                    {"key": key, "data": {"float32": [float(x) for x in vector]}, "metadata": metadata}
                    for key, vector, metadata in vectors[start:start + PUT_BATCH]])

    def delete(self, kind: str, tenant: str, model: str, keys: Sequence[str]) -> None:
        from botocore.exceptions import ClientError

        name = self.name(kind, tenant, model)
        with aws_errors(f"delete vectors from S3 Vectors index {name}"):
            for start in range(0, len(keys), DELETE_BATCH):
                try:
                    self._client.delete_vectors(vectorBucketName=self._bucket, indexName=name,
                                                keys=list(keys[start:start + DELETE_BATCH]))
                except ClientError as exc:
                    if error_code(exc) != "NotFoundException":
                        raise

    def query(self, kind: str, tenant: str, model: str, vector: Sequence[float], top_k: int,
              where: Mapping[str, Any], *, metadata: bool = True) -> list[dict[str, Any]]:
        """Nearest vectors passing `where` (applied before the search), nearest first:
        [{"key", "distance", "metadata"}]. No index for the model yet: nothing."""
        from botocore.exceptions import ClientError

        name = self.name(kind, tenant, model)
        with aws_errors(f"query S3 Vectors index {name}"):
            try:
                answer = self._client.query_vectors(
                    vectorBucketName=self._bucket, indexName=name, topK=max(1, min(TOP_K_MAX, top_k)),
                    queryVector={"float32": [float(x) for x in vector]}, filter=dict(where),
                    returnMetadata=metadata, returnDistance=True)
            except ClientError as exc:
                if error_code(exc) == "NotFoundException":
                    return []
                raise
        return list(answer.get("vectors", []))

    def drop_index(self, kind: str, tenant: str, model: str) -> None:
        """Delete one index (a tenant's vectors of a model it no longer uses)."""
        from botocore.exceptions import ClientError

        name = self.name(kind, tenant, model)
        with aws_errors(f"delete S3 Vectors index {name}"):
            try:
                self._client.delete_index(vectorBucketName=self._bucket, indexName=name)
            except ClientError as exc:
                if error_code(exc) != "NotFoundException":
                    raise
        self._known.discard(name)

    def drop_tenant(self, tenant: str) -> int:
        """Delete every index of the tenant (erasure); returns how many."""
        dropped = 0
        with aws_errors(f"delete the S3 Vectors indexes of tenant {tenant!r}"):
            for kind in (EPISODES, FACTS):
                prefix = tenant_index_prefix(self._prefix, kind, tenant)
                request: dict[str, Any] = {"vectorBucketName": self._bucket, "prefix": prefix}
                while True:
                    page = self._client.list_indexes(**request)
                    for index in page.get("indexes", []):
                        if not index["indexName"].startswith(prefix):
                            continue  # never trust a server-side prefix alone with another tenant's index
                        self._client.delete_index(vectorBucketName=self._bucket, indexName=index["indexName"])
                        self._known.discard(index["indexName"])
                        dropped += 1
                    if not page.get("nextToken"):
                        break
                    request["nextToken"] = page["nextToken"]
        return dropped


def episode_metadata(ns: Namespace, *, expires: int, created: int, completed: bool, idents: set[str],
                     text: str) -> dict[str, Any]:
    return {"agent": ns.agent, "expires": expires, "created": created, "completed": completed,
            "idents": sorted(idents)[:MAX_IDENTS], "text": text}


def fact_metadata(*, domain: str, updated: int, idents: set[str], text: str) -> dict[str, Any]:
    return {"domain": domain, "updated": updated, "idents": sorted(idents)[:MAX_IDENTS], "text": text}


def all_of(*conditions: Mapping[str, Any]) -> dict[str, Any]:
    kept = [dict(c) for c in conditions if c]
    return kept[0] if len(kept) == 1 else {"$and": kept}
