"""The HTML report as a reader meets it: severity groups, highlighted quotes in their clause,
the memories behind the run, and hostile text shown as text, never as markup."""

from __future__ import annotations

import json

from agent.report_html import render_html
from cli.main import main
from tests.cli.conftest import HOSTILE_MARKUP, HOSTILE_NAME
from tests.cli.htmldom import parse

SEVERITIES = ["high", "medium", "low", "none"]


def _groups(dom):
    return [n for n in dom.find_all("section") if "group" in n.classes]


def test_no_markup_from_the_contract_or_memory_becomes_an_element(report_with_memory):
    dom = parse(render_html(report_with_memory))
    tags = {n.tag for n in dom.iter()}
    assert not tags & {"script", "img", "iframe", "b", "i", "link", "object", "embed", "form"}
    assert [n.tag for n in dom.find_all("style")] == ["style"]  # only the report's own stylesheet
    assert not [n for n in dom.iter() if n.attrs.get("id") == "forged" or any(a.startswith("on") for a in n.attrs)]
    assert [n.text() for n in dom.find_all("h1")] == [f"Contract review: {HOSTILE_NAME}"]
    assert dom.find("title").text() == f"Contract review: {HOSTILE_NAME}"
    text = dom.text()
    assert HOSTILE_MARKUP in text  # the reader sees exactly what the contract says
    assert "<script>alert(1)</script>" in text and "</li><li>forged" in text and "<iframe src=x></iframe>" in text


def test_page_is_self_contained_and_forbids_scripts(report_with_memory):
    html = render_html(report_with_memory)
    dom = parse(html)
    csp = [n.attrs["content"] for n in dom.find_all("meta") if n.attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0] and "script-src" not in csp[0]
    assert "http://" not in html and "https://" not in html
    assert not [n for n in dom.find_all("link")] and not [n for n in dom.iter() if "src" in n.attrs]


def test_findings_are_grouped_by_severity_in_order(hostile_report):
    dom = parse(render_html(hostile_report))
    groups = _groups(dom)
    order = [next(c for c in g.classes if c.startswith("severity-")).removeprefix("severity-") for g in groups]
    expected = [s for s in SEVERITIES if any((f["severity"] or "none") == s for f in hostile_report["findings"])]
    assert order == expected and "high" in order
    for group, severity in zip(groups, order, strict=True):
        in_group = {a.attrs["data-clause"] for a in group.find_all("article", "finding")}
        assert in_group == {f["clause_type"] for f in hostile_report["findings"] if (f["severity"] or "none") == severity}
        assert group.find("h2").text().endswith(f"({len(in_group)})")
    summary = dom.find("ul", "summary").text()
    assert f"{len(groups[0].find_all('article', 'finding'))} high severity" in summary


def test_each_quote_is_highlighted_inside_its_clause_text(hostile_report):
    dom = parse(render_html(hostile_report))
    articles = {a.attrs["data-clause"]: a for a in dom.find_all("article", "finding")}
    assert len(articles) == len(hostile_report["findings"])
    for finding in hostile_report["findings"]:
        article = articles[finding["clause_type"]]
        marks = article.find_all("mark", "quote")
        if finding["verdict"] in ("missing", "not_applicable"):
            absent = "Not found in the contract." if finding["verdict"] == "missing" else "Not applicable to this deal."
            assert not marks and absent in article.text()
            continue
        assert marks and marks[0].text() == finding["quote"], finding["clause_type"]
        clause = article.find("blockquote", "clause").text()
        section = hostile_report["sections"][finding["section"]]
        assert clause.removeprefix("… ").removesuffix(" …") in section["text"]
        assert len(clause) > len(finding["quote"])  # the quote is shown in context
    cap = articles["liability_cap"]
    # cited as printed, never by an internal id; why the verdict, whom it binds, what to ask for
    assert cap.find("h3").text().startswith("deviation") and "Section 9.2 (Limitation of Liability)" in cap.find("h3").text()
    assert "0.5" in cap.find("p", "rationale").text() and "playbook's fallback" in cap.find("p", "rationale").text()
    assert cap.find("p", "stance").text().startswith("The clause binds ")
    assert cap.find("p", "recommendation").text().startswith("Requested change: Section 9.2 (Limitation of Liability): ")
    # The hostile paragraphs of section 9.2 sit around the highlighted quote, as plain text.
    clause = cap.find("blockquote", "clause").text()
    assert HOSTILE_MARKUP in clause and "<style>body{display:none}</style>" in clause
    assert HOSTILE_MARKUP not in cap.find("mark", "quote").text()
    # the requested change is a redline of this clause: its own words, the figure moved to the playbook's 2x
    asked = cap.find("p", "recommendation").text()
    assert 'replace "Subject to clause 9.3' in asked and "fifty per cent (50%)" in asked
    assert "two hundred per cent (200%)" in asked and "Ask for" not in asked


def test_long_sections_show_an_excerpt_and_fold_the_full_text(hostile_report):
    finding = next(f for f in hostile_report["findings"] if f["verdict"] != "missing")
    section = dict(hostile_report["sections"][finding["section"]])
    filler = "Filler sentence about deliveries and notices. " * 80
    offset = finding["start"] - section["start"]
    section["text"] = filler + section["text"] + filler
    section["start"] -= len(filler)
    report = {**hostile_report, "findings": [finding], "sections": {finding["section"]: section}}
    article = parse(render_html(report)).find("article", "finding")
    excerpt = article.find("blockquote", "clause").text()
    assert excerpt.startswith("… ") and excerpt.endswith(" …") and len(excerpt) < 2000
    full = article.find("details").find("div", "clause")
    assert full.text() == section["text"]
    assert full.find("mark").text() == finding["quote"] == section["text"][len(filler) + offset :][: len(finding["quote"])]


def test_memories_that_informed_the_run_are_listed(report_with_memory):
    memory = parse(render_html(report_with_memory)).find("section", "memory")
    episode = memory.find("div", "episode")
    assert "run-1" in episode.text() and "similarity 0.912" in episode.text() and "COMPLETED" in episode.text()
    assert [li.text() for li in episode.find_all("li")] == report_with_memory["memory"]["episodes"][0]["key_findings"]
    fact = memory.find("li", "fact")
    assert fact.text().startswith("A cap below 2x is a red flag") and "confidence 0.85" in fact.text()
    procedure = memory.find("div", "procedure")
    assert "Supplier review <b>v2</b>" in procedure.text() and "3/4 successful uses" in procedure.text()
    assert [li.text() for li in procedure.find("ol").find_all("li")] == report_with_memory["memory"]["procedure"]["steps"]
    assert "run-9" in memory.find("ul", "writes").text()


def test_long_episode_findings_are_folded(report_with_memory):
    episode = dict(report_with_memory["memory"]["episodes"][0], key_findings=[f"finding {i}" for i in range(17)])
    report = {**report_with_memory, "memory": {**report_with_memory["memory"], "episodes": [episode]}}
    folded = parse(render_html(report)).find("div", "episode").find("details")
    assert folded.find("summary").text() == "17 key findings"
    assert [li.text() for li in folded.find_all("li")] == episode["key_findings"]


def test_a_run_without_memory_says_so(hostile_report):
    memory = parse(render_html(hostile_report)).find("section", "memory")
    assert "None: memory was off" in memory.text()


def test_several_reports_share_one_page_with_a_table_of_contents(hostile_report):
    second = {**hostile_report, "contract": "second.pdf", "run_id": "r2"}
    dom = parse(render_html([hostile_report, second]))
    assert [a.text() for a in dom.find("nav").find_all("a")] == [HOSTILE_NAME, "second.pdf"]
    assert [a.attrs["href"] for a in dom.find("nav").find_all("a")] == ["#r1", "#r2"]
    assert len(dom.find_all("article", "report")) == 2


def test_json_report_carries_the_quoted_sections(hostile_report):
    quoted = [f for f in hostile_report["findings"] if f["verdict"] != "missing"]
    assert set(hostile_report["sections"]) == {f["section"] for f in quoted}
    for finding in quoted:
        section = hostile_report["sections"][finding["section"]]
        offset = finding["start"] - section["start"]
        assert section["text"][offset : offset + len(finding["quote"])] == finding["quote"]
    json.dumps(hostile_report)  # stays plain JSON


def test_review_format_html_writes_a_page(hostile_contract, tmp_path, capsys):
    out = tmp_path / "review.html"
    code = main(["review", str(hostile_contract), "--format", "html", "--out", str(out), "--no-memory"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out == ""
    assert f"wrote html report to {out}" in captured.err
    dom = parse(out.read_text(encoding="utf-8"))
    assert dom.find("article", "report") and not dom.find_all("script")
    code = main(["review", str(hostile_contract), "-f", "html", "--no-memory", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0 and captured.out.startswith("<!DOCTYPE html>") and captured.err == ""
