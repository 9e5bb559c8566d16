"""What a first-time user meets: a folder of contracts reviewed, a mistyped --home refused
instead of read as an empty memory, and a missing optional extra named in one line."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from cli.main import main
from tests.conftest import SAMPLES


def _run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_folder_of_contracts_is_reviewed_file_by_file_in_name_order(tmp_path, home, capsys):
    folder = tmp_path / "inbox"
    folder.mkdir()
    for name in ("northwind_msa_02.txt", "northwind_msa_01.txt"):
        shutil.copy(SAMPLES / name, folder / name)
    (folder / "notes.docx").write_bytes(b"not a contract type we read")
    (folder / "sub").mkdir()  # sub-folders are not walked
    shutil.copy(SAMPLES / "northwind_msa_03.txt", folder / "sub" / "northwind_msa_03.txt")
    code, out, err = _run(["review", str(folder), "--no-memory", "--format", "json", "--quiet"], capsys)
    assert code == 0, err
    reports = json.loads(out)
    assert [r["contract"] for r in reports] == ["northwind_msa_01.txt", "northwind_msa_02.txt"]
    assert all(r["outcome"] == "COMPLETED" for r in reports)


def test_a_folder_without_contracts_is_bad_input_in_one_line(tmp_path, home, capsys):
    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "readme.docx").write_bytes(b"x")
    code, out, err = _run(["review", str(folder), "--no-memory"], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "no contract" in err and str(folder) in err


@pytest.mark.parametrize("command", [
    ["memory", "list"], ["memory", "stats"], ["memory", "search", "liability cap"], ["memory", "show", "abc123"],
    ["memory", "review"], ["memory", "trace", "abc123"], ["memory", "forget", "--run", "abc123"],
])
def test_a_missing_home_is_refused_on_read_commands_and_nothing_is_created(command, tmp_path, capsys):
    typo = tmp_path / "contract-agnet"
    code, out, err = _run([*command, "--home", str(typo)], capsys)
    assert code == 3, (out, err)
    assert err.count("\n") == 1 and "does not exist" in err and str(typo) in err
    assert not typo.exists()


def test_an_existing_home_with_no_memory_yet_still_lists_nothing(tmp_path, capsys):
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    code, out, err = _run(["memory", "list", "--home", str(fresh), "--format", "json"], capsys)
    assert code == 0, err


def test_a_missing_optional_extra_is_named_in_one_line(tmp_path, monkeypatch, capsys):
    """`bench aws` on a `make demo` install (no dev extra: no moto): the extra to install, not
    `internal error: No module named 'moto'`."""
    for name in [m for m in sys.modules if m == "moto" or m.startswith("moto.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "moto", None)
    code, out, err = _run(["bench", "aws", "--size", "tiny", "--out", str(tmp_path / "out")], capsys)
    assert code == 3, err
    assert err.count("\n") == 1, err
    assert "internal error" not in err and "moto" in err and "[dev]" in err


def test_a_model_provider_extra_missing_is_named_for_the_file_it_stopped(tmp_path, home, monkeypatch, capsys):
    for name in [m for m in sys.modules if m == "langchain_ollama" or m.startswith("langchain_ollama.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "langchain_ollama", None)
    code, _, err = _run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--model", "ollama:llama3.2"], capsys)
    assert code == 3, err
    assert "internal error" not in err and "[ollama]" in err


def test_make_demo_fits_a_screen_ends_with_its_conclusion_and_writes_the_reports(tmp_path, capsys):
    """`make demo` on an 80-column terminal: a line per contract, the table, one computed
    sentence, and the full reports as files it names (it printed 2,456 lines, table last)."""
    import io

    from rich.console import Console

    from cli.demo import conclusion, run_demo

    screen = io.StringIO()
    rows = run_demo(Console(file=screen, width=80), home=tmp_path / "demo", quiet=True)
    lines = screen.getvalue().splitlines()
    assert len(lines) < 120, len(lines)
    contracts = list(dict.fromkeys(r["contract"] for r in rows))
    progress = [line for line in lines if line.startswith("[")]
    assert [line.split("]")[0] + "]" for line in progress] == [f"[{i}/{len(contracts)}]" for i in range(1, 17)]
    assert all(len(line) <= 80 for line in progress), progress
    text = " ".join(screen.getvalue().split())
    sentence = conclusion(rows)
    assert sentence in text and text.index("Same-template reviews in sequence") < text.index(sentence)
    assert "of the tool calls" in sentence and "%" in sentence
    reports = sorted((tmp_path / "demo" / "reports").glob("*.md"))
    assert len(reports) == len(rows) == 25
    assert "Full reports (25 Markdown files):" in text  # and where (a long path may wrap anywhere)
    assert str(tmp_path / "demo" / "reports") in screen.getvalue().replace("\n", "")
    first = (tmp_path / "demo" / "reports" / "northwind_msa_01.memory-on.md").read_text(encoding="utf-8")
    assert first.startswith("# Contract review: northwind_msa_01")
    assert "Contract review:" not in screen.getvalue()  # no full report on the screen


def test_the_conclusion_is_computed_from_the_rows_not_written_in():
    from cli.demo import conclusion

    def row(contract, memory, calls, tokens, verdicts):
        return {"contract": contract, "memory": memory, "tool_calls": calls, "input_tokens": tokens,
                "output_tokens": 0, "verdicts": verdicts}

    same, other = [["liability_cap", "deviation", "9.1"]], [["liability_cap", "deviation", "9.2"]]
    rows = [row("northwind_msa_01", "on", 80, 50_000, same), row("northwind_msa_01", "off", 80, 50_000, same),
            row("northwind_msa_02", "on", 40, 10_000, other), row("northwind_msa_02", "off", 80, 50_000, same),
            row("skyline_saas_subscription", "on", 50, 30_000, same)]
    assert conclusion(rows) == ("With memory, the review that followed an earlier contract of their template took "
                                "50% of the tool calls and 20% of the tokens of the same reviews without memory, "
                                "and 0 of 1 reached the same verdicts at the same sections.")
    assert "nothing to compare" in conclusion(rows[:2])


def test_bench_tables_keep_every_name_and_figure_whole_at_80_columns():
    """At 80 columns the benchmark tables cut names to `north…`; now a table too wide for the
    terminal is shown as a block per row, and one that fits stays a table."""
    import io

    from rich.console import Console

    from bench.suite import FitTable

    columns = ["sequence", "contract", "tool calls on/off", "model calls on/off", "tokens on/off", "wall s",
               "recall on/off", "sections on/off", "not worse"]
    rows = [["northwind_msa", f"northwind_msa_0{i}", "25/84 (30%)", "5/9 stand-in", "15393/54534 (28%)",
             "0.37/0.26", "1.00/1.00", "0.88/0.88", "yes"] for i in (1, 2)]
    for width in (80, 60):
        screen = io.StringIO()
        Console(file=screen, width=width).print(FitTable("1. Memory-driven improvement", columns, rows))
        shown = screen.getvalue()
        assert "…" not in shown and all(len(line) <= width for line in shown.splitlines())
        for row in rows:
            for column, cell in zip(columns[1:], row[1:], strict=True):
                assert f"{column}: {cell}" in shown, (column, cell)
    wide = io.StringIO()
    Console(file=wide, width=160).print(FitTable("1. Memory-driven improvement", columns, rows))
    assert "┃ sequence" in wide.getvalue() and "northwind_msa_02" in wide.getvalue()
