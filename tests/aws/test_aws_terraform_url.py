"""The memory URL `terraform output memory_url` prints really searches the Knowledge Base.

The URL is read from infrastructure/outputs.tf (python-hcl2), its interpolations filled with the
variables' defaults and made-up resource ids, and the backend is built from it. The fact search
goes through the real Bedrock embeddings class (its `invoke_model` answered by a botocore
Stubber), so the model name compared with `kb_embedding_model` is the one every stored vector
records. DynamoDB and S3 are moto; the Knowledge Base `retrieve` is a Stubber that must be called.
"""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from memory.backends.aws import open_aws_memory, schema
from memory.records import Fact, Namespace
from tests.aws.moto_support import REGION

hcl2 = pytest.importorskip("hcl2")
pytest.importorskip("langchain_aws")

INFRA = Path(__file__).resolve().parents[2] / "infrastructure"
NS = Namespace(tenant="acme", agent="reviewer")
NOW = datetime(2026, 6, 1, tzinfo=UTC)
KB_ID, DS_ID = "KBTF000001", "DSTF000001"


def _unquote(value):
    return value[1:-1] if isinstance(value, str) and value[:1] == value[-1:] == '"' else value


def _variable_defaults() -> dict[str, object]:
    parsed = hcl2.loads((INFRA / "variables.tf").read_text())
    return {_unquote(name): _unquote(body.get("default")) for block in parsed["variable"]
            for name, body in block.items()}


def terraform_memory_url(bucket: str, vector_bucket: str) -> str:
    """outputs.tf's memory_url with every `${...}` filled in as `terraform apply` would."""
    parsed = hcl2.loads((INFRA / "outputs.tf").read_text())
    template = next(_unquote(body["value"]) for block in parsed["output"] for name, body in block.items()
                    if _unquote(name) == "memory_url")
    values = {f"var.{name}": value for name, value in _variable_defaults().items()}
    values.update({"aws_s3_bucket.facts.id": bucket, "module.s3_vectors.knowledge_base_id": KB_ID,
                   "aws_bedrockagent_data_source.facts.data_source_id": DS_ID, "var.region": REGION,
                   "module.s3_vectors.memory_bucket_name": vector_bucket})

    def fill(match: re.Match[str]) -> str:
        if match.group(1) not in values:
            raise AssertionError(f"outputs.tf interpolates {match.group(1)!r}, which this test cannot fill")
        return str(values[match.group(1)])

    return re.sub(r"\$\{([^}]+)\}", fill, template)


def _titan_embeddings(model_id: str):
    """The embeddings `bedrock:<id>` loads, answering one embed call with a fixed vector."""
    from agent.models import load_embeddings

    runtime = boto3.client("bedrock-runtime", region_name=REGION, aws_access_key_id="test",
                           aws_secret_access_key="test")
    stub = Stubber(runtime)
    body = json.dumps({"embedding": [1.0, 0.0, 0.0], "inputTextTokenCount": 3}).encode()
    stub.add_response("invoke_model", {"body": StreamingBody(io.BytesIO(body), len(body)),
                                       "contentType": "application/json"})
    stub.activate()
    return load_embeddings(f"bedrock:{model_id}", client=runtime), stub


def test_the_url_terraform_prints_searches_the_knowledge_base(aws):
    from memory import semantic

    bucket, vector_bucket = "tf-memory-facts", "tf-memory-vectors"
    aws["s3"].create_bucket(Bucket=bucket)
    aws["s3vectors"].create_vector_bucket(vectorBucketName=vector_bucket)
    url = terraform_memory_url(bucket, vector_bucket)
    config_prefix = _variable_defaults()["table_prefix"]
    schema.create_tables(aws["dynamodb"], str(config_prefix))
    memory = open_aws_memory(url, clients=aws)
    assert memory.config.kb_id == KB_ID and memory.config.bucket == bucket
    assert memory.config.vector_bucket == vector_bucket  # episodes are searched in S3 Vectors

    model_id = str(_variable_defaults()["embedding_model_id"])
    embeddings, embed_stub = _titan_embeddings(model_id)
    retrieve = Stubber(aws["bedrock-agent-runtime"])
    retrieve.add_response("retrieve", {"retrievalResults": [{
        "content": {"text": "suppliers cap liability at twice the fees"}, "score": 0.83,
        "metadata": {"tenant": NS.tenant, "domain": "supply", "fact_id": "cap-2x"}}]})
    memory.facts.put(NS, Fact(fact_id="cap-2x", domain="supply", text="suppliers cap liability at twice the fees",
                              confidence=0.8, source_runs=["r1", "r2", "r3"], created_at=NOW, updated_at=NOW,
                              embedding_model=model_id), [0.0, 1.0, 0.0])
    with retrieve:
        found = semantic.recall(memory.facts, embeddings, NS, "liability cap", domain="supply", k=3,
                                min_score=0.6, now=NOW)
        retrieve.assert_no_pending_responses()  # the Knowledge Base was asked
    embed_stub.assert_no_pending_responses()
    assert [(s.item.fact_id, round(s.score, 2)) for s in found] == [("cap-2x", 0.83)]


def test_the_spec_form_of_the_model_name_is_read_as_the_name_vectors_record():
    from memory.backends.aws.config import parse_aws_url

    base = "aws://?bucket=b&kb_id=KB1&data_source_id=DS1&kb_embedding_model="
    assert parse_aws_url(base + "bedrock:amazon.titan-embed-text-v2:0").kb_embedding_model == \
        "amazon.titan-embed-text-v2:0"
    assert parse_aws_url(base + "amazon.titan-embed-text-v2:0").kb_embedding_model == "amazon.titan-embed-text-v2:0"
