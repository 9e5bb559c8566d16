"""Fixtures of the AWS backend tests: moto for DynamoDB and S3, botocore Stubbers for Bedrock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from botocore.stub import Stubber
from moto import mock_aws

from tests.aws.moto_support import clients, open_backend


@pytest.fixture
def aws() -> Iterator[dict[str, Any]]:
    """moto-backed clients; the Bedrock clients are wrapped in Stubbers by the tests that use them."""
    with mock_aws():
        yield clients()


class KnowledgeBaseStubs:
    """Stubbers on the bedrock-agent and bedrock-agent-runtime clients. Every call must be
    queued with its exact request, so an unexpected call (one ingestion job per fact, say)
    fails the test."""

    def __init__(self, made: dict[str, Any]) -> None:
        self.agent = Stubber(made["bedrock-agent"])
        self.runtime = Stubber(made["bedrock-agent-runtime"])

    def __enter__(self) -> KnowledgeBaseStubs:
        self.agent.activate()
        self.runtime.activate()
        return self

    def __exit__(self, *exc: object) -> None:
        self.agent.deactivate()
        self.runtime.deactivate()

    def assert_all_used(self) -> None:
        self.agent.assert_no_pending_responses()
        self.runtime.assert_no_pending_responses()


@pytest.fixture
def kb(aws) -> Iterator[tuple[Any, KnowledgeBaseStubs]]:
    """An AWS backend with a Knowledge Base (kb_id=KB12345678, batch of 3) and its stubs."""
    with KnowledgeBaseStubs(aws) as stubs:
        memory = open_backend(
            aws, extra="&kb_id=KB12345678&data_source_id=DS12345678&ingest_batch=3&kb_embedding_model=test-model"
        )
        yield memory, stubs
