"""Progress on long CLI work: a live rich bar on a terminal, one plain line per step otherwise.

Progress always goes to stderr, so stdout stays clean for reports and `--format json`. Three modes:

- stderr is a terminal: a rich bar (spinner, done/total, elapsed) that disappears when done;
- stderr is a pipe or a file (CI logs, scripts): one line per finished step, e.g.
  `review [2/5] northwind_msa_02.pdf (3.1 s)`, so long jobs still show life in logs;
- quiet (`--quiet` on a command, or the global `contract-review --quiet ...`): nothing.

Use it from any command (reviews, decay, re-embedding, benchmarks):

    from agent.progress import progress, track

    for path in track(paths, "review", label=lambda p: p.name):
        ...

    with progress("re-embed", total=len(records)) as steps:
        for batch in batches:
            ...
            steps.advance(len(batch), label=f"batch {i}")
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.progress import Progress as RichProgress

T = TypeVar("T")

_quiet_default = False
_live_bar: RichProgress | None = None  # the bar on screen: a progress() inside another adds a line to it


def set_quiet(value: bool) -> None:
    """Set the process-wide default (the CLI's global `--quiet` does this for every command)."""
    global _quiet_default
    _quiet_default = bool(value)


def is_quiet() -> bool:
    return _quiet_default


class Steps:
    """Handle on one running progress display; see `progress()`."""

    def __init__(self, description: str, total: int | None, stream: TextIO | None, bar: RichProgress | None,
                 indent: str = ""):
        self.description = description
        self.total = total
        self.done = 0
        self._stream = stream
        self._bar = bar
        self._indent = indent
        self._task = bar.add_task(indent + description, total=total) if bar is not None else None
        self._started = self._last = time.monotonic()

    def advance(self, n: int = 1, *, label: str = "") -> None:
        """Count `n` finished units; `label` names what just finished (a file, a batch)."""
        self.done += n
        now = time.monotonic()
        if self._bar is not None:
            self._bar.update(self._task, advance=n)
        elif self._stream is not None:
            of = f"/{self.total}" if self.total is not None else ""
            what = f" {label}" if label else ""
            self._stream.write(f"{self.description} [{self.done}{of}]{what} ({now - self._last:.1f} s)\n")
            self._stream.flush()
        self._last = now

    def working_on(self, label: str) -> None:
        """Name what is being worked on now (shown next to the live bar only)."""
        if self._bar is not None:
            self._bar.update(self._task, description=f"{self._indent}{self.description} {label}".rstrip())

    def note(self, message: str) -> None:
        """A status line printed above the live bar (or as a plain line); nothing when quiet.
        Errors do not go here: the CLI prints them itself, quiet or not."""
        if self._bar is not None:
            self._bar.console.print(message, markup=False, highlight=False)
        elif self._stream is not None:
            self._stream.write(message.rstrip("\n") + "\n")
            self._stream.flush()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._started


@contextlib.contextmanager
def progress(
    description: str,
    total: int | None = None,
    *,
    quiet: bool | None = None,
    stream: TextIO | None = None,
    live: bool | None = None,
) -> Iterator[Steps]:
    """Show progress of `total` units of work (None: unknown, a spinner) while the block runs.

    `quiet=None` follows `set_quiet()`. `stream` defaults to `sys.stderr` as it is at call time
    (so tests capturing stderr see the lines); `live=None` picks the rich bar only when that
    stream is a terminal.
    """
    if quiet if quiet is not None else _quiet_default:
        yield Steps(description, total, None, None)
        return
    stream = stream if stream is not None else sys.stderr
    if live is None:
        live = bool(getattr(stream, "isatty", lambda: False)())
    if not live:
        yield Steps(description, total, stream, None)
        return
    global _live_bar
    if _live_bar is not None:  # inside another command's bar (`bench all` > one benchmark): a line of it
        outer = _live_bar
        steps = Steps(description, total, None, outer, indent="  ")
        try:
            yield steps
        finally:
            outer.remove_task(steps._task)
        return
    console = Console(file=stream)
    bar = RichProgress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        # Lines printed on stdout meanwhile go above the bar, but only when stdout is the same
        # screen: a redirected stdout (`> report.md`) must get its text, not the terminal.
        redirect_stdout=bool(getattr(sys.stdout, "isatty", lambda: False)()),
    )
    with bar:
        _live_bar = bar
        try:
            yield Steps(description, total, None, bar)
        finally:
            _live_bar = None


def track(
    items: Iterable[T],
    description: str,
    *,
    total: int | None = None,
    label: Callable[[T], str] = str,
    quiet: bool | None = None,
) -> Iterator[T]:
    """Yield `items`, counting each one as finished when the loop asks for the next one (or
    ends). A `break` out of the loop leaves the count where it was."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with progress(description, total, quiet=quiet) as steps:
        for item in items:
            name = label(item)
            steps.working_on(name)
            yield item
            steps.advance(label=name)
