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


def test_wordllama_with_its_table_mapped_embeds_exactly_as_the_library_loads_it():
    """The loader maps the wheel's float16 token table instead of copying it to float32: every
    vector must stay the same bit for bit, or stored vectors would drift from new queries."""
    from pathlib import Path

    import wordllama
    from wordllama import WordLlama

    from memory.embeddings import _mapped_wordllama
    from tests.conftest import SAMPLES

    folder = Path(wordllama.__file__).parent
    mapped = _mapped_wordllama(folder, "l2_supercat", 256)
    assert isinstance(mapped.embedding, np.memmap) and mapped.embedding.dtype == np.float16
    whole = WordLlama.load(config="l2_supercat", dim=256, cache_dir=folder, disable_download=True)
    texts = [p.read_text(encoding="utf-8")[:4000] for p in sorted(SAMPLES.glob("*.txt"))]
    texts += ["", "x", "Lieferant haftet unbegrenzt — ünïcode ✓ 日本語", "liability " * 3000]
    with np.errstate(invalid="ignore", divide="ignore"):
        assert np.array_equal(mapped.embed(texts, norm=True), whole.embed(texts, norm=True), equal_nan=True)
    assert load_embeddings("wordllama")._model.embedding.dtype == np.float16  # the loader the agent uses


def test_a_safetensors_entry_that_is_not_a_float16_matrix_is_refused(tmp_path):
    import json

    from memory.embeddings import _safetensors_f16

    header = json.dumps({"embedding.weight": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}).encode()
    path = tmp_path / "w.safetensors"
    path.write_bytes(len(header).to_bytes(8, "little") + header + bytes(16))
    with pytest.raises(ValueError):
        _safetensors_f16(path, "embedding.weight")
