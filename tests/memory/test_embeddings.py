"""Loading offline embeddings by spec, and the model names recorded beside vectors."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.embeddings import FakeEmbeddings

from memory.embeddings import HashEmbeddings, load_embeddings, model_name_of
from memory.errors import MemoryConfigError


def test_wordllama_is_offline_normalised_and_named():
    embeddings = load_embeddings("wordllama")
    assert embeddings.model_name == "wordllama-l2-supercat-256"
    vectors = np.array(embeddings.embed_documents(["Review the supply agreement", "Check the liability cap"]))
    assert vectors.shape == (2, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embeddings.embed_documents([""]) == [[0.0] * 256]  # no NaN for empty text


def test_hash_embeddings_are_deterministic_and_lexical():
    a, b = HashEmbeddings(), load_embeddings("hash:256")
    assert a.embed_query("liability cap") == b.embed_query("liability cap")
    near = np.dot(a.embed_query("review the liability cap"), a.embed_query("liability cap review"))
    far = np.dot(a.embed_query("review the liability cap"), a.embed_query("bake a chocolate cake"))
    assert near > 0.5 > far
    assert load_embeddings("hash:64").model_name == "hash-64"


def test_instances_pass_through_and_names_fall_back():
    fake = FakeEmbeddings(size=4)
    assert load_embeddings(fake) is fake
    assert model_name_of(fake) == "FakeEmbeddings"
    assert model_name_of(HashEmbeddings()) == "hash-256"


@pytest.mark.parametrize("spec", ["openai:text-embedding-3", "hash:big", "wordllama:no_such_model", "hash:2"])
def test_bad_specs_raise_a_config_error(spec):
    with pytest.raises(MemoryConfigError):
        load_embeddings(spec)
