"""Run reviews: load a contract, drive the graph on one thread, return the report."""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from agent.errors import ConfigurationError
from agent.report import build_report
from agent.settings import Settings
from graphs.context import ReviewContext
from graphs.review import build_graph
from tools.contract import load_contract


def context_from_settings(settings: Settings, **overrides: Any) -> ReviewContext:
    ctx = ReviewContext(
        tenant=settings.tenant,
        agent=settings.agent,
        task_type=settings.task_type,
        domain=settings.domain,
        reviewer_model=settings.reviewer_model,
        compression_model=settings.compression_model,
        extraction_model=settings.extraction_model,
        embeddings=settings.embeddings,
        pii_scrubber=settings.pii_scrubber,
        memory=settings.resolved_memory_url(),
        settings=settings,
    )
    return replace(ctx, **{k: v for k, v in overrides.items() if v is not None})


def checkpoint_key(settings: Settings) -> bytes:
    """The AES key for checkpoints: CONTRACT_AGENT_CHECKPOINT_KEY (hex), else a key file
    created once in the data folder with owner-only permissions."""
    if settings.checkpoint_key:
        try:
            key = bytes.fromhex(settings.checkpoint_key)
        except ValueError:
            key = b""
        if len(key) not in (16, 24, 32):
            raise ConfigurationError("CONTRACT_AGENT_CHECKPOINT_KEY must be 32, 48 or 64 hex digits")
        return key
    path = settings.home / "checkpoint.key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(32))
    return path.read_bytes()


@contextlib.contextmanager
def open_checkpointer(settings: Settings) -> Iterator[BaseCheckpointSaver]:
    """'memory' (default) or 'sqlite' (a file in the data folder, for crash-resume)."""
    if settings.checkpointer == "memory":
        yield InMemorySaver()
        return
    if settings.checkpointer != "sqlite":
        raise ConfigurationError(f"unknown checkpointer {settings.checkpointer!r}: use 'memory' or 'sqlite'")
    from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver

    settings.home.mkdir(parents=True, exist_ok=True)
    # Checkpoints hold the contract and tool outputs (personal data included): encrypt them.
    serde = EncryptedSerializer.from_pycryptodome_aes(key=checkpoint_key(settings))
    conn = sqlite3.connect(settings.checkpoint_path, check_same_thread=False)
    try:
        saver = SqliteSaver(conn, serde=serde)
        saver.setup()
        yield saver
    finally:
        conn.close()


class Reviewer:
    """Reviews contracts with one compiled graph and one checkpointer."""

    def __init__(self, settings: Settings, checkpointer: BaseCheckpointSaver, **context: Any):
        self.settings = settings
        self.graph = build_graph(checkpointer)
        self.context = context_from_settings(settings, **context)

    def review_path(self, path: str | Path, *, thread_id: str | None = None) -> dict[str, Any]:
        # Load (and fail on bad input) before the graph starts, so nothing reaches memory.
        contract = load_contract(path, max_bytes=self.settings.max_input_bytes)
        return self.review_contract(contract.model_dump(), thread_id=thread_id)

    def review_contract(self, contract: dict[str, Any], *, thread_id: str | None = None) -> dict[str, Any]:
        thread_id = thread_id or uuid.uuid4().hex
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 400}
        state = self.graph.invoke({"contract": contract, "run_id": thread_id}, config, context=self.context)
        return build_report(state)

    def resume(self, thread_id: str) -> dict[str, Any]:
        """Continue an interrupted run from its last checkpoint."""
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 400}
        snapshot = self.graph.get_state(config)
        if not snapshot.values:
            raise ConfigurationError(f"no checkpoint for thread {thread_id!r} (resuming needs CONTRACT_AGENT_CHECKPOINTER=sqlite)")
        state = self.graph.invoke(None, config, context=self.context) if snapshot.next else snapshot.values
        return build_report(state)
