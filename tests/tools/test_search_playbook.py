"""BM25 section search and playbook loading/validation."""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.rules import DETECTORS
from tools.errors import PlaybookError
from tools.playbook import DEFAULT_PLAYBOOK, load_playbook
from tools.search import search_sections

TEXT = (
    "1. PAYMENT\n\nThe Buyer pays invoices within sixty days.\n\n"
    "2. INSURANCE\n\nThe Supplier maintains general liability insurance.\n\n"
    "3. GOVERNING LAW\n\nNew York law governs.\n"
)


def test_search_ranks_the_matching_section_first():
    contract = parse_contract(TEXT, "s.txt")
    hits = search_sections(contract, "liability insurance cover", k=3)
    assert hits[0].section == "2"
    assert "insurance" in hits[0].snippet.lower()
    assert search_sections(contract, "the of and", k=3) == []  # stopwords only
    assert len(search_sections(contract, "law", k=10)) == 1


def test_default_playbook_loads_in_file_order_with_a_detector_per_type():
    playbook = load_playbook()
    assert playbook.clause_types[:3] == ["liability_cap", "uncapped_liability", "termination_convenience"]
    assert playbook.entry("governing_law").metric.standard == ["New York", "Delaware"]
    assert all(ct in DETECTORS for ct in playbook.clause_types)
    with pytest.raises(PlaybookError, match="unknown clause type"):
        playbook.entry("nope")


def test_user_playbook_path(tmp_path):
    custom = tmp_path / "p.yaml"
    custom.write_text(DEFAULT_PLAYBOOK.read_text().replace("severity: high\n    missing: {severity: medium}", "severity: low\n    missing: {severity: medium}", 1))
    assert load_playbook(custom).entry("liability_cap").severity == "low"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("clauses: [unclosed", "invalid YAML"),
        ("- just\n- a list\n", "expected a mapping"),
        ("clauses: {}\n", "clauses"),
        ("clauses:\n  x:\n    title: X\n", "standard"),
        ("clauses:\n  x: {title: X, standard: s, fallback: f, deviation: d, severity: awful, missing: {severity: low}, recommendation: r}\n", "severity"),
        ("clauses:\n  x: {title: X, standard: s, fallback: f, deviation: d, severity: low, missing: {severity: low}, recommendation: r, metric: {name: vibes}}\n", "unknown metric"),
    ],
)
def test_invalid_playbooks_raise_configuration_error(tmp_path, content, message):
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    with pytest.raises(PlaybookError, match=message):
        load_playbook(path)


def test_missing_playbook_file(tmp_path):
    with pytest.raises(PlaybookError, match="no such file"):
        load_playbook(tmp_path / "absent.yaml")
