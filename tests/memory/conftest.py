"""Fixtures for the tier-service tests: a fresh SQLite memory and the offline embeddings."""

from __future__ import annotations

import pytest

from memory.backends.sqlite import SqliteMemory
from memory.embeddings import load_embeddings


@pytest.fixture
def memory(tmp_path):
    with SqliteMemory(tmp_path / "memory.sqlite") as backend:
        yield backend


@pytest.fixture(scope="session")
def wordllama():
    return load_embeddings("wordllama")
