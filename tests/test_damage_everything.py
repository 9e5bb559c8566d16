"""The "damage everything" script in the suite (issue 32): after finished CLI reviews, each damage
an operator could do beside the store ends with no memory lost silently and the exit code
docs/OPERATING.md documents. About 30 s of CPU (two reviews and ~20 CLI processes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scripts import damage_everything

OPERATING = Path(__file__).resolve().parents[1] / "docs" / "OPERATING.md"


@pytest.mark.slow
def test_every_damage_is_detected_or_harmless_and_recoverable(tmp_path):
    results = damage_everything.run(tmp_path)
    failed = {r.damage: r.problems for r in results if not r.passed}
    assert not failed, failed
    assert [r.damage for r in results] == [d.name for d in damage_everything.DAMAGES]


def test_each_damage_and_its_exit_code_is_documented():
    text = OPERATING.read_text()
    for damage in damage_everything.DAMAGES:
        row = re.search(rf"^\| `{re.escape(damage.name)}` \|.*$", text, re.M)
        assert row, f"docs/OPERATING.md has no row for {damage.name}"
        assert f"| {damage.exit_code} |" in row.group(0), row.group(0)
