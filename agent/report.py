"""The review report: built from a finished run's state, rendered as JSON or Markdown
(HTML: agent/report_html.py).

Report fields: `contract`, `run_id`, `outcome` (what the run did: COMPLETED only when every
clause type has a finding), `incomplete` (null, or why the review stopped short and which clause
types have no finding), `parties` (the buyer we review for and the supplier, with how they were
identified), `parties_status` ("identified", "assumed" or "unknown": how sure the review is of
who the buyer is) with its one-line `parties_note`, `summary` (the
executive summary: every ask, ranked by severity then verdict, one line each with its section),
`findings` (the finding dicts of docs/ARCHITECTURE.md: each with its citation, whom it binds and
protects, rationale, `also` (the other provisions of its clause type), the requested change
drafted for this contract (`recommendation`, `redline`, `headline`: tools/detection/redline.py),
and `memory`: what the retrieved episodes
remembered of its clause type, whether that pointed to the finding's place and whether the
current text confirmed it, see agent/provenance.py), `usage` (the model's tool calls, the calls
the graph made itself from memory before the model's first turn (`graph_calls`), language-model calls,
stand-in calls, tokens: input tokens include cached input; cache reads and writes also on their
own), `memory` (`episodes`, `facts`, `procedure`, `writes`: what was retrieved for the run and
what it stored, and `extraction`: how the run was distilled for memory, with any failure),
`review` (the reviewer's closing text), `review_loop` (model steps and the step budget, prose
turns nudged, tool errors answered, unreadable tool calls, compressions, summaries rejected and
compression failures, repeated batches answered, calls normalised, and `warnings`: what went
wrong without ending the run, such as a compression model failing mid-run) and `sections`:
`{section id: {"title", "start", "end", "text"}}` for every section a finding quotes, so a
reader can see each quote inside its clause (`text[start - section.start:...]`).
"""

from __future__ import annotations

import re
from typing import Any

from agent import provenance
from memory.records import Outcome
from tools.contract import Contract
from tools.detection import advice
from tools.detection.redline import ContractTerms
from tools.playbook import Playbook, load_playbook

SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2, "none": 3}
VERDICT_ORDER = {"deviation": 0, "missing": 1, "fallback": 2, "standard": 3, "favourable": 4, "not_applicable": 5}
# `also`: the other provisions of the clause type, under the finding (tools.detection.review.with_also)
FINDING_FIELDS = ("clause_type", "section", "citation", "quote", "start", "end", "verdict", "severity",
                  "binds", "protects", "rationale", "recommendation", "also")
# Verdicts that need no change (a `missing` clause whose absence is the standard needs none either).
SETTLED = ("standard", "favourable", "not_applicable")
SUMMARY_SHOWN = 10  # asks listed in the executive summary of text, Markdown and HTML (JSON: all)
USAGE_FIELDS = ("tool_calls", "graph_calls", "model_calls", "stand_in_calls", "input_tokens", "output_tokens",
                "cache_read_tokens", "cache_write_tokens")


def final_findings(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One finding per clause type (the last one recorded wins), in playbook order."""
    order = {c: i for i, c in enumerate(load_playbook().clause_types)}
    latest: dict[str, dict[str, Any]] = {}
    for finding in findings:
        latest[finding["clause_type"]] = {k: finding.get(k) for k in FINDING_FIELDS}
        latest[finding["clause_type"]]["also"] = list(finding.get("also") or [])
    return sorted(latest.values(), key=lambda f: order.get(f["clause_type"], len(order)))


def coverage_outcome(findings: list[dict[str, Any]]) -> Outcome:
    covered = {f["clause_type"] for f in findings}
    wanted = set(load_playbook().clause_types)
    if wanted <= covered:
        return Outcome.COMPLETED
    return Outcome.PARTIAL if covered else Outcome.FAILED


def run_outcome(state: dict[str, Any], findings: list[dict[str, Any]]) -> str:
    """The consolidated outcome (the worse of the model's claim and what the run did), else what
    the review loop observed, else coverage of the clause types."""
    outcome = (state.get("artifacts") or {}).get("outcome")
    if outcome and outcome != Outcome.UNKNOWN:
        return str(outcome)
    return str(state.get("outcome_hint") or coverage_outcome(findings))


def _playbook(state: dict[str, Any]) -> Playbook:
    raw = state.get("playbook")
    if raw:
        return raw if isinstance(raw, Playbook) else Playbook.model_validate(raw)
    return load_playbook()


def build_report(state: dict[str, Any]) -> dict[str, Any]:
    raw_contract = state.get("contract") or {}
    contract = Contract.model_validate(raw_contract) if raw_contract.get("text") else None
    playbook = _playbook(state)
    findings = provenance.annotate(final_findings(state.get("findings") or []),
                                   [e["item"] for e in state.get("episodes") or []], contract, playbook,
                                   state.get("examined"))
    drafted(findings, playbook, ContractTerms.of(raw_contract.get("parties"), raw_contract.get("text") or ""))
    outcome = run_outcome(state, findings)
    usage = {k: int((state.get("usage") or {}).get(k, 0)) for k in USAGE_FIELDS}
    covered = {f["clause_type"] for f in findings}
    open_types = state.get("open_clause_types")
    if open_types is None:
        open_types = [t for t in load_playbook().clause_types if t not in covered]
    incomplete = None
    settled = (state.get("extraction") or {}).get("outcome") or {}  # memory.graph.outcome: how it was decided
    if outcome != Outcome.COMPLETED:
        lowered = settled.get("note") if settled.get("lowered_because") else ""
        incomplete = {"reason": state.get("stop_reason") or lowered or "not every clause type has a finding",
                      "open_clause_types": list(open_types)}
    procedure = state.get("procedure")
    memory = {
        "episodes": [_episode(e) for e in state.get("episodes") or []],
        "facts": [_fact(f) for f in state.get("facts") or []],
        "procedure": _procedure(procedure) if procedure else None,
        "writes": state.get("memory_writes") or {},
        "extraction": state.get("extraction"),
    }
    return {
        "contract": (state.get("contract") or {}).get("name", ""),
        "run_id": state.get("run_id", ""),
        "outcome": outcome,
        # how sure the review is of who the buyer is: identified | assumed | unknown (issue 30)
        **parties_status((state.get("contract") or {}).get("parties") or {}),
        "incomplete": incomplete,
        "parties": (state.get("contract") or {}).get("parties") or {},
        "summary": executive_summary(findings),
        "review_loop": {"model_steps": int(state.get("steps") or 0), **(state.get("loop") or {}),
                        "compressions": int(state.get("compressions") or 0),
                        "warnings": list(state.get("warnings") or [])},
        "findings": findings,
        "usage": usage,
        "memory": memory,
        "review": state.get("final_review", ""),
        "sections": quoted_sections(state.get("contract") or {}, findings),
    }


def asks_change(finding: dict[str, Any]) -> bool:
    """Whether the finding asks the supplier for a change (a missing clause whose absence is the
    playbook's standard, severity none, asks for nothing)."""
    verdict = finding.get("verdict")
    if verdict == "missing":
        return (finding.get("severity") or "none") != "none"
    return verdict in ("deviation", "fallback")


def risk_key(finding: dict[str, Any]) -> tuple[int, int]:
    """The buyer's risk, highest first: severity, then verdict (deviation, missing, fallback)."""
    return SEVERITY_ORDER.get(finding.get("severity") or "none", 9), VERDICT_ORDER.get(finding.get("verdict") or "", 9)


def drafted(findings: list[dict[str, Any]], playbook: Playbook, terms: ContractTerms) -> None:
    """Each finding's requested change drafted for this contract (tools/detection/redline.py):
    `recommendation` (the change as a sentence: the provision, its figure, the wording to paste,
    or why no change), `redline` (the same, structured) and `headline` (its one line)."""
    for finding in findings:
        entry = playbook.clauses.get(finding.get("clause_type") or "")
        if entry is None:
            continue
        finding["recommendation"], finding["redline"], finding["headline"] = advice.requested_change(finding, entry, terms)


def executive_summary(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The buyer's asks ranked by risk (severity, then verdict), each one line with its section."""
    ranked = sorted((f for f in findings if asks_change(f)), key=risk_key)
    return [{"rank": i, "clause_type": f["clause_type"], "severity": f.get("severity"), "verdict": f["verdict"],
             "section": f.get("section"), "citation": f.get("citation") or "not in the contract",
             "ask": f.get("headline") or f.get("recommendation") or ""}
            for i, f in enumerate(ranked, 1)]


def summary_lines(report: dict[str, Any], limit: int = SUMMARY_SHOWN) -> list[str]:
    """The executive summary as plain lines: one per ask, most risky first, then what needs none."""
    asks = report.get("summary")
    if asks is None:
        asks = executive_summary(report.get("findings") or [])
    lines = [f"{a['rank']}. [{a.get('severity') or 'none'}] {a['ask']}" for a in asks[:limit]]
    if len(asks) > limit:
        lines.append(f"... and {len(asks) - limit} more asks in the findings below.")
    settled = len(report.get("findings") or []) - len(asks)
    if not asks:
        lines.append("No change to ask for: every clause type meets the playbook or needs no clause.")
    elif settled:
        lines.append(f"No change needed on the other {settled} clause types.")
    return lines


def parties_banner(report: dict[str, Any]) -> str:
    """One line when the parties were assumed or not identified (what every format shows first)."""
    known = parties_status(report.get("parties") or {})
    status = report.get("parties_status") or known["parties_status"]
    if status == "identified":
        return ""
    note = report.get("parties_note") or known["parties_note"]
    return f"PARTIES {status.upper()}: {note}" if note else f"PARTIES {status.upper()}"


def also_lines(finding: dict[str, Any]) -> list[str]:
    """'also: 11.2 (standard): mutual cap at 12 months' fees' for each other provision of the type."""
    out = []
    for other in finding.get("also") or []:
        where = other.get("citation") or other.get("section") or "elsewhere"
        verdict = f" ({other['verdict']})" if other.get("verdict") else ""
        reading = f": {other['reading']}" if other.get("reading") else ""
        out.append(f"also {where}{verdict}{reading}")
    return out


def _episode(scored: dict[str, Any]) -> dict[str, Any]:
    item = scored["item"]
    return {
        "run_id": item["run_id"],
        "score": round(scored["score"], 3),
        "outcome": str(item.get("outcome", "")),
        "task_summary": item.get("task_summary", ""),
        "key_findings": list(item.get("key_findings") or []),
        "created_at": str(item.get("created_at", "")),
    }


def _fact(scored: dict[str, Any]) -> dict[str, Any]:
    item = scored["item"]
    return {
        "fact_id": item["fact_id"],
        "text": item["text"],
        "score": round(scored["score"], 3),
        "domain": item.get("domain", ""),
        "confidence": item.get("confidence"),
    }


def _procedure(procedure: dict[str, Any]) -> dict[str, Any]:
    return {
        "procedure_id": procedure["procedure_id"],
        "title": procedure["title"],
        "status": str(procedure.get("status", "")),
        "steps": list(procedure.get("steps") or []),
        "applications": int(procedure.get("applications") or 0),
        "successes": int(procedure.get("successes") or 0),
    }


def quoted_sections(contract: dict[str, Any], findings: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The text of each section that a finding quotes, keyed by the finding's section id."""
    text = contract.get("text") or ""
    by_id = {s["id"]: s for s in contract.get("sections") or []}
    sections: dict[str, dict[str, Any]] = {}
    for finding in findings:
        section_id = finding.get("section")
        section = by_id.get(section_id) if section_id else None
        if section is None or section_id in sections:
            continue
        start, end = int(section["start"]), int(section["end"])
        sections[section_id] = {"title": section.get("title", ""), "start": start, "end": end, "text": text[start:end]}
    return sections


def _cell_line(line: str) -> str:
    """A summary line safe in Markdown (contract text may hold `*`, `_`, `|` or brackets)."""
    return re.sub(r"([*_`|\\<\[\]])", r"\\\1", line)


def _cell(text: Any) -> str:
    return str(text if text is not None else "-").replace("|", "\\|").replace("\n", " ")


def memory_used_line(report: dict[str, Any]) -> str:
    """'Memory used: episodes 6b1f0c2d (0.91), ...; 2 facts; procedure "..."', or '... none'."""
    memory = report["memory"]
    used = []
    if memory["episodes"]:
        used.append("episodes " + ", ".join(f"{e['run_id'][:8]} ({e['score']})" for e in memory["episodes"]))
    if memory["facts"]:
        used.append(f"{len(memory['facts'])} facts")
    if memory["procedure"]:
        used.append(f"procedure \"{memory['procedure']['title']}\"")
    return f"Memory used: {'; '.join(used) if used else 'none'}"


def usage_line(usage: dict[str, Any]) -> str:
    """What was really called: language-model calls and stand-in calls are never mixed up."""
    parts = [f"{usage.get('tool_calls', 0)} tool calls"]
    if usage.get("graph_calls"):  # memory's confirmed places, assessed by the graph before the first turn
        parts[0] += f" (and {usage['graph_calls']} made by the graph from memory)"
    model, stand_in = int(usage.get("model_calls", 0)), int(usage.get("stand_in_calls", 0))
    if model or not stand_in:
        parts.append(f"{model} language-model calls")
    if stand_in:
        parts.append(f"{stand_in} calls to the offline stand-in (no language model)")
    cached = ""
    if usage.get("cache_read_tokens") or usage.get("cache_write_tokens"):
        cached = f" (cache: {usage.get('cache_read_tokens', 0):,} read, {usage.get('cache_write_tokens', 0):,} written)"
    tokens = f"{usage.get('input_tokens', 0):,} input{cached} / {usage.get('output_tokens', 0):,} output tokens"
    if stand_in and not model:
        tokens += " (estimated as a model would count them)"
    return ", ".join(parts) + ", " + tokens


def parties_status(parties: dict[str, Any]) -> dict[str, str]:
    """`parties_status` and `parties_note` of a run's settled parties (tools.detection.parties)."""
    status = parties.get("status") or ("identified" if parties.get("buyer") and parties.get("supplier") else "unknown")
    return {"parties_status": status, "parties_note": parties.get("note") or parties.get("how") or ""}


def parties_line(parties: dict[str, Any]) -> str:
    """'Reviewed for the buyer, X ("Customer"); supplier: Y ("Vendor") (from ...)', or what is known
    when they were not identified (`parties_banner` says so first and asks for --we)."""
    if not parties or not (parties.get("buyer") or parties.get("supplier")):
        how = (parties or {}).get("how") or "no parties found in the preamble or signature blocks"
        return f"Parties: not identified ({how}); clauses are read by their role words (buyer, customer, supplier ...)"
    buyer = (parties.get("buyer") or {}).get("label") or "not identified"
    supplier = (parties.get("supplier") or {}).get("label") or "not identified"
    return f"Reviewed for the buyer, {buyer}; supplier: {supplier} (from {parties.get('how')})"


def who(finding: dict[str, Any], parties: dict[str, Any]) -> str:
    """'binds the supplier (Vendor Inc.); protects the buyer (Customer)', or ''."""
    def name(role: str | None) -> str:
        if role == "both":
            return "both parties"
        party = (parties or {}).get(role or "") or {}
        return f"the {role} ({party['label']})" if party.get("label") else f"the {role}"

    if not (finding.get("binds") or finding.get("protects")):
        return ""
    return f"binds {name(finding.get('binds')) if finding.get('binds') else 'unclear'}; " \
           f"protects {name(finding.get('protects')) if finding.get('protects') else 'unclear'}"


def render_markdown(report: dict[str, Any]) -> str:
    usage = report["usage"]
    parties = report.get("parties") or {}
    lines = [
        f"# Contract review: {report['contract']}",
        "",
        f"Run `{report['run_id']}` · outcome **{report['outcome']}** · {usage_line(usage)}",
        "",
    ]
    banner = parties_banner(report)
    if banner:
        lines += [f"**{banner}**", ""]
    lines += [parties_line(parties), ""]
    incomplete = report.get("incomplete")
    if incomplete:
        missing = ", ".join(incomplete.get("open_clause_types") or []) or "none"
        lines += [f"**Review incomplete:** {incomplete.get('reason')}; no finding for: {missing}.", ""]
    lines += ["## Executive summary: what to ask for", "", *[_cell_line(line) for line in summary_lines(report)], ""]
    findings = sorted(report["findings"], key=lambda f: (VERDICT_ORDER.get(f["verdict"], 9), SEVERITY_ORDER.get(f["severity"] or "none", 9)))
    lines += ["## Findings", "", "| verdict | severity | clause | where |", "|---|---|---|---|"]
    for f in findings:
        where = f.get("citation") or ("not in the contract" if f["verdict"] == "missing" else "-")
        lines.append(f"| {f['verdict']} | {_cell(f['severity'])} | {f['clause_type']} | {_cell(where)} |")
    lines += ["", "## What to ask for", ""]
    for f in sorted((f for f in findings if asks_change(f)), key=risk_key):
        lines.append(f"**{f['clause_type']}** ({f['verdict']}, {f['severity']}): {f.get('recommendation') or ''}")
        detail = []
        if f.get("quote"):
            quote = " ".join(f["quote"].split())
            detail.append(f"> {quote[:300]}{'…' if len(quote) > 300 else ''}")
        stance = who(f, parties)
        if stance:
            detail.append(f"- The clause {stance}.")
        if f.get("rationale"):
            detail.append(f"- Why: {f['rationale']}")
        detail += [f"- {line}" for line in also_lines(f)]
        if provenance.memory_note(f):
            detail.append(f"- {provenance.memory_note(f)}")
        lines += ["", *detail, ""]
    settled = [f for f in findings if not asks_change(f)]
    if settled:
        lines += ["## No change needed", ""]
        for f in settled:
            lines.append(f"- **{f['clause_type']}** ({f['verdict']}): {f.get('recommendation') or f.get('rationale') or ''}")
            lines += [f"  - {line}" for line in also_lines(f)]
    lines += ["", memory_used_line(report)]
    extraction = report["memory"].get("extraction") or {}
    if extraction.get("status") == "failed":
        lines += [f"Memory write: the extraction model's answer could not be read "
                  f"({'; '.join(extraction.get('errors') or [])}); the episode was recorded from the run itself, "
                  "without facts or a procedure."]
    if (extraction.get("outcome") or {}).get("note"):  # a lowered outcome, or a model's claim refused
        lines += [f"Outcome: {extraction['outcome']['note']}."]
    if report.get("review"):
        lines += ["", report["review"]]
    return "\n".join(lines) + "\n"
