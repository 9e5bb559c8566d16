"""load_chat_model / load_embeddings: specs, instances, roles and actionable configuration errors."""

from __future__ import annotations

import builtins

import pytest
from langchain_core.embeddings import Embeddings

from agent.errors import ConfigurationError
from agent.models import load_chat_model, load_embeddings
from agent.offline import OfflineReviewerModel, ScriptedChatModel
from agent.settings import Settings

HAIKU = "anthropic.claude-3-haiku-20240307-v1:0"
TITAN = "amazon.titan-embed-text-v2:0"


def test_offline_spec_gives_the_offline_reviewer_for_each_role():
    settings = Settings(domain="logistics_contracts")
    for role in ("reviewer", "compression", "extraction"):
        model = load_chat_model("offline", role=role, settings=settings)
        assert isinstance(model, OfflineReviewerModel)
        assert model.model == f"offline-{role}" and model.domain == "logistics_contracts"


def test_instances_pass_through_unchanged():
    model = ScriptedChatModel(responses=["x"])
    assert load_chat_model(model) is model

    class Tiny(Embeddings):
        def embed_documents(self, texts):
            return [[1.0] for _ in texts]

        def embed_query(self, text):
            return [1.0]

    tiny = Tiny()
    assert load_embeddings(tiny) is tiny


@pytest.mark.parametrize("spec", ["gpt-4", "offline:big", "bedrock:", "ollama: ", "no such model", "realistic:x"])
def test_unknown_chat_specs_name_the_accepted_forms(spec):
    with pytest.raises(ConfigurationError, match=r"'offline'|whole number") as raised:
        load_chat_model(spec, settings=Settings())
    if "whole number" not in str(raised.value):
        assert "'bedrock:<model id>'" in str(raised.value) and "'package.module:factory'" in str(raised.value)


def test_unknown_role_and_embeddings_specs_are_configuration_errors():
    with pytest.raises(ConfigurationError, match="unknown model role 'judge'"):
        load_chat_model("offline", role="judge", settings=Settings())
    with pytest.raises(ConfigurationError, match=r"'wordllama'.*'hash:<dim>'.*'bedrock:amazon.titan-embed-text-v2:0'"):
        load_embeddings("minilm", settings=Settings())
    with pytest.raises(ConfigurationError, match="hash embeddings take a dimension"):
        load_embeddings("hash:big", settings=Settings())


def test_offline_embeddings_come_from_memory_embeddings():
    embeddings = load_embeddings("hash:64")
    assert embeddings.model_name == "hash-64"
    assert len(embeddings.embed_query("liability cap")) == 64


def test_missing_extra_is_an_actionable_configuration_error(monkeypatch):
    real_import = builtins.__import__

    def no_cloud(name, *args, **kwargs):
        if name.startswith(("langchain_aws", "langchain_ollama")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cloud)
    with pytest.raises(ConfigurationError, match=r"install the \[aws\] extra"):
        load_chat_model(f"bedrock:{HAIKU}", settings=Settings())
    with pytest.raises(ConfigurationError, match=r"install the \[ollama\] extra"):
        load_chat_model("ollama:llama3.2", settings=Settings())
    with pytest.raises(ConfigurationError, match=r"install the \[ollama\] extra"):
        load_embeddings("ollama:nomic-embed-text", settings=Settings())


def test_ollama_specs_build_local_models_without_contacting_a_server():
    pytest.importorskip("langchain_ollama")
    chat = load_chat_model("ollama:llama3.2", role="compression", settings=Settings())
    assert type(chat).__name__ == "ChatOllama" and chat.model == "llama3.2" and chat.num_predict == 1024
    embeddings = load_embeddings("ollama:nomic-embed-text", settings=Settings())
    assert type(embeddings).__name__ == "OllamaEmbeddings" and embeddings.model == "nomic-embed-text"
