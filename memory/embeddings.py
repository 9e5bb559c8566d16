"""Offline embedding models for memory, their names, and their calibrated similarity thresholds.

Every stored vector records `model_name_of(embeddings)`; vectors of different models are never
compared. Cosine thresholds do not transfer between models (see docs/CALIBRATION.md), so the
design's 0.75 (episodes) and 0.6 (facts) are re-derived per model in `calibrated_thresholds`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from memory.errors import MemoryConfigError

log = logging.getLogger(__name__)

WORDLLAMA_DEFAULT = "l2_supercat"

# (episode_min, fact_min) per model; how they were chosen and the figures: docs/CALIBRATION.md.
_THRESHOLDS: dict[str, tuple[float, float]] = {
    "wordllama-l2-supercat-256": (0.25, 0.15),
    "hash-256": (0.25, 0.25),
    # The reference design's values, set for Titan text embeddings v2 (not re-measured here).
    "amazon.titan-embed-text-v2:0": (0.75, 0.6),
}


# The episode cosine at which the vector retriever alone is trusted (below it, down to episode_min,
# a hybrid search also wants lexical agreement: memory.retrieval). Chosen by rule on the
# calibration set: the lowest 0.05 grid value that passes no related and no unrelated task pair.
# Models not listed trust their episode_min alone, as before (the reference design's 0.75 for Titan).
_VECTOR_ALONE: dict[str, float] = {
    "wordllama-l2-supercat-256": 0.40,
}


class WordLlamaEmbeddings(Embeddings):
    """LangChain embeddings over the 256-dim WordLlama model shipped in the wheel (no network)."""

    def __init__(self, config: str = WORDLLAMA_DEFAULT, dim: int = 256) -> None:
        self._model = _load_wordllama(config, dim)
        self.model_name = f"wordllama-{config.replace('_', '-')}-{dim}"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with np.errstate(invalid="ignore", divide="ignore"):  # an empty text embeds to 0/0
            vectors = np.asarray(self._model.embed(list(texts), norm=True), dtype=np.float32)
        return np.nan_to_num(vectors).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class HashEmbeddings(Embeddings):
    """A tiny deterministic embedder (hashed word unigrams and bigrams), for tests and demos.

    Texts sharing words are similar; it knows nothing of synonyms. Needs no model file at all.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise MemoryConfigError(f"hash embeddings need at least 8 dimensions, got {dim}")
        self.dim = dim
        self.model_name = f"hash-{dim}"

    def _embed(self, text: str) -> list[float]:
        words = [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in re.findall(r"[a-z0-9]+", text.lower())]
        vector = np.zeros(self.dim, dtype=np.float32)
        for feature in [*words, *(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))]:
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self.dim
            vector[index] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        return (vector / norm if norm else vector).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


@lru_cache(maxsize=4)
def _load_wordllama(config: str, dim: int) -> Any:
    import wordllama
    from wordllama import WordLlama

    folder = Path(wordllama.__file__).parent
    try:
        return _mapped_wordllama(folder, config, dim)
    except (OSError, ValueError, KeyError) as exc:  # another layout of the package: its own loader
        log.debug("WordLlama weights not mapped (%s): loading them whole", exc)
    # Loading from the package folder keeps it offline: plain load() fetches a tokenizer.
    try:
        return WordLlama.load(config=config, dim=dim, cache_dir=folder, disable_download=True)
    except Exception as exc:  # wordllama raises plain errors for unknown configs / missing files
        raise MemoryConfigError(f"cannot load WordLlama model {config!r} at {dim} dims offline: {exc}") from exc


def _mapped_wordllama(folder: Path, config: str, dim: int) -> Any:
    """The model with its token table memory-mapped from the wheel's safetensors file.

    `WordLlama.load` copies the float16 table into a new float32 array (32 MB at 256 dims). On a
    VM whose free memory the host takes back, first touching 32 MB of fresh pages costs 0.2-0.6 s
    of a review's start (30 ms once the pages are resident). Mapped, a query reads the few rows of
    its tokens. The vectors are bit for bit the same: the pooling multiplies the float16 rows by a
    float32 mask, which converts them exactly, as the copy did (tests/memory/test_embeddings.py).
    """
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    table = _safetensors_f16(folder / "weights" / f"{config}_{dim}.safetensors", "embedding.weight")
    tokenizer = WordLlama.load_tokenizer(folder / "tokenizers" / f"{config}_tokenizer_config.json",
                                         use_local_if_exists=True)
    model = WordLlamaInference(np.zeros((1, table.shape[1]), dtype=np.float32), tokenizer)
    model.embedding = table  # what `embed` gathers token rows from
    return model


def _safetensors_f16(path: Path, key: str) -> np.ndarray:
    """A float16 tensor of a safetensors file (8-byte header length, JSON header, raw data), mapped."""
    with path.open("rb") as handle:
        length = int.from_bytes(handle.read(8), "little")
        header = json.loads(handle.read(length))
    entry = header[key]
    begin, end = entry["data_offsets"]
    shape = tuple(int(n) for n in entry["shape"])
    if entry["dtype"] != "F16" or len(shape) != 2 or end - begin != shape[0] * shape[1] * 2:
        raise ValueError(f"{path.name}: {key} is not a float16 matrix")
    return np.memmap(path, dtype="<f2", mode="r", offset=8 + length + begin, shape=shape)


def load_embeddings(spec: str | Embeddings) -> Embeddings:
    """Build offline embeddings from a spec: "wordllama[:<config>]" or "hash[:<dim>]".

    An `Embeddings` instance passes through unchanged (cloud models are built by the caller).
    """
    if isinstance(spec, Embeddings):
        return spec
    name, _, arg = spec.strip().partition(":")
    if name == "wordllama":
        return WordLlamaEmbeddings(arg or WORDLLAMA_DEFAULT)
    if name == "hash":
        if arg and not arg.isdigit():
            raise MemoryConfigError(f"hash embeddings take a dimension, e.g. 'hash:256', not {spec!r}")
        return HashEmbeddings(int(arg) if arg else 256)
    raise MemoryConfigError(f"unknown embeddings {spec!r}: use 'wordllama', 'wordllama:<config>', 'hash' or 'hash:<dim>'")


class QueryMemo(Embeddings):
    """Embeddings that embed each recent query text once, however many tiers ask for it.

    The bootstrap's episodic and semantic reads search with the same task text, concurrently:
    the first caller embeds it, a concurrent caller waits for that result instead of embedding
    it again. Documents pass straight through. `model_name` is the wrapped model's name, so
    stored vectors record the same model either way.
    """

    def __init__(self, inner: Embeddings, size: int = 32) -> None:
        self.inner = inner
        self.model_name = model_name_of(inner)
        self._size = size
        self._done: dict[str, list[float]] = {}
        self._pending: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        while True:
            with self._lock:
                if text in self._done:
                    return list(self._done[text])
                waiting = self._pending.get(text)
                if waiting is None:
                    self._pending[text] = threading.Event()
                    break
            waiting.wait()  # another thread is embedding it; if it failed, try ourselves
        try:
            vector = self.inner.embed_query(text)
            with self._lock:
                self._done[text] = list(vector)
                while len(self._done) > self._size:
                    self._done.pop(next(iter(self._done)))
            return list(vector)
        finally:
            with self._lock:
                self._pending.pop(text).set()


def model_name_of(embeddings: Embeddings) -> str:
    """The name recorded next to every vector this model makes."""
    for attribute in ("model_name", "model_id", "model"):
        value = getattr(embeddings, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(embeddings).__name__


def calibrated_thresholds(model_name: str) -> tuple[float, float]:
    """(episode_min, fact_min) cosine thresholds calibrated for `model_name`.

    Raises MemoryConfigError for a model nobody calibrated: set both minimum scores explicitly.
    """
    try:
        return _THRESHOLDS[model_name]
    except KeyError:
        known = ", ".join(sorted(_THRESHOLDS))
        raise MemoryConfigError(
            f"no calibrated similarity thresholds for embedding model {model_name!r} (known: {known}); "
            "set the episode and fact minimum scores explicitly, calibrated as in docs/CALIBRATION.md"
        ) from None


def calibrated_vector_alone(model_name: str) -> float | None:
    """The episode cosine a result needs to pass a hybrid search without lexical agreement, or
    None where the model's `episode_min` is trusted alone (docs/CALIBRATION.md)."""
    return _VECTOR_ALONE.get(model_name)
