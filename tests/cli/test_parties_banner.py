"""A review whose parties cannot be read says so at the top of every format and asks for --we;
--we with a role word or a party name settles it; --we naming no party is a usage error (exit 2)
with the report still written (issue 30)."""

from __future__ import annotations

import json

from cli.main import main

SCANNED = ("TH1S SUPP LY AGR EEMENT is rnade as of the date be1ow by and betvveen the parties signing it.\n\n"
           "1. PRICES\n\n1.1 The Seller may change the prices on thirty (30) days' notice.\n\n"
           "2. LIABILITY\n\n2.1 The Seller's aggregate liability shall not exceed the fees paid in the preceding "
           "twelve (12) months.\n\n3. NOTICES\n\n3.1 Notices to Quarry Lane Foods Ltd go to its registered office.\n")


def _run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_unknown_parties_are_announced_at_the_top_of_every_format(tmp_path, capsys):
    contract = tmp_path / "scanned.txt"
    contract.write_text(SCANNED, encoding="utf-8")
    code, out, err = _run(["review", str(contract), "--format", "json", "--no-memory"], capsys)
    report = json.loads(out)
    assert code == 0  # the review itself is complete
    assert report["parties_status"] == "unknown" and "--we" in report["parties_note"]
    assert list(report).index("parties_status") < list(report).index("findings")
    assert "parties unknown" in err and "--we" in err
    for fmt in ("text", "markdown", "html"):
        code, out, _ = _run(["review", str(contract), "--format", fmt, "--no-memory"], capsys)
        assert code == 0 and "PARTIES UNKNOWN:" in out, fmt
        body = out.index("</style>") if fmt == "html" else 0
        assert out.index("PARTIES UNKNOWN:") < out.index("liability_cap", body), fmt


def test_we_with_a_role_word_or_a_name_settles_the_parties(tmp_path, capsys):
    contract = tmp_path / "scanned.txt"
    contract.write_text(SCANNED, encoding="utf-8")
    code, out, err = _run(["review", str(contract), "--format", "json", "--no-memory", "--we", "buyer"], capsys)
    report = json.loads(out)
    assert code == 0 and report["parties_status"] == "assumed" and "parties unknown" not in err
    assert report["parties"]["supplier"]["terms"] == ["Seller"]
    code, out, _ = _run(["review", str(contract), "--format", "json", "--no-memory", "--we", "quarry lane foods"], capsys)
    report = json.loads(out)
    assert code == 0 and report["parties_status"] == "assumed"
    assert report["parties"]["buyer"]["name"] == "Quarry Lane Foods Ltd"
    code, out, _ = _run(["review", str(contract), "--format", "markdown", "--no-memory", "--we", "seller"], capsys)
    assert code == 0 and "PARTIES ASSUMED: reviewed for Seller" in out


def test_we_naming_no_party_is_a_usage_error_with_the_report_written(tmp_path, capsys):
    contract = tmp_path / "scanned.txt"
    contract.write_text(SCANNED, encoding="utf-8")
    code, out, err = _run(["review", str(contract), "--format", "json", "--no-memory", "--we", "Nobody Holdings"], capsys)
    assert code == 2
    assert json.loads(out)["parties_status"] == "unknown"
    assert "error:" in err and "names no party" in err
