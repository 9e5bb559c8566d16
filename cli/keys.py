"""`contract-review keys ...`: the API keys of the served graph, each bound to one tenant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from agent.settings import Settings

keys_app = typer.Typer(
    help="API keys of the served graph (langgraph dev / LangGraph Platform): one tenant per key; and where the "
         "checkpoint key is kept (`keys checkpoint`).\n\n"
         "Example: contract-review keys add --tenant acme --name ci-bot",
    no_args_is_help=True,
)

Home = Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")]
KeysFile = Annotated[Path | None, typer.Option("--file", help="keys file (default: CONTRACT_AGENT_API_KEYS_FILE, "
                                                               "else api-keys in the data folder)")]


def _settings(home: Path | None, keys_file: Path | None) -> Settings:
    from agent.settings import Settings  # on demand: `--help` loads no settings code

    values: dict = {}
    if home is not None:
        values["home"] = home
    if keys_file is not None:
        values["api_keys_file"] = keys_file
    return Settings(**values)


@keys_app.command()
def add(
    tenant: Annotated[str, typer.Option("--tenant", help="the tenant every request with this key acts for")],
    name: Annotated[str, typer.Option("--name", help="a name for the key, unique within the tenant (e.g. ci-bot)")],
    keys_file: KeysFile = None, home: Home = None,
) -> None:
    """Make a key for a tenant: its digest is appended to the keys file, the key is printed once.

    Example: contract-review keys add --tenant acme --name ci-bot
    """
    from agent.api_keys import add_key

    settings = _settings(home, keys_file)
    key = add_key(settings.keys_path, tenant, name)
    typer.echo(key)
    typer.echo(f"added {tenant}/{name} to {settings.keys_path}; the key above is not stored: keep it now", err=True)


@keys_app.command("list")
def list_keys(
    fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    keys_file: KeysFile = None, home: Home = None,
) -> None:
    """The configured keys' tenants and names (never the keys).

    Example: contract-review keys list
    """
    from agent.api_keys import load_key_ring

    ring = load_key_ring(_settings(home, keys_file))
    rows = [{"tenant": key.tenant, "name": key.name} for key in ring.keys]
    if fmt == "json":
        typer.echo(json.dumps(rows, indent=2))
    elif not rows:
        typer.echo("no API keys: a served graph runs in local mode (loopback callers only)")
    else:
        for row in rows:
            typer.echo(f"{row['tenant']}\t{row['name']}")


@keys_app.command("checkpoint")
def checkpoint(
    fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    home: Home = None,
) -> None:
    """Where the data folder's checkpoint key is kept (never the key itself). A `checkpoint.key`
    an earlier version left in the data folder is moved out of it first, as a review would.

    Example: contract-review keys checkpoint
    """
    from graphs.keys import key_status

    status = key_status(_settings(home, None))
    if fmt == "json":
        typer.echo(json.dumps(status, indent=2))
        return
    made = "" if status["exists"] else " (not made yet: the first review with CONTRACT_AGENT_CHECKPOINTER=sqlite makes it)"
    typer.echo(f"{status['source']}\t{status['location']}{made}")
