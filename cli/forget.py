"""`contract-review memory forget` and `memory trace`: erase a tenant, remove a bad record with its runs.

Registered on the `memory` command group by `cli.memory` (`add_forget_commands`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from agent.errors import ConfigurationError, InputError, MemoryStoreError

if TYPE_CHECKING:
    from agent.settings import Settings

console = Console()


def forget_checkpoints(path: Path, thread_ids: Sequence[str], *, tenant: str | None = None) -> int:
    """Delete working-memory checkpoints from the SQLite checkpoint file: every thread of `tenant`
    (threads are `<tenant>/<agent>/<run id>`: finished, interrupted or never resumed alike) and
    the threads named in `thread_ids` (runs of older versions, whose thread id was the run id).
    Freed pages are zeroed, the file rebuilt and its WAL truncated, so no byte of an erased
    checkpoint stays on disk, encrypted or not. Returns the number of threads removed."""
    if not (thread_ids or tenant) or not path.exists():
        return 0
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA secure_delete = ON")
        found: set[str] = set()
        prefix = f"{tenant}/" if tenant else None
        owned = [r[0] for r in conn.execute(
            "SELECT DISTINCT thread_id FROM checkpoints WHERE substr(thread_id, 1, ?) = ? "
            "UNION SELECT DISTINCT thread_id FROM writes WHERE substr(thread_id, 1, ?) = ?",
            (len(prefix), prefix, len(prefix), prefix))] if prefix else []
        ids = sorted(set(thread_ids) | set(owned))
        has_threads_table = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoint_threads'").fetchone() is not None
        with conn:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ", ".join("?" for _ in chunk)
                found.update(r[0] for r in conn.execute(
                    f"SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id IN ({marks})", chunk))
                conn.execute(f"DELETE FROM writes WHERE thread_id IN ({marks})", chunk)
                conn.execute(f"DELETE FROM checkpoints WHERE thread_id IN ({marks})", chunk)
                if has_threads_table:  # graphs.checkpoints' record of when each thread was written
                    conn.execute(f"DELETE FROM checkpoint_threads WHERE thread_id IN ({marks})", chunk)
        conn.execute("VACUUM")  # index pages keep deleted thread ids as dividers: rebuild the file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as exc:
        raise MemoryStoreError(f"cannot erase checkpoints in {path}: {exc}") from exc
    finally:
        conn.close()
    return len(found)


def _known(action: Callable[[], Any]) -> Any:
    """An unknown record id is a mistake in the request (as `memory show` treats it)."""
    from memory.errors import UnknownRecordError

    try:
        return action()
    except UnknownRecordError as exc:
        raise ConfigurationError(str(exc).strip('"')) from None


def _print(data: dict[str, Any], fmt: str, lines: list[str]) -> None:
    if fmt == "json":
        typer.echo(json.dumps(data, indent=2, default=str))
    else:
        for line in lines:
            console.print(line, markup=False, highlight=False)


def add_forget_commands(app: typer.Typer, open_memory_for: Callable[..., tuple[Settings, Any, Any]]) -> None:
    """Add `forget` and `trace` to the `memory` group; `open_memory_for(home, tenant, agent)`
    returns (settings, namespace, backend) as the other memory commands use it."""

    @app.command()
    def forget(
        tenant: Annotated[str | None, typer.Option("--tenant", help="tenant id; alone: erase ALL of its data")] = None,
        record: Annotated[str | None, typer.Option("--record", help="a bad fact or procedure id: remove it with its runs")] = None,
        run: Annotated[list[str] | None, typer.Option("--run", help="a run id to quarantine (repeatable)")] = None,
        agent: Annotated[str | None, typer.Option("--agent", help="agent id (default: settings)")] = None,
        yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask for confirmation")] = False,
        fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
        home: Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")] = None,
    ) -> None:
        """Erase memory: a whole tenant (--tenant T), or a bad record / runs with what they left.

        Examples: contract-review memory forget --tenant acme --yes
                  contract-review memory forget --record f3a9c0... (fact or procedure id)
                  contract-review memory forget --run 6b1f0c2d --run 77aa01ee
        """
        from memory import forget as forgetting
        from memory.errors import MemoryRequestError
        from memory.records import check_run_id

        if record is None and not run:
            if tenant is None:
                raise InputError("name the tenant to erase (--tenant T), or give --record ID or --run ID")
            _forget_tenant(forgetting, tenant, yes, fmt, home)
            return
        if record is not None and run:
            raise InputError("give either --record or --run, not both")
        settings, ns, memory = open_memory_for(home, tenant, agent, record_id=record, reading=True)
        if record is not None:
            removed = _known(lambda: forgetting.forget_record(memory, ns, record))
            head = f"removed {removed['record']['kind']} {record} of {ns.tenant}/{ns.agent} and its source runs"
        else:
            try:
                runs = [check_run_id(r) for r in run or []]
            except MemoryRequestError as exc:
                raise ConfigurationError(str(exc)) from None
            removed = forgetting.forget_runs(memory, ns, runs)
            head = f"quarantined {len(removed['runs'])} run(s) of {ns.tenant}/{ns.agent}"
        # the runs' working memory goes too: their checkpoints hold the whole contract (issue 31)
        gone = sorted(set(run or []) | set(removed.get("runs") or []))
        removed["checkpoint_threads"] = forget_checkpoints(
            settings.checkpoint_path, [f"{ns.tenant}/{ns.agent}/{r}" for r in gone] + gone)
        _print(removed, fmt, [
            head,
            f"  runs: {', '.join(removed['runs']) or '-'}",
            f"  episodes deleted: {len(removed['episodes'])}",
            f"  fact observations removed: {removed['observations']}",
            f"  facts deleted: {', '.join(removed['facts']) or '-'}",
            f"  procedures deleted: {', '.join(removed['procedures_deleted']) or '-'}",
            f"  procedures flagged needs_review: {', '.join(removed['procedures_flagged']) or '-'}",
            f"  checkpoint threads erased: {removed['checkpoint_threads']}",
        ])

    def _forget_tenant(forgetting: Any, tenant: str, yes: bool, fmt: str, home: Path | None) -> None:
        settings, _, memory = open_memory_for(home, tenant, None, reading=True)
        forgetting.validate_tenant(tenant)
        if not yes:
            typer.confirm(f"Erase ALL memory of tenant {tenant!r} (every agent, every tier)?", abort=True)
        runs = forgetting.tenant_run_ids(memory, tenant)
        counts = forgetting.forget_tenant(memory, tenant)
        counts["checkpoint_threads"] = forget_checkpoints(settings.checkpoint_path, sorted(runs), tenant=tenant)
        total = sum(v for k, v in counts.items() if k != "knowledge_base_sync_started")
        lines = [f"erased tenant {tenant}: {total} record(s)"]
        lines += [f"  {name}: {count}" for name, count in counts.items()]
        if counts.get("knowledge_base_sync_started") == 0:
            lines.append("  note: another Knowledge Base sync was running; the next sync drops the deleted "
                         "documents from its index (retrieval already ignores them)")
        _print({"tenant": tenant, "removed": counts}, fmt, lines)

    @app.command()
    def trace(
        record_id: str,
        tenant: Annotated[str | None, typer.Option("--tenant", help="tenant id (default: settings)")] = None,
        agent: Annotated[str | None, typer.Option("--agent", help="agent id (default: settings)")] = None,
        fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
        home: Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")] = None,
    ) -> None:
        """Show the runs a fact or procedure came from and what else they left in memory.

        Example: contract-review memory trace f3a9c0...
        """
        from memory import forget as forgetting

        _, ns, memory = open_memory_for(home, tenant, agent, record_id=record_id, reading=True)
        found = _known(lambda: forgetting.trace(memory, ns, record_id)).as_dict()
        _print(found, fmt, [
            f"{found['kind']} {record_id}: {found['text']}",
            f"  source runs: {', '.join(found['source_runs']) or '-'}",
            f"  their episodes still stored: {', '.join(found['episodes']) or '-'}",
            f"  other facts they confirmed: {', '.join(found['facts']) or '-'}",
            f"  other procedures they proposed: {', '.join(found['procedures']) or '-'}",
            f"remove it with everything its runs left: contract-review memory forget --record {record_id}",
        ])
