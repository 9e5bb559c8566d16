"""Bedrock as a real deployment meets it: read timeouts sized to the output, retries (throttling,
model timeouts, read timeouts) with a status line, usage that adds up with cached input,
structured extraction on the wire, and one line with exit code 3 for every setup mistake.

The HTTP side is a local fake server (tests/fake_servers.py) or a botocore Stubber: botocore
itself signs, sends, parses errors and retries.
"""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from agent.models import MAX_TOKENS, load_chat_model
from agent.settings import Settings
from cli.main import main
from tests.conftest import SAMPLES
from tests.fake_servers import FakeServer, Reply, bedrock_error, converse_text

boto3 = pytest.importorskip("boto3")
pytest.importorskip("langchain_aws")
from botocore.stub import ANY, Stubber  # noqa: E402

from agent.bedrock import bedrock_read_timeout  # noqa: E402

HAIKU = "anthropic.claude-3-haiku-20240307-v1:0"
CONTRACT = SAMPLES / "northwind_msa_01.txt"


@pytest.fixture
def no_sleep(monkeypatch):
    sleeps: list[float] = []
    monkeypatch.setattr("botocore.endpoint.time.sleep", sleeps.append)
    return sleeps


def test_the_read_timeout_grows_with_the_output_budget_of_each_role(aws_keys):
    for role, tokens in MAX_TOKENS.items():
        model = load_chat_model(f"bedrock:{HAIKU}", role=role, settings=Settings())
        config = model.client.meta.config
        # botocore's default is 60 s: too short for a model writing 4,096 tokens at a slow pace
        assert config.read_timeout == bedrock_read_timeout(tokens) >= 60 + tokens / 20
        assert config.retries["total_max_attempts"] == Settings().bedrock_max_attempts
    assert load_chat_model(f"bedrock:{HAIKU}", settings=Settings()).client.meta.config.read_timeout > 250
    fixed = load_chat_model(f"bedrock:{HAIKU}", settings=Settings(bedrock_read_timeout=30))
    assert fixed.client.meta.config.read_timeout == 30


def test_throttling_model_timeouts_and_outages_are_retried_with_a_status_line(aws_keys, no_sleep, capsys):
    script = [bedrock_error("ThrottlingException", "Too many requests, please wait before trying again.", 429),
              bedrock_error("ModelTimeoutException", "Model has timed out in processing the request.", 408),
              bedrock_error("ServiceUnavailableException", "Service unavailable", 503),
              converse_text("done")]
    with FakeServer(script) as server:
        model = load_chat_model(f"bedrock:{HAIKU}", settings=Settings(bedrock_endpoint_url=server.url))
        answer = model.invoke("hi")
    assert answer.content == "done" and len(server.requests) == 4
    assert unquote(server.requests[0].path) == f"/model/{HAIKU}/converse"
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 3 and len(no_sleep) == 3
    assert "ThrottlingException on Converse; retry 1 of 7" in lines[0] and f"bedrock reviewer model {HAIKU}" in lines[0]
    assert "ModelTimeoutException" in lines[1] and "retry 2 of 7" in lines[1]
    assert "ServiceUnavailableException" in lines[2]


def test_a_read_timeout_is_retried_and_shown(aws_keys, capsys):
    script = [Reply(delay=1.5, body={}), converse_text("after the timeout")]
    with FakeServer(script) as server:
        settings = Settings(bedrock_endpoint_url=server.url, bedrock_read_timeout=0.3)
        answer = load_chat_model(f"bedrock:{HAIKU}", settings=settings).invoke("hi")
    assert answer.content == "after the timeout" and len(server.requests) == 2
    assert "ReadTimeoutError on Converse; retry 1 of 7" in capsys.readouterr().err


def test_sustained_throttling_gives_up_after_the_attempts_and_said_so_each_time(aws_keys, no_sleep, capsys):
    from botocore.exceptions import ClientError

    with FakeServer([bedrock_error("ThrottlingException", "Rate exceeded", 429)]) as server:
        settings = Settings(bedrock_endpoint_url=server.url, bedrock_max_attempts=3)
        with pytest.raises(ClientError, match="ThrottlingException"):
            load_chat_model(f"bedrock:{HAIKU}", settings=settings).invoke("hi")
    assert len(server.requests) == 3
    assert capsys.readouterr().err.count("retry") == 2


def _stubbed(role: str = "reviewer"):
    client = boto3.client("bedrock-runtime", region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t")
    return client, load_chat_model(f"bedrock:{HAIKU}", role=role, settings=Settings(), client=client)


def _converse(content: list[dict], usage: dict[str, int], stop: str = "end_turn") -> dict:
    return {"output": {"message": {"role": "assistant", "content": content}}, "stopReason": stop,
            "usage": usage, "metrics": {"latencyMs": 3}}


def test_usage_adds_up_with_cached_input_and_shows_cache_reads_and_writes(settings):
    from graphs.runner import Reviewer, open_checkpointer

    client, model = _stubbed()
    first = {"inputTokens": 900, "outputTokens": 40, "cacheReadInputTokens": 0, "cacheWriteInputTokens": 2000,
             "totalTokens": 2940}
    second = {"inputTokens": 300, "outputTokens": 25, "cacheReadInputTokens": 2000, "cacheWriteInputTokens": 0,
              "totalTokens": 2325}
    with Stubber(client) as stub:
        stub.add_response("converse", _converse(
            [{"toolUse": {"toolUseId": "t1", "name": "list_sections", "input": {}}}], first, "tool_use"))
        stub.add_response("converse", _converse([{"text": "Here is my review."}], second))
        with open_checkpointer(settings) as saver:
            report = Reviewer(settings.model_copy(update={"max_nudges": 0}), saver, use_memory=False,
                              reviewer_model=model).review_path(CONTRACT)
    usage = report["usage"]
    assert usage["input_tokens"] + usage["output_tokens"] == first["totalTokens"] + second["totalTokens"]
    assert usage["cache_read_tokens"] == 2000 and usage["cache_write_tokens"] == 2000
    assert usage["model_calls"] == 2 and usage["tool_calls"] == 1
    from agent.report import render_markdown

    assert "(cache: 2,000 read, 2,000 written)" in render_markdown(report)


def test_structured_extraction_asks_bedrock_for_the_artifacts_tool_and_reads_a_sloppy_answer():
    from memory.extraction import ARTIFACTS_TOOL, extract

    client, model = _stubbed("extraction")
    answer = {"task_summary": "Review of northwind", "outcome": "completed", "key_findings": ["a: missing (high)"],
              "approach": "tools", "tools_used": ["find_clauses"], "step_count": "7",
              "fact_candidates": [{"text": "Caps sit in section 9.", "confidence": 80}],
              "procedure": {"title": "Review", "steps": [{"step": 1, "description": "List sections"}]}}
    expected = {"modelId": HAIKU, "messages": ANY, "system": [{"text": "TASK: extract-run-artifacts"}],
                "inferenceConfig": {"maxTokens": 2048, "temperature": 0.0},
                "toolConfig": {"tools": [{"toolSpec": {"name": ARTIFACTS_TOOL, "description": ANY,
                                                       "inputSchema": {"json": ANY}}}],
                               "toolChoice": {"tool": {"name": ARTIFACTS_TOOL}}}}
    with Stubber(client) as stub:
        stub.add_response("converse", _converse(
            [{"toolUse": {"toolUseId": "x1", "name": ARTIFACTS_TOOL, "input": answer}}],
            {"inputTokens": 500, "outputTokens": 120, "totalTokens": 620}, "tool_use"), expected)
        result = extract(model, [SystemMessage("TASK: extract-run-artifacts"), HumanMessage("the run")])
        stub.assert_no_pending_responses()
    assert result.method == "structured" and result.status.value == "repaired"
    assert result.artifacts.outcome == "COMPLETED" and result.artifacts.step_count == 7
    assert result.artifacts.fact_candidates[0].confidence == pytest.approx(0.8)
    assert result.artifacts.procedure.steps == ["List sections"]


# ------------------------------------------------------------------ setup mistakes: one line, exit 3


def _review(*args: str) -> list[str]:
    return ["review", str(CONTRACT), "--no-memory", "--format", "json", *args]


def _one_line(capsys) -> str:
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1, err
    return err[0]


def test_missing_aws_credentials_are_a_configuration_error(no_aws_credentials, monkeypatch, capsys):
    with FakeServer([converse_text()]) as server:
        monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", server.url)
        code = main(_review("--model", f"bedrock:{HAIKU}"))
    assert code == 3 and not server.requests
    line = _one_line(capsys)
    assert line.startswith("error:") and "needs AWS credentials" in line and "docs/BEDROCK.md" in line


@pytest.mark.parametrize(("reply", "says"), [
    (bedrock_error("AccessDeniedException", "You don't have access to the model with the specified model ID.", 403),
     "no access to Bedrock model"),
    (bedrock_error("ValidationException", "Invocation of model ID anthropic.claude-3-5-haiku-20241022-v1:0 with "
                   "on-demand throughput isn\u2019t supported. Retry your request with the ID or ARN of an inference "
                   "profile that contains this model.", 400), "bedrock:us."),
    (bedrock_error("ValidationException", "The provided model identifier is invalid.", 400), "does not know the model id"),
    (bedrock_error("ValidationException", "This model doesn't support tool use.", 400), "cannot call tools"),
    (bedrock_error("UnrecognizedClientException", "The security token included in the request is invalid.", 403),
     "refused the AWS credentials"),
    (bedrock_error("ResourceNotFoundException", "This model version has reached the end of its life.", 404),
     "is not available"),
], ids=["no-access", "needs-inference-profile", "unknown-id", "no-tool-use", "bad-credentials", "retired"])
def test_every_bedrock_setup_mistake_gives_one_line_and_exit_3(reply, says, aws_keys, monkeypatch, capsys):
    with FakeServer([reply]) as server:
        monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", server.url)
        code = main(_review("--model", f"bedrock:{HAIKU}"))
    assert code == 3 and len(server.requests) == 1  # a setup mistake is not retried
    line = _one_line(capsys)
    assert line.startswith("error:") and says in line, line


@pytest.mark.parametrize(("spec", "says"), [
    ("gpt-4", "unknown chat model"),
    ("bedrock:", "names no model"),
    ("contract_agent_no_such_pkg.models:make", "no module 'contract_agent_no_such_pkg.models'"),
    ("openai:gpt-4o", "integration package"),
])
def test_a_bad_model_spec_gives_one_line_and_exit_3(spec, says, capsys):
    assert main(_review("--model", spec)) == 3
    line = _one_line(capsys)
    assert line.startswith("error:") and says in line, line


def test_a_report_for_a_retried_call_still_is_json(aws_keys, no_sleep, monkeypatch, capsys):
    """Status lines go to stderr: a JSON report on stdout stays parseable while Bedrock throttles."""
    first = [{"toolUse": {"toolUseId": "t1", "name": "list_sections", "input": {}}}]
    script = [bedrock_error("ThrottlingException", "Rate exceeded", 429),
              Reply(body=_converse(first, {"inputTokens": 5, "outputTokens": 1, "totalTokens": 6}, "tool_use")),
              converse_text("My review is done.")]
    with FakeServer(script) as server:
        monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", server.url)
        monkeypatch.setenv("CONTRACT_AGENT_MAX_NUDGES", "0")
        code = main(_review("--model", f"bedrock:{HAIKU}"))
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 5 and report["outcome"] == "FAILED"  # the model stopped before any finding: incomplete, not a crash
    assert "ThrottlingException on Converse; retry 1 of 7" in captured.err
    assert "review incomplete (FAILED)" in captured.err
