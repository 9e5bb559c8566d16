"""`contract-review memory decay | review | reembed`, and the telemetry part of `memory stats`.

Operating memory over months (docs/OPERATING.md): decay prunes and flags, the review queue lets
a person decide on procedures, reembed moves a tenant to a new embedding model, and stats shows
how retrieval is doing. The commands join `memory_app` (cli/memory.py).
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from agent.errors import ConfigurationError
from agent.progress import track
from cli.memory import Agent, Format, Home, Tenant, _open, _print_json, console, memory_app

AsOf = Annotated[
    datetime | None,
    typer.Option("--as-of", help="pretend it is this UTC time (e.g. 2026-07-01T00:00:00) to plan ahead"),
]


def _moment(as_of: datetime | None) -> datetime:
    """The time decay works at: --as-of, else the system clock; either checked (memory.clock)."""
    from memory.clock import checked, now

    return now() if as_of is None else checked(as_of, "--as-of")


def _check_format(fmt: str) -> None:
    if fmt not in ("text", "json"):
        raise typer.BadParameter("use text or json", param_hint="--format")


# ---------------------------------------------------------------- decay


@memory_app.command()
def decay(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="print what would change; change nothing")] = False,
    merge_similarity: Annotated[float, typer.Option(
        "--merge-similarity", help="word overlap (Jaccard) at which same-identifier episodes merge")] = 0.9,
    telemetry_days: Annotated[int, typer.Option("--telemetry-days", help="keep retrieval telemetry this long")] = 180,
    as_of: AsOf = None,
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None,
) -> None:
    """Prune episodes, merge near-duplicates, flag stale or failing procedures for review.

    Applies the decay rules to every namespace (or the one --tenant/--agent name): deletes
    expired episodes and FAILED ones older than 7 days, merges near-duplicate episodes, flags
    stale or failing procedures needs_review (never deletes them), prunes old telemetry.

    Example: contract-review memory decay --dry-run
    """
    from memory.decay import DecayPolicy, decay_all, totals

    _check_format(fmt)
    settings, ns, memory = _open(home, tenant, agent)
    try:
        policy = DecayPolicy(
            failed_episode_days=settings.failed_episode_days, procedure_stale_days=settings.procedure_stale_days,
            procedure_min_uses=settings.procedure_min_uses,
            procedure_min_success_rate=settings.procedure_min_success_rate,
            merge_min_similarity=merge_similarity, telemetry_days=telemetry_days,
        )
    except ValueError as exc:
        raise ConfigurationError(f"invalid decay setting: {exc}") from None
    scope = [ns] if tenant is not None or agent is not None else memory.namespaces()
    moment = _moment(as_of)
    reports = [
        decay_all(memory, [each], policy, moment, dry_run=dry_run)[0]
        for each in track(scope, "decay (dry run)" if dry_run else "decay", label=lambda n: f"{n.tenant}/{n.agent}")
    ]
    prefix = "" if tenant is None and agent is None else f"{ns.tenant}/" + (f"{ns.agent}/" if agent is not None else "")
    threads = _expire_checkpoints(settings, moment, prefix, dry_run)
    for report in reports:  # on stderr, whatever the format: a clock ran ahead somewhere
        for moved in report.redated:
            sys.stderr.write(
                f"warning: {report.namespace}: episode {moved.run_id} was dated {moved.was:%Y-%m-%d %H:%M} UTC, "
                f"ahead of this clock (a skewed clock wrote it): {'read' if dry_run else 'redated'} as written now, "
                f"expiring {moved.expires_at:%Y-%m-%d}\n")
    if fmt == "json":
        _print_json({"dry_run": dry_run, "totals": totals(reports),
                     "namespaces": [r.model_dump(mode="json") for r in reports],
                     "checkpoint_threads_expired": threads})
        return
    would = "would be " if dry_run else ""
    if threads is not None:
        console.print(f"checkpoints: {len(threads)} thread(s) of unfinished runs idle over "
                      f"{settings.checkpoint_keep_unfinished_days:g} days (or finished runs over "
                      f"{settings.checkpoint_keep_completed_days:g}) {would}deleted", markup=False)
    if not reports:
        console.print("no memory to decay")
    for report in reports:
        console.print(f"[bold]{report.namespace}[/]" + (" (dry run: nothing changed)" if dry_run else ""))
        merged = sum(len(m.merged) for m in report.merges)
        console.print(
            f"  episodic:   {len(report.expired_deleted)} expired, {len(report.failed_deleted)} FAILED and "
            f"{len(report.empty_deleted)} empty (extraction failed) older than "
            f"{policy.failed_episode_days} days {would}deleted; {merged} near-duplicates {would}merged into "
            f"{len(report.merges)} kept", markup=False,
        )
        for merge in report.merges:
            console.print(f"    keep {merge.kept}, merge {', '.join(merge.merged)}", markup=False)
        if report.kept_last_run:
            console.print(f"    kept {report.kept_last_run}: a rule would delete it, but it is the last run's "
                          "episode (by the run counter), which decay never deletes", markup=False)
        console.print(f"  procedural: {len(report.procedures_flagged)} {would}flagged needs_review (never deleted)")
        for flagged in report.procedures_flagged:
            console.print(f"    {flagged.procedure_id} {flagged.title!r}: {flagged.reason}", markup=False)
        console.print("  semantic:   facts do not decay; review or forget them explicitly")
        console.print(f"  telemetry:  {report.telemetry_pruned} events older than {policy.telemetry_days} days "
                      f"{'would be ' if dry_run else ''}pruned")


def _expire_checkpoints(settings: Any, moment: datetime, prefix: str, dry_run: bool) -> list[str] | None:
    """Working memory past its retention (issue 34): the checkpoint threads `memory decay`
    deletes, or None when there is no checkpoint file."""
    from graphs.checkpoints import maintenance
    from graphs.runner import checkpoint_store_error

    try:
        with maintenance(settings.checkpoint_path) as saver:
            if saver is None:
                return None
            return saver.expire(now=moment.timestamp(), keep_unfinished_days=settings.checkpoint_keep_unfinished_days,
                                keep_finished_days=settings.checkpoint_keep_completed_days, prefix=prefix,
                                dry_run=dry_run)
    except sqlite3.Error as exc:
        raise checkpoint_store_error(exc, settings) from exc


# ---------------------------------------------------------------- review queue

review_app = typer.Typer(
    help="The procedure review queue: pending and flagged procedures; approve, reject or retire them.\n\n"
    "Example: contract-review memory review --interactive --by dana",
    invoke_without_command=True,
)
memory_app.add_typer(review_app, name="review")
By = Annotated[str, typer.Option("--by", help="who decides (recorded on approval)")]


def _show_item(item: Any) -> None:
    p = item.procedure
    console.print(f"[bold]{p.procedure_id}[/]  {p.status.value}  {p.task_type}  {p.title!r}", highlight=False)
    console.print(f"  why: {item.reason}", markup=False)
    rate = f"{p.success_rate:.0%}" if p.success_rate is not None else "n/a"
    console.print(f"  uses: {p.successes}/{p.applications} successful (rate {rate}); "
                  f"source runs: {', '.join(p.source_runs) or 'none'}", markup=False)
    against = f"against served {item.baseline.procedure_id}" if item.baseline else "no procedure served yet"
    console.print(f"  changes ({against}):", markup=False)
    for line in item.changes:
        console.print(f"    {line}", markup=False)


@review_app.callback()
def review(
    ctx: typer.Context,
    interactive: Annotated[bool, typer.Option("--interactive", "-i", help="decide on each item in turn")] = False,
    by: By = "",
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None,
) -> None:
    """Show the review queue (or with --interactive, decide on each entry).

    Example: contract-review memory review --interactive --by dana
    """
    if ctx.invoked_subcommand is not None:
        return
    from memory.review import decide, review_queue

    _check_format(fmt)
    settings, ns, memory = _open(home, tenant, agent, reading=not interactive)
    queue = review_queue(memory.procedures, ns, now=datetime.now(UTC), trial_uses=settings.procedure_trial_uses,
                         min_success_rate=settings.procedure_min_success_rate)
    if fmt == "json" and not interactive:
        _print_json([item.model_dump(mode="json") for item in queue])
        return
    if not queue:
        console.print(f"the review queue of {ns.key} is empty")
        return
    if interactive and not by.strip():
        raise ConfigurationError("an interactive review needs --by NAME: decisions are recorded")
    for item in queue:
        _show_item(item)
        if not interactive:
            continue
        answer = typer.prompt("  [a]pprove, [r]eject, re[t]ire or [s]kip", default="s").strip().lower()
        decision = {"a": "approve", "r": "reject", "t": "retire"}.get(answer[:1])
        if decision:
            done = decide(memory.procedures, ns, item.procedure.procedure_id, decision, by=by)
            console.print(f"  -> {done.status.value}")


def _decide(decision: str, procedure_id: str, by: str, fmt: str, tenant, agent, home) -> None:
    from memory.review import decide

    _check_format(fmt)
    _, ns, memory = _open(home, tenant, agent, record_id=procedure_id)
    if memory.procedures.get(ns, procedure_id) is None:
        raise ConfigurationError(f"no procedure {procedure_id!r} for {ns.tenant}/{ns.agent}")
    procedure = decide(memory.procedures, ns, procedure_id, decision, by=by)
    if fmt == "json":
        _print_json(procedure.model_dump(mode="json"))
    else:
        console.print(f"procedure {procedure_id} is now {procedure.status.value}")


@review_app.command("approve")
def review_approve(procedure_id: str, by: By = "cli", fmt: Format = "text", tenant: Tenant = None,
                   agent: Agent = None, home: Home = None) -> None:
    """Validate a procedure: bootstrap serves it from the next run on.

    Example: contract-review memory review approve p-1a2b3c --by alice
    """
    _decide("approve", procedure_id, by, fmt, tenant, agent, home)


@review_app.command("reject")
def review_reject(procedure_id: str, by: By = "cli", fmt: Format = "text", tenant: Tenant = None,
                  agent: Agent = None, home: Home = None) -> None:
    """Reject a procedure: kept for the record, never served.

    Example: contract-review memory review reject p-1a2b3c --by alice
    """
    _decide("reject", procedure_id, by, fmt, tenant, agent, home)


@review_app.command("retire")
def review_retire(procedure_id: str, by: By = "cli", fmt: Format = "text", tenant: Tenant = None,
                  agent: Agent = None, home: Home = None) -> None:
    """Withdraw a procedure from serving (it may be approved again later).

    Example: contract-review memory review retire p-1a2b3c --by alice
    """
    _decide("retire", procedure_id, by, fmt, tenant, agent, home)


# ---------------------------------------------------------------- re-embedding


@memory_app.command()
def reembed(
    embeddings: Annotated[str, typer.Option("--embeddings", help="the new model: wordllama | hash:<dim> | bedrock:<id> | ollama:<name>")],
    all_tenants: Annotated[bool, typer.Option("--all-tenants", help="every tenant of the backend")] = False,
    batch_size: Annotated[int, typer.Option("--batch-size", help="texts per embedding call")] = 64,
    status: Annotated[bool, typer.Option("--status", help="only show how far a re-embedding got")] = False,
    fmt: Format = "text", tenant: Tenant = None, home: Home = None,
) -> None:
    """Move a tenant's episodes and facts to a new embedding model (resumable).

    Retrieval keeps the old vectors until every record has a new one, then switches; set
    CONTRACT_AGENT_EMBEDDINGS to the new model afterwards. Run it again to resume.

    Example: contract-review memory reembed --embeddings hash:384 --tenant acme
    """
    from agent.models import load_embeddings
    from memory.embeddings import model_name_of
    from memory.reembed import reembed as run_reembed
    from memory.reembed import reembeddable

    _check_format(fmt)
    if all_tenants and tenant:
        raise typer.BadParameter("give --tenant or --all-tenants, not both", param_hint="--all-tenants")
    settings, ns, memory = _open(home, tenant, None)
    model = load_embeddings(embeddings, settings=settings)
    store = reembeddable(memory)
    tenants = store.tenants() if all_tenants else [ns.tenant]
    if status:
        progress = [store.progress(t, model_name_of(model)) for t in tenants]
        if fmt == "json":
            _print_json([{**p.model_dump(), "missing": p.missing} for p in progress])
        for p in progress if fmt == "text" else []:
            console.print(f"{p.tenant}: {p.on_model}/{p.total} on {p.model}, {p.staged} staged, {p.missing} to embed",
                          markup=False)
        return
    results = [run_reembed(memory, model, tenant=t, batch_size=batch_size)[0]
               for t in track(tenants, f"re-embed with {model_name_of(model)}")]
    if fmt == "json":
        _print_json([r.model_dump() for r in results])
        return
    for r in results:
        console.print(f"{r.tenant}: embedded {r.embedded}, switched {r.switched} records to {r.model}", markup=False)
    if model_name_of(model) != _configured_model(settings):
        console.print(f"now set CONTRACT_AGENT_EMBEDDINGS={embeddings} so the agent queries with the new model",
                      markup=False)


def _configured_model(settings: Any) -> str:
    from agent.models import load_embeddings
    from memory.embeddings import model_name_of

    try:
        return model_name_of(load_embeddings(settings.embeddings, settings=settings))
    except Exception:  # noqa: BLE001 - only used to phrase a hint
        return ""
