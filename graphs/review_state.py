"""What the graph knows about a review outside its messages, written for the reviewer model.

Compression replaces old messages with a summary a model wrote; the graph's own state (the
findings recorded, the clause types still open, the sections assessed) does not depend on that
summary. These texts re-state it: the digest that stands in for a summary that was rejected or
could not be written, the short restatement after an accepted one, and the next call to make
when a turn brought no tool call. Plain sentences, so any model can read them: a recorded
finding is `Recorded finding: <type> in section <id>: <verdict> (<severity>)`, what is open is
`No finding yet for: a, b`.
"""

from __future__ import annotations

from typing import Any

from memory.working import RunState


def latest_findings(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Clause type -> the finding recorded last for it."""
    latest: dict[str, dict[str, Any]] = {}
    for finding in state.get("findings") or []:
        latest[finding.get("clause_type")] = finding
    return latest


def finding_sentence(finding: dict[str, Any]) -> str:
    where = f" in section {finding['section']}" if finding.get("section") else ""
    return f"Recorded finding: {finding.get('clause_type')}{where}: {finding.get('verdict')} ({finding.get('severity')})"


def examined(state: dict[str, Any], clause_type: str, tool: str) -> list[dict[str, Any]]:
    return [e for e in state.get("examined") or [] if isinstance(e, dict)
            and e.get("clause_type") == clause_type and e.get("tool") == tool]


def assessed_for(state: dict[str, Any], clause_type: str) -> list[str]:
    return list(dict.fromkeys(e["section"] for e in examined(state, clause_type, "assess_clause") if e.get("section")))


def next_call(state: dict[str, Any], clause_type: str) -> str:
    """The call that moves `clause_type` on: find it, assess a candidate, or record what was assessed."""
    found = [e for e in examined(state, clause_type, "assess_clause") if e.get("found")]
    pending = [s for e in found for _, s in e.get("points_to") or [] if s not in assessed_for(state, clause_type)]
    if pending:
        return f'assess_clause(clause_type="{clause_type}", section="{pending[0]}")'
    if found:
        last = found[-1]
        return (f'record_finding(clause_type="{clause_type}", verdict="{last.get("verdict")}", '
                f'severity="{last.get("severity")}", section="{last.get("section")}")')
    finds = examined(state, clause_type, "find_clauses")
    untried = [s for s in (finds[-1].get("candidates") or []) if s not in assessed_for(state, clause_type)] if finds else []
    if untried:
        return f'assess_clause(clause_type="{clause_type}", section="{untried[0]}")'
    if finds:
        missing = finds[-1].get("if_missing") or {}
        return (f'record_finding(clause_type="{clause_type}", verdict="{missing.get("verdict") or "missing"}", '
                f'severity="{missing.get("severity") or "medium"}")')
    return f'find_clauses(clause_type="{clause_type}"), then assess_clause on the section it names'


def open_sentence(open_types: list[str]) -> str:
    return f"No finding yet for: {', '.join(open_types) if open_types else 'none (every clause type has one)'}."


def _evidence(state: dict[str, Any], clause_type: str) -> list[str]:
    """What the tools showed about an open clause type, one plain sentence each."""
    lines = []
    finds = examined(state, clause_type, "find_clauses")
    if finds:
        candidates = finds[-1].get("candidates") or []
        lines.append(f"Candidates for {clause_type}: " + (f"sections {', '.join(candidates)}" if candidates else "none"))
    for entry in examined(state, clause_type, "assess_clause"):
        where = f"Assessed {clause_type} in section {entry.get('section')}"
        lines.append(f"{where}: {entry.get('verdict')} ({entry.get('severity')})" if entry.get("found") else
                     f"{where}: not found")
        lines += [f"For {clause_type} in section {entry.get('section')}, assess_clause named section {target} "
                  f"({kind}): assess it before recording." for kind, target in entry.get("points_to") or []]
    return list(dict.fromkeys(lines))


def run_state(state: dict[str, Any], clause_types: list[str], open_types: list[str]) -> RunState:
    """The run as the graph holds it, for `memory.working.compress`."""
    latest = latest_findings(state)
    recorded = [t for t in clause_types if t in latest] + [t for t in latest if t not in clause_types]
    lines = ["Run state kept by the review graph (it stands for the steps summarised here):"]
    if "list_sections" in (state.get("tools_called") or []):
        ids = [s.get("id") for s in (state.get("contract") or {}).get("sections") or []]
        lines.append(f"Listed sections: {', '.join(i for i in ids if i)}")
    read = list(dict.fromkeys(e.get("section") for e in state.get("examined") or []
                              if isinstance(e, dict) and e.get("tool") == "read_section" and e.get("section")))
    if read:
        lines.append(f"Read sections: {', '.join(read)}")
    lines += [finding_sentence(latest[t]) for t in recorded]
    lines += [line for t in open_types for line in _evidence(state, t)]
    lines.append(open_sentence(open_types))
    if open_types:
        lines.append(f"Next: {next_call(state, open_types[0])}; record exactly one finding per clause type.")
    restated = (f"Run state kept by the review graph: {len(recorded)} of {len(clause_types)} clause types have a "
                f"recorded finding. {open_sentence(open_types)}")
    return RunState(digest="\n".join(lines), restated=restated, must_mention=tuple(recorded))
