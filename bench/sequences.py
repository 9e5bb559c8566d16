"""The sample sequences (sample_contracts/sequences.json) and how a review is scored against
the expected findings (every sample_contracts/*expected_findings.json).

A review is scored on what a buyer's lawyer would check:

- recall: the share of the expected findings (planted deviations, missing clauses and fallback
  positions) reported with the expected verdict;
- section accuracy: the share of expected clauses (those two lists plus the standard ones)
  found where they are: the finding's quote lies inside the expected section (a section spans
  its sub-sections), or the finding says "missing" for a clause the contract lacks.

Clause types the playbook in use does not know are left out of both, so a file can already
describe clause types a playbook adds later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bench.common import REPO
from tools.contract import Contract, load_contract

SAMPLES = REPO / "sample_contracts"
SEQUENCES_FILE = SAMPLES / "sequences.json"


@lru_cache(maxsize=1)
def expected_rows() -> dict[str, dict[str, Any]]:
    """Contract stem -> its expected-findings row, from every `*expected_findings.json` file."""
    rows: dict[str, dict[str, Any]] = {}
    for path in sorted(SAMPLES.glob("*expected_findings.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for row in data["contracts"] if isinstance(data, dict) else data:
            rows[row["contract"]] = row
    return rows


@dataclass(frozen=True)
class Sequence:
    """Contracts reviewed in order on one data folder, with their expected findings."""

    name: str
    description: str
    paths: list[Path]
    rows: dict[str, dict[str, Any]]  # contract stem -> expected-findings row

    def labels(self, stem: str) -> list[dict[str, Any]]:
        return self.rows[stem]["expected"]


def named_sequence(name: str, *, limit: int | None = None, suffix: str = ".pdf") -> Sequence:
    """A sequence of sample_contracts/sequences.json (`limit`: its first N contracts)."""
    spec = json.loads(SEQUENCES_FILE.read_text(encoding="utf-8"))[name]
    stems = list(spec["contracts"])[:limit]
    rows = expected_rows()
    return Sequence(name, spec["description"], [SAMPLES / f"{stem}{suffix}" for stem in stems],
                    {stem: rows[stem] for stem in stems})


def sequence_names() -> list[str]:
    return list(json.loads(SEQUENCES_FILE.read_text(encoding="utf-8")))


@lru_cache(maxsize=32)
def _contract(path: Path) -> Contract:
    return load_contract(path, max_bytes=10 * 1024 * 1024)


def _span(contract: Contract, section: str) -> tuple[int, int] | None:
    found = contract.section(section)
    return (found.start, found.end) if found else None


def located(finding: dict[str, Any] | None, expected_section: str | None, contract: Contract) -> bool:
    """Whether the finding sits where the expected clause is (see the module docstring)."""
    if finding is None:
        return False
    if expected_section is None:
        return finding.get("verdict") == "missing"
    span = _span(contract, str(expected_section))
    start, end = finding.get("start", -1), finding.get("end", -1)
    if span is None or finding.get("verdict") == "missing" or start is None or start < 0:
        return False
    return span[0] <= start and end <= span[1]


def score(report: dict[str, Any], row: dict[str, Any], path: Path, clause_types: list[str] | set[str]) -> dict[str, Any]:
    """Recall and section accuracy of one review against its expected-findings row."""
    known = set(clause_types)
    findings = {f["clause_type"]: f for f in report.get("findings") or []}
    expected = [e for e in row["expected"] if e["clause_type"] in known]
    # labels without a "section" key (generated variants) count for recall only
    placed = [p for p in expected + [s for s in row.get("standard", []) if s["clause_type"] in known] if "section" in p]
    contract = _contract(path)
    hits = [e for e in expected if (findings.get(e["clause_type"]) or {}).get("verdict") == e["verdict"]]
    right_place = [p for p in placed if located(findings.get(p["clause_type"]), p.get("section"), contract)]
    deviations = [e for e in expected if e["verdict"] == "deviation"]
    return {
        "recall": round(len(hits) / len(expected), 3) if expected else 1.0,
        "expected_found": len(hits), "expected": len(expected),
        "missed": sorted(f"{e['clause_type']}:{e['verdict']}" for e in expected if e not in hits),
        "section_accuracy": round(len(right_place) / len(placed), 3) if placed else 1.0,
        "misplaced": sorted(p["clause_type"] for p in placed if p not in right_place),
        "deviations_found": sum(e in hits for e in deviations), "deviations_planted": len(deviations),
    }
