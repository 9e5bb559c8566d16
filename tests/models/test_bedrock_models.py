"""Bedrock chat and embeddings from their specs, checked on the wire with botocore stubs (no network)."""

from __future__ import annotations

import io
import json

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from agent.models import load_chat_model, load_embeddings
from agent.settings import Settings
from tests.models.review_sim import TOOL_SCHEMAS

boto3 = pytest.importorskip("boto3")
pytest.importorskip("langchain_aws")
from botocore.awsrequest import AWSResponse  # noqa: E402
from botocore.response import StreamingBody  # noqa: E402
from botocore.stub import ANY, Stubber  # noqa: E402

HAIKU = "anthropic.claude-3-haiku-20240307-v1:0"
TITAN = "amazon.titan-embed-text-v2:0"


def runtime_client():
    return boto3.client("bedrock-runtime", region_name="eu-west-1", aws_access_key_id="test",
                        aws_secret_access_key="test")


def converse_answer() -> dict:
    """A fresh converse response (langchain-aws edits the dict it receives)."""
    return {
        "output": {"message": {"role": "assistant", "content": [
            {"text": "Checking the cap."},
            {"toolUse": {"toolUseId": "tu-1", "name": "assess_clause",
                         "input": {"clause_type": "liability_cap", "section": "9.2"}}}]}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 120, "outputTokens": 30, "totalTokens": 150},
        "metrics": {"latencyMs": 42},
    }


def test_bedrock_converse_request_and_tool_call_response():
    client = runtime_client()
    model = load_chat_model(f"bedrock:{HAIKU}", role="reviewer", settings=Settings(), client=client)
    expected = {
        "modelId": HAIKU,
        "messages": [{"role": "user", "content": [{"text": "Review the contract."}]}],
        "system": [{"text": "Clause types to review: liability_cap"}],
        "inferenceConfig": {"maxTokens": 4096, "temperature": 0.0},
        "toolConfig": ANY,
    }
    with Stubber(client) as stub:
        stub.add_response("converse", converse_answer(), expected)
        answer = model.bind_tools(TOOL_SCHEMAS).invoke(
            [SystemMessage("Clause types to review: liability_cap"), HumanMessage("Review the contract.")])
        stub.assert_no_pending_responses()
    assert answer.tool_calls == [{"name": "assess_clause", "args": {"clause_type": "liability_cap", "section": "9.2"},
                                  "id": "tu-1", "type": "tool_call"}]
    assert answer.usage_metadata["input_tokens"] == 120 and answer.usage_metadata["output_tokens"] == 30


def test_bedrock_tool_config_lists_the_contract_tools():
    client = runtime_client()
    model = load_chat_model(f"bedrock:{HAIKU}", settings=Settings(), client=client)
    seen = {}

    def capture(params, **kwargs):
        seen.update(params)

    client.meta.events.register("provide-client-params.bedrock-runtime.Converse", capture)
    with Stubber(client) as stub:
        stub.add_response("converse", converse_answer())
        model.bind_tools(TOOL_SCHEMAS).invoke("go")
    names = [t["toolSpec"]["name"] for t in seen["toolConfig"]["tools"]]
    assert names == ["list_sections", "read_section", "search_contract", "find_clauses", "assess_clause",
                     "record_finding"]


def test_bedrock_compression_role_gets_a_smaller_output_budget():
    model = load_chat_model(f"bedrock:{HAIKU}", role="compression", settings=Settings(), client=runtime_client())
    assert model.max_tokens == 1024 and model.temperature == 0.0


class _Raw:
    def __init__(self, body: bytes):
        self.body = body

    def stream(self, **kwargs):
        yield self.body


def test_bedrock_throttling_is_retried_with_backoff(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    sleeps: list[float] = []
    monkeypatch.setattr("botocore.endpoint.time.sleep", sleeps.append)
    model = load_chat_model(f"bedrock:{HAIKU}", settings=Settings(bedrock_region="eu-west-1"))
    sent: list[str] = []

    def send(request, **kwargs):  # stands in for the HTTP layer, below botocore's retry handling
        sent.append(request.url)
        if len(sent) <= 3:
            return AWSResponse(request.url, 429, {"x-amzn-ErrorType": "ThrottlingException"},
                               _Raw(b'{"message": "Rate exceeded"}'))
        return AWSResponse(request.url, 200, {}, _Raw(json.dumps(converse_answer()).encode()))

    model.client.meta.events.register("before-send.bedrock-runtime.Converse", send)
    answer = model.invoke("hi")
    assert answer.tool_calls[0]["name"] == "assess_clause"
    assert len(sent) == 4 and "bedrock-runtime.eu-west-1" in sent[0]
    assert len(sleeps) == 3 and all(s > 0 for s in sleeps)


def test_bedrock_titan_embeddings_through_invoke_model():
    client = runtime_client()
    embeddings = load_embeddings(f"bedrock:{TITAN}", settings=Settings(), client=client)
    body = json.dumps({"embedding": [0.1, 0.2, 0.3], "inputTextTokenCount": 3}).encode()
    with Stubber(client) as stub:
        stub.add_response("invoke_model", {"body": StreamingBody(io.BytesIO(body), len(body)),
                                           "contentType": "application/json"},
                          {"modelId": TITAN, "body": ANY, "accept": "application/json",
                           "contentType": "application/json"})
        vector = embeddings.embed_query("liability cap")
    assert vector == pytest.approx([0.1, 0.2, 0.3])
    from memory.embeddings import model_name_of

    assert model_name_of(embeddings) == TITAN
