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


def test_a_progress_inside_another_is_a_line_of_the_same_bar():
    """`bench all` shows its bar while a benchmark shows its own: rich allows one live display, so
    the inner one is a second line of the outer bar, removed when it ends."""
    screen = Terminal()
    with progress("bench", 2, stream=screen) as outer:
        with progress("improvement", 3, stream=screen) as inner:
            inner.advance(label="northwind_msa_01 (memory on)")
            assert inner._bar is outer._bar and len(outer._bar.tasks) == 2
        assert len(outer._bar.tasks) == 1
        outer.advance(label="improvement")
    assert progress_module._live_bar is None
    with progress("again", 1, stream=screen) as steps:  # a later bar is a bar of its own again
        assert steps._bar is not outer._bar


def test_eval_cuad_shows_a_step_per_contract(tmp_path, capsys):
    from cli.main import main
    from tests.conftest import SAMPLES

    (tmp_path / "contracts").mkdir()
    names = ["northwind_msa_01.txt", "kestrel_supply_01.txt"]
    for name in names:
        (tmp_path / "contracts" / name).write_text((SAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "labels.jsonl").write_text("", encoding="utf-8")
    assert main(["eval", "cuad", "--data", str(tmp_path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert [line.split(" (")[0] for line in captured.err.splitlines()] == [
        f"eval cuad [{i}/2] {name}" for i, name in enumerate(sorted(names), 1)]
    assert captured.out.startswith("{")  # stdout stays the result alone


def test_bench_improvement_counts_each_review(tmp_path, capsys, monkeypatch):
    from bench import improvement
    from bench.sequences import named_sequence

    monkeypatch.setattr(improvement, "skyline_sequence", lambda data, limit: named_sequence("northwind_msa", limit=1))
    improvement.run(tmp_path, limit=1, names=("northwind_msa",))
    lines = [line.split(" (")[0] for line in capsys.readouterr().err.splitlines()]
    assert lines == [f"improvement [{i}/4] northwind_msa_01" for i in range(1, 5)]
