"""The AWS memory backend: DynamoDB, S3 Vectors, S3 + Bedrock Knowledge Base, from an `aws://` URL.

`open_aws_memory("aws://?region=us-east-1&table_prefix=cma&bucket=...&kb_id=...&data_source_id=...")`
returns an `AwsMemory` with the four stores of `memory.stores`. boto3 is imported only here and
only when a backend is opened (install the `aws` extra). Tables, bucket, Knowledge Base and IAM
come from `infrastructure/` (Terraform); `create_tables=true` creates the tables for local tests.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from memory.backends.aws import schema
from memory.backends.aws.codec import aws_errors, error_code
from memory.backends.aws.config import AwsConfig, parse_aws_url
from memory.backends.aws.confirmations import DynamoConfirmationLog
from memory.backends.aws.episodes import DynamoEpisodeStore
from memory.backends.aws.facts import DynamoFactStore
from memory.backends.aws.forget import AwsErasure
from memory.backends.aws.knowledge_base import KnowledgeBaseIndex
from memory.backends.aws.procedures import DynamoProcedureStore
from memory.backends.aws.reembed import DynamoReembedding
from memory.backends.aws.telemetry import DynamoTelemetry
from memory.backends.aws.vectors import S3VectorIndex
from memory.errors import MemoryBackendError, MemoryConfigError
from memory.records import Namespace

__all__ = ["AwsConfig", "AwsMemory", "open_aws_memory", "parse_aws_url", "make_clients"]

log = logging.getLogger(__name__)

SERVICES = ("dynamodb", "s3", "s3vectors", "bedrock-agent", "bedrock-agent-runtime")


def make_clients(config: AwsConfig) -> dict[str, Any]:
    """boto3 clients for the backend, retrying throttled calls with adaptive backoff."""
    try:
        import boto3
        from botocore.config import Config
    except ImportError as exc:
        raise MemoryConfigError(
            "the AWS memory backend needs boto3: pip install 'contract-memory-agent[aws]'"
        ) from exc
    session = boto3.session.Session(profile_name=config.profile, region_name=config.region)
    retries = {"max_attempts": config.max_attempts, "mode": "adaptive"}
    clients: dict[str, Any] = {}
    for service in SERVICES:
        local = service in ("dynamodb", "s3", "s3vectors") and config.endpoint_url  # moto / LocalStack
        options: dict[str, Any] = {"retries": retries}
        if service == "s3" and local:
            options["s3"] = {"addressing_style": "path"}
        clients[service] = session.client(
            service, endpoint_url=config.endpoint_url if local else None, config=Config(**options)
        )
    return clients


class AwsMemory:
    """The four stores of `memory.stores.MemoryBackend` on AWS (plus `flush` for ingestion)."""

    concurrent_reads = True  # every read is a network round trip: the bootstrap overlaps them

    def __init__(self, config: AwsConfig, clients: Mapping[str, Any] | None = None) -> None:
        self.config = config
        given = dict(clients or {})
        missing = [s for s in SERVICES if s not in given]
        if missing:
            given = {**make_clients(config), **given}
        self.clients = given
        db = given["dynamodb"]
        missing_tables = self._missing_tables(db)
        if missing_tables and config.create_tables:
            with aws_errors("create the memory tables"):
                schema.create_tables(db, config.table_prefix, only=set(missing_tables))
        elif missing_tables:
            raise MemoryConfigError(
                f"DynamoDB table(s) {', '.join(missing_tables)} do not exist in {config.region}: apply "
                "infrastructure/ (terraform apply) or check table_prefix in the memory URL"
            )
        index = (
            KnowledgeBaseIndex(config, given["s3"], given["bedrock-agent"], given["bedrock-agent-runtime"])
            if config.bucket
            else None
        )
        self.vectors = (S3VectorIndex(given["s3vectors"], config.vector_bucket, config.table_prefix)
                        if config.vector_bucket else None)
        self.episodes = DynamoEpisodeStore(db, self._name(schema.EPISODES), self.vectors)
        self.facts = DynamoFactStore(db, self._name(schema.FACTS), config, index, self.vectors)
        self.procedures = DynamoProcedureStore(db, self._name(schema.PROCEDURES))
        self.confirmations = DynamoConfirmationLog(db, self._name(schema.CONFIRMATIONS))
        self.telemetry = DynamoTelemetry(db, self._name(schema.TELEMETRY), config.telemetry_days)
        self.reembedding = DynamoReembedding(self)
        self.erasure = AwsErasure(self)  # memory.forget: tenant erasure, run quarantine

    def _name(self, table: str) -> str:
        return schema.table_name(self.config.table_prefix, table)

    def _missing_tables(self, db: Any) -> list[str]:
        from botocore.exceptions import ClientError

        missing = []
        for table in schema.TABLES:
            try:
                db.describe_table(TableName=self._name(table))
            except ClientError as exc:
                if error_code(exc) != "ResourceNotFoundException":
                    raise MemoryBackendError(f"cannot reach DynamoDB table {self._name(table)!r}: {exc}") from exc
                missing.append(self._name(table))
        return missing

    def namespaces(self) -> list[Namespace]:
        """Every tenant/agent namespace holding episodes or procedures (for the decay job).

        A keys-only Scan of both tables: DynamoDB bills a Scan by the size of the items it
        reads, so this is one full read of each table per call -- fine once a day (about
        $0.13 per million 4 KB episodes on demand), not something to call per request.
        """
        found: set[str] = set()
        with aws_errors("list the namespaces in memory"):
            for table in (schema.EPISODES, schema.PROCEDURES):
                request: dict[str, Any] = {
                    "TableName": schema.table_name(self.config.table_prefix, table),
                    "ProjectionExpression": "#pk",
                    "ExpressionAttributeNames": {"#pk": schema.PK},
                }
                while True:
                    page = self.clients["dynamodb"].scan(**request)
                    found.update(item[schema.PK]["S"] for item in page.get("Items", []))
                    if not page.get("LastEvaluatedKey"):
                        break
                    request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        spaces = []
        for key in sorted(found):
            tenant, _, agent = key.partition("/")
            spaces.append(Namespace(tenant=tenant, agent=agent))
        return spaces

    def forget_tenant(self, tenant: str) -> dict[str, int]:
        """Erase every item and fact document of `tenant` (see memory.backends.aws.forget)."""
        return self.erasure.forget_tenant(tenant)

    def flush(self) -> list[str]:
        """Start Knowledge Base ingestion for every namespace written by this process."""
        jobs = [self.facts.flush(ns) for _, ns in sorted(self.facts.touched.items())]
        return [job for job in jobs if job]

    def close(self) -> None:
        """Start ingestion for what this process wrote. A failure is logged, not raised: the
        facts are stored and searchable, and their batch goes with the next flush."""
        try:
            self.flush()
        except MemoryBackendError as exc:
            log.warning("Knowledge Base ingestion not started on close (retried on the next flush): %s", exc)


def open_aws_memory(url: str, *, clients: Mapping[str, Any] | None = None) -> AwsMemory:
    """Open the AWS backend described by an `aws://?...` memory URL (see `AwsConfig`)."""
    return AwsMemory(parse_aws_url(url), clients=clients)
