"""An in-process answer to S3 Vectors QueryVectors over the vectors moto stores.

moto 5.2 implements S3 Vectors buckets, indexes and PutVectors / GetVectors / ListVectors /
DeleteVectors, but not QueryVectors. `install(client)` registers a botocore `before-send`
handler on one s3vectors client that answers QueryVectors itself, from moto's stored vectors:
exact cosine distances (1 - cosine), the metadata filter applied before ranking (S3 Vectors
operators `$eq $ne $gt $gte $lt $lte $in $nin $exists $and $or`; a list value matches `$eq` and
`$in` when any element does), `topK`, `returnMetadata`, `returnDistance`, and NotFoundException for
a missing index. Every other call still goes to moto. Tests and the AWS bootstrap benchmark use it,
and say so in their names; it is not part of the backend.
"""

from __future__ import annotations

import json
import threading
from typing import Any
from urllib.parse import urlsplit

import numpy as np

_lock = threading.Lock()
_cache: dict[int, tuple[int, list[str], np.ndarray, list[dict]]] = {}


def _instrument() -> None:
    """Count writes per moto index, so a cached matrix is rebuilt after any change."""
    from moto.s3vectors.models import S3VectorsBackend

    for name in ("put_vectors", "delete_vectors"):
        original = getattr(S3VectorsBackend, name)
        if getattr(original, "_versioned", False):
            continue

        def versioned(self: Any, vector_bucket_name: str, index_name: str, index_arn: str, *args: Any,
                      __original: Any = original, **kwargs: Any) -> Any:
            index = self.get_index(vector_bucket_name, index_name=index_name, index_arn=index_arn)
            with _lock:
                index._fake_version = getattr(index, "_fake_version", 0) + 1
            return __original(self, vector_bucket_name, index_name, index_arn, *args, **kwargs)

        versioned._versioned = True  # type: ignore[attr-defined]
        setattr(S3VectorsBackend, name, versioned)


def matches(metadata: dict[str, Any], condition: dict[str, Any]) -> bool:
    """S3 Vectors metadata filter semantics (the operators this project and its tests use)."""
    for key, test in condition.items():
        if key == "$and":
            if not all(matches(metadata, part) for part in test):
                return False
            continue
        if key == "$or":
            if not any(matches(metadata, part) for part in test):
                return False
            continue
        value = metadata.get(key)
        tests = test if isinstance(test, dict) else {"$eq": test}
        for operator, operand in tests.items():
            values = value if isinstance(value, list) else [value]
            if operator == "$eq":
                ok = operand in values
            elif operator == "$ne":
                ok = operand not in values
            elif operator == "$in":
                ok = any(v in operand for v in values)
            elif operator == "$nin":
                ok = not any(v in operand for v in values)
            elif operator == "$exists":
                ok = (key in metadata) == bool(operand)
            elif operator in ("$gt", "$gte", "$lt", "$lte"):
                ok = value is not None and {"$gt": value > operand, "$gte": value >= operand,
                                            "$lt": value < operand, "$lte": value <= operand}[operator]
            else:
                raise ValueError(f"filter operator {operator} is not supported by the fake")
            if not ok:
                return False
    return True


def _matrix(index: Any) -> tuple[list[str], np.ndarray, list[dict]]:
    version = getattr(index, "_fake_version", 0)
    with _lock:
        cached = _cache.get(id(index))
        if cached is None or cached[0] != version:
            keys = list(index.vectors)
            data = [index.vectors[k].data["float32"] for k in keys]
            matrix = np.asarray(data, dtype=np.float32).reshape(len(keys), index.dimension)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            matrix = matrix / np.where(norms == 0, 1, norms)
            cached = (version, keys, matrix, [index.vectors[k].metadata or {} for k in keys])
            _cache[id(index)] = cached
    return cached[1], cached[2], cached[3]


def answer(backend: Any, body: dict[str, Any]) -> dict[str, Any]:
    index = backend.get_index(body.get("vectorBucketName"), index_name=body.get("indexName"),
                              index_arn=body.get("indexArn"))
    keys, matrix, metadata = _matrix(index)
    query = np.asarray(body["queryVector"]["float32"], dtype=np.float32)
    query = query / (np.linalg.norm(query) or 1.0)
    where = body.get("filter")
    allowed = [i for i, meta in enumerate(metadata) if not where or matches(meta, where)]
    distances = 1.0 - matrix[allowed] @ query if allowed else np.zeros(0)
    order = np.argsort(distances, kind="stable")[: int(body["topK"])]
    found = []
    for position in order:
        i = allowed[int(position)]
        hit: dict[str, Any] = {"key": keys[i]}
        if body.get("returnDistance"):
            hit["distance"] = float(distances[int(position)])
        if body.get("returnMetadata"):
            hit["metadata"] = metadata[i]
        found.append(hit)
    return {"vectors": found, "distanceMetric": "cosine"}


def install(client: Any, account_id: str = "123456789012") -> Any:
    """Answer this client's QueryVectors in process; returns the client."""
    from botocore.awsrequest import AWSResponse
    from moto.core.botocore_stubber import MockRawResponse
    from moto.s3vectors.exceptions import IndexNotFound, VectorBucketNotFound
    from moto.s3vectors.models import s3vectors_backends
    from moto.utilities.utils import get_partition

    _instrument()
    region = client.meta.region_name

    def handler(request: Any, **_: Any) -> Any:
        if not urlsplit(request.url).path.endswith("/QueryVectors"):
            return None
        body = json.loads(request.body or b"{}")
        try:
            result, status, headers = answer(s3vectors_backends[account_id][get_partition(region)], body), 200, {}
        except (IndexNotFound, VectorBucketNotFound) as exc:
            result = {"message": str(exc)}
            status, headers = 404, {"x-amzn-ErrorType": "NotFoundException"}
        headers["Content-Type"] = "application/json"
        return AWSResponse(request.url, status, headers, MockRawResponse(json.dumps(result)))

    client.meta.events.register_first("before-send.s3vectors.QueryVectors", handler)
    return client
