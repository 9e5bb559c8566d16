"""AWS backends for tests: moto in-process (`mock_aws`) and over HTTP (`ThreadedMotoServer`).

Clients get explicit fake credentials, so no test reads the developer's AWS configuration or
reaches AWS. Each backend gets its own table prefix, bucket and vector bucket, so tests never
share data even on the one HTTP server that all server-backed tests reuse. moto stores S3 Vectors
but has no QueryVectors: the s3vectors client answers that call in process from moto's stored
vectors (`bench.s3vectors_fake`), and the backends using it say so in their names.
"""

from __future__ import annotations

import atexit
import functools
import threading
import uuid
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from moto import mock_aws

from memory.backends.aws import AwsMemory, open_aws_memory

REGION = "us-east-1"
_CREDENTIALS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": REGION}
_server_lock = threading.Lock()
_write_lock = threading.RLock()


def _serialise_moto_writes() -> None:
    """DynamoDB applies each write to an item atomically (so `ADD` counters never lose a count);
    moto implements writes as unlocked read-modify-write in Python, so concurrent tests would
    measure moto's races instead of the backend. One lock restores DynamoDB's guarantee."""
    from moto.dynamodb.models import DynamoDBBackend

    for name in ("put_item", "update_item", "delete_item", "transact_write_items"):
        original = getattr(DynamoDBBackend, name)
        if getattr(original, "_serialised", False):
            continue

        def locked(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
            with _write_lock:
                return __original(self, *args, **kwargs)

        locked._serialised = True  # type: ignore[attr-defined]
        setattr(DynamoDBBackend, name, locked)


_serialise_moto_writes()
_server: dict[str, Any] = {}


@functools.cache
def clients(endpoint_url: str | None = None) -> dict[str, Any]:
    """Clients made once per endpoint: moto 5 intercepts requests of clients made before
    `mock_aws` started, and building botocore clients dominates a test's set-up time."""
    config = Config(retries={"max_attempts": 2, "mode": "standard"}, s3={"addressing_style": "path"})
    from bench.s3vectors_fake import install

    made = {
        service: boto3.client(service, endpoint_url=endpoint_url, config=config, **_CREDENTIALS)
        for service in ("dynamodb", "s3", "s3vectors", "bedrock-agent", "bedrock-agent-runtime")
    }
    install(made["s3vectors"])
    return made


def open_backend(made: dict[str, Any], *, endpoint_url: str | None = None, extra: str = "",
                 vectors: bool = True) -> AwsMemory:
    """A fresh backend (own tables, bucket and vector bucket) on already-mocked clients;
    `vectors=False` leaves out the vector bucket (searches then read DynamoDB partitions)."""
    suffix = uuid.uuid4().hex[:10]
    bucket = f"memory-{suffix}"
    made["s3"].create_bucket(Bucket=bucket)
    url = f"aws://?region={REGION}&table_prefix=t{suffix}&bucket={bucket}&create_tables=true{extra}"
    if vectors:
        made["s3vectors"].create_vector_bucket(vectorBucketName=f"vectors-{suffix}")
        url += f"&vector_bucket=vectors-{suffix}"
    if endpoint_url:
        url += f"&endpoint_url={endpoint_url}"
    return open_aws_memory(url, clients=made)


class _MockedMemory:
    """An AwsMemory inside its own `mock_aws` context, ended by `close()`."""

    def __init__(self, extra: str = "", vectors: bool = True) -> None:
        self._mock = mock_aws()
        self._mock.start()
        self.memory = open_backend(clients(), extra=extra, vectors=vectors)
        self.episodes = self.memory.episodes
        self.facts = self.memory.facts
        self.procedures = self.memory.procedures
        self.confirmations = self.memory.confirmations

    def close(self) -> None:
        try:
            self.memory.close()
        finally:
            self._mock.stop()


def moto_backend(folder: Path) -> _MockedMemory:
    return _MockedMemory()


def moto_partition_backend(folder: Path) -> _MockedMemory:
    """No vector bucket: searches read the DynamoDB partition (the development set-up)."""
    return _MockedMemory(vectors=False)


def server_url() -> str:
    """The shared moto HTTP server on 127.0.0.1 (a free port), started on first use."""
    with _server_lock:
        if "url" not in _server:
            from moto.server import ThreadedMotoServer

            server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
            server.start()
            host, port = server.get_host_and_port()
            _server.update(server=server, url=f"http://{host}:{port}")
            atexit.register(server.stop)
        return _server["url"]


def server_backend(folder: Path) -> AwsMemory:
    url = server_url()
    return open_backend(clients(url), endpoint_url=url)
