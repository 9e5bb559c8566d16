"""Parsing of `aws://?...` memory URLs into the typed settings of the AWS backend."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from pydantic import BaseModel, Field, ValidationError, field_validator

from memory.errors import MemoryConfigError

KB_SPEC_PREFIX = "bedrock:"  # a Knowledge Base embeds with a Bedrock model only
_EXAMPLE = "aws://?region=us-east-1&table_prefix=cma&bucket=my-memory&kb_id=KB123&data_source_id=DS123"


class AwsConfig(BaseModel, frozen=True):
    """Where the AWS backend keeps each tier.

    Without `bucket` facts live only in the DynamoDB table (development); with `kb_id` and
    `data_source_id` they are also written to S3 and searched through the Knowledge Base. With
    `vector_bucket`, episodes (and facts the Knowledge Base cannot answer for) are searched in
    S3 Vectors, one index per tenant, and only the hits are read from DynamoDB.
    """

    region: str = "us-east-1"
    table_prefix: str = Field(default="cma", pattern=r"^[A-Za-z0-9_.-]{1,200}$")
    bucket: str | None = None
    facts_prefix: str = "facts"  # S3 key prefix of fact documents
    kb_id: str | None = None
    data_source_id: str | None = None
    # when set, KB scores are used only for queries of this model (`memory.embeddings.model_name_of`)
    kb_embedding_model: str | None = None
    ingest_batch: int = Field(default=20, ge=1)  # waiting changes that start an ingestion job
    # S3 Vectors bucket of the episode (and fact) indexes; None = searches read DynamoDB partitions
    vector_bucket: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$")
    endpoint_url: str | None = None  # moto / LocalStack
    profile: str | None = None
    create_tables: bool = False  # create missing tables on open (tests, local development)
    max_attempts: int = Field(default=8, ge=1)  # botocore retries with backoff on throttling
    telemetry_days: int = Field(default=180, ge=1)  # TTL of retrieval telemetry items

    @field_validator("kb_embedding_model")
    @classmethod
    def _bare_model_name(cls, value: str | None) -> str | None:
        """Accept the embeddings spec form too: "bedrock:amazon.titan-embed-text-v2:0" names the
        model whose vectors record "amazon.titan-embed-text-v2:0"; comparing the spec with the
        recorded name would judge the Knowledge Base unusable for every query."""
        if value and value.startswith(KB_SPEC_PREFIX):
            return value[len(KB_SPEC_PREFIX):] or None
        return value or None

    @property
    def uses_knowledge_base(self) -> bool:
        return bool(self.kb_id)


def parse_aws_url(url: str) -> AwsConfig:
    """`aws://?region=...&table_prefix=...&bucket=...&kb_id=...&data_source_id=...&endpoint_url=...`"""
    parts = urlsplit(url)
    if parts.scheme != "aws":
        raise MemoryConfigError(f"not an AWS memory URL: {url!r}; expected e.g. {_EXAMPLE}")
    params: dict[str, str] = {}
    for name, values in parse_qs(parts.query, keep_blank_values=False, strict_parsing=False).items():
        if len(values) != 1:
            raise MemoryConfigError(f"memory URL parameter {name!r} is given {len(values)} times")
        params[name] = values[0]
    unknown = sorted(set(params) - set(AwsConfig.model_fields))
    if unknown:
        raise MemoryConfigError(
            f"unknown memory URL parameter(s) {', '.join(unknown)}; "
            f"known: {', '.join(AwsConfig.model_fields)}"
        )
    try:
        config = AwsConfig(**params)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise MemoryConfigError(f"invalid AWS memory URL {url!r}: {problems}") from exc
    if bool(config.kb_id) != bool(config.data_source_id):
        raise MemoryConfigError("set both kb_id and data_source_id in the memory URL, or neither")
    if config.kb_id and not config.bucket:
        raise MemoryConfigError("kb_id needs the bucket its data source reads: add bucket=... to the memory URL")
    return config
