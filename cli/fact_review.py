"""`contract-review memory review facts ...`: the fact review queue (memory.fact_review).

Facts that passed the confirmation gate but contradict the playbook wait here, never served,
until a person approves or rejects them. The commands join the procedure review queue's group
(`memory review`, cli/ops.py).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from agent.errors import ConfigurationError
from cli.memory import Agent, Format, Home, Tenant, _open, _print_json, console
from cli.ops import _check_format, review_app

facts_app = typer.Typer(
    help="The fact review queue: facts that passed the gate but contradict the playbook; approve or reject them.\n\n"
    "Example: contract-review memory review facts --interactive --by dana",
    invoke_without_command=True,
)
review_app.add_typer(facts_app, name="facts")
By = Annotated[str, typer.Option("--by", help="who decides (recorded on the fact)")]


def _show(item: Any) -> None:
    fact = item.fact
    console.print(f"[bold]{fact.fact_id}[/]  {fact.status.value}  {fact.domain}", highlight=False)
    console.print(f"  claim: {fact.text}", markup=False)
    console.print(f"  why it waits: {item.reason}", markup=False)
    console.print(f"  observed by runs: {', '.join(item.runs) or 'none'}", markup=False)


def _embeddings(settings: Any) -> Any:
    from agent.models import load_embeddings

    return load_embeddings(settings.embeddings, settings=settings)


@facts_app.callback()
def facts(
    ctx: typer.Context,
    interactive: Annotated[bool, typer.Option("--interactive", "-i", help="decide on each fact in turn")] = False,
    by: By = "",
    fmt: Format = "text", tenant: Tenant = None, agent: Agent = None, home: Home = None,
) -> None:
    """Show the fact review queue (or with --interactive, decide on each fact).

    Example: contract-review memory review facts --format json
    """
    if ctx.invoked_subcommand is not None:
        return
    from memory.fact_review import decide_fact, fact_queue

    _check_format(fmt)
    settings, ns, memory = _open(home, tenant, agent)
    queue = fact_queue(memory.facts, memory.confirmations, ns)
    if fmt == "json" and not interactive:
        _print_json([item.model_dump(mode="json") for item in queue])
        return
    if not queue:
        console.print(f"the fact review queue of {ns.tenant} is empty")
        return
    if interactive and not by.strip():
        raise ConfigurationError("an interactive review needs --by NAME: decisions are recorded")
    embeddings = _embeddings(settings) if interactive else None
    for item in queue:
        _show(item)
        if not interactive:
            continue
        answer = typer.prompt("  [a]pprove, [r]eject or [s]kip", default="s").strip().lower()
        decision = {"a": "approve", "r": "reject"}.get(answer[:1])
        if decision:
            done = decide_fact(memory.facts, embeddings, ns, item.fact.fact_id, decision, by=by)
            console.print(f"  -> {done.status.value}")


def _decide(decision: str, fact_id: str, by: str, fmt: str, tenant, agent, home) -> None:
    from memory.errors import MemoryRequestError
    from memory.fact_review import decide_fact

    _check_format(fmt)
    settings, ns, memory = _open(home, tenant, agent, record_id=fact_id)
    try:
        fact = decide_fact(memory.facts, _embeddings(settings), ns, fact_id, decision, by=by)
    except MemoryRequestError as exc:
        raise ConfigurationError(str(exc)) from None
    if fmt == "json":
        _print_json(fact.model_dump(mode="json"))
    else:
        console.print(f"fact {fact_id} is now {fact.status.value}")


@facts_app.command("approve")
def approve_fact(fact_id: str, by: By = "", fmt: Format = "text", tenant: Tenant = None, agent: Agent = None,
                 home: Home = None) -> None:
    """Promote a queued fact: it is served from the next run on, recorded as approved by you.

    Example: contract-review memory review facts approve f3a9c0d2e1b4 --by dana
    """
    _decide("approve", fact_id, by, fmt, tenant, agent, home)


@facts_app.command("reject")
def reject_fact(fact_id: str, by: By = "", fmt: Format = "text", tenant: Tenant = None, agent: Agent = None,
                home: Home = None) -> None:
    """Reject a queued fact: kept for the record, never served, not brought back by later runs.

    Example: contract-review memory review facts reject f3a9c0d2e1b4 --by dana
    """
    _decide("reject", fact_id, by, fmt, tenant, agent, home)
