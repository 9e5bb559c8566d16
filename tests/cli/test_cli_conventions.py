"""What script authors and first-time users expect of the command line: help with an example
on every command, documented exit codes, JSON on stdout with progress apart, and --quiet."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
import typer

from agent import errors
from cli.main import EXIT_CODES, app, main
from tests.conftest import ROOT, SAMPLES

DOCS = ROOT / "docs" / "CLI.md"


def _run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _command_paths(command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group path (typer vendors click, so groups are recognised by shape)."""
    paths = [path]
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            if not sub.hidden:
                paths += _command_paths(sub, (*path, name))
    return paths


COMMANDS = _command_paths(typer.main.get_command(app))


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "contract-review")
def test_every_command_and_group_has_help_with_an_example(path, capsys):
    code, out, _ = _run([*path, "--help"], capsys)
    assert code == 0
    example = re.search(r"Examples?: (?:[A-Z_]+=\S+ )*(contract-review [^\n]*)", _flat(out))
    assert example, f"`{' '.join(path)} --help` shows no `Example: contract-review ...` line"
    assert (example.group(1) + " ").startswith(" ".join(["contract-review", *path]) + " "), example.group(1)


def test_exit_codes_are_in_help_and_cover_every_error(capsys):
    _, out, _ = _run(["--help"], capsys)
    flat = _flat(out)
    for code, meaning in EXIT_CODES:
        assert f"{code} {meaning}" in flat
    raised = {cls.exit_code for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, errors.ContractAgentError)}
    assert raised <= {code for code, _ in EXIT_CODES}
    _, out, _ = _run(["review", "--help"], capsys)
    assert "Exit codes: 0 success" in _flat(out)


def test_docs_list_every_command_and_the_same_exit_codes():
    text = DOCS.read_text(encoding="utf-8")
    for path in COMMANDS[1:]:
        assert f"contract-review {' '.join(path)}" in text, f"docs/CLI.md does not mention {' '.join(path)}"
    documented = [(int(m.group(1)), m.group(2).strip()) for m in re.finditer(r"^\| (\d+) \| ([^|]+) \|", text, re.M)]
    assert documented == list(EXIT_CODES)


def test_several_contracts_json_on_stdout_progress_on_stderr(capsys):
    paths = [str(SAMPLES / "northwind_msa_01.txt"), str(SAMPLES / "skyline_saas_subscription.txt")]
    code, out, err = _run(["review", *paths, "--format", "json", "--no-memory"], capsys)
    assert code == 0
    reports = json.loads(out)  # nothing but the JSON on stdout
    assert [r["contract"] for r in reports] == ["northwind_msa_01.txt", "skyline_saas_subscription.txt"]
    assert [line.split(" (")[0] for line in err.splitlines()] == [
        "review [1/2] northwind_msa_01.txt", "review [2/2] skyline_saas_subscription.txt",
    ]


def test_quiet_leaves_only_errors_on_stderr(tmp_path, capsys):
    good, bad = SAMPLES / "northwind_msa_01.txt", tmp_path / "empty.txt"
    bad.write_text("")
    out_file = tmp_path / "r.md"
    for argv in (
        ["review", str(good), str(bad), "--format", "markdown", "--out", str(out_file), "--no-memory", "--quiet"],
        ["--quiet", "review", str(good), str(bad), "-f", "markdown", "--out", str(out_file), "--no-memory"],
    ):
        code, out, err = _run(argv, capsys)
        assert code == 2 and out == ""
        assert err.splitlines() == [f"error: {bad}: the file is empty; export the contract as text or PDF and retry"] or (
            len(err.splitlines()) == 1 and err.startswith("error:") and "empty.txt" in err
        )
        assert out_file.read_text().startswith("# Contract review: northwind_msa_01.txt")
    code, _, err = _run(["review", str(good), "--out", str(out_file), "--no-memory"], capsys)
    assert code == 0 and err == f"wrote text report to {out_file}\n"


def test_json_everywhere_a_script_reads_output(home, capsys):
    from agent.settings import Settings
    from memory import procedural
    from memory.backends import open_memory
    from memory.records import Namespace, Outcome, ProcedureProposal

    settings = Settings(home=home)
    home.mkdir(parents=True, exist_ok=True)
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    now = datetime.now(UTC)
    first, second = (
        procedural.propose(memory.procedures, ns, f"run-{i}", settings.task_type, Outcome.COMPLETED,
                           ProcedureProposal(title=f"Supplier review {i}", steps=["List sections", f"Assess clause types ({i})"]), now=now)
        for i in (1, 2)
    )
    memory.close()
    for argv in (["memory", "stats"], ["memory", "list"], ["memory", "show", first.procedure_id], ["memory", "search", "supplier"]):
        code, out, _ = _run([*argv, "--format", "json"], capsys)
        assert code == 0, argv
        json.loads(out)
    code, out, _ = _run(["memory", "approve", first.procedure_id, "--by", "alice", "--quiet"], capsys)
    assert code == 0 and out == ""
    code, out, _ = _run(["memory", "show", first.procedure_id, "-f", "json"], capsys)
    assert json.loads(out)["status"] == "validated"
    code, out, _ = _run(["memory", "approve", second.procedure_id], capsys)
    assert code == 0 and f"procedure {second.procedure_id} is now validated" in out
    code, out, _ = _run(["-q", "memory", "reject", second.procedure_id], capsys)
    assert code == 0 and out == ""
    code, out, _ = _run(["memory", "show", second.procedure_id, "-f", "json"], capsys)
    assert json.loads(out)["status"] == "rejected"


def test_demo_json_rows_and_progress(monkeypatch, capsys, home):
    import cli.demo

    every = cli.demo.sample_paths
    keep = {"northwind_msa_01", "northwind_msa_02", "skyline_saas_subscription"}  # 5 runs, not 13
    monkeypatch.setattr(cli.demo, "sample_paths", lambda prefix="": [p for p in every(prefix) if p.stem in keep])
    code, out, err = _run(["demo", "--format", "json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert [(r["contract"], r["memory"]) for r in rows] == [
        ("northwind_msa_01", "on"), ("northwind_msa_01", "off"), ("northwind_msa_02", "on"), ("northwind_msa_02", "off"),
        ("skyline_saas_subscription", "on"),
    ]
    demo_home = home / "demo"  # <CONTRACT_AGENT_HOME>/demo: kept, and said where
    assert err.splitlines()[0] == f"demo: data folder {demo_home} (emptied first, kept afterwards)"
    assert [line.split(" (")[0] for line in err.splitlines()[1:]] == [
        f"demo [{i}/5] {r['contract']}" for i, r in enumerate(rows, 1)
    ]
    second_on, second_off = rows[2], rows[3]
    assert second_on["memories_used"] == "1 episode" and second_off["memories_used"] == "-"
    assert second_on["episodes_used"][0]["run_id"] == rows[0]["run_id"]
    assert second_on["tool_calls"] < second_off["tool_calls"]  # what the demo is there to show
    assert {"run_id", "outcome", "model_calls", "stand_in_calls", "input_tokens", "output_tokens", "findings", "deviations"} <= set(rows[0])
    # the offline stand-in's calls are counted as its own, never as language-model calls
    assert all(r["model_calls"] == 0 and r["stand_in_calls"] > 0 for r in rows)
    keep.clear()
    keep.add("northwind_msa_01")
    _, out, err = _run(["-q", "demo", "--no-reports"], capsys)
    assert err == "" and "Same-template reviews in sequence" in out
    # what the demo remembered stays in its folder, for `memory list` to show
    code, out, _ = _run(["memory", "list", "--tier", "episodes", "--home", str(demo_home), "-f", "json"], capsys)
    assert code == 0 and len(json.loads(out)["episodes"]) == 1


def test_unknown_format_is_a_usage_error(capsys):
    code, out, err = _run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--format", "pdf"], capsys)
    assert code == 2 and out == "" and "html" in err


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch, capsys):
    from graphs.runner import Reviewer

    def interrupted(self, path, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Reviewer, "review_path", interrupted)
    code, out, err = _run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--no-memory"], capsys)
    assert code == 130 and out == "" and "Traceback" not in err


def test_we_names_our_side_and_the_report_says_who_is_who(tmp_path, capsys):
    contract = tmp_path / "open.txt"
    contract.write_text(
        'Agreement between Osprey Trading Ltd ("Osprey") and Kestrel Works Ltd ("Kestrel").\n\n'
        "1. LIABILITY\n\n1.1 Kestrel's aggregate liability shall not exceed one times (1x) the fees paid in the "
        "preceding twelve (12) months.\n", encoding="utf-8")
    code, out, _ = _run(["review", str(contract), "--format", "markdown", "--no-memory", "--we", "Osprey"], capsys)
    assert code == 0
    assert 'Reviewed for the buyer, Osprey Trading Ltd ("Osprey"); supplier: Kestrel Works Ltd ("Kestrel")' in out
    # the report names what was really called: the offline stand-in, not a language model
    assert "calls to the offline stand-in (no language model)" in out and "0 language-model calls" not in out
    assert "| deviation | high | liability_cap | Section 1.1 (LIABILITY) |" in out  # a supplier-only cap
    assert not re.search(r"\|\s*h\d+\s*\|", out)  # never an internal section id
    code, out, _ = _run(["review", str(contract), "--format", "json", "--no-memory", "--we", "Kestrel"], capsys)
    cap = next(f for f in json.loads(out)["findings"] if f["clause_type"] == "liability_cap")
    assert cap["protects"] == "buyer" and cap["verdict"] == "favourable"  # the cap now limits our own liability
    code, _, err = _run(["review", str(contract), "--no-memory", "--we", " "], capsys)
    assert code == 2 and "--we" in err
