"""Run reviews: load a contract, drive the graph on one thread, return the report.

A run's checkpoint thread is `<tenant>/<agent>/<run id>` (no id may contain '/'), so the same run
id given by two tenants names two threads, and a tenant is erased with its threads. The run's
own choices (tenant, agent, task type, domain, memory on or off) are kept in the checkpoint's
metadata: `resume` takes them from there, never from the current settings.

The served graph (`graphs.review.graph`) has no checkpointer: a LangGraph server brings its own.
Here the CLI, the demo and the benchmarks compile `builder` with theirs (`build_graph`) and inject
their services (tenant, models, memory, clock) through `InProcessContext`.

Importing this module loads no contract code (tools, the review graph, reports): a fork takes the
checkpointer and `context_from_settings` from here to run its own graph. `Reviewer` imports the
contract parts when it is built.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from agent.errors import ConfigurationError, MemoryStoreError
from agent.settings import Settings
from graphs.context import (  # noqa: F401
    MODEL_CHOICES,
    RUN_CHOICES,
    RUN_IDENTITY,
    InProcessContext,
    choice,
    context_from_settings,
    run_choices,
    valid_run_id,
)

# the generic run plumbing (a fork's too) lives in graphs.context; re-exported for the callers here
from graphs.keys import KEY_BYTES, checkpoint_key, data_folder, key_source  # noqa: F401
from memory.errors import MemoryRequestError
from memory.records import check_id

Progress = Callable[[dict[str, Any]], None]  # sees each progress event of a review


def thread_key(tenant: str, agent: str, run_id: str) -> str:
    """The checkpoint thread of a run: unambiguous, since no id may contain '/'."""
    return f"{tenant}/{agent}/{run_id}"


# The run most recently started in this process and its checkpointer, so that a command stopped by
# Ctrl-C or SIGTERM can say which run to resume (issue 32).
last_started: tuple[str, str] | None = None


def build_graph(checkpointer: BaseCheckpointSaver | None = None):
    """The review graph compiled with a checkpointer (in-memory unless one is given)."""
    from graphs.review import build_builder  # the contract graph: imported when a review is built

    return build_builder().compile(checkpointer=checkpointer or InMemorySaver())


def _owner_only_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it does not exist (SQLite then creates its -wal
    and -shm files with the same mode)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


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

    from graphs.checkpoints import RunCheckpoints

    data_folder(settings)
    # Checkpoints hold the contract and tool outputs (personal data included): encrypt them.
    key = checkpoint_key(settings)
    serde = EncryptedSerializer.from_pycryptodome_aes(key=key)
    try:
        _owner_only_file(settings.checkpoint_path)
        conn = sqlite3.connect(settings.checkpoint_path, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise checkpoint_store_error(exc, settings) from exc
    try:
        saver = RunCheckpoints(conn, serde=serde)
        try:
            saver.setup()
            wrong = saver.check_key(key)
        except sqlite3.Error as exc:
            raise checkpoint_store_error(exc, settings) from exc
        if wrong:
            raise ConfigurationError(
                f"{settings.checkpoint_path}: {wrong}, not {key_source(settings)}: set CONTRACT_AGENT_CHECKPOINT_KEY "
                f"to the key they were written with or restore the key, or delete {settings.checkpoint_path} to "
                "discard them")
        yield saver
        saver.close()
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
        from graphs.analyze import recursion_limit
        from tools.playbook import load_playbook

        self._recursion_limit = recursion_limit(settings, len(load_playbook().clause_types))
        self.settings = settings
        self.checkpointer = checkpointer
        self.graph = build_graph(checkpointer)
        self.context = context_from_settings(settings, **context)
        self._overrides = context

    def review_path(self, path: str | Path, *, thread_id: str | None = None,
                    on_progress: Progress | None = None) -> dict[str, Any]:
        """Review one contract file; `on_progress(event)` sees the graph's progress events as they
        come (the custom stream events of graphs.review)."""
        if thread_id is not None:
            valid_run_id(thread_id)
        from graphs.budget import time_budget
        from tools.contract import load_contract

        with time_budget(self.settings.contract_time_budget_s, str(path)):  # reading the file included
            # Load (and fail on bad input) before the graph starts, so nothing reaches memory.
            contract = load_contract(path, max_bytes=self.settings.max_input_bytes)
            return self.review_contract(contract.model_dump(), thread_id=thread_id, on_progress=on_progress)

    def review_contract(self, contract: dict[str, Any], *, thread_id: str | None = None,
                        on_progress: Progress | None = None) -> dict[str, Any]:
        run_id = valid_run_id(thread_id) if thread_id is not None else uuid.uuid4().hex
        ctx = self.context
        config = self._config(ctx, run_id)
        config["metadata"] = run_choices(ctx)
        global last_started
        last_started = (run_id, self.settings.checkpointer)  # what an interrupted command names (cli.main)
        state = self._invoke({"contract": contract, "run_id": run_id}, config, ctx, on_progress)
        return _report(state)

    def thread_config(self, run_id: str) -> dict[str, Any]:
        """The graph config of a run of this reviewer's tenant and agent (for `graph.get_state`)."""
        return self._config(self.context, run_id)

    def _config(self, ctx: InProcessContext, run_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_key(choice(ctx, "tenant"), ctx.agent, run_id)},
                "recursion_limit": self._recursion_limit}

    def _invoke(self, payload: dict[str, Any] | None, config: dict[str, Any], ctx: InProcessContext,
                on_progress: Progress | None = None) -> dict[str, Any]:
        from graphs.budget import time_budget

        name = ((payload or {}).get("contract") or {}).get("name") or config["configurable"]["thread_id"]
        try:
            with time_budget(self.settings.contract_time_budget_s, str(name)):  # within review_path's if any
                state = self._run(payload, config, ctx, on_progress)
        except sqlite3.Error as exc:  # memory backends raise their own errors: this is the checkpoint file
            raise checkpoint_store_error(exc, self.settings) from exc
        except ValueError as exc:  # AES-GCM refused a checkpoint of a file older than the key check
            if "MAC check failed" not in str(exc):
                raise
            raise ConfigurationError(
                f"{self.settings.checkpoint_path}: a checkpoint was written with another key: set "
                "CONTRACT_AGENT_CHECKPOINT_KEY to the key it was written with or restore the key file") from None
        self._finished(state, config)
        return state

    def _finished(self, state: dict[str, Any], config: dict[str, Any]) -> None:
        """Working memory ends with its run (issue 34): a COMPLETED review's checkpoints go now
        (or after `checkpoint_keep_completed_days`); a PARTIAL or FAILED one keeps its latest for
        `resume` until `memory decay` expires it."""
        from graphs.checkpoints import RunCheckpoints

        if not isinstance(self.checkpointer, RunCheckpoints):
            return
        outcome = state.get("outcome") or state.get("outcome_hint")
        if str(getattr(outcome, "value", outcome)) != "COMPLETED":
            return
        try:
            self.checkpointer.finish(config["configurable"]["thread_id"],
                                     keep_days=self.settings.checkpoint_keep_completed_days)
        except sqlite3.Error as exc:
            raise checkpoint_store_error(exc, self.settings) from exc

    def _run(self, payload: dict[str, Any] | None, config: dict[str, Any], ctx: InProcessContext,
             on_progress: Progress | None) -> dict[str, Any]:
        if on_progress is None:
            return self.graph.invoke(payload, config, context=ctx)
        state: dict[str, Any] = {}
        # the events come from the subgraphs' nodes: stream them too, keep the root's values
        for namespace, mode, chunk in self.graph.stream(payload, config, context=ctx, subgraphs=True,
                                                        stream_mode=["custom", "values"]):
            if mode == "custom" and isinstance(chunk, dict) and "progress" in chunk:
                on_progress(chunk)
            elif mode == "values" and not namespace:
                state = chunk
        return state

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
            if self.settings.checkpointer != "sqlite":
                raise ConfigurationError(
                    f"no checkpoint for run {run_id!r} (resuming needs CONTRACT_AGENT_CHECKPOINTER=sqlite)")
            raise ConfigurationError(
                f"no checkpoint for run {run_id!r}: a COMPLETED review's are deleted when it ends, an unfinished "
                f"one's after {self.settings.checkpoint_keep_unfinished_days:g} days (`memory decay`), and a run "
                "stopped before its first step has none")
        if len(threads) > 1:
            owners = ", ".join(t.rsplit("/", 1)[0] for t in threads)
            raise ConfigurationError(f"run {run_id!r} exists for several tenants/agents ({owners}): "
                                     "choose one with --tenant and --agent")
        thread = threads[0]
        config = {"configurable": {"thread_id": thread}, "recursion_limit": self._recursion_limit}
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
        return _report(state)


def progress_text(event: dict[str, Any]) -> str:
    """One of the review graph's progress events (graphs.review) as a short status phrase."""
    stage = event.get("progress")
    if stage == "contract":
        return f"{event.get('sections', 0)} sections read"
    if stage == "memory_read":
        found = [f"{event.get('episodes', 0)} episodes", f"{event.get('facts', 0)} facts"]
        return "memory read: " + ", ".join(found) + (", a procedure" if event.get("procedure") else "")
    if stage == "analyze":
        return (f"step {event.get('step')}/{event.get('budget')}: {event.get('recorded')} of "
                f"{event.get('clause_types')} clause types recorded")
    if stage == "extracting":
        return "distilling the run for memory"
    if stage == "memory_write":
        return f"writing {event.get('tier', '')} memory".replace("  ", " ")
    return str(stage or "")


def _report(state: dict[str, Any]) -> dict[str, Any]:
    from agent.report import build_report

    return build_report(state)
