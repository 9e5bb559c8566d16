"""Output that reads well in the terminal it lands in: 80 columns (and pipes, which rich sizes at
80) get a short block per finding and a demo table that fits; 160 columns get tables. Also the
demo's data folder: said, kept, and never someone else's data emptied."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from agent.report_text import QUOTE_LINES, STANDARD_QUOTE_LINES, render_terminal
from cli.demo import COLUMNS, DEMO_MARKER, comparison_table, markdown_table, prepare_home
from cli.main import main
from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES


def rendered(renderable, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from agent.settings import Settings

    settings = Settings(home=tmp_path_factory.mktemp("home"))
    with open_checkpointer(settings) as saver:
        return Reviewer(settings, saver, use_memory=False).review_path(SAMPLES / "northwind_msa_01.txt")


def test_at_80_columns_each_finding_is_a_short_block(report):
    lines = rendered(render_terminal(report, 80), 80)
    assert max(len(line) for line in lines) <= 80
    assert not any(line.lstrip().startswith("verdict") for line in lines)  # no table header
    for finding in report["findings"]:
        # the block's first line: verdict, severity and the clause name in full (never `termination_c...`)
        head = f"{finding['verdict'].upper()} · {finding['severity']} · {finding['clause_type']}"
        start = lines.index(head)
        block = [line.strip() for line in lines[start + 1:lines.index("", start)]]
        if finding["verdict"] in ("missing", "not_applicable"):  # no quote: where it is not, and why
            assert block[0] == "not in the contract" or block[0] == "-"
            continue
        assert block[0].startswith(f"Section {finding['section']}")  # where it is, as printed
        after_where = block[1:]
        arrow = next((i for i, line in enumerate(after_where) if line.startswith("→")), len(after_where))
        quote = [line for line in after_where[:arrow] if not line.startswith("also ")]  # other provisions: their own lines
        assert 1 <= len(quote) <= QUOTE_LINES.get(finding["verdict"], STANDARD_QUOTE_LINES), block
        words = " ".join(finding["quote"].split()).split()
        assert quote[0].startswith("“" + " ".join(words[:3]))
        assert (arrow < len(after_where)) == (finding["verdict"] != "standard")  # a change asked for, or none
    findings = len(report["findings"])
    # was 258 lines for 17 findings; each finding that asks for a change now says why (two lines at most)
    assert len(lines) <= 7 * findings + 16


def test_at_160_columns_the_findings_are_one_table_of_short_rows(report):
    lines = rendered(render_terminal(report, 160), 160)
    assert max(len(line) for line in lines) <= 160
    header = next(line for line in lines if line.lstrip().startswith("verdict"))
    assert header.split() == ["verdict", "severity", "clause", "section", "quote", "recommendation"]
    body = lines[lines.index(header) + 2:]
    rows = [line for line in body if len(line.split()) > 2 and line.split()[0] in ("deviation", "fallback", "standard", "missing")
            and line.split()[1] in ("high", "medium", "low", "none")]
    assert {line.split()[2] for line in rows} == {f["clause_type"] for f in report["findings"]}
    assert len(rows) == len(report["findings"])
    table = body[:body.index("")]
    assert len(table) <= 4 * len(rows)  # quotes cut to a few lines


@pytest.mark.parametrize("width", [80, 160])
def test_contract_text_that_looks_like_markup_is_shown_as_it_is(report, width):
    hostile = dict(report, findings=[dict(f, quote="[/] closes nothing [bold red]shouts[/bold red] [link=x]y[/link]")
                                     for f in report["findings"]])
    text = "\n".join(rendered(render_terminal(hostile, width), width))
    assert "[/] closes nothing [bold red]shouts" in " ".join(text.split())


def test_piped_review_output_is_the_80_column_layout(tmp_path, capsys):
    code = main(["review", str(SAMPLES / "northwind_msa_01.txt"), "--no-memory", "--home", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "DEVIATION · high · liability_cap" in lines and "termination_convenience" in out


RUNS = [
    ("northwind_msa_01", "on", 86, 11, 51_870, 9_293, 4, "none yet"),
    ("northwind_msa_01", "off", 86, 10, 47_370, 8_324, 4, "-"),
    ("northwind_msa_02", "on", 36, 7, 23_993, 3_435, 4, "1 episode"),
    ("ironbridge_manufacturing_supply", "on", 54, 10, 45_504, 5_727, 5, "3 episodes, 5 facts, procedure"),
    ("pinecrest_maintenance_support", "on", 78, 12, 154_984, 11_740, 4, "3 episodes, 5 facts"),
]


def demo_rows() -> list[dict]:
    return [
        {"contract": c, "memory": m, "tool_calls": t, "model_calls": mc, "input_tokens": i, "output_tokens": o,
         "findings": 17, "deviations": d, "memories_used": used}
        for c, m, t, mc, i, o, d, used in RUNS
    ]


def test_demo_table_fits_80_columns_with_nothing_cut(tmp_path):
    lines = rendered(comparison_table(demo_rows(), 80, tmp_path), 80)
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    assert "…" not in text
    for contract, memory, tools, _, tokens_in, tokens_out, _, used in RUNS:
        assert contract in lines  # the name whole, on a line of its own
        row = next(line for line in lines if line.split()[:1] == [memory] and f"{tokens_in:,} / {tokens_out:,}" in line
                   and line.split()[1] == str(tools))
        assert used.split(",")[0] in row
    assert " ".join(text.split()).count("facts, procedure") == 1  # a long cell wraps, whole


def test_demo_table_at_160_columns_is_one_table_with_every_column(tmp_path):
    lines = rendered(comparison_table(demo_rows(), 160, tmp_path), 160)
    assert max(len(line) for line in lines) <= 160
    header = next(line for line in lines if "contract" in line and "memories used" in line)
    for column in COLUMNS:
        assert column in header
    for contract, memory, *_ in RUNS:
        assert any(line.split()[:2] == [contract, memory] for line in lines)


def test_markdown_table_has_the_same_columns_and_cells():
    table = markdown_table(demo_rows()).splitlines()
    assert table[0] == "| " + " | ".join(COLUMNS) + " |"
    assert table[5] == ("| ironbridge_manufacturing_supply | on | 54 | 10 | 45,504 / 5,727 | 17 | 5 "
                        "| 3 episodes, 5 facts, procedure |")


def test_demo_empties_only_its_own_folder(tmp_path, capsys):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "memory.sqlite").write_bytes(b"someone's memory")
    code = main(["demo", "--home", str(theirs), "--no-reports"])
    assert code == 3 and "did not make" in capsys.readouterr().err
    assert (theirs / "memory.sqlite").read_bytes() == b"someone's memory"
    ours = tmp_path / "ours"
    prepare_home(ours)
    (ours / "memory.sqlite").write_bytes(b"an earlier demo's memory")
    prepare_home(ours)  # an earlier demo's folder starts empty again
    assert sorted(p.name for p in ours.iterdir()) == [DEMO_MARKER]
