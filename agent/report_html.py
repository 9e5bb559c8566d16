"""The HTML review report: one self-contained page a reviewer opens in a browser.

Findings are grouped by severity, each shown with its quote highlighted inside the text of the
section it comes from, followed by the memories that informed the run. The page has no external
assets and no script; a Content-Security-Policy forbids scripts, remote fetches and forms, and
every piece of contract, model or memory text is HTML-escaped (contracts can be hostile).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from html import escape
from typing import Any

from agent.provenance import memory_note
from agent.report import (
    SETTLED,
    SEVERITY_ORDER,
    VERDICT_ORDER,
    also_lines,
    asks_change,
    parties_banner,
    parties_line,
    risk_key,
    summary_lines,
    usage_line,
    who,
)
from tools.playbook import Playbook, load_playbook

SEVERITY_LABELS = {"high": "High severity", "medium": "Medium severity", "low": "Low severity", "none": "No issue"}
EXCERPT_LIMIT = 1500  # longer sections show a window around the quote, full text folded below
EXCERPT_CONTEXT = 450
FOLD_KEY_FINDINGS = 5  # an episode with more key findings shows them folded

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

STYLE = """
:root { --ink:#1d2430; --muted:#5b6575; --line:#d9dee7; --paper:#fff; --bg:#f4f6f9;
  --high:#b42318; --high-bg:#fef3f2; --medium:#b54708; --medium-bg:#fffaeb;
  --low:#175cd3; --low-bg:#eff8ff; --none:#067647; --none-bg:#ecfdf3; --mark:#ffe58a; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font:15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 28px 0 10px; }
h3 { font-size: 1.02rem; margin: 0 0 6px; }
.report { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 24px 28px; margin-bottom: 28px; }
.meta { color: var(--muted); margin: 0 0 14px; overflow-wrap: anywhere; }
.meta code { font-size: .9em; }
.badge { display:inline-block; padding: 1px 9px; border-radius: 999px; font-size: .8rem; font-weight: 600;
  border: 1px solid currentColor; text-transform: uppercase; letter-spacing: .03em; }
.outcome-COMPLETED { color: var(--none); } .outcome-PARTIAL { color: var(--medium); }
.outcome-FAILED, .outcome-UNKNOWN { color: var(--high); }
.summary { display:flex; flex-wrap: wrap; gap: 8px; margin: 12px 0 4px; padding:0; list-style:none; }
.summary li { padding: 6px 12px; border-radius: 8px; font-weight: 600; }
.sev-high { color: var(--high); background: var(--high-bg); }
.sev-medium { color: var(--medium); background: var(--medium-bg); }
.sev-low { color: var(--low); background: var(--low-bg); }
.sev-none, .sev-other { color: var(--none); background: var(--none-bg); }
.group > h2 { padding: 6px 12px; border-radius: 8px; }
.finding { border: 1px solid var(--line); border-left: 5px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 12px 0; }
.group.severity-high .finding { border-left-color: var(--high); }
.group.severity-medium .finding { border-left-color: var(--medium); }
.group.severity-low .finding { border-left-color: var(--low); }
.group.severity-none .finding { border-left-color: var(--none); }
.verdict { font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em;
  padding: 1px 7px; border-radius: 4px; background: var(--bg); margin-right: 6px; vertical-align: 2px; }
.where { color: var(--muted); font-weight: 400; }
.recommendation { margin: 6px 0; }
.stance, .rationale { margin: 4px 0; font-size: .92rem; }
.standard { color: var(--muted); font-size: .9rem; margin: 4px 0 8px; }
.clause { white-space: pre-wrap; overflow-wrap: anywhere; margin: 8px 0 0; padding: 10px 14px; background: #fafbfc;
  border: 1px solid var(--line); border-radius: 6px; font-family: Georgia, "Times New Roman", serif; font-size: .95rem; }
mark.quote { background: var(--mark); color: inherit; padding: 1px 0; border-bottom: 2px solid #e0b100; }
details { margin-top: 6px; } summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
.absent { color: var(--muted); font-style: italic; margin: 6px 0 0; }
.memory ul, .memory ol { margin: 4px 0 10px; padding-left: 22px; }
.memory .item { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 8px 0; overflow-wrap: anywhere; }
.memory .label { color: var(--muted); font-size: .85rem; }
.prose { white-space: pre-wrap; overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: .85rem; text-align: center; }
nav ol { margin: 0 0 20px; }
.banner { border: 1px solid var(--medium); background: var(--medium-bg); color: var(--medium); border-radius: 8px;
  padding: 8px 12px; font-weight: 600; }
.executive { border: 1px solid var(--line); border-radius: 8px; padding: 4px 16px 10px; margin: 14px 0; }
.executive ol { padding-left: 22px; margin: 6px 0; } .executive li { margin: 4px 0; overflow-wrap: anywhere; }
.executive .sev { font-size: .75rem; font-weight: 700; text-transform: uppercase; padding: 1px 6px; border-radius: 4px; margin-right: 4px; }
.no-change { margin: 6px 0; color: var(--none); }
ul.also { margin: 6px 0 0; padding-left: 20px; font-size: .9rem; color: var(--muted); }
table.closing { border-collapse: collapse; width: 100%; font-size: .9rem; }
table.closing th, table.closing td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
@media print { body { background: #fff; } .report { border: 0; padding: 0; } .finding { break-inside: avoid; } }
"""


def _e(value: Any) -> str:
    return escape("" if value is None else str(value), quote=True)


def _clause_title(playbook: Playbook, clause_type: str) -> str:
    entry = playbook.clauses.get(clause_type)
    return entry.title if entry else clause_type.replace("_", " ").capitalize()


def _standard_position(playbook: Playbook, clause_type: str) -> str:
    entry = playbook.clauses.get(clause_type)
    return entry.standard if entry else ""


def _quote_span(section: dict[str, Any], finding: dict[str, Any]) -> tuple[int, int] | None:
    """Where the finding's quote sits inside the section text, or None."""
    text, quote = section["text"], finding.get("quote") or ""
    if not quote:
        return None
    start = finding.get("start")
    if isinstance(start, int) and start >= 0:
        rel = start - section["start"]
        if 0 <= rel and text[rel : rel + len(quote)] == quote:
            return rel, rel + len(quote)
    at = text.find(quote)
    return (at, at + len(quote)) if at >= 0 else None


def _highlighted(text: str, span: tuple[int, int], lo: int = 0, hi: int | None = None) -> str:
    hi = len(text) if hi is None else hi
    start, end = span
    return (
        ("… " if lo > 0 else "")
        + _e(text[lo:start])
        + f'<mark class="quote">{_e(text[start:end])}</mark>'
        + _e(text[end:hi])
        + (" …" if hi < len(text) else "")
    )


def _window(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """An excerpt around the quote that starts and ends at whitespace."""
    lo, hi = max(0, span[0] - EXCERPT_CONTEXT), min(len(text), span[1] + EXCERPT_CONTEXT)
    if lo > 0:
        cut = text.find(" ", lo, span[0])
        lo = cut + 1 if cut >= 0 else span[0]
    if hi < len(text):
        cut = text.rfind(" ", span[1], hi)
        hi = cut if cut >= 0 else span[1]
    return lo, hi


def _clause_block(finding: dict[str, Any], section: dict[str, Any] | None) -> str:
    quote = finding.get("quote") or ""
    if finding.get("verdict") == "not_applicable":
        return '<p class="absent">Not applicable to this deal.</p>'
    if finding.get("verdict") == "missing" or (not quote and section is None):
        return '<p class="absent">Not found in the contract.</p>'
    span = _quote_span(section, finding) if section else None
    if section is None or span is None:  # the quote alone, still highlighted
        return f'<blockquote class="clause"><mark class="quote">{_e(quote)}</mark></blockquote>'
    text = section["text"]
    if len(text) <= EXCERPT_LIMIT:
        return f'<blockquote class="clause">{_highlighted(text, span)}</blockquote>'
    lo, hi = _window(text, span)
    return (
        f'<blockquote class="clause">{_highlighted(text, span, lo, hi)}</blockquote>'
        f"<details><summary>Full text of section {_e(finding.get('section'))} ({len(text):,} characters)</summary>"
        f'<div class="clause">{_highlighted(text, span)}</div></details>'
    )


def _finding(finding: dict[str, Any], sections: dict[str, Any], playbook: Playbook, parties: dict[str, Any],
             anchor: str = "r1") -> str:
    clause_type = finding.get("clause_type") or ""
    section_id = finding.get("section")
    section = sections.get(section_id) if section_id else None
    where = ""
    if finding.get("citation"):
        where = f' <span class="where">{_e(finding["citation"])}</span>'
    elif section_id:  # a finding recorded before citations existed
        title = (section or {}).get("title") or ""
        where = f' <span class="where">section {_e(section_id)}{" · " + _e(title) if title else ""}</span>'
    verdict = finding.get("verdict") or ""
    parts = [
        f'<article class="finding verdict-{_e(verdict)}" data-clause="{_e(clause_type)}" id="{_e(anchor)}-{_e(clause_type)}">',
        f'<h3><span class="verdict">{_e(verdict)}</span>{_e(_clause_title(playbook, clause_type))}{where}</h3>',
    ]
    if asks_change(finding) and finding.get("recommendation"):
        parts.append(f'<p class="recommendation"><strong>Requested change:</strong> {_e(finding["recommendation"])}</p>')
    elif finding.get("recommendation"):
        parts.append(f'<p class="no-change">{_e(finding["recommendation"])}</p>')
    stance = who(finding, parties)
    if stance:
        parts.append(f'<p class="stance">The clause {_e(stance)}.</p>')
    if finding.get("rationale"):  # the reasoning: what the clause says, whom it binds, the playbook comparison
        parts.append(f'<p class="rationale"><strong>Why:</strong> {_e(finding["rationale"])}</p>')
    also = also_lines(finding)
    if also:
        parts.append('<ul class="also">' + "".join(f"<li>{_e(line)}</li>" for line in also) + "</ul>")
    standard = _standard_position(playbook, clause_type)
    if standard and verdict not in SETTLED:
        parts.append(f'<p class="standard">Buyer\'s standard position: {_e(standard)}</p>')
    parts.append(_clause_block(finding, section))
    note = memory_note(finding)
    if note:
        parts.append(f'<p class="memory-provenance">{_e(note)}</p>')
    parts.append("</article>")
    return "".join(parts)


def _severity_key(finding: dict[str, Any]) -> str:
    severity = finding.get("severity") or "none"
    return severity if severity in SEVERITY_ORDER else "other"


def _findings(report: dict[str, Any], anchor: str, playbook: Playbook) -> str:
    parties = report.get("parties") or {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for finding in report.get("findings") or []:
        groups.setdefault(_severity_key(finding), []).append(finding)
    order = [*SEVERITY_ORDER, "other"]
    chips = "".join(
        f'<li class="sev-{s}"><a href="#{anchor}-{s}" style="color:inherit">{len(groups[s])} {_e(SEVERITY_LABELS.get(s, s)).lower()}</a></li>'
        for s in order if s in groups
    )
    html = [f'<ul class="summary" aria-label="findings by severity">{chips}</ul>' if chips else "<p>No findings.</p>"]
    sections = report.get("sections") or {}
    for severity in order:
        if severity not in groups:
            continue
        items = sorted(groups[severity], key=lambda f: VERDICT_ORDER.get(f.get("verdict") or "", 9))
        html.append(
            f'<section class="group severity-{severity}" id="{anchor}-{severity}">'
            f'<h2 class="sev-{severity}">{_e(SEVERITY_LABELS.get(severity, "Other severity"))} ({len(items)})</h2>'
            + "".join(_finding(f, sections, playbook, parties, anchor) for f in items)
            + "</section>"
        )
    return "".join(html)


def _memory(report: dict[str, Any]) -> str:
    memory = report.get("memory") or {}
    episodes, facts, procedure = memory.get("episodes") or [], memory.get("facts") or [], memory.get("procedure")
    html = ['<section class="memory"><h2>Memory that informed this run</h2>']
    if not (episodes or facts or procedure):
        html.append("<p>None: memory was off, empty, or nothing passed the similarity thresholds.</p>")
    if episodes:
        html.append(f"<h3>Past episodes ({len(episodes)})</h3>")
        for e in episodes:
            keys = e.get("key_findings") or []
            findings = "".join(f"<li>{_e(k)}</li>" for k in keys)
            if len(keys) > FOLD_KEY_FINDINGS:
                findings = f"<details><summary>{len(keys)} key findings</summary><ul>{findings}</ul></details>"
            elif findings:
                findings = f"<ul>{findings}</ul>"
            html.append(
                '<div class="item episode">'
                f'<div class="label">run <code>{_e(e.get("run_id"))}</code> · similarity {_e(e.get("score"))}'
                f'{" · " + _e(e["outcome"]) if e.get("outcome") else ""}'
                f'{" · " + _e(str(e["created_at"])[:10]) if e.get("created_at") else ""}</div>'
                f'<div>{_e(e.get("task_summary"))}</div>{findings}</div>'
            )
    if facts:
        html.append(f"<h3>Domain facts ({len(facts)})</h3><ul>")
        for f in facts:
            confidence = f.get("confidence")
            detail = [f"similarity {f.get('score')}"]
            if confidence is not None:
                detail.append(f"confidence {confidence:.2f}" if isinstance(confidence, float) else f"confidence {confidence}")
            if f.get("domain"):
                detail.append(str(f["domain"]))
            html.append(f'<li class="fact">{_e(f.get("text"))} <span class="label">({_e(", ".join(detail))})</span></li>')
        html.append("</ul>")
    if procedure:
        steps = "".join(f"<li>{_e(s)}</li>" for s in procedure.get("steps") or [])
        uses = procedure.get("applications")
        record = f" · {procedure.get('successes', 0)}/{uses} successful uses" if uses is not None else ""
        html.append(
            '<h3>Procedure</h3><div class="item procedure">'
            f'<div><strong>{_e(procedure.get("title"))}</strong></div>'
            f'<div class="label"><code>{_e(procedure.get("procedure_id"))}</code>'
            f'{" · " + _e(procedure["status"]) if procedure.get("status") else ""}{_e(record)}</div>'
            f'{"<ol>" + steps + "</ol>" if steps else ""}</div>'
        )
    writes = memory.get("writes") or {}
    if writes:
        rows = "".join(
            f'<li><span class="label">{_e(str(k).replace("_", " "))}:</span> {_e(_plain(v))}</li>' for k, v in writes.items()
        )
        html.append(f'<h3>What this run stored</h3><ul class="writes">{rows}</ul>')
    html.append("</section>")
    return "".join(html)


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return "nothing" if value is None else str(value)


def _executive(report: dict[str, Any], anchor: str) -> str:
    """The buyer's asks ranked by risk, one line each with its section, linked to the finding."""
    asks = report.get("summary")
    if asks is None:
        asks = [{"rank": i, "clause_type": f["clause_type"], "severity": f.get("severity"), "ask": f.get("recommendation") or ""}
                for i, f in enumerate(sorted((f for f in report.get("findings") or [] if asks_change(f)), key=risk_key), 1)]
    shown = summary_lines(report)
    items = "".join(
        f'<li><span class="sev sev-{_e(a.get("severity") or "none")}">{_e(a.get("severity") or "none")}</span> '
        f'<a href="#{anchor}-{_e(a["clause_type"])}">{_e(a["ask"])}</a></li>'
        for a in asks[: len(shown)] if a.get("ask"))
    rest = [line for line in shown if not line[:1].isdigit()]
    return ('<section class="executive"><h2>Executive summary: what to ask for</h2>'
            + (f"<ol>{items}</ol>" if items else "")
            + "".join(f"<p>{_e(line)}</p>" for line in rest) + "</section>")


def _closing(report: dict[str, Any], playbook: Playbook) -> str:
    """The closing summary: a table of every clause type (title, verdict, severity, where, the
    change asked or none), then the reviewer's closing text with clause ids named by their titles."""
    rows = "".join(
        f"<tr><td>{_e(_clause_title(playbook, f['clause_type']))}</td><td>{_e(_VERDICT_WORDS.get(f['verdict'], f['verdict']))}</td>"
        f"<td>{_e(f.get('severity') or 'none')}</td><td>{_e(f.get('citation') or 'not in the contract')}</td>"
        f"<td>{_e(f.get('headline') or f.get('recommendation') or '') if asks_change(f) else 'none'}</td></tr>"
        for f in sorted(report.get("findings") or [], key=risk_key))
    html = ['<section class="review-text"><h2>Summary</h2>']
    if rows:
        html.append('<table class="closing"><thead><tr><th>Clause</th><th>Verdict</th><th>Severity</th><th>Where</th>'
                    f"<th>Change asked</th></tr></thead><tbody>{rows}</tbody></table>")
    review = _readable(report.get("review") or "", playbook).strip()
    if review:
        first, _, rest = review.partition("\n")
        html.append(f'<p class="prose">{_e(first)}</p>')
        if rest.strip():
            html.append(f'<details><summary>The reviewer\'s closing text in full</summary><div class="prose">{_e(review)}</div></details>')
    html.append("</section>")
    return "".join(html)


_VERDICT_WORDS = {"deviation": "deviation", "missing": "missing", "fallback": "fallback (acceptable)",
                  "standard": "standard", "favourable": "favourable", "not_applicable": "not applicable"}


def _readable(text: str, playbook: Playbook) -> str:
    """Model text with the playbook's clause ids ("liability_cap") named by their titles."""
    ids = sorted(playbook.clauses, key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    text = pattern.sub(lambda m: _clause_title(playbook, m.group(1)), text)
    return re.sub(r"\bnot_applicable\b", "not applicable", text)


def _report(report: dict[str, Any], index: int, playbook: Playbook) -> str:
    anchor = f"r{index}"
    usage = report.get("usage") or {}
    outcome = str(report.get("outcome") or "UNKNOWN")
    meta = (
        f'<span class="badge outcome-{_e(outcome)}">{_e(outcome)}</span> · run <code>{_e(report.get("run_id"))}</code>'
        f' · {_e(usage_line(usage))}</p><p class="meta parties">{_e(parties_line(report.get("parties") or {}))}'
    )
    banner = parties_banner(report)
    return (
        f'<article class="report" id="{anchor}"><h1>Contract review: {_e(report.get("contract"))}</h1>'
        f'<p class="meta">{meta}</p>'
        + (f'<p class="banner parties-{_e(report.get("parties_status"))}">{_e(banner)}</p>' if banner else "")
        + f"{_executive(report, anchor)}<h2>Findings</h2>{_findings(report, anchor, playbook)}{_memory(report)}"
        + _closing(report, playbook)
        + "</article>"
    )


def render_html(
    reports: dict[str, Any] | Iterable[dict[str, Any]],
    *,
    generated_at: datetime | None = None,
    playbook: Playbook | None = None,
) -> str:
    """One HTML document for one report or several (a table of contents links them).
    `playbook` names clause types and their standard positions (default: the bundled one)."""
    playbook = playbook or load_playbook()
    reports = [reports] if isinstance(reports, dict) else list(reports)
    when = (generated_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    if len(reports) == 1:
        title = f"Contract review: {reports[0].get('contract', '')}"
    else:
        title = f"Contract reviews ({len(reports)})"
    toc = ""
    if len(reports) > 1:
        links = "".join(
            f'<li><a href="#r{i}">{_e(r.get("contract"))}</a> · {_e(r.get("outcome"))}</li>' for i, r in enumerate(reports, 1)
        )
        toc = f"<nav><h1>{_e(title)}</h1><ol>{links}</ol></nav>"
    body = "".join(_report(r, i, playbook) for i, r in enumerate(reports, 1))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="contract-review"><title>{_e(title)}</title>'
        f"<style>{STYLE}</style></head><body><main>{toc}{body}"
        f"<footer>Generated by contract-review on {_e(when)}. Contract text is shown as written; "
        "highlighted passages are the quotes each finding rests on.</footer></main></body></html>\n"
    )
