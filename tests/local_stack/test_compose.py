"""infrastructure/docker-compose.yml, checked as a file (no Docker engine runs here): the services a
user is told about exist, wire up as docs/LOCAL_MODELS.md says, and keep data in volumes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "infrastructure" / "docker-compose.yml"
DOC = ROOT / "docs" / "LOCAL_MODELS.md"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def _default(value: str) -> str:
    """`${NAME:-default}` -> default (what compose uses when NAME is unset)."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def test_ollama_and_chroma_listen_on_loopback_at_the_documented_ports(compose):
    services = compose["services"]
    assert {"ollama", "ollama-pull", "chroma"} <= set(services)
    ports = {name: [_default(p) for p in services[name].get("ports", [])] for name in ("ollama", "chroma")}
    assert ports == {"ollama": ["127.0.0.1:11434:11434"], "chroma": ["127.0.0.1:8000:8000"]}
    doc = DOC.read_text()
    assert "127.0.0.1:11434" in doc and "chroma://127.0.0.1:8000?state=" in doc


def test_the_first_start_pulls_a_chat_and_an_embedding_model_once_ollama_is_healthy(compose):
    pull = compose["services"]["ollama-pull"]
    assert pull["depends_on"] == {"ollama": {"condition": "service_healthy"}}
    assert compose["services"]["ollama"]["healthcheck"]["test"][:2] == ["CMD", "ollama"]
    assert pull["environment"]["OLLAMA_HOST"] == "http://ollama:11434"
    chat, embed = _default(pull["environment"]["CHAT_MODEL"]), _default(pull["environment"]["EMBED_MODEL"])
    command = " ".join(pull["command"])
    assert 'ollama pull "$$CHAT_MODEL"' in command and 'ollama pull "$$EMBED_MODEL"' in command
    assert pull["restart"] == "no"  # a one-shot job, not a crash loop
    doc = DOC.read_text()  # the docs name the models the stack actually pulls
    assert f"CONTRACT_AGENT_MODEL=ollama:{chat}" in doc  # every role (docs/LOCAL_MODELS.md)
    assert f"CONTRACT_AGENT_EMBEDDINGS=ollama:{embed}" in doc


def test_models_and_vectors_survive_a_restart_in_named_volumes(compose):
    services = compose["services"]
    assert "ollama-models:/root/.ollama" in services["ollama"]["volumes"]
    assert "chroma-data:/data" in services["chroma"]["volumes"]
    assert {"ollama-models", "chroma-data"} <= set(compose["volumes"])


def test_the_chroma_server_matches_the_pinned_client(compose):
    image = _default(compose["services"]["chroma"]["image"])
    pyproject = (ROOT / "pyproject.toml").read_text()
    pinned = re.search(r'"chromadb>=(\d+)\.(\d+)', pyproject)
    assert pinned, "chromadb is pinned in pyproject.toml"
    version = image.rpartition(":")[2]
    assert version.split(".")[:2] == [pinned.group(1), pinned.group(2)], (image, pinned.group(0))
