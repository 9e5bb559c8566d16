"""The executive summary first, in every format (issue 30); the other provisions of a clause type
("also") and the parties' status shown in every format; the HTML report's "Why" is the reasoning
and its closing summary is readable (issue 33)."""

from __future__ import annotations

import copy
import json
import re

from rich.console import Console

from agent.report import SEVERITY_ORDER, VERDICT_ORDER, asks_change, render_markdown
from agent.report_html import render_html
from agent.report_text import render_terminal
from tests.cli.htmldom import parse


def _text(report: dict, width: int = 100) -> str:
    console = Console(width=width, record=True, force_terminal=False, color_system=None)
    console.print(render_terminal(report, width))
    return console.export_text()


def _sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"(?<=[.;])\s+", text) if len(s.strip()) > 25}


def test_summary_ranks_the_buyers_asks_by_severity_then_verdict(hostile_report):
    asks = hostile_report["summary"]
    wanted = [f for f in hostile_report["findings"] if asks_change(f)]
    assert len(asks) == len(wanted) and asks[0]["rank"] == 1
    keys = [(SEVERITY_ORDER[a["severity"]], VERDICT_ORDER[a["verdict"]]) for a in asks]
    assert keys == sorted(keys)
    by_type = {f["clause_type"]: f for f in hostile_report["findings"]}
    for ask in asks:
        finding = by_type[ask["clause_type"]]
        assert "\n" not in ask["ask"] and len(ask["ask"]) < 240
        if finding["verdict"] != "missing":  # each one line with its section
            section = re.match(r"(Section|Clause|Article) [\w.]+", finding["citation"]).group(0)
            assert section in ask["ask"], ask
    json.dumps(hostile_report)  # the JSON report carries it as it is


def test_summary_comes_first_in_markdown_text_and_html(hostile_report):
    first = hostile_report["summary"][0]["ask"]
    markdown = render_markdown(hostile_report)
    assert markdown.index("## Executive summary") < markdown.index("## Findings") < markdown.index("## What to ask for")
    assert re.sub(r"\\(.)", r"\1", markdown).split("## Findings")[0].count(first) == 1
    text = _text(hostile_report, 100)
    assert text.index("Executive summary") < text.index("DEVIATION")
    assert "1. [high] " + first[:40] in text
    dom = parse(render_html(hostile_report))
    html_text = dom.text()
    summary = dom.find("section", "executive")
    assert summary is not None and first in summary.text()
    assert html_text.index("Executive summary") < html_text.index("High severity (")  # detailed findings below
    link = summary.find("a").attrs["href"]
    assert dom.find("article", "finding").attrs["id"] == link.lstrip("#") or any(
        a.attrs.get("id") == link.lstrip("#") for a in dom.find_all("article", "finding"))


def _with_also_and_status(report: dict) -> dict:
    report = copy.deepcopy(report)
    cap = next(f for f in report["findings"] if f["clause_type"] == "liability_cap")
    cap["also"] = [{"section": "11.2", "citation": "Section 11.2 (Mutual Cap)", "verdict": "standard", "binds": "both",
                    "protects": "both", "reading": "mutual cap at 12 months' fees", "start": 10, "end": 20}]
    report["parties_status"] = "unknown"
    report["parties_note"] = "no parties identified in the preamble or signature blocks; rerun with --we"
    return report


def test_also_and_parties_status_show_in_every_format(hostile_report):
    report = _with_also_and_status(hostile_report)
    also = "also Section 11.2 (Mutual Cap) (standard): mutual cap at 12 months' fees"
    banner = "PARTIES UNKNOWN: no parties identified in the preamble"
    markdown = render_markdown(report)
    assert also in markdown and banner in markdown
    assert markdown.index(banner) < markdown.index("## Executive summary")
    text = _text(report, 160)  # the wide table
    assert "also Section 11.2" in text and banner in " ".join(text.split())
    narrow = " ".join(_text(report, 80).split())
    assert "also Section 11.2 (Mutual Cap)" in narrow and banner in narrow
    html = parse(render_html(report))
    cap = next(a for a in html.find_all("article", "finding") if a.attrs["data-clause"] == "liability_cap")
    assert also in cap.find("ul", "also").text()
    assert banner in html.find("p", "banner").text()
    assert html.text().index(banner) < html.text().index("Executive summary")
    loaded = json.loads(json.dumps(report))
    assert loaded["parties_status"] == "unknown"


def test_html_why_is_the_reasoning_not_the_recommendation_again(hostile_report):
    dom = parse(render_html(hostile_report))
    asked = 0
    for article in dom.find_all("article", "finding"):
        why = article.find("p", "rationale")
        change = article.find("p", "recommendation") or article.find("p", "no-change")
        assert why is not None and change is not None, article.attrs["data-clause"]
        reasoning = why.text().removeprefix("Why: ")
        said = change.text().removeprefix("Requested change: ")
        assert not _sentences(reasoning) & _sentences(said), article.attrs["data-clause"]
        if article.find("p", "recommendation"):
            asked += 1
            # what the clause says or lacks, and how it compares with the playbook
            assert re.search(r"playbook|standard|fallback", reasoning), reasoning
    assert asked >= 3


def test_html_closing_summary_is_readable(hostile_report):
    dom = parse(render_html(hostile_report))
    closing = dom.find("section", "review-text")
    assert closing is not None
    shown = closing.text()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), re.findall(r"\b[a-z]+_[a-z_]+\b", shown)[:5]
    rows = closing.find("table", "closing").find_all("tr")
    assert len(rows) == len(hostile_report["findings"]) + 1  # a header and one row a clause type
    assert "Limitation of liability (cap)" in shown


def test_a_favourable_finding_needs_no_change_and_says_why_in_every_format(hostile_report):
    report = copy.deepcopy(hostile_report)
    cap = next(f for f in report["findings"] if f["clause_type"] == "liability_cap")
    cap.update(verdict="favourable", severity="none",
               recommendation="No change needed: Section 9.2 caps only the buyer's liability, which protects the buyer.")
    report["summary"] = [a for a in report["summary"] if a["clause_type"] != "liability_cap"]
    markdown = render_markdown(report)
    settled = markdown.split("## No change needed", 1)[1]
    assert "**liability_cap** (favourable): No change needed: Section 9.2 caps only the buyer's liability" in settled
    assert "liability_cap" not in markdown.split("## What to ask for", 1)[1].split("## No change needed", 1)[0]
    html = parse(render_html(report))
    article = next(a for a in html.find_all("article", "finding") if a.attrs["data-clause"] == "liability_cap")
    assert article.find("p", "recommendation") is None
    assert "caps only the buyer's liability" in article.find("p", "no-change").text()
    assert "favourable" in _text(report, 160)
