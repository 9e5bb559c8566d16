"""LangChain's standard embeddings suites (unit and integration) against the local embeddings."""

from __future__ import annotations

from langchain_tests.integration_tests import EmbeddingsIntegrationTests
from langchain_tests.unit_tests import EmbeddingsUnitTests

from memory.embeddings import HashEmbeddings, WordLlamaEmbeddings
from tests.standards.support import ASYNC_SUITE


class TestWordLlamaEmbeddingsUnit(EmbeddingsUnitTests):
    @property
    def embeddings_class(self) -> type[WordLlamaEmbeddings]:
        return WordLlamaEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {}


class TestWordLlamaEmbeddingsIntegration(EmbeddingsIntegrationTests):
    pytestmark = ASYNC_SUITE

    @property
    def embeddings_class(self) -> type[WordLlamaEmbeddings]:
        return WordLlamaEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {}


class TestHashEmbeddingsIntegration(EmbeddingsIntegrationTests):
    pytestmark = ASYNC_SUITE

    @property
    def embeddings_class(self) -> type[HashEmbeddings]:
        return HashEmbeddings

    @property
    def embedding_model_params(self) -> dict:
        return {"dim": 64}
