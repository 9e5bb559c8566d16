"""Run reviews: load a contract, drive the graph on one thread, return the report.

A run's checkpoint thread is `<tenant>/<agent>/<run id>` (no id may contain '/'), so the same run
id given by two tenants names two threads, and a tenant is erased with its threads. The run's
own choices (tenant, agent, task type, domain, memory on or off) are kept in the checkpoint's
metadata: `resume` takes them from there, never from the current settings.

The served graph (`graphs.review.graph`) has no checkpointer: a LangGraph server brings its own.
Here the CLI, the demo and the benchmarks compile `builder` with theirs (`build_graph`) and inject
their services (tenant, models, memory, clock) through `InProcessContext`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import ValidationError

from agent.errors import ConfigurationError, MemoryStoreError
from agent.report import build_report
from agent.settings import Settings
from graphs.analyze import recursion_limit
from graphs.context import InProcessContext, ReviewContext, ReviewServices
from graphs.review import build_builder
from memory.errors import MemoryRequestError
from memory.records import check_id, check_run_id
from tools.contract import load_contract
from tools.playbook import load_playbook

# What a run keeps in its checkpoints' metadata so that `resume` continues it as it was started:
# who it runs for and what it may write are the run's own; the model specs (one per role) only defaults.
RUN_IDENTITY = ("tenant", "agent", "task_type", "domain", "use_memory")
MODEL_CHOICES = ("reviewer_model", "compression_model", "extraction_model")
RUN_CHOICES = (*RUN_IDENTITY, *MODEL_CHOICES)
_ID_FIELDS = ("tenant", "agent", "task_type", "domain")
KEY_BYTES = (16, 24, 32)


def thread_key(tenant: str, agent: str, run_id: str) -> str:
    """The checkpoint thread of a run: unambiguous, since no id may contain '/'."""
    return f"{tenant}/{agent}/{run_id}"


_CONTEXT_FIELDS = {f.name for f in fields(ReviewContext)}
_SERVICE_FIELDS = {f.name for f in fields(ReviewServices)} - {"settings", "served"}


def build_graph(checkpointer: BaseCheckpointSaver | None = None):
    """The review graph compiled with a checkpointer (in-memory unless one is given)."""
    return build_builder().compile(checkpointer=checkpointer or InMemorySaver())


def choice(ctx: InProcessContext, name: str) -> Any:
    """A run's choice by name, whether the context or the services hold it (tenant, models)."""
    if name == "tenant":
        return ctx.services.default_tenant
    if name in MODEL_CHOICES:  # a role's own model, else the one for every role
        return getattr(ctx.services, name) or ctx.services.settings.model_spec(name.removesuffix("_model"))
    if name in _SERVICE_FIELDS:
        return getattr(ctx.services, name) or getattr(ctx.services.settings, name, None)
    return getattr(ctx, name)


def valid_run_id(run_id: str) -> str:
    try:
        return check_run_id(run_id)
    except MemoryRequestError as exc:
        raise ConfigurationError(str(exc)) from None


def context_from_settings(settings: Settings, **overrides: Any) -> InProcessContext:
    """An in-process run's context: `settings`' defaults, overridden by any non-None keyword, each
    either a context field (agent, task_type, domain, use_memory, approve_procedures) or a service
    (tenant, models, embeddings, pii_scrubber, memory, memory_block_filter, clock)."""
    chosen = {k: v for k, v in overrides.items() if v is not None}
    unknown = set(chosen) - _CONTEXT_FIELDS - _SERVICE_FIELDS
    if unknown:
        raise TypeError(f"unknown review option(s): {', '.join(sorted(unknown))}")
    services = ReviewServices(settings=settings, **{k: v for k, v in chosen.items() if k in _SERVICE_FIELDS})
    context = {
        "agent": settings.agent, "task_type": settings.task_type, "domain": settings.domain,
        **{k: v for k, v in chosen.items() if k in _CONTEXT_FIELDS},
    }
    try:
        for name in _ID_FIELDS:  # one-line errors for crafted ids, before pydantic's longer ones
            check_id(services.default_tenant if name == "tenant" else context[name], name.replace("_", " "))
        return InProcessContext(services=services, **context)
    except (MemoryRequestError, ValidationError) as exc:
        message = str(exc) if isinstance(exc, MemoryRequestError) else exc.errors()[0]["msg"]
        raise ConfigurationError(message) from None


def run_choices(ctx: InProcessContext) -> dict[str, Any]:
    """The context values a resumed run must keep (model instances are not kept: only specs)."""
    return {name: choice(ctx, name) for name in RUN_CHOICES if isinstance(choice(ctx, name), str | bool)}


def _owner_only_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it does not exist (SQLite then creates its -wal
    and -shm files with the same mode)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def data_folder(settings: Settings) -> Path:
    """The data folder, created owner-only (0700) if it does not exist yet."""
    try:
        settings.home.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise MemoryStoreError(f"cannot create the data folder {settings.home}: {exc.strerror or exc}") from exc
    return settings.home


def _read_key(path: Path) -> bytes | None:
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        return None
    if len(key) not in KEY_BYTES:
        raise ConfigurationError(f"the checkpoint key file {path} is damaged ({len(key)} bytes); restore it "
                                 "(its checkpoints cannot be read without it) or remove it with them")
    return key


def checkpoint_key(settings: Settings) -> bytes:
    """The AES key for checkpoints: CONTRACT_AGENT_CHECKPOINT_KEY (hex), else a key file
    created once in the data folder with owner-only permissions.

    The file appears whole or not at all: the key is written to a private temporary file, which
    is then hard-linked to its name (an atomic create-if-absent), so processes starting at once
    all read the one key that won, never an empty or half-written file.
    """
    if settings.checkpoint_key:
        try:
            key = bytes.fromhex(settings.checkpoint_key)
        except ValueError:
            key = b""
        if len(key) not in KEY_BYTES:
            raise ConfigurationError("CONTRACT_AGENT_CHECKPOINT_KEY must be 32, 48 or 64 hex digits")
        return key
    path = data_folder(settings) / "checkpoint.key"
    key = _read_key(path)
    if key is not None:
        return key
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(8)}")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(32))
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process won: use its key
            os.link(temporary, path)
    except OSError as exc:
        raise MemoryStoreError(f"cannot create the checkpoint key file {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    key = _read_key(path)
    if key is None:
        raise MemoryStoreError(f"the checkpoint key file {path} vanished while it was being created")
    return key


def checkpoint_store_error(exc: sqlite3.Error | OSError, settings: Settings) -> MemoryStoreError:
    """A failure of the SQLite checkpoint file, as the memory-store error it is (exit code 4)."""
    cause = exc.strerror if isinstance(exc, OSError) and exc.strerror else " ".join(str(exc).split())
    folder = settings.checkpoint_path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):  # SQLite only says "unable to open"
        cause += f" (the folder {folder} is read-only)"
    error = MemoryStoreError(f"checkpoint store {settings.checkpoint_path}: {cause}")
    error.__cause__ = exc
    return error


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

    data_folder(settings)
    # Checkpoints hold the contract and tool outputs (personal data included): encrypt them.
    serde = EncryptedSerializer.from_pycryptodome_aes(key=checkpoint_key(settings))
    try:
        _owner_only_file(settings.checkpoint_path)
        conn = sqlite3.connect(settings.checkpoint_path, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise checkpoint_store_error(exc, settings) from exc
    try:
        saver = SqliteSaver(conn, serde=serde)
        try:
            saver.setup()
        except sqlite3.Error as exc:
            raise checkpoint_store_error(exc, settings) from exc
        yield saver
    finally:
        conn.close()


def find_threads(saver: BaseCheckpointSaver, run_id: str) -> list[str]:
    """The checkpoint threads of `run_id`, whichever tenant and agent started them."""
    suffix = f"/{run_id}"
    conn = getattr(saver, "conn", None)
    if isinstance(conn, sqlite3.Connection):  # one indexed scan of the thread ids, nothing decrypted
        rows = conn.execute(
            "SELECT DISTINCT thread_id FROM checkpoints WHERE substr(thread_id, -?) = ?", (len(suffix), suffix)
        ).fetchall()
        threads = {row[0] for row in rows}
    else:
        threads = {c.config["configurable"]["thread_id"] for c in saver.list(None)}
    return sorted(t for t in threads if t.endswith(suffix) and t.count("/") == 2)


class Reviewer:
    """Reviews contracts with one compiled graph and one checkpointer."""

    def __init__(self, settings: Settings, checkpointer: BaseCheckpointSaver, **context: Any):
        self.settings = settings
        self.checkpointer = checkpointer
        self.graph = build_graph(checkpointer)
        self.context = context_from_settings(settings, **context)
        self._overrides = context

    def review_path(self, path: str | Path, *, thread_id: str | None = None) -> dict[str, Any]:
        if thread_id is not None:
            valid_run_id(thread_id)
        # Load (and fail on bad input) before the graph starts, so nothing reaches memory.
        contract = load_contract(path, max_bytes=self.settings.max_input_bytes)
        return self.review_contract(contract.model_dump(), thread_id=thread_id)

    def review_contract(self, contract: dict[str, Any], *, thread_id: str | None = None) -> dict[str, Any]:
        run_id = valid_run_id(thread_id) if thread_id is not None else uuid.uuid4().hex
        ctx = self.context
        config = self._config(ctx, run_id)
        config["metadata"] = run_choices(ctx)
        state = self._invoke({"contract": contract, "run_id": run_id}, config, ctx)
        return build_report(state)

    def thread_config(self, run_id: str) -> dict[str, Any]:
        """The graph config of a run of this reviewer's tenant and agent (for `graph.get_state`)."""
        return self._config(self.context, run_id)

    @staticmethod
    def _config(ctx: InProcessContext, run_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_key(choice(ctx, "tenant"), ctx.agent, run_id)},
                "recursion_limit": recursion_limit(ctx.services.settings, len(load_playbook().clause_types))}

    def _invoke(self, payload: dict[str, Any] | None, config: dict[str, Any], ctx: InProcessContext) -> dict[str, Any]:
        try:
            return self.graph.invoke(payload, config, context=ctx)
        except sqlite3.Error as exc:  # memory backends raise their own errors: this is the checkpoint file
            raise checkpoint_store_error(exc, self.settings) from exc

    def resume(self, run_id: str, *, tenant: str | None = None, agent: str | None = None) -> dict[str, Any]:
        """Continue an interrupted run from its last checkpoint, as the tenant and agent (and with
        the task type, domain and memory switch) it was started with. `tenant` and `agent` only
        choose among runs of the same id started by several tenants or agents."""
        valid_run_id(run_id)
        for name, value in (("tenant", tenant), ("agent", agent)):
            if value is not None:
                try:
                    check_id(value, name)
                except MemoryRequestError as exc:
                    raise ConfigurationError(str(exc)) from None
        threads = [t for t in find_threads(self.checkpointer, run_id)
                   if (tenant is None or t.split("/")[0] == tenant) and (agent is None or t.split("/")[1] == agent)]
        if not threads:
            raise ConfigurationError(f"no checkpoint for run {run_id!r} (resuming needs CONTRACT_AGENT_CHECKPOINTER=sqlite)")
        if len(threads) > 1:
            owners = ", ".join(t.rsplit("/", 1)[0] for t in threads)
            raise ConfigurationError(f"run {run_id!r} exists for several tenants/agents ({owners}): "
                                     "choose one with --tenant and --agent")
        thread = threads[0]
        config = {"configurable": {"thread_id": thread},
                  "recursion_limit": recursion_limit(self.settings, len(load_playbook().clause_types))}
        saved = self.checkpointer.get_tuple(config)
        saved_choices = (saved.metadata if saved else {}) or {}
        identity = {k: saved_choices[k] for k in RUN_IDENTITY if k in saved_choices}
        owner_tenant, owner_agent, _ = thread.split("/")
        identity.update(tenant=owner_tenant, agent=owner_agent)  # the thread key is authoritative
        model = {k: saved_choices[k] for k in MODEL_CHOICES if k in saved_choices}
        ctx = context_from_settings(self.settings, **{**model, **self._overrides, **identity})
        snapshot = self.graph.get_state(config)
        if not snapshot.values:
            raise ConfigurationError(f"no checkpoint for run {run_id!r}")
        state = self._invoke(None, config, ctx) if snapshot.next else snapshot.values
        return build_report(state)
