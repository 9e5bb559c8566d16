"""`contract-review memory backup|restore|check`: the embedded store's safety net (issue 32).

The work is in `memory.backends.sqlite.health`; this module turns it into commands, messages and
exit codes (cli/main.py): 0 done or healthy; 2 a damaged backup refused, or a backup file that
exists without --force; 3 not the embedded SQLite store (or a bad path); 4 the store has problems
(check: one line each) or the copy failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agent.errors import ConfigurationError, InputError

if TYPE_CHECKING:
    from memory.backends.sqlite.health import Health

Home = Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")]
Format = Annotated[str, typer.Option("--format", "-f", help="text | json")]

Force = Annotated[bool, typer.Option("--force", help="replace DEST if it exists")]
Accept = Annotated[bool, typer.Option(
    "--accept", help="take the file as it is as this folder's memory, after a reported loss was judged")]


def _store(home: Path | None) -> Path:
    """The embedded store's file, or exit 3 for a memory URL of another backend."""
    from agent.settings import Settings
    from memory.backends import sqlite_path

    settings = Settings(**({"home": home} if home is not None else {}))
    path = sqlite_path(settings.resolved_memory_url())
    if path is None:
        raise ConfigurationError(
            "memory backup, restore and check work on the embedded SQLite store; this memory URL names another "
            "backend: use its own backups (DynamoDB point-in-time recovery, S3 versioning, pg_dump)")
    return path


def _summary(health: Health) -> dict[str, Any]:
    marker = health.marker
    return {"healthy": health.healthy, "problems": health.problems, "counts": health.counts,
            "indexes_checked": health.indexes,
            "marker": None if marker is None else {"store": marker.store, "generation": marker.generation,
                                                   "counts": marker.counts}}


def _counts(health: Health) -> str:
    return ", ".join(f"{count} {table}" for table, count in health.counts.items()) or "no tiers"


def _print(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2))


def add_backup_commands(app: typer.Typer, require_data_folder: Callable[[Any], None]) -> None:
    """Join `memory backup`, `restore` and `check` to the memory command group (cli/memory.py)."""

    @app.command()
    def backup(
        dest: Annotated[Path, typer.Argument(help="the backup file to write (one SQLite file, owner-only)")],
        force: Force = False, fmt: Format = "text", home: Home = None,
    ) -> None:
        """Copy the memory store to DEST while it may be in use (SQLite's online backup), checked whole.

        The vector indexes are not copied: a restored store rebuilds them from its table.
        Example: contract-review memory backup /backups/memory-$(date +%F).sqlite
        """
        from memory.backends.sqlite.health import backup as run_backup

        path = _store(home)
        if dest.exists() and not force:
            raise InputError(f"{dest} exists: choose another file or add --force to replace it")
        health = run_backup(path, dest)
        if fmt == "json":
            _print({"backup": str(dest), **_summary(health)})
        else:
            typer.echo(f"backed up {path} to {dest}: {_counts(health)}")


    @app.command()
    def restore(
        src: Annotated[Path, typer.Argument(help="a backup made by `memory backup` (or SQLite's .backup)")],
        fmt: Format = "text", home: Home = None,
    ) -> None:
        """Replace the memory store by a backup, checked first; the current store stays until the copy is in place.

        A damaged backup is refused (exit 2) and the store left as it was. Run it when no other command uses memory.
        Example: contract-review memory restore /backups/memory-2026-12-01.sqlite
        """
        from memory.backends.sqlite.health import restore as run_restore
        from memory.errors import DamagedBackupError

        path = _store(home)
        try:
            health = run_restore(path, src)
        except DamagedBackupError as exc:
            raise InputError(str(exc)) from exc
        if fmt == "json":
            _print({"restored": str(src), **_summary(health)})
        else:
            typer.echo(f"restored {path} from {src}: {_counts(health)} (vector indexes rebuilt at the first search)")


    @app.command()
    def check(accept: Accept = False, fmt: Format = "text", home: Home = None) -> None:
        """Check the whole memory store: integrity, foreign keys, rows per tier against the marker, index checksums.

        Exit 0 healthy; 4 with one line per problem. Example: contract-review memory check --format json
        """
        from memory.backends.sqlite.health import accept as run_accept
        from memory.backends.sqlite.health import check as run_check

        path = _store(home)
        if home is not None or not path.parent.is_dir():
            from agent.settings import Settings

            require_data_folder(Settings(**({"home": home} if home is not None else {})))
        if accept:
            run_accept(path)
        health = run_check(path)
        if fmt == "json":
            _print(_summary(health))
        else:
            typer.echo(f"{path}: {_counts(health)}; {health.indexes} vector index file(s) checked")
            for problem in health.problems:
                typer.echo(f"problem: {problem}")
            typer.echo("healthy" if health.healthy else f"{len(health.problems)} problem(s)")
        if not health.healthy:
            raise typer.Exit(4)
