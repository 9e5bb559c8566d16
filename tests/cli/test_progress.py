"""Progress on long work: a live bar on a terminal, plain lines in logs, silence when quiet,
and never a byte on stdout."""

from __future__ import annotations

import io
import sys

import pytest

from agent import progress as progress_module
from agent.progress import is_quiet, progress, set_quiet, track


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _loud():
    set_quiet(False)
    yield
    set_quiet(False)


def test_logs_get_one_line_per_finished_step(capsys):
    assert list(track(["a.pdf", "b.pdf", "c.pdf"], "review")) == ["a.pdf", "b.pdf", "c.pdf"]
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert [line.split(" (")[0] for line in lines] == ["review [1/3] a.pdf", "review [2/3] b.pdf", "review [3/3] c.pdf"]
    assert all(line.endswith(" s)") for line in lines)


def test_unknown_totals_and_batches(capsys):
    with progress("re-embed") as steps:
        steps.advance(100, label="batch 1")
        steps.advance(50, label="batch 2")
        steps.note("skipped 3 vectors of another model")
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("re-embed [100] batch 1") and err[1].startswith("re-embed [150] batch 2")
    assert err[2] == "skipped 3 vectors of another model"
    assert steps.done == 150


def test_quiet_prints_nothing_but_still_counts(capsys):
    with progress("decay", 2, quiet=True) as steps:
        steps.advance()
        steps.note("x")
    assert steps.done == 1
    set_quiet(True)
    assert is_quiet()
    assert list(track(range(3), "bench")) == [0, 1, 2]
    assert capsys.readouterr() == ("", "")


def test_breaking_out_of_a_tracked_loop_counts_only_finished_items(capsys):
    for item in track(["a", "b", "c"], "review"):
        if item == "b":
            break
    assert [line.split(" (")[0] for line in capsys.readouterr().err.splitlines()] == ["review [1/3] a"]


def test_terminal_gets_a_live_bar_that_clears_itself(monkeypatch):
    screen = Terminal()
    report = io.StringIO()  # stdout redirected to a file: `... > report.md`
    monkeypatch.setattr(sys, "stdout", report)
    with progress("review", 2, stream=screen) as steps:
        steps.working_on("a.pdf")
        print("# report of a.pdf")
        steps.advance(label="a.pdf")
        steps.advance(label="b.pdf")
    shown = screen.getvalue()
    assert "review" in shown and "2/2" in shown and "\x1b[" in shown  # drawn with terminal codes
    assert shown.endswith("\x1b[1A\x1b[2K")  # transient: the bar's line is erased at the end
    assert report.getvalue() == "# report of a.pdf\n"  # stdout text went to the file, not the screen
    assert "# report" not in shown


def test_live_mode_is_chosen_by_the_stream(monkeypatch):
    seen = []
    monkeypatch.setattr(progress_module, "RichProgress", lambda *a, **k: seen.append(k) or _NoBar())
    with progress("x", 1, stream=Terminal()):
        pass
    with progress("x", 1, stream=io.StringIO()):
        pass
    assert len(seen) == 1


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *a, **k):
        return 0
