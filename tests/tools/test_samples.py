"""The synthetic sample contracts: detect_all finds every planted deviation with the right verdict."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.sequences import expected_rows
from tools.contract import load_contract
from tools.detection.review import detect_all
from tools.playbook import load_playbook

SAMPLES = Path(__file__).resolve().parents[2] / "sample_contracts"
EXPECTED = SAMPLES / "expected_findings.json"
pytestmark = pytest.mark.skipif(not EXPECTED.is_file(), reason="sample_contracts/expected_findings.json not present")


# Known detector misses, by contract (strict xfail: the fix must remove the entry).
KNOWN_MISSES: dict[str, str] = {}
# Known disagreements between detect_all and assess_clause at the section it cites.
QUOTE_MISSES: dict[str, str] = {}


def _rows(*, known_misses: bool | dict[str, str] = False) -> list:
    """Every expected-findings row (sample_contracts/*expected_findings.json); with `known_misses`,
    rows of a known detector miss are marked xfail (strict: the fix must remove the mark)."""
    rows = list(expected_rows().values()) if EXPECTED.is_file() else []
    if not known_misses:
        return rows
    misses = KNOWN_MISSES if known_misses is True else known_misses
    return [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=misses[r["contract"]]))
            if r["contract"] in misses else r for r in rows]


def _known(items: list[dict]) -> list[dict]:
    """The expected items of clause types this playbook has (a file may describe more)."""
    types = set(load_playbook().clause_types)
    return [item for item in items if item["clause_type"] in types]


def _review(name: str, suffix: str = ".txt") -> dict[str, dict]:
    path = SAMPLES / f"{name}{suffix}"
    if not path.is_file():
        pytest.skip(f"{path.name} not present")
    contract = load_contract(path, max_bytes=10 * 1024 * 1024)
    findings = detect_all(contract, load_playbook())
    for f in findings:
        if f["verdict"] not in ("missing", "not_applicable"):
            assert contract.text[f["start"] : f["end"]] == f["quote"]
    return {f["clause_type"]: f for f in findings}


def _same_clause(found: str | None, expected: str | None) -> bool:
    """Same numbered clause, allowing the finding to name a sub-section or its parent."""
    if expected is None:
        return True
    if found is None:
        return False
    return found.split(".")[0] == str(expected).split(".")[0]


@pytest.mark.parametrize("suffix", [".txt", ".pdf"])
@pytest.mark.parametrize("row", _rows(known_misses=True), ids=lambda r: r["contract"])
def test_planted_deviations_are_found_with_the_right_verdict(row, suffix):
    findings = _review(row["contract"], suffix)
    for expected in _known(row["expected"]):
        got = findings[expected["clause_type"]]
        assert got["verdict"] == expected["verdict"], (expected, got)
        assert _same_clause(got["section"], expected.get("section")), (expected, got)
        _cited_under_heading(got, expected, suffix)


def _cited_under_heading(got: dict, expected: dict, suffix: str) -> None:
    """Unnumbered text is cited by its heading as printed, and in a PDF by its page too."""
    if "heading" not in expected:
        return
    assert f'under the heading "{expected["heading"]}"' in (got["citation"] or ""), (expected, got)
    if suffix == ".pdf":
        assert re.match(r"^page \d+, ", got["citation"]), got["citation"]


def test_the_expected_lists_cover_every_playbook_clause_type_once():
    types = sorted(load_playbook().clause_types)
    for row in _rows():
        covered = [e["clause_type"] for e in row["expected"] + row["standard"]] + row.get("absent_acceptable", [])
        assert sorted(covered) == types, row["contract"]


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r["contract"])
def test_standard_clauses_are_not_flagged(row):
    findings = _review(row["contract"])
    allowed_absent = set(row.get("absent_acceptable", []))
    for expected in _known(row.get("standard", [])):
        got = findings[expected["clause_type"]]
        if got["verdict"] == "missing" and expected["clause_type"] in allowed_absent:
            continue
        assert got["verdict"] == "standard", (expected, got)
        _cited_under_heading(got, expected, ".txt")


@pytest.mark.parametrize("row", _rows(known_misses=QUOTE_MISSES), ids=lambda r: r["contract"])
def test_assess_clause_at_the_found_section_agrees_with_detect_all(row):
    """A model that assesses the section the detectors point at reaches the same verdict."""
    from tools.operations import assess_clause_data

    path = SAMPLES / f"{row['contract']}.txt"
    contract = load_contract(path, max_bytes=10 * 1024 * 1024)
    playbook = load_playbook()
    for finding in detect_all(contract, playbook):
        if finding["verdict"] in ("missing", "not_applicable"):
            continue
        assessed = assess_clause_data(contract, playbook, finding["clause_type"], finding["section"])
        assert assessed["found"] and assessed["verdict"] == finding["verdict"], (finding, assessed)
