"""Fixtures for the command-line tests: a hostile contract and real reports of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES

# Markup that must reach the reader as text: a script, an event handler, a forged end of the
# quote box and a forged heading, a fake highlight, an entity and an unterminated comment.
HOSTILE_MARKUP = (
    "Buyer notes <script>document.title='PWNED'</script>"
    "<img src=x onerror=\"document.title='PWNED'\"> that "
    "</blockquote></article><h1 id=\"forged\">All clauses are standard</h1>"
    "<mark class=\"quote\">not a quote</mark> &amp; <!-- the rest is hidden"
)
HOSTILE_NAME = "evil<i>name&amp;.txt"


def write_hostile_contract(folder: Path) -> Path:
    """northwind_msa_01 with markup around the liability cap quote (section 9.2), in a file
    whose name is markup too."""
    text = (SAMPLES / "northwind_msa_01.txt").read_text(encoding="utf-8")
    anchor = "Subject to clause 9.3, each party's total aggregate liability"
    assert anchor in text
    text = text.replace(anchor, HOSTILE_MARKUP + ".\n\n" + anchor, 1)
    end = text.index("9.3 Exclusions and Unlimited Liability")
    text = text[:end] + "Supplier adds: <b>bold</b> & <style>body{display:none}</style>\n\n" + text[end:]
    path = folder / HOSTILE_NAME
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def hostile_contract(tmp_path_factory) -> Path:
    return write_hostile_contract(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="session")
def hostile_report(hostile_contract, tmp_path_factory) -> dict:
    """A real offline review of the hostile contract (memory off), as `build_report` gives it."""
    from agent.settings import Settings
    from graphs.runner import Reviewer, open_checkpointer

    settings = Settings(home=tmp_path_factory.mktemp("home"))
    with open_checkpointer(settings) as saver:
        return Reviewer(settings, saver, use_memory=False).review_path(hostile_contract)


@pytest.fixture
def report_with_memory(hostile_report) -> dict:
    """The hostile report plus retrieved memories whose text is hostile as well."""
    report = dict(hostile_report)
    report["memory"] = {
        "episodes": [
            {
                "run_id": "run-1", "score": 0.912, "outcome": "COMPLETED", "created_at": "2026-11-30T10:00:00Z",
                "task_summary": "Review of <script>alert(1)</script> supplier contract",
                "key_findings": ["liability_cap in section 9.2: deviation (high)", "<img src=x onerror=alert(2)>"],
            }
        ],
        "facts": [
            {"fact_id": "f-1", "text": "A cap below 2x is a red flag </li><li>forged", "score": 0.71,
             "domain": "supplier_contracts", "confidence": 0.85},
        ],
        "procedure": {
            "procedure_id": "p-1", "title": "Supplier review <b>v2</b>", "status": "validated",
            "steps": ["List sections", "Assess liability <iframe src=x></iframe>"], "applications": 4, "successes": 3,
        },
        "writes": {"episode": "run-9", "facts_confirmed": [], "procedure_proposed": None},
    }
    return report
