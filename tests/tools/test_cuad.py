"""Real filings (CUAD dev set, ../shared/cuad): quotes are exact, the longest contract gets a
verdict for every clause type, and the evaluation meets its targets (its speed is measured by
`contract-review bench cuad`, not here). Skipped when the data set is not next to the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.contract import load_contract
from tools.detection.cuad_eval import evaluate_cuad, format_cuad_report
from tools.detection.review import detect_all
from tools.playbook import load_playbook

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "cuad"
pytestmark = pytest.mark.skipif(not (CUAD / "labels.jsonl").is_file(), reason="CUAD dev set not found at ../shared/cuad")
LIMIT = 50 * 1024 * 1024


def _files() -> list[Path]:
    return sorted((CUAD / "contracts").glob("*.txt"))


def test_every_finding_quote_is_an_exact_slice_on_all_contracts():
    playbook = load_playbook()
    checked = 0
    for path in _files():
        contract = load_contract(path, max_bytes=LIMIT)
        assert contract.sections, path.name
        for section in contract.sections:
            assert 0 <= section.start <= section.end <= len(contract.text)
        for finding in detect_all(contract, playbook):
            if finding["verdict"] in ("missing", "not_applicable"):
                continue
            assert contract.text[finding["start"] : finding["end"]] == finding["quote"], (path.name, finding["clause_type"])
            assert contract.section(finding["section"]) is not None
            checked += 1
    assert checked > 200


def test_longest_contract_gets_a_verdict_for_every_clause_type():
    longest = max(_files(), key=lambda p: p.stat().st_size)
    findings = detect_all(load_contract(longest, max_bytes=LIMIT), load_playbook())
    assert sorted(f["clause_type"] for f in findings) == sorted(load_playbook().clause_types)


def test_cuad_evaluation_meets_targets():
    result = evaluate_cuad(CUAD)
    print("\n" + format_cuad_report(result))
    assert result["contracts"] == 40
    assert result["macro"]["f1"] >= 0.80
    for category, metrics in result["categories"].items():
        if metrics["positives"] >= 5:
            assert metrics["f1"] >= 0.5, category
    assert result["macro"]["span_agreement"] >= 0.7
