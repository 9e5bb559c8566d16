"""Every role's model (reviewer, compression, extraction) is checked before the first contract:
a model that cannot be reached, an unknown model, missing credentials or a missing AWS profile
end the command with exit 3 and one line naming the role and the setting, no traceback
(issue 29). A model that fails in the middle of a run is reported in the run's outcome and on
the CLI's last line. The network is never used: botocore talks to a local port that refuses or
to a local fake server, and Ollama's client to a refusing port."""

from __future__ import annotations

import json
import socket

import pytest

from cli.main import main
from tests.conftest import SAMPLES
from tests.fake_servers import FakeServer, bedrock_error

pytest.importorskip("boto3")
pytest.importorskip("langchain_aws")

HAIKU = "anthropic.claude-3-haiku-20240307-v1:0"
CONTRACT = SAMPLES / "northwind_msa_01.txt"


@pytest.fixture
def one_attempt(aws_keys, monkeypatch):
    """Fake AWS keys, and one attempt per Bedrock call (a refused connection is not retried)."""
    monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_MAX_ATTEMPTS", "1")


@pytest.fixture
def refusing_port() -> int:
    """A loopback port nothing listens on (connections are refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _review(*args: str) -> list[str]:
    return ["review", str(CONTRACT), "--format", "json", *args]


def _one_line(captured) -> str:
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize("role", ["reviewer", "compression", "extraction"])
def test_an_unreachable_bedrock_model_of_any_role_is_exit_3_before_the_first_contract(
        role, one_attempt, refusing_port, monkeypatch, capsys):
    monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", f"http://127.0.0.1:{refusing_port}")
    monkeypatch.setenv(f"CONTRACT_AGENT_{role.upper()}_MODEL", f"bedrock:{HAIKU}")
    code = main(_review())
    captured = capsys.readouterr()
    line = _one_line(captured)
    assert code == 3 and captured.out == ""
    assert line.startswith("error:") and f"{role} model" in line and f"CONTRACT_AGENT_{role.upper()}_MODEL" in line
    assert "cannot be reached" in line


def test_an_unreachable_ollama_compression_model_is_exit_3_naming_the_role(refusing_port, monkeypatch, capsys):
    pytest.importorskip("langchain_ollama")
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{refusing_port}")
    monkeypatch.setenv("CONTRACT_AGENT_COMPRESSION_MODEL", "ollama:llama3.1")
    code = main(_review())
    captured = capsys.readouterr()
    line = _one_line(captured)
    assert code == 3 and "compression model" in line and "CONTRACT_AGENT_COMPRESSION_MODEL" in line


@pytest.mark.parametrize("role", ["reviewer", "extraction"])
def test_aws_profile_naming_a_missing_profile_is_exit_3_naming_the_role_and_aws_profile(
        role, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("AWS_PROFILE", "no-such-profile")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv(f"CONTRACT_AGENT_{role.upper()}_MODEL", f"bedrock:{HAIKU}")
    code = main(_review())
    line = _one_line(capsys.readouterr())
    assert code == 3 and f"{role} model" in line and "AWS_PROFILE" in line and "no-such-profile" in line


def test_missing_credentials_for_the_compression_model_are_exit_3_before_any_review(no_aws_credentials, monkeypatch,
                                                                                   capsys):
    monkeypatch.setenv("CONTRACT_AGENT_COMPRESSION_MODEL", f"bedrock:{HAIKU}")
    with FakeServer([bedrock_error("ValidationException", "unused", 400)]) as server:
        monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", server.url)
        code = main(_review())
    captured = capsys.readouterr()
    line = _one_line(captured)
    assert code == 3 and not server.requests and captured.out == ""
    assert "compression model" in line and "CONTRACT_AGENT_COMPRESSION_MODEL" in line and "credentials" in line


def test_an_unknown_extraction_model_is_exit_3_before_any_review(one_attempt, monkeypatch, capsys):
    with FakeServer([bedrock_error("ValidationException", "The provided model identifier is invalid.", 400)]) as server:
        monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", server.url)
        monkeypatch.setenv("CONTRACT_AGENT_EXTRACTION_MODEL", "bedrock:anthropic.claude-nonexistent-v9:0")
        code = main(_review())
    captured = capsys.readouterr()
    line = _one_line(captured)
    assert code == 3 and len(server.requests) == 1 and captured.out == ""  # one check call, no review
    assert "extraction model" in line and "CONTRACT_AGENT_EXTRACTION_MODEL" in line and "does not know the model id" in line


def test_one_model_for_every_role_is_checked_once_and_named_by_its_setting(one_attempt, refusing_port, monkeypatch,
                                                                          capsys):
    monkeypatch.setenv("CONTRACT_AGENT_BEDROCK_ENDPOINT_URL", f"http://127.0.0.1:{refusing_port}")
    code = main(_review("--model", f"bedrock:{HAIKU}"))
    line = _one_line(capsys.readouterr())
    assert code == 3 and "reviewer, compression and extraction model" in line and "--model" in line


def test_a_reviewer_that_fails_mid_run_is_reported_in_the_outcome_and_the_last_line(capsys):
    code = main(_review("--no-memory", "--model", "tests.models.failing_models:flaky_reviewer"))
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 5 and report["outcome"] in ("PARTIAL", "FAILED")
    assert "reviewer model failed" in report["incomplete"]["reason"]
    last = [line for line in captured.err.splitlines() if line.strip()][-1]
    assert "reviewer model failed" in last and "ConnectionRefusedError" in last or "Unreachable" in last
    assert "Traceback" not in captured.err


def test_a_compression_model_that_fails_mid_run_leaves_the_graph_digest_and_says_so(capsys, monkeypatch):
    monkeypatch.setenv("CONTRACT_AGENT_COMPRESSION_MODEL", "tests.models.failing_models:down_summariser")
    code = main(_review("--no-memory"))
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 0 and report["outcome"] == "COMPLETED"
    assert report["review_loop"]["compression_failures"] >= 1
    assert report["review_loop"]["summaries_rejected"] == report["review_loop"]["compressions"]
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "compression model failed" in lines[-1] and "Traceback" not in captured.err
