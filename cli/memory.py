"""`contract-review memory ...`: inspect and curate what the agent remembers."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from agent.errors import ConfigurationError

if TYPE_CHECKING:  # imported where used: `--help` and the light commands stay quick to start
    from memory.records import Namespace

memory_app = typer.Typer(
    help="Inspect and curate the agent's durable memory.\n\nExample: contract-review memory list --tier facts",
    no_args_is_help=True,
)
console = Console()

Tenant = Annotated[str | None, typer.Option("--tenant", help="tenant id (default: settings)")]
Agent = Annotated[str | None, typer.Option("--agent", help="agent id (default: settings)")]
Home = Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")]
Format = Annotated[str, typer.Option("--format", "-f", help="text | json")]
Tier = Annotated[str, typer.Option("--tier", help="episodes | facts | procedures | all")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="print nothing on success (text format)")]

TIERS = ("episodes", "facts", "procedures")
MAX_LIST = 1_000_000


def _open(home: Path | None, tenant: str | None, agent: str | None, *, record_id: str | None = None,
          reading: bool = False):
    """(settings, namespace, backend) for a command; crafted ids (and a crafted record id, when
    the command names one) are refused in one line before the store is opened. A command that
    only reads (`reading`) refuses a data folder that does not exist instead of creating an
    empty one: a mistyped `--home` must not look like an empty memory."""
    from agent.settings import Settings
    from memory.backends import open_memory
    from memory.errors import MemoryRequestError
    from memory.records import Namespace, check_run_id

    if record_id is not None:  # record ids are run ids, fact keys or procedure ids: one charset
        try:
            check_run_id(record_id)
        except MemoryRequestError as exc:
            raise ConfigurationError(str(exc).replace("invalid run id", "invalid record id", 1)) from None

    values: dict[str, Any] = {}
    if home is not None:
        values["home"] = home
    settings = Settings(**values)
    try:
        # an id given explicitly is checked as given: `--tenant ""` is refused, not the default
        ns = Namespace(tenant=settings.tenant if tenant is None else tenant,
                       agent=settings.agent if agent is None else agent)
    except ValueError as exc:
        errors = exc.errors() if hasattr(exc, "errors") else []  # pydantic: the message, not its help URL
        raise ConfigurationError(errors[0]["msg"].removeprefix("Value error, ") if errors else str(exc)) from None
    if reading:  # after the ids: a crafted id is named as such even where no data folder exists
        require_data_folder(settings)
    return settings, ns, open_memory(settings.resolved_memory_url())


def require_data_folder(settings: Any) -> None:
    """Refuse (exit 3) a data folder that does not exist when the embedded memory lives in it."""
    if not settings.memory_url and not settings.home.is_dir():
        raise ConfigurationError(
            f"data folder {settings.home} does not exist (nothing was read or created): check --home or "
            "CONTRACT_AGENT_HOME")


def _dump(records) -> list[dict]:
    return [r.model_dump(mode="json") for r in records]


def _print_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2, default=str))


def _tiers(tier: str) -> tuple[str, ...]:
    if tier == "all":
        return TIERS
    if tier not in TIERS:
        raise typer.BadParameter(f"use one of {', '.join(TIERS)} or all", param_hint="--tier")
    return (tier,)


def _records(memory, ns: Namespace, tier: str, limit: int) -> list:
    if tier == "episodes":
        return memory.episodes.list(ns, limit=limit)
    if tier == "facts":
        return memory.facts.list(ns, limit=limit)
    return memory.procedures.list(ns)[:limit]


@memory_app.command("list")
def list_(
    tier: Tier = "all", limit: int = 20, fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None
) -> None:
    """List stored episodes, facts and procedures (newest first).

    Example: contract-review memory list --tier procedures --format json
    """
    _, ns, memory = _open(home, tenant, agent, reading=True)
    data = {t: _dump(_records(memory, ns, t, limit)) for t in _tiers(tier)}
    if fmt == "json":
        _print_json(data)
        return
    for name, rows in data.items():
        table = Table(title=f"{name} of {ns.tenant}/{ns.agent}")
        if name == "episodes":
            for col in ("run_id", "created", "outcome", "task"):
                table.add_column(col)
            for r in rows:
                table.add_row(r["run_id"], r["created_at"][:19], r["outcome"], r["task_summary"][:70])
        elif name == "facts":
            for col in ("fact_id", "domain", "confidence", "runs", "text"):
                table.add_column(col)
            for r in rows:
                table.add_row(r["fact_id"], r["domain"], f"{r['confidence']:.2f}", str(len(r["source_runs"])), r["text"][:70])
        else:
            for col in ("procedure_id", "task_type", "status", "uses", "title"):
                table.add_column(col)
            for r in rows:
                table.add_row(r["procedure_id"], r["task_type"], r["status"], f"{r['successes']}/{r['applications']}", r["title"][:60])
        console.print(table)


@memory_app.command()
def show(record_id: str, fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None) -> None:
    """Show one episode (run id), fact or procedure in full.

    Example: contract-review memory show 6b1f0c2d
    """
    _, ns, memory = _open(home, tenant, agent, record_id=record_id, reading=True)
    record = memory.episodes.get(ns, record_id) or memory.facts.get(ns, record_id) or memory.procedures.get(ns, record_id)
    if record is None:
        raise ConfigurationError(f"no episode, fact or procedure {record_id!r} for {ns.tenant}/{ns.agent}")
    data = record.model_dump(mode="json")
    if fmt == "json":
        _print_json(data)
    else:
        for key, value in data.items():
            console.print(f"[bold]{key}[/]: {value}")


@memory_app.command()
def stats(
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None,
    days: Annotated[int, typer.Option("--days", min=1, help="retrieval telemetry window in days")] = 30,
) -> None:
    """Size of each tier, procedures by status, and per tier over the last --days: hit rate,
    score distribution, p50/p95 latency, memories never retrieved.

    Example: contract-review memory stats --days 7 --format json
    """
    from memory.records import ProcedureStatus

    settings, ns, memory = _open(home, tenant, agent, reading=True)
    procedures = memory.procedures.list(ns)
    episodes = memory.episodes.list(ns, limit=MAX_LIST)
    extraction: dict[str, int] = {}
    for episode in episodes:  # how each stored run was distilled (memory.records.Extraction)
        extraction[episode.extraction.value] = extraction.get(episode.extraction.value, 0) + 1
    data = {
        "tenant": ns.tenant,
        "agent": ns.agent,
        "episodes": len(episodes),
        "episodes_by_extraction": extraction,
        "facts": len(memory.facts.list(ns, limit=MAX_LIST)),
        "procedures": {s.value: sum(p.status == s for p in procedures) for s in ProcedureStatus},
        **telemetry_stats(memory, ns, days=days),
        "checkpoints": _checkpoint_stats(settings),
    }
    if fmt == "json":
        _print_json(data)
        return
    table = Table(title=f"memory of {ns.tenant}/{ns.agent}")
    table.add_column("tier")
    table.add_column("records")
    table.add_row("episodic", str(data["episodes"]))
    table.add_row("semantic", str(data["facts"]))
    table.add_row("procedural", ", ".join(f"{k} {v}" for k, v in data["procedures"].items()))
    console.print(table)
    if data["checkpoints"] is not None:
        cp = data["checkpoints"]
        console.print(f"working memory (checkpoints.sqlite, every tenant): {cp['threads']} thread(s) of unfinished "
                      f"or kept runs ({cp['finished']} finished), {cp['bytes']:,} bytes", markup=False)
    if extraction.get("failed"):
        console.print(f"warning: {extraction['failed']} of {len(episodes)} episodes were recorded after the extraction "
                      "model's answer could not be read (no facts or procedure from them): check the extraction model",
                      markup=False)
    print_telemetry(data)


def _checkpoint_stats(settings: Any) -> dict[str, int] | None:
    """Threads and bytes of the SQLite checkpoint file, or None when there is none (issue 34)."""
    import sqlite3

    from graphs.checkpoints import maintenance
    from graphs.runner import checkpoint_store_error

    try:
        with maintenance(settings.checkpoint_path) as saver:
            if saver is None:
                return None
            found = saver.stats()
    except sqlite3.Error as exc:
        raise checkpoint_store_error(exc, settings) from exc
    return {"threads": found.threads, "finished": found.finished, "bytes": found.bytes}


def _set_status(procedure_id: str, status: str, by: str, home, tenant, agent, fmt: str, quiet: bool = False) -> None:
    from agent.progress import is_quiet
    from memory import procedural
    from memory.records import ProcedureStatus

    _, ns, memory = _open(home, tenant, agent, record_id=procedure_id)
    if memory.procedures.get(ns, procedure_id) is None:
        raise ConfigurationError(f"no procedure {procedure_id!r} for {ns.tenant}/{ns.agent}")
    change = procedural.approve if status == ProcedureStatus.VALIDATED else procedural.reject
    procedure = change(memory.procedures, ns, procedure_id, by=by)
    if fmt == "json":
        _print_json(procedure.model_dump(mode="json"))
    elif not (quiet or is_quiet()):
        console.print(f"procedure {procedure_id} is now {procedure.status.value}")


@memory_app.command()
def approve(
    procedure_id: str,
    by: Annotated[str, typer.Option("--by", help="who validated it")] = "cli",
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None, quiet: Quiet = False,
) -> None:
    """Validate a pending procedure so bootstrap may serve it.

    Example: contract-review memory approve p-1a2b3c --by alice
    """
    _set_status(procedure_id, "validated", by, home, tenant, agent, fmt, quiet)


@memory_app.command()
def reject(
    procedure_id: str,
    by: Annotated[str, typer.Option("--by", help="who rejected it")] = "cli",
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None, quiet: Quiet = False,
) -> None:
    """Reject a procedure: it is kept for the record and never served.

    Example: contract-review memory reject p-1a2b3c
    """
    _set_status(procedure_id, "rejected", by, home, tenant, agent, fmt, quiet)


@memory_app.command()
def search(
    task: Annotated[str, typer.Argument(help="a task description, as bootstrap would embed it")],
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    task_type: Annotated[str | None, typer.Option("--task-type")] = None,
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None,
) -> None:
    """Show what bootstrap would retrieve for a task from each tier, and the memory block.

    Example: contract-review memory search "Review the Northwind supply agreement"
    """
    from langgraph.runtime import Runtime

    from graphs.bootstrap import review_memory_block
    from graphs.memory_steps import episodic_read, procedural_read, semantic_read
    from graphs.runner import context_from_settings

    settings, ns, _ = _open(home, tenant, agent, reading=True)
    ctx = context_from_settings(settings, tenant=ns.tenant, agent=ns.agent, domain=domain, task_type=task_type)
    runtime = Runtime(context=ctx)
    state: dict[str, Any] = {"task": task}
    for read in (episodic_read, semantic_read, procedural_read):
        state.update(read(state, runtime))
    state.update(review_memory_block(state, runtime))
    if fmt == "json":
        _print_json(state)
        return
    for e in state["episodes"]:
        console.print(f"episode {e['item']['run_id']}  score {e['score']:.3f}  {e['item']['task_summary'][:70]}")
    for f in state["facts"]:
        console.print(f"fact {f['item']['fact_id']}  score {f['score']:.3f}  {f['item']['text'][:70]}")
    if state["procedure"]:
        console.print(f"procedure {state['procedure']['procedure_id']}  {state['procedure']['title']}")
    console.print(state["memory_block"] or "(empty memory block: nothing passed the thresholds)", markup=False)


# `memory forget` and `memory trace` (erasure and provenance) live in their own module.
from cli.forget import add_forget_commands  # noqa: E402

add_forget_commands(memory_app, _open)


# ---------------------------------------------------------------- stats (telemetry part)


def telemetry_stats(memory: Any, ns: Namespace, *, days: int, now: datetime | None = None) -> dict[str, Any]:
    """The retrieval figures `memory stats` adds, and the embedding models of stored vectors."""
    from memory.telemetry import retrieval_stats

    moment = now or datetime.now(UTC)
    tiers = retrieval_stats(memory, ns, now=moment, days=days)
    models: dict[str, dict[str, int]] = {"episodes": {}, "facts": {}}
    for e in memory.episodes.list(ns, limit=1_000_000_000):
        models["episodes"][e.embedding_model] = models["episodes"].get(e.embedding_model, 0) + 1
    for f in memory.facts.list(ns, limit=1_000_000_000):
        models["facts"][f.embedding_model] = models["facts"].get(f.embedding_model, 0) + 1
    return {"window_days": days, "retrieval": {t: s.model_dump(exclude={"tier"}) for t, s in tiers.items()},
            "embedding_models": models}


def print_telemetry(data: dict[str, Any]) -> None:
    table = Table(title=f"retrieval over the last {data['window_days']} days")
    for column in ("tier", "size", "reads", "hit rate", "scores p25/p50/p75", "latency p50/p95 ms",
                   f"idle {data['window_days']}d"):
        table.add_column(column)

    def fmt(value: float | None, pattern: str = "{:.2f}") -> str:
        return "-" if value is None else pattern.format(value)

    for tier, s in data["retrieval"].items():
        sc, lat = s["scores"], s["latency_ms"]
        table.add_row(
            tier, str(s["size"]), str(s["reads"]), fmt(s["hit_rate"], "{:.0%}"),
            "/".join(fmt(sc[q]) for q in ("p25", "p50", "p75")),
            f"{fmt(lat['p50'], '{:.1f}')}/{fmt(lat['p95'], '{:.1f}')}", str(s["never_retrieved"]),
        )
    console.print(table)
    for kind, counts in data["embedding_models"].items():
        if len(counts) > 1:
            console.print(f"warning: {kind} are stored with {len(counts)} embedding models {sorted(counts)}: "
                          "run `contract-review memory reembed`", markup=False)
from cli.backup import add_backup_commands  # noqa: E402  (memory backup, restore, check)

add_backup_commands(memory_app, require_data_folder)
