"""The graph's runtime context (its configurable inputs) and the resources built from it.

Everything a node needs arrives through `runtime.context`: ids, switches and model/store
choices, each either a spec string (what a LangGraph server client can send) or a ready
instance (what tests and embedding applications inject). Instances built from specs are cached
per process, so a long-lived server opens each model and store once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from agent.settings import Settings, get_settings
from memory.records import Namespace


@dataclass(kw_only=True)
class ReviewContext:
    """Configurable inputs of the review graph (documented in docs/GRAPH.md)."""

    tenant: str = field(default_factory=lambda: get_settings().tenant)
    agent: str = field(default_factory=lambda: get_settings().agent)
    task_type: str = field(default_factory=lambda: get_settings().task_type)
    domain: str = field(default_factory=lambda: get_settings().domain)
    use_memory: bool = True
    # Pause after consolidate for a person to approve or reject a proposed procedure (an interrupt).
    approve_procedures: bool = False
    reviewer_model: Any = field(default_factory=lambda: get_settings().reviewer_model)
    compression_model: Any = field(default_factory=lambda: get_settings().compression_model)
    extraction_model: Any = field(default_factory=lambda: get_settings().extraction_model)
    embeddings: Any = field(default_factory=lambda: get_settings().embeddings)
    pii_scrubber: Any = field(default_factory=lambda: get_settings().pii_scrubber)  # "local" | "comprehend" | a Scrubber
    memory: Any = ""  # memory URL or a MemoryBackend instance; "" = the settings' default
    settings: Settings | None = None
    # A hook for demos and tests: transforms the memory block before it reaches the prompt
    # (e.g. `lambda block: ""` proves improvement comes from what memory holds).
    memory_block_filter: Any = None
    # A zero-argument callable returning an aware datetime: the memory steps' "now" (tests and
    # simulations of months of use); None = the real UTC time.
    clock: Any = None

    @property
    def namespace(self) -> Namespace:
        return Namespace(tenant=self.tenant, agent=self.agent)

    @property
    def config(self) -> Settings:
        return self.settings or get_settings()


@dataclass
class Resources:
    reviewer: BaseChatModel
    compressor: BaseChatModel
    extractor: BaseChatModel
    embeddings: Embeddings | None
    memory: Any | None  # MemoryBackend
    scrubber: Any | None = None  # memory.pii.Scrubber, applied before every durable write


_cache: dict[tuple, Any] = {}
_lock = threading.Lock()


def _cached(kind: str, spec: Any, build) -> Any:
    if not isinstance(spec, str):
        return spec
    key = (kind, spec)
    with _lock:
        if key not in _cache:
            _cache[key] = build(spec)
        return _cache[key]


def resources(ctx: ReviewContext) -> Resources:
    """Build (or reuse) the models, embeddings and memory backend a context names."""
    from agent.models import load_chat_model, load_embeddings
    from memory.pii import load_scrubber

    settings = ctx.config
    reviewer = _cached("chat:reviewer", ctx.reviewer_model, lambda s: load_chat_model(s, role="reviewer", settings=settings))
    compressor = _cached("chat:compression", ctx.compression_model, lambda s: load_chat_model(s, role="compression", settings=settings))
    extractor = _cached("chat:extraction", ctx.extraction_model, lambda s: load_chat_model(s, role="extraction", settings=settings))
    if not ctx.use_memory:
        return Resources(reviewer, compressor, extractor, None, None)
    embeddings = _cached("embeddings", ctx.embeddings, load_embeddings)
    memory = open_memory_for(ctx)
    scrubber = _cached("scrubber", ctx.pii_scrubber, lambda spec: load_scrubber(spec, region=settings.bedrock_region))
    return Resources(reviewer, compressor, extractor, embeddings, memory, scrubber)


def open_memory_for(ctx: ReviewContext) -> Any:
    from memory.backends import open_memory

    url = ctx.memory or ctx.config.resolved_memory_url()
    return _cached("memory", url, open_memory)


def forget_cached(kind_prefix: str = "") -> None:
    """Close and drop cached resources (tests and the CLI call it between data folders)."""
    with _lock:
        for key in [k for k in _cache if k[0].startswith(kind_prefix)]:
            value = _cache.pop(key)
            close = getattr(value, "close", None)
            if callable(close) and key[0] == "memory":
                close()
