"""The review report for a terminal: one table where the terminal is wide, a short block per
finding where it is not (80 columns, or piped into a log or a pager, which rich sizes at 80).

Every line fits the width it is rendered for; quotes are cut to a few lines and each requested
change is its one-line headline (the whole quote and the whole redline are in
`--format markdown | json | html`). The executive summary (the buyer's asks ranked by risk)
comes first. Markdown for files is agent/report.py, HTML
agent/report_html.py.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from agent.report import (
    SEVERITY_ORDER,
    VERDICT_ORDER,
    also_lines,
    asks_change,
    memory_used_line,
    parties_banner,
    parties_line,
    summary_lines,
    usage_line,
)

# From this many columns up the findings are one table; below, one block each.
WIDE_COLUMNS = 120
# Lines of quote shown: more for findings that ask for a change than for standard ones.
QUOTE_LINES = {"deviation": 3, "missing": 3, "fallback": 3}
STANDARD_QUOTE_LINES = 1
RECOMMENDATION_LINES = 4
SUMMARY_LINES = 2
VERDICT_STYLE = {"deviation": "bold red", "missing": "bold red", "fallback": "yellow", "standard": "green",
                 "favourable": "green"}
ASKS_FOR_CHANGE = ("deviation", "missing", "fallback")
INDENT = "  "


def clip(text: str, width: int, max_lines: int) -> list[str]:
    """`text` on one paragraph, wrapped to `width` and cut to `max_lines` lines (an ellipsis
    ends a cut line)."""
    lines = textwrap.wrap(" ".join(str(text).split()), max(8, width), break_on_hyphens=False)
    if len(lines) <= max_lines:
        return lines
    kept = lines[:max_lines]
    kept[-1] = textwrap.shorten(kept[-1] + " " + lines[max_lines], max(8, width) - 1, placeholder="") + "…"
    return kept


def ordered(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Findings that ask for a change first, the most severe first within a verdict."""
    return sorted(findings, key=lambda f: (VERDICT_ORDER.get(f["verdict"], 9), SEVERITY_ORDER.get(f["severity"] or "none", 9)))


def where(finding: dict[str, Any], report: dict[str, Any]) -> str:
    """'section 9.2 "Limitation of Liability"', or 'not in the contract' for a missing clause."""
    if finding.get("citation"):
        return str(finding["citation"])
    section = finding.get("section")
    if not section:
        return "not in the contract" if finding["verdict"] == "missing" else "-"
    title = ((report.get("sections") or {}).get(section) or {}).get("title")
    return f'section {section} "{title}"' if title else f"section {section}"


def short_where(finding: dict[str, Any]) -> str:
    """The citation's label for a table cell ("9.2", 'p.3 "INSURANCE"'), never an internal id."""
    citation = str(finding.get("citation") or "")
    if not citation:
        section = str(finding.get("section") or "")
        return section if section and not re.fullmatch(r"h\d+", section) else "-"
    m = re.match(r"^(?:page (?P<page>\d+), )?under the heading \"(?P<head>[^\"]*)\"", citation)
    if m:
        head = m.group("head")[:18]
        return f'p.{m.group("page")} "{head}"' if m.group("page") else f'"{head}"'
    m = re.match(r"^(?:Section|Article|Clause|§)\s+(?P<num>[\w.]+)", citation)
    return m.group("num") if m else citation.split(" (")[0][:24]


def heading(report: dict[str, Any], width: int) -> Text:
    usage = report["usage"]
    counts: dict[str, int] = {}
    for finding in report["findings"]:
        counts[finding["verdict"]] = counts.get(finding["verdict"], 0) + 1
    tally = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items(), key=lambda kv: VERDICT_ORDER.get(kv[0], 9)))
    banner = parties_banner(report)
    lines = [
        f"Run {report['run_id']} · outcome {report['outcome']}",
        usage_line(usage),
        *([banner] if banner else []),
        parties_line(report.get("parties") or {}),
        f"{len(report['findings'])} findings: {tally}" if tally else "no findings",
    ]
    if usage.get("cache_read_tokens") or usage.get("cache_write_tokens"):
        lines[1] += f" (cached input: {usage.get('cache_read_tokens', 0):,} read, {usage.get('cache_write_tokens', 0):,} written)"
    incomplete = report.get("incomplete")
    if incomplete:
        lines.append(f"Review incomplete: {incomplete.get('reason')}; no finding for: "
                     f"{', '.join(incomplete.get('open_clause_types') or []) or 'none'}")
    text = Text(f"Contract review: {report['contract']}\n", style="bold")
    text.append("\n".join("\n".join(textwrap.wrap(line, width)) for line in lines))
    return text


def summary_block(report: dict[str, Any], width: int) -> Text:
    """The executive summary: the buyer's asks ranked by risk, one line each (cut to the width)."""
    text = Text("Executive summary: what to ask for", style="bold")
    for line in summary_lines(report):  # an ask on one line where it fits, two where the terminal is narrow
        lines = clip(line, width - len(INDENT), SUMMARY_LINES) if line[:1].isdigit() else clip(line, width, 1)
        text.append("\n" + f"\n{INDENT}".join(lines))
    return text


def change(finding: dict[str, Any]) -> str:
    """The requested change in a line or two: its one-line headline (the whole redline, which
    quotes the clause, is in markdown, html and json)."""
    return str(finding.get("headline") or finding.get("recommendation") or "")


def finding_block(finding: dict[str, Any], report: dict[str, Any], width: int) -> Text:
    """verdict · severity · clause on one line, where it is on the next, then the quote (cut)
    and, when the finding asks for a change, the recommendation."""
    verdict = finding["verdict"]
    text = Text()
    text.append(verdict.upper(), style=VERDICT_STYLE.get(verdict, "bold"))
    text.append(f" · {finding.get('severity') or 'none'} · ")
    text.append(finding["clause_type"], style="bold")
    inner = width - len(INDENT)
    for line in clip(where(finding, report), inner, 2):
        text.append(f"\n{INDENT}{line}", style="dim")
    if finding.get("quote"):
        quote_lines = QUOTE_LINES.get(verdict, STANDARD_QUOTE_LINES)
        for line in clip(f"“{finding['quote']}”", inner, quote_lines):
            text.append(f"\n{INDENT}{line}", style="italic")
    if asks_change(finding) and change(finding):
        for i, line in enumerate(clip(change(finding), inner - 2, RECOMMENDATION_LINES)):
            text.append(f"\n{INDENT}{'→ ' if i == 0 else '  '}{line}")
    if asks_change(finding) and finding.get("rationale"):
        for line in clip(f"Why: {finding['rationale']}", inner, 2):
            text.append(f"\n{INDENT}{line}", style="dim")
    for also in also_lines(finding):
        for line in clip(also, inner, 1):
            text.append(f"\n{INDENT}{line}", style="dim")
    return text


def findings_table(report: dict[str, Any], width: int) -> Table:
    """verdict | severity | clause | section | quote | recommendation, cut to three lines a cell."""
    findings = ordered(report["findings"])
    clause_width = max([len("clause")] + [len(f["clause_type"]) for f in findings])
    section_width = max([len("section")] + [len(short_where(f)) for f in findings])
    fixed = len("deviation") + len("severity") + clause_width + section_width
    free = max(30, width - fixed - 2 * 5)  # 6 columns, two spaces between (collapsed padding)
    quote_width = free * 3 // 5
    recommendation_width = free - quote_width
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    for name, size in (("verdict", len("deviation")), ("severity", len("severity")), ("clause", clause_width),
                       ("section", section_width), ("quote", quote_width), ("recommendation", recommendation_width)):
        table.add_column(name, width=size, no_wrap=name in ("verdict", "severity", "clause", "section"))
    for f in findings:
        lines = QUOTE_LINES.get(f["verdict"], STANDARD_QUOTE_LINES)
        recommendation = change(f) if asks_change(f) else ""
        also = also_lines(f)
        if also:  # the other provisions of the type, after the quote
            lines += 1
        # Text cells, never markup strings: contract text may hold `[bold]` or a stray `[/]`.
        table.add_row(
            Text(f["verdict"], style=VERDICT_STYLE.get(f["verdict"], "")), Text(f.get("severity") or "-"),
            Text(f["clause_type"]), Text(short_where(f)),
            Text("\n".join(clip(f["quote"] or "-", quote_width, lines - bool(also)) + [clip(a, quote_width, 1)[0] for a in also[:3]])),
            Text("\n".join(clip(recommendation or "", recommendation_width, RECOMMENDATION_LINES))),
        )
    return table


def render_terminal(report: dict[str, Any], width: int) -> RenderableType:
    """The report laid out for a terminal `width` columns wide."""
    parts: list[RenderableType] = [heading(report, width), Text(), summary_block(report, width), Text()]
    if width >= WIDE_COLUMNS:
        parts += [findings_table(report, width), Text()]
    else:
        for finding in ordered(report["findings"]):
            parts += [finding_block(finding, report, width), Text()]
    parts.append(Text("\n".join(textwrap.wrap(memory_used_line(report), width))))
    if report.get("review"):  # its first line; the whole closing text is in markdown and json
        parts.append(Text())
        parts.append(Text("\n".join(textwrap.wrap(report["review"].split("\n", 1)[0], width))))
    return Group(*parts)
