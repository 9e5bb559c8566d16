"""Conversion between memory records and DynamoDB attribute values, and AWS error wrapping.

boto3's `TypeSerializer` rejects Python floats, so numbers go through `Decimal`; vectors are
stored compactly as little-endian float32 bytes (Binary), next to the name of the model that
made them; timestamps are fixed-width ISO-8601 UTC strings so they sort chronologically.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import numpy as np

from memory.errors import MemoryBackendError

_TS_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def timestamp(moment: datetime) -> str:
    """Fixed-width UTC text: lexicographic order is chronological order (naive = UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime(_TS_FORMAT)


def parse_timestamp(text: str) -> datetime:
    return datetime.strptime(text, _TS_FORMAT).replace(tzinfo=UTC)


def epoch_seconds(moment: datetime) -> int:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


def pack_vector(vector: Sequence[float]) -> bytes:
    """Unit-length little-endian float32 bytes (cosine is then a dot product)."""
    array = np.asarray(vector, dtype="<f4")
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise MemoryBackendError("an embedding must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    return (array / norm if norm else array).astype("<f4").tobytes()


def unpack_vector(blob: Any) -> np.ndarray:
    raw = blob.value if hasattr(blob, "value") else blob  # boto3 Binary or bytes
    return np.frombuffer(bytes(raw), dtype="<f4")


def _serializer() -> Any:
    from boto3.dynamodb.types import TypeSerializer

    return TypeSerializer()


def _deserializer() -> Any:
    from boto3.dynamodb.types import TypeDeserializer

    return TypeDeserializer()


def to_plain_values(data: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-mode values with floats as Decimal, the only number type TypeSerializer accepts."""
    return json.loads(json.dumps(data, default=str), parse_float=Decimal)


def serialize(values: Mapping[str, Any]) -> dict[str, Any]:
    """Python values -> DynamoDB attribute values (`{"S": ...}`, `{"N": ...}`, ...)."""
    serializer = _serializer()
    return {name: serializer.serialize(value) for name, value in values.items()}


def _numbers_to_python(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_numbers_to_python(v) for v in value]
    if isinstance(value, dict):
        return {k: _numbers_to_python(v) for k, v in value.items()}
    if isinstance(value, set):
        return {_numbers_to_python(v) for v in value}
    return value


def deserialize(item: Mapping[str, Any]) -> dict[str, Any]:
    """DynamoDB attribute values -> Python values (Decimals become int or float)."""
    deserializer = _deserializer()
    return {name: _numbers_to_python(deserializer.deserialize(value)) for name, value in item.items()}


@contextlib.contextmanager
def aws_errors(action: str) -> Iterator[None]:
    """Turn botocore failures into `MemoryBackendError` naming what failed and the AWS reason."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        yield
    except ClientError as exc:
        error = exc.response.get("Error", {})
        raise MemoryBackendError(
            f"AWS memory backend could not {action}: {error.get('Code', 'error')}: "
            f"{error.get('Message', exc)}"
        ) from exc
    except BotoCoreError as exc:
        raise MemoryBackendError(f"AWS memory backend could not {action}: {exc}") from exc


def error_code(exc: BaseException) -> str:
    response = getattr(exc, "response", None) or {}
    return str(response.get("Error", {}).get("Code", ""))


def put_if_absent(dynamodb: Any, table: str, values: Mapping[str, Any], *, key_attribute: str) -> bool:
    """Write an item unless one with its key exists (atomic); False when it did exist."""
    from botocore.exceptions import ClientError

    try:
        dynamodb.put_item(
            TableName=table,
            Item=serialize(values),
            ConditionExpression="attribute_not_exists(#pk)",
            ExpressionAttributeNames={"#pk": key_attribute},
        )
    except ClientError as exc:
        if error_code(exc) == "ConditionalCheckFailedException":
            return False
        raise
    return True


def query_all(dynamodb: Any, **request: Any) -> Iterator[dict[str, Any]]:
    """Every item a Query matches, following LastEvaluatedKey page by page."""
    while True:
        page = dynamodb.query(**request)
        yield from page.get("Items", [])
        last = page.get("LastEvaluatedKey")
        if not last:
            return
        request = {**request, "ExclusiveStartKey": last}


def batch_get(db: Any, table: str, keys: Sequence[Mapping[str, Any]], *, consistent: bool = False) -> Iterator[dict[str, Any]]:
    """Every item of `keys` that exists, through BatchGetItem: 100 keys a request (its limit),
    unprocessed keys asked again until none are left."""
    keys = list(keys)
    for start in range(0, len(keys), 100):
        request: dict[str, Any] = {table: {"Keys": keys[start:start + 100], "ConsistentRead": consistent}}
        while request:
            answer = db.batch_get_item(RequestItems=request)
            yield from answer.get("Responses", {}).get(table, [])
            request = answer.get("UnprocessedKeys") or {}
