"""Ollama setup mistakes and the context window, against a local fake Ollama server (the real
ollama client and ChatOllama speak HTTP to it): a model that is not pulled or cannot call tools is
one line and exit 3, and every request carries `num_ctx` so a long prompt is not cut silently."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_ollama", reason="langchain-ollama is in the [ollama] extra")

from agent.models import context_window, history_token_budget, load_chat_model  # noqa: E402
from agent.settings import Settings  # noqa: E402
from cli.main import main  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402
from tests.fake_servers import FakeServer, Reply  # noqa: E402

CONTRACT = SAMPLES / "northwind_msa_01.txt"


def _chat_reply(text: str) -> Reply:
    return Reply(ndjson=True, body=[
        {"model": "llama3.1:8b", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": text},
         "done": True, "done_reason": "stop", "prompt_eval_count": 12, "eval_count": 3},
    ])


@pytest.mark.parametrize(("reply", "says"), [
    (Reply(status=404, body={"error": 'model "llama3.1:8b" not found, try pulling it first'}),
     "pull it first with 'ollama pull llama3.1:8b'"),
    (Reply(status=400, body={"error": "registry.ollama.ai/library/llama3.1:8b does not support tools"}),
     "cannot call tools"),
], ids=["not-pulled", "no-tools"])
def test_an_ollama_setup_mistake_gives_one_line_and_exit_3(reply, says, monkeypatch, capsys):
    with FakeServer([reply]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)  # read by the ollama client
        code = main(["review", str(CONTRACT), "--no-memory", "--model", "ollama:llama3.1:8b"])
    assert code == 3 and server.requests[0].path == "/api/chat"
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("error:") and says in err[0], err


def test_every_ollama_request_sets_the_context_window(monkeypatch):
    with FakeServer([_chat_reply("hello")]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        model = load_chat_model("ollama:llama3.1:8b", settings=Settings(ollama_num_ctx=12288))
        assert model.invoke("hi").content == "hello"
    options = server.requests[0].body["options"]
    assert options["num_ctx"] == 12288 and options["num_predict"] == 4096


def test_the_history_budget_follows_the_ollama_context_window():
    small = load_chat_model("ollama:llama3.1:8b", settings=Settings(ollama_num_ctx=8192))
    large = load_chat_model("ollama:llama3.1:8b", settings=Settings(ollama_num_ctx=32768))
    assert context_window(small, Settings()) == 8192
    small_budget = history_token_budget(small, Settings(), fixed_tokens=1500)
    assert small_budget == int((8192 - 4096) * 0.8) - 1500  # window - output budget, a margin, the tool schemas
    assert history_token_budget(large, Settings(), fixed_tokens=1500) > 4 * small_budget
    assert history_token_budget(small, Settings(compress_max_tokens=5000)) == 5000
