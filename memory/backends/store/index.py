"""A store index that searches the vectors this backend stored, with the store's own machinery.

A LangGraph store's index embeds text fields with its `embed` function, and this backend's
vectors come from the agent's embeddings (with the model name recorded beside each). So the
index is configured to embed the item's `vector` field, which holds the vector itself as base64
float32 text, with `decode_stored_vectors` as its "embedding model": the store then holds exactly
our vectors and searches them itself (pgvector on PostgresStore and LangGraph Platform, numpy in
InMemoryStore), and a query is the query vector in the same encoding.

In `langgraph.json` (dims = the embedding model's dimension, 256 for wordllama):

    "store": {"index": {"dims": 256, "fields": ["vector"],
                        "embed": "./memory/backends/store/index.py:decode_stored_vectors"}}

Without such an index (a store without one, or one indexing text for other uses) the backend
scans the namespace and computes the cosines itself: exact, and linear in the namespace's size.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings

from memory.backends.store.layout import decode_vector

VECTOR_FIELD = "vector"


def decode_stored_vectors(texts: list[str]) -> list[list[float]]:
    """The index's embed function: each text is a vector this backend encoded."""
    return [decode_vector(text).astype(float).tolist() for text in texts]


class StoredVectorEmbeddings(Embeddings):
    """`decode_stored_vectors` as a LangChain `Embeddings` (for `InMemoryStore(index=...)`)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return decode_stored_vectors(texts)

    def embed_query(self, text: str) -> list[float]:
        return decode_stored_vectors([text])[0]


def vector_index(dims: int) -> dict[str, Any]:
    """The `index=` config of a store dedicated to this backend's vectors of `dims` dimensions."""
    return {"dims": dims, "embed": StoredVectorEmbeddings(), "fields": [VECTOR_FIELD]}


def indexed_dims(store: Any) -> int | None:
    """The dimension of the store's index when it indexes this backend's `vector` field, else None.

    Looks at the store's `index_config` (InMemoryStore, PostgresStore) or that of the store it
    wraps (the batching wrapper a LangGraph server hands a graph).
    """
    for candidate in (store, getattr(store, "_store", None)):
        config = getattr(candidate, "index_config", None)
        if config and list(config.get("fields") or []) == [VECTOR_FIELD] and config.get("dims"):
            return int(config["dims"])
    return None
