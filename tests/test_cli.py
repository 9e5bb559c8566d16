"""The command line as a user meets it: reports, formats, and bad input failing cleanly."""

from __future__ import annotations

import json
import subprocess

import pytest

from cli.main import main
from tests.conftest import ROOT, SAMPLES


def run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_review_prints_json_and_writes_out_file(tmp_path, capsys, home):
    out = tmp_path / "report.json"
    code, stdout, _ = run(["review", str(SAMPLES / "northwind_msa_01.pdf"), "--format", "json", "--out", str(out)], capsys)
    assert code == 0
    report = json.loads(out.read_text())
    assert report["contract"] == "northwind_msa_01.pdf"
    assert report["findings"] and report["usage"]["tool_calls"] > 0
    assert (home / "memory.sqlite").exists()  # memory is on by default


def test_review_markdown_report(capsys):
    code, stdout, _ = run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--format", "markdown", "--no-memory"], capsys)
    assert code == 0
    assert stdout.startswith("# Contract review: northwind_msa_01.txt")
    assert "| deviation |" in stdout


def _bad_inputs(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("   \n\n")
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\nthis is not a pdf body\n")
    binary = tmp_path / "image.txt"
    binary.write_bytes(bytes(range(256)) * 64)
    huge = tmp_path / "huge.txt"
    with huge.open("w") as handle:
        line = "The Supplier shall deliver the goods in accordance with the specifications. " * 20 + "\n"
        while handle.tell() < 50 * 1024 * 1024:
            handle.write(line)
    return {"empty": empty, "corrupt-pdf": corrupt, "binary": binary, "missing": tmp_path / "nope.pdf", "50MB": huge}


def test_bad_inputs_fail_with_one_line_and_write_no_memory(tmp_path, capsys, home):
    for label, path in _bad_inputs(tmp_path).items():
        code, stdout, stderr = run(["review", str(path)], capsys)
        assert code == 2, label
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (label, stderr)
        assert "Traceback" not in stderr
    assert not (home / "memory.sqlite").exists()


def test_one_bad_file_among_good_ones_still_reports_the_good_and_exits_non_zero(tmp_path, capsys):
    empty = tmp_path / "empty.md"
    empty.write_text("")
    code, stdout, stderr = run(
        ["review", str(SAMPLES / "northwind_msa_01.txt"), str(empty), "--format", "json", "--no-memory"], capsys
    )
    assert code == 2
    assert len(json.loads(stdout)) == 1
    assert "empty.md" in stderr


def test_installed_entry_point_has_no_traceback_on_bad_input(tmp_path):
    missing = tmp_path / "missing.pdf"
    exe = ROOT / ".venv" / "bin" / "contract-review"
    if not exe.exists():
        pytest.skip("entry point not installed (run make test)")
    proc = subprocess.run([str(exe), "review", str(missing)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_help_lists_commands_with_examples(capsys):
    code, stdout, _ = run(["review", "--help"], capsys)
    assert code == 0
    assert "Example:" in stdout



def test_unreachable_model_server_is_a_one_line_error(capsys, monkeypatch):
    pytest.importorskip("langchain_ollama")
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{port}")
    code, _, stderr = run(["review", str(SAMPLES / "northwind_msa_01.txt"), "--model", "ollama:llama3.1:8b", "--no-memory"], capsys)
    assert code == 3
    assert stderr.startswith("error: the reviewer, compression and extraction model (--model=ollama:llama3.1:8b): "
                             "cannot be reached") and stderr.count("\n") == 1
