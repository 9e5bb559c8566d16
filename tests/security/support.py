"""Helpers of the security tests: the backends they run on, and raw dumps of what a backend stores."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.stores import VectorQuery
from tests.backends import FACTORIES

# The embedded default, AWS on moto in-process and LangGraph's InMemoryStore: what `make test` must cover.
BACKENDS = [name for name in ("sqlite", "aws-moto+fake-queryvectors", "store-inmemory") if name in FACTORIES]
NOW = datetime(2026, 3, 1, tzinfo=UTC)
MODEL = "test-hash-16"


def inner(backend: Any) -> Any:
    """The real backend behind a test wrapper (the moto factory wraps AwsMemory in mock_aws)."""
    return getattr(backend, "memory", backend)


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path) -> Iterator[Any]:
    opened = FACTORIES[request.param](tmp_path)
    opened.kind = request.param
    try:
        yield opened
    finally:
        opened.close()


def vector(text: str, dim: int = 16) -> list[float]:
    """A deterministic unit vector per text (no embedding model needed)."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    values = np.random.default_rng(seed).standard_normal(dim)
    return (values / np.linalg.norm(values)).tolist()


def query(text: str, *, k: int = 50) -> VectorQuery:
    return VectorQuery(text=text, vector=vector(text), embedding_model=MODEL, k=k, min_score=-1.0,
                       now=NOW + timedelta(minutes=1))


def dynamodb_items(memory: Any) -> list[dict[str, Any]]:
    """Every item of every table of an AwsMemory, raw (attribute-value form)."""
    from memory.backends.aws import schema

    db = memory.clients["dynamodb"]
    items: list[dict[str, Any]] = []
    for table in schema.TABLES:
        request: dict[str, Any] = {"TableName": schema.table_name(memory.config.table_prefix, table)}
        while True:
            page = db.scan(**request)
            items += page.get("Items", [])
            if not page.get("LastEvaluatedKey"):
                break
            request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    return items


def s3_objects(memory: Any) -> dict[str, bytes]:
    """Every object of the backend's bucket: key -> body."""
    s3, bucket = memory.clients["s3"], memory.config.bucket
    found: dict[str, bytes] = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for entry in page.get("Contents", []):
            found[entry["Key"]] = s3.get_object(Bucket=bucket, Key=entry["Key"])["Body"].read()
    return found


def aws_raw_bytes(memory: Any) -> bytes:
    """All stored bytes of an AwsMemory: each DynamoDB item (binary attributes as raw bytes,
    the rest as JSON) and each S3 object's key and body."""
    parts: list[bytes] = []
    for item in dynamodb_items(memory):
        for name, value in item.items():
            if "B" in value:
                parts.append(bytes(value["B"]))
            else:
                parts.append(f"{name}={json.dumps(value, ensure_ascii=False)}".encode())
    for key, body in s3_objects(memory).items():
        parts += [key.encode(), body]
    return b"\n".join(parts)


def sqlite_raw_bytes(path: Path) -> bytes:
    """The bytes of a SQLite file and its WAL and shared-memory files, as they lie on disk."""
    return b"".join(p.read_bytes() for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


def store_raw_bytes(store: Any) -> bytes:
    """Every item a LangGraph InMemoryStore holds (namespace, key, value), as JSON."""
    items = [(list(ns), key, item.value) for ns, entries in store._data.items() for key, item in entries.items()]
    return json.dumps(items, ensure_ascii=False, default=str).encode()


def raw_bytes(backend: Any, folder: Path) -> bytes:
    memory = inner(backend)
    if hasattr(memory, "clients"):
        return aws_raw_bytes(memory)
    if hasattr(memory, "store"):
        return store_raw_bytes(memory.store)
    return sqlite_raw_bytes(memory.db.path)
