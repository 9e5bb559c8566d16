"""The `contract-review` command line: the only place errors become messages and exit codes.

Exit codes: 0 success; 1 unexpected failure; 2 bad input (an unreadable contract, or one over its
time budget) or usage error; 3 configuration error (a clock before 2000 or after 2200 included); 4 memory store failure; 5 unusable model output (an incomplete review
included: its report is still written); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM).
(`EXIT_CODES` below is the same list, shown by `--help` and docs/CLI.md.)
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import click
import typer
from rich.console import Console

from agent.errors import (
    ConfigurationError,
    ContractAgentError,
    InputError,
    ModelOutputError,
    user_error,
)
from agent.progress import is_quiet, progress, set_quiet
from cli.extras import missing_extra_message

if TYPE_CHECKING:
    from agent.settings import Settings

# What a command needs (the graph, models, memory, reports) is imported inside the command, so
# `--help` and the light commands start quickly; tests/test_startup.py keeps it so.

EXIT_CODES = (
    (0, "success"),
    (1, "unexpected failure"),
    (2, "bad input (an unreadable contract, or one over its time budget) or usage error"),
    (3, "configuration error"),
    (4, "memory store failure"),
    (5, "unusable model output or an incomplete review (PARTIAL/FAILED; the report is still written)"),
    (130, "interrupted (Ctrl-C)"),
    (143, "terminated (SIGTERM)"),
)
EXIT_CODES_HELP = "Exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES) + "."

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Review supplier contracts against a playbook, with an agent that remembers across runs.\n\n"
    "Example: contract-review review contract.pdf --format html --out review.html",
    epilog=EXIT_CODES_HELP,
)
out = Console()
err = Console(stderr=True)

Tenant = Annotated[str | None, typer.Option("--tenant", help="tenant id (default: settings)")]
Agent = Annotated[str | None, typer.Option("--agent", help="agent id (default: settings)")]
Home = Annotated[Path | None, typer.Option("--home", help="data folder (default: CONTRACT_AGENT_HOME)")]
Format = Annotated[str, typer.Option("--format", "-f", help="text | markdown | json")]
ReportFormat = Annotated[str, typer.Option("--format", "-f", help="text | markdown | json | html")]
OutFile = Annotated[Path | None, typer.Option("--out", help="write the report to this file")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="no progress or status lines on stderr")]
REPORT_FORMATS = ("text", "markdown", "json", "html")


@app.callback()
def _global_options(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress or status lines from any command")] = False,
) -> None:
    """Review supplier contracts against a playbook, with an agent that remembers across runs."""
    set_quiet(quiet)


def fail(message: str) -> None:
    """One line on stderr, never wrapped (scripts grep it)."""
    line = " ".join(str(message).split())
    sys.stderr.write(line if line.startswith(("error:", "internal error:", "warning:")) else f"error: {line}")
    sys.stderr.write("\n")


def load_settings(home: Path | None = None, **overrides) -> Settings:
    from agent.settings import Settings

    values = {k: v for k, v in overrides.items() if v is not None}
    if home is not None:
        values["home"] = home
    return Settings(**values)


def emit(text: str, out_file: Path | None) -> None:
    if out_file is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        out_file.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


@app.command(epilog=EXIT_CODES_HELP)
def review(
    paths: Annotated[list[Path], typer.Argument(help="contract files (.pdf, .txt, .md) or folders of them")],
    fmt: ReportFormat = "text",
    out_file: OutFile = None,
    tenant: Tenant = None,
    agent: Agent = None,
    model: Annotated[str | None, typer.Option(
        "--model", help="chat model for every role without its own setting: offline | bedrock:<id> | "
        "ollama:<name> | <provider>:<model> (LangChain) | package.module:factory")] = None,
    no_memory: Annotated[bool, typer.Option("--no-memory", help="run with the durable tiers off")] = False,
    task_type: Annotated[str | None, typer.Option("--task-type")] = None,
    domain: Annotated[str | None, typer.Option("--domain")] = None,
    thread_id: Annotated[str | None, typer.Option("--thread-id", help="run id / checkpoint thread")] = None,
    we: Annotated[str | None, typer.Option(
        "--we", help="which side we review for when the contract leaves it open: a role word (buyer (default), "
        "supplier, customer, distributor, licensee, licensor ...) or a party's name or defined term, in any case, "
        "with or without Inc./Ltd. (e.g. --we Distributor, --we \"ingram micro\"); exit 2 when it names no party")] = None,
    home: Home = None,
    quiet: Quiet = False,
) -> None:
    """Review contracts and print a report (several files or a folder: one report each, progress on stderr).

    Example: contract-review review a.pdf b.pdf --format html --out review.html --we "Ingram Micro"
    """
    from graphs.runner import (
        Reviewer,
        context_from_settings,
        open_checkpointer,
        progress_text,
        valid_run_id,
    )

    if fmt not in REPORT_FORMATS:
        raise typer.BadParameter("use text, markdown, json or html", param_hint="--format")
    if we is not None and (not we.strip() or "\n" in we or len(we) > 120):
        raise typer.BadParameter("give buyer, supplier, or a party's name or defined term (one line)", param_hint="--we")
    paths = contract_files(paths)
    settings = load_settings(home, tenant=tenant, agent=agent, task_type=task_type, domain=domain, model=model)
    context_from_settings(settings)  # crafted ids fail here, before anything is opened or written
    if thread_id is not None:
        valid_run_id(thread_id)
    from memory.clock import now as checked_clock

    checked_clock()  # a clock before 2000 or after 2200 (memory.clock): exit 3, nothing written
    from agent.model_check import check_models
    from graphs.context import cached_chat_model

    # every role's model, before the first contract (the run then uses the instances checked)
    check_models(settings, model_option=model is not None, load=cached_chat_model)
    reports, failures = [], []
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver, use_memory=not no_memory, we=we or "")
        # One file: a live bar on a terminal only (a log line would add noise to one report).
        single_quiet = len(paths) < 2 and not sys.stderr.isatty()
        with progress("review", len(paths), quiet=True if quiet or single_quiet else None) as steps:
            for path in paths:
                steps.working_on(path.name)

                def show(event: dict, name: str = path.name) -> None:  # the graph's progress events, live
                    steps.working_on(f"{name}: {progress_text(event)}")

                try:
                    reports.append(reviewer.review_path(path, thread_id=thread_id if len(paths) == 1 else None,
                                                        on_progress=show))
                except Exception as exc:  # one file's failure never aborts the others: report it, go on
                    failure = file_failure(exc)
                    failures.append(failure)
                    about_file = isinstance(failure, InputError) or type(failure) is ContractAgentError
                    message = f"{path}: {failure}" if about_file and str(path) not in str(failure) else str(failure)
                    fail(message)
                steps.advance(label=path.name)
    if fmt == "json":
        emit(json.dumps(reports[0] if len(paths) == 1 and reports else reports, indent=2), out_file)
    elif reports:
        show_report(reports, fmt, out_file)
    if out_file is not None and (reports or fmt == "json") and not quiet:
        status(f"wrote {fmt} report to {out_file}")
    for report in reports:
        for warning in (report.get("review_loop") or {}).get("warnings") or []:
            fail(f"warning: {report.get('contract')}: {warning}")
    codes = [f.exit_code for f in failures] + [report_incomplete(r) for r in reports] + [parties_unknown(r, we) for r in reports]
    if any(codes):
        raise typer.Exit(max(codes))


def contract_files(paths: list[Path]) -> list[Path]:
    """The contracts to review: each file as given, each folder as its .pdf/.txt/.md files
    (not its sub-folders), in name order. A folder with none of them is bad input (exit 2)."""
    from tools.contract import SUPPORTED_SUFFIXES

    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = sorted((p for p in path.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES and p.is_file()),
                       key=lambda p: p.name)
        if not found:
            raise InputError(f"{path}: a folder with no contract in it (no {', '.join(SUPPORTED_SUFFIXES)} files)")
        files.extend(found)
    return files


def parties_unknown(report: dict, we: str | None) -> int:
    """0 when the report knows who the buyer is; else one line on stderr (the report says so at
    its top too), and the usage exit code when the user's --we named no party of the contract."""
    if report.get("parties_status") != "unknown":
        return 0
    fail(f"{'error' if we else 'warning'}: {report.get('contract')}: parties unknown: {report.get('parties_note')}")
    return InputError.exit_code if we else 0


def report_incomplete(report: dict) -> int:
    """0 for a complete review; else one line on stderr and the exit code of unusable model output
    (the report is still written: it holds every finding that was recorded)."""
    incomplete = report.get("incomplete")
    if report.get("outcome") == "COMPLETED" or not incomplete:
        return 0
    missing = ", ".join(incomplete.get("open_clause_types") or []) or "none"
    fail(f"error: {report.get('contract')}: review incomplete ({report.get('outcome')}): {incomplete.get('reason')}; "
         f"no finding for: {missing}")
    return ModelOutputError.exit_code


def file_failure(exc: Exception) -> ContractAgentError:
    """The error one file of a batch ended with, as the agent error it stands for; an unexpected
    one becomes an `internal error:` line (exit code 1) instead of a traceback."""
    failure = user_error(exc)
    if failure is None and _is_connection_error(exc):
        failure = ConfigurationError(connection_message(exc))
    if failure is None and (missing := missing_extra_message(exc)) is not None:
        failure = ConfigurationError(missing)
    if failure is None:
        failure = ContractAgentError(f"internal error: {type(exc).__name__}: {exc}")
    failure.__cause__ = failure.__cause__ or exc
    return failure


def show_report(reports: list[dict], fmt: str, out_file: Path | None) -> None:
    """Markdown, html or text: text is laid out for the terminal (agent/report_text.py: a table
    when wide, a block per finding at 80 columns or piped); into a file it is plain Markdown."""
    if fmt == "html":
        from agent.report_html import render_html

        emit(render_html(reports), out_file)
        return
    if fmt == "markdown" or out_file is not None:
        from agent.report import render_markdown

        emit("\n".join(render_markdown(r) for r in reports), out_file)
        return
    from agent.report_text import render_terminal

    for report in reports:
        out.print(render_terminal(report, out.width))
        out.print()


def status(message: str) -> None:
    """A status line on stderr (not for errors; `--quiet` suppresses these)."""
    if not is_quiet():
        sys.stderr.write(message + "\n")


@app.command(epilog=EXIT_CODES_HELP)
def resume(
    thread_id: Annotated[str, typer.Argument(help="run id (thread id) of the interrupted run")],
    fmt: ReportFormat = "text",
    out_file: OutFile = None,
    tenant: Annotated[str | None, typer.Option(
        "--tenant", help="only when runs of several tenants share the id: which one")] = None,
    agent: Annotated[str | None, typer.Option(
        "--agent", help="only when runs of several agents share the id: which one")] = None,
    home: Home = None,
) -> None:
    """Resume an interrupted review from its SQLite checkpoint, as the tenant and agent that started it.

    Example: CONTRACT_AGENT_CHECKPOINTER=sqlite contract-review resume 6b1f0c... --format html
    """
    from graphs.runner import Reviewer, open_checkpointer, valid_run_id

    if fmt not in REPORT_FORMATS:
        raise typer.BadParameter("use text, markdown, json or html", param_hint="--format")
    valid_run_id(thread_id)
    settings = load_settings(home, checkpointer="sqlite")
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings, saver).resume(thread_id, tenant=tenant, agent=agent)
    if fmt == "json":
        emit(json.dumps(report, indent=2), out_file)
    else:
        show_report([report], fmt, out_file)
    if out_file is not None:
        status(f"wrote {fmt} report to {out_file}")
    code = report_incomplete(report)
    if code:
        raise typer.Exit(code)


@app.command()
def demo(
    home: Annotated[Path | None, typer.Option(
        "--home", help="the demo's data folder, emptied first and kept afterwards; it must be empty, new or "
        "an earlier demo's (default: <CONTRACT_AGENT_HOME>/demo)")] = None,
    show_reports: Annotated[bool, typer.Option(
        "--reports/--no-reports", help="also print each full report (they are always written to <home>/reports/)")] = False,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", help="text | json (one row per run) | markdown (the table, as in the README)")] = "text",
    quiet: Quiet = False,
) -> None:
    """Review the sample contracts on a fresh data folder: same-template ones in sequence with memory (and once without, to compare), then the others.

    Prints a line per contract, the comparison table and one sentence of conclusion; the full
    reports are written to <folder>/reports/. The memory the demo builds stays in its data
    folder afterwards (see it with `contract-review memory list --home <folder>`).

    Example: contract-review demo --no-reports --home /tmp/demo
    """
    from cli.demo import FORMATS, run_demo

    if fmt not in FORMATS:
        raise typer.BadParameter("use text, json or markdown", param_hint="--format")
    run_demo(out, home=home, show_reports=show_reports, fmt=fmt, quiet=quiet or None)


@app.command()
def config(
    fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    reference: Annotated[bool, typer.Option(
        "--reference", help="every setting with its default and meaning, as Markdown (the README's table)")] = False,
    home: Home = None,
) -> None:
    """Show the settings in force and where each comes from (default, environment or the .env file).

    Example: contract-review config --format json
    """
    from agent.settings_doc import current, reference_table

    if reference:
        emit(reference_table(), None)
        return
    if fmt not in ("text", "json"):
        raise typer.BadParameter("use text or json", param_hint="--format")
    rows = current(load_settings(home))
    if home is not None:
        next(row for row in rows if row["setting"] == "home")["from"] = "--home"
    if fmt == "json":
        emit(json.dumps(rows, indent=2), None)
        return
    from rich.table import Table

    table = Table(title="settings in force (contract-review config --reference: what each means)")
    for column in ("setting", "value", "from"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(row["setting"], row["value"], row["from"])
    out.print(table)


# their commands join memory_app: decay, review, reembed (ops); `memory review facts` (fact_review)
from cli import fact_review, ops  # noqa: E402, F401
from cli.memory import memory_app  # noqa: E402  (sub-command group)

app.add_typer(memory_app, name="memory")

from cli.bench import bench_app  # noqa: E402  (sub-command group)

app.add_typer(bench_app, name="bench")

from cli.keys import keys_app  # noqa: E402  (sub-command group)

app.add_typer(keys_app, name="keys")

eval_app = typer.Typer(
    help="Measure the contract tools against labelled data.\n\nExample: contract-review eval cuad --data ../shared/cuad",
    no_args_is_help=True,
)
app.add_typer(eval_app, name="eval")


@eval_app.command("cuad")
def eval_cuad(
    data: Annotated[Path, typer.Option("--data", help="folder with contracts/*.txt and labels.jsonl")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
) -> None:
    """Clause detection against CUAD lawyer labels (no model in the loop).

    Example: contract-review eval cuad --data ../shared/cuad --format json
    """
    from tools.detection.cuad_eval import cuad_contracts, evaluate_cuad, format_cuad_report

    with progress("eval cuad", len(cuad_contracts(data))) as steps:
        result = evaluate_cuad(data, on_contract=lambda name: steps.advance(label=name))
    emit(json.dumps(result, indent=2) if fmt == "json" else format_cuad_report(result), None)


def _is_connection_error(exc: BaseException) -> bool:
    """Refused or unreachable connections, whichever HTTP client raised them."""
    while exc is not None:
        if isinstance(exc, ConnectionError) or type(exc).__name__ in ("ConnectError", "ConnectTimeout"):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def connection_message(exc: BaseException) -> str:
    notes = "".join(f"; {note}" for note in getattr(exc, "__notes__", None) or [])  # e.g. which model, at which step
    return (f"cannot reach a model or memory service ({type(exc).__name__}: {exc}); "
            f"is the server running and its URL right?{notes}")


class OneLineFormatter(logging.Formatter):
    """A log record as one line: an exception it carries is named, never printed as a traceback
    (errors become messages at the CLI edge; a library's traceback is noise to a user)."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {error})"
        return " ".join(line.split())


def quiet_library_logs() -> None:
    """Libraries log at INFO/DEBUG (bm25s, presidio); a CLI user wants only warnings. The level
    is set on the handler too: a library imported later (on demand) may lower its own logger's
    level on import (bm25s sets DEBUG), and the handler still drops what is below a warning."""
    root = logging.getLogger()
    if not root.handlers:  # (an embedding application or a test runner keeps its own)
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
        handler.setFormatter(OneLineFormatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.WARNING)
    for name in ("bm25s", "presidio-analyzer", "presidio_analyzer", "httpx", "wordllama"):
        logging.getLogger(name).setLevel(logging.WARNING)


class Terminated(BaseException):  # not an Exception: no `except Exception` on the way swallows it
    """SIGTERM, raised where the process is so that it unwinds like Ctrl-C (exit 143)."""


class Interrupted(BaseException):
    """Ctrl-C as our own exception: typer turns a KeyboardInterrupt into a silent exit 130."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def _on_sigint(signum: int, frame: object) -> None:
    raise Interrupted()


def interrupted_message(how: str) -> str:
    """One line for a command stopped by Ctrl-C or SIGTERM: which run was cut and how to go on."""
    from graphs import runner

    started = runner.last_started
    if started is None:
        return f"{how}: stopped before a review started"
    run_id, checkpointer = started
    if checkpointer == "sqlite":
        return f"{how}: run {run_id} stopped; continue it with `contract-review resume {run_id}`"
    return (f"{how}: run {run_id} stopped; it cannot be resumed with the in-memory checkpointer "
            "(set CONTRACT_AGENT_CHECKPOINTER=sqlite to make runs resumable)")


def main(argv: list[str] | None = None) -> int:
    quiet_library_logs()
    import signal
    import threading

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, _on_sigterm)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where Ctrl-C is ignored
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, _on_sigint)
    try:
        return _main(argv)
    except (KeyboardInterrupt, Interrupted):
        fail(interrupted_message("interrupted (Ctrl-C)"))
        return 130
    except Terminated:
        fail(interrupted_message("terminated (SIGTERM)"))
        return 143
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _main(argv: list[str] | None) -> int:
    try:
        # In non-standalone mode click returns the code of a `typer.Exit` instead of exiting.
        result = app(args=argv, standalone_mode=False, prog_name="contract-review")
    except ContractAgentError as exc:
        fail(f"error: {exc}")
        return exc.exit_code
    # typer >= 0.2x vendors click: its exceptions are not click's, so catch both families.
    except (click.exceptions.Exit, typer.Exit) as exc:
        return exc.exit_code
    except (click.exceptions.Abort, typer.Abort) as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            raise KeyboardInterrupt from None
        err.print("aborted")
        return 130
    except (click.ClickException, typer.TyperException) as exc:  # usage errors
        exc.show()
        return 2
    except Exception as exc:  # errors of the lower layers (tools, memory), else one line, not a traceback
        error = user_error(exc)
        if error is not None:
            fail(f"error: {error}")
            return error.exit_code
        if _is_connection_error(exc):  # e.g. an `ollama:` model with no Ollama server running
            fail(f"error: {connection_message(exc)}")
            return ConfigurationError.exit_code
        missing = missing_extra_message(exc)
        if missing is not None:  # an optional extra this install lacks (`make demo` installs none)
            fail(f"error: {missing}")
            return ConfigurationError.exit_code
        fail(f"internal error: {type(exc).__name__}: {exc}")
        return 1
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
