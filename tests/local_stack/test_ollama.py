"""Ollama through langchain-ollama, tested without an Ollama server (none can run here).

What is checked: the `ollama:<name>` specs build the right langchain-ollama objects with our
settings, bind the contract tools, fail fast when no server answers, and Ollama
embeddings (any model nobody calibrated) run through the graph once thresholds are set.
"""

from __future__ import annotations

import socket
import time

import httpx
import pytest

pytest.importorskip("langchain_ollama", reason="langchain-ollama is in the [ollama] extra")

from langchain_ollama import ChatOllama, OllamaEmbeddings  # noqa: E402

from agent.errors import ConfigurationError  # noqa: E402
from agent.models import load_chat_model, load_embeddings  # noqa: E402
from agent.settings import Settings  # noqa: E402
from graphs.runner import build_graph, context_from_settings  # noqa: E402
from memory.embeddings import HashEmbeddings  # noqa: E402
from memory.errors import MemoryConfigError  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def test_each_role_gets_its_own_output_budget_and_deterministic_sampling():
    built = {role: load_chat_model("ollama:qwen2.5:7b", role=role, settings=Settings())
             for role in ("reviewer", "compression", "extraction")}
    assert {role: (m.model, m.temperature, m.num_predict) for role, m in built.items()} == {
        "reviewer": ("qwen2.5:7b", 0.0, 4096),
        "compression": ("qwen2.5:7b", 0.0, 1024),
        "extraction": ("qwen2.5:7b", 0.0, 2048),
    }  # a model tag with its own colon keeps it


def test_the_contract_tools_bind_to_an_ollama_model_without_a_server():
    from tools import TOOLS

    bound = load_chat_model("ollama:llama3.2", settings=Settings()).bind_tools(TOOLS)
    names = [tool["function"]["name"] for tool in bound.kwargs["tools"]]
    assert names == [tool.name for tool in TOOLS] and "record_finding" in names


@pytest.mark.parametrize("spec", ["ollama:", "ollama:   "])
def test_an_ollama_spec_without_a_model_name_is_a_configuration_error(spec):
    with pytest.raises(ConfigurationError, match="names no model"):
        load_chat_model(spec, settings=Settings())
    with pytest.raises(ConfigurationError, match="names no model"):
        load_embeddings(spec, settings=Settings())


def test_no_server_answering_fails_fast_with_a_connection_error(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{_closed_port()}")  # read by the ollama client
    chat = load_chat_model("ollama:llama3.2", settings=Settings())
    embeddings = load_embeddings("ollama:nomic-embed-text", settings=Settings())
    assert isinstance(embeddings, OllamaEmbeddings) and isinstance(chat, ChatOllama)
    started = time.monotonic()
    with pytest.raises(httpx.ConnectError, match="refused"):  # the chat client does not rename it
        chat.invoke("hello")
    with pytest.raises(ConnectionError, match="Failed to connect to Ollama"):
        embeddings.embed_query("hello")
    assert time.monotonic() - started < 10  # refused at once, no retry loop hanging a review


class LocalVectorsOllamaEmbeddings(OllamaEmbeddings):
    """Ollama embeddings whose vectors come from a local hash model: the graph sees an
    OllamaEmbeddings (its name, its attributes) without a server."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return HashEmbeddings(64).embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return HashEmbeddings(64).embed_query(text)


def _review(tmp_path, settings: Settings, thread: str, name: str) -> dict:
    ctx = context_from_settings(
        settings, tenant="acme", agent="ollama-user", memory=f"sqlite:///{tmp_path / 'memory.sqlite'}",
        reviewer_model="offline", compression_model="offline", extraction_model="offline",
        embeddings=LocalVectorsOllamaEmbeddings(model="nomic-embed-text"),
    )
    payload = {"contract_text": (SAMPLES / f"{name}.txt").read_text(), "contract_name": name}
    return build_graph().invoke(payload, {"configurable": {"thread_id": thread}, "recursion_limit": 400}, context=ctx)


def test_uncalibrated_ollama_embeddings_ask_for_thresholds_then_remember(tmp_path):
    with pytest.raises(MemoryConfigError, match="no calibrated similarity thresholds for embedding model 'nomic-embed-text'"):
        _review(tmp_path, Settings(home=tmp_path / "home"), "t0", "northwind_msa_01")
    tuned = Settings(home=tmp_path / "home", episode_min_score=0.3, fact_min_score=0.3)
    first = _review(tmp_path, tuned, "t1", "northwind_msa_01")
    second = _review(tmp_path, tuned, "t2", "northwind_msa_02")
    assert [e["item"]["run_id"] for e in second["episodes"]] == [first["run_id"]]
    assert second["episodes"][0]["item"]["embedding_model"] == "nomic-embed-text"  # the vector names its model
