"""Per finding, what memory had to do with it: where the retrieved episodes kept the clause type,
whether that pointed to the place the finding cites, and whether the current text confirms it.

Verdicts come from the current text, never from memory; this says how far memory steered the
look. `memory` on each report finding:

    {"remembered": ["13.1 \"Restrictive Covenants\""], "pointed": true, "confirmed": false}

- `remembered`: the places the retrieved episodes recorded for the clause type (a section with its
  heading, or `missing` / `not_applicable`), best episode first; empty when memory held none.
- `pointed`: memory named the finding's place (the same section id, or the same heading under a
  new number; for an absent clause, a remembered absence).
- `confirmed` (only when memory pointed, else null): this run looked at the place and the current
  contract bears it out. Nothing is confirmed that this run did not assess itself (`examined`:
  an `assess_clause` of that section that found the clause, or for an absence a `find_clauses` or
  `assess_clause` of the type), and the place must hold as `tools.recall` checks what memory
  serves, and more: the clause read there with the recorded verdict, nothing the whole-contract
  check names instead (`settled`), not a bare reference to a schedule (for an absence: the
  whole-contract reading is that absence). `false` means memory pointed here but the run did not
  assess it or the text says otherwise, a finding to check by hand.

`remembered` lists what memory served for this contract: the places `agent.memory_agent`'s
`recalled` check kept (a place the current contract does not bear out is never served).
"""

from __future__ import annotations

from typing import Any

from agent.memory_view import ABSENT, KEY_FINDING, heading_key
from tools.contract import Contract
from tools.detection.review import assess
from tools.playbook import Playbook
from tools.recall import LocationCheck


def remembered_places(episodes: list[dict[str, Any]]) -> dict[str, list[tuple[str, str]]]:
    """Clause type -> distinct (section or absent verdict, heading) the episodes recorded, best first."""
    places: dict[str, list[tuple[str, str]]] = {}
    for episode in episodes:
        for line in episode.get("key_findings") or []:
            match = KEY_FINDING.match(line)
            if match is None:
                continue
            absent = match["verdict"] in ABSENT or not match["section"]
            where = (match["verdict"] if match["verdict"] in ABSENT else "missing", "") if absent else (
                match["section"], match["title"] or "")
            if where not in places.setdefault(match["type"], []):
                places[match["type"]].append(where)
    return places


def _pointed(finding: dict[str, Any], places: list[tuple[str, str]], contract: Contract) -> bool:
    if finding.get("verdict") in ABSENT or not finding.get("section"):
        return any(where in ABSENT for where, _ in places)
    section = contract.section(str(finding["section"]))
    here = heading_key(section.title) if section else ""
    return any(where == finding["section"] or (here and heading_key(title) == here) for where, title in places)


def run_looked(examined: list[dict[str, Any]] | None) -> tuple[set[tuple[str, str]], set[str]]:
    """What this run looked at itself (the graph's `examined`): (clause type, section) pairs an
    assessment found the clause in, and the clause types it searched or assessed at all."""
    found: set[tuple[str, str]] = set()
    types: set[str] = set()
    for entry in examined or []:
        if not isinstance(entry, dict) or entry.get("tool") not in ("assess_clause", "find_clauses"):
            continue
        types.add(str(entry.get("clause_type")))
        if entry.get("tool") == "assess_clause" and entry.get("found"):
            found |= {(str(entry.get("clause_type")), str(entry[k])) for k in ("section", "asked") if entry.get(k)}
    return found, types


def _confirmed(finding: dict[str, Any], contract: Contract, check: LocationCheck,
               looked: tuple[set[tuple[str, str]], set[str]]) -> bool:
    found, types = looked
    clause_type = finding["clause_type"]
    if finding.get("verdict") in ABSENT or not finding.get("section"):
        return clause_type in types and check.absent(clause_type, str(finding.get("verdict")))
    section = contract.section(str(finding["section"]))
    if section is None or (clause_type, section.id) not in found or not check.settled(clause_type, section.id):
        return False
    assessed = assess(contract, check.playbook.entry(clause_type), section)
    return assessed is not None and assessed["verdict"] == finding.get("verdict")


def annotate(findings: list[dict[str, Any]], episodes: list[dict[str, Any]], contract: Contract | None,
             playbook: Playbook, examined: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The findings, each with its `memory` provenance (see the module docstring); `examined` is
    the run's own record of what it looked at (without it nothing is confirmed)."""
    places = remembered_places(episodes)
    check = LocationCheck(contract, playbook) if contract is not None else None
    looked = run_looked(examined)
    out = []
    for finding in findings:
        kept = places.get(finding["clause_type"], [])
        pointed = bool(kept) and contract is not None and _pointed(finding, kept, contract)
        confirmed = None
        if pointed and check is not None and contract is not None and finding["clause_type"] in playbook.clauses:
            confirmed = _confirmed(finding, contract, check, looked)
        remembered = [f'{where} "{title}"' if title else where for where, title in kept]
        out.append({**finding, "memory": {"remembered": remembered, "pointed": pointed, "confirmed": confirmed}})
    return out


def memory_note(finding: dict[str, Any]) -> str:
    """One sentence on the finding's memory provenance, for the HTML and Markdown reports ("" when
    memory held nothing on its clause type)."""
    memory = finding.get("memory") or {}
    remembered = memory.get("remembered") or []
    if not remembered:
        return ""
    kept = "; ".join(remembered)
    if not memory.get("pointed"):
        return f"Memory pointed elsewhere ({kept}); this finding comes from the current text alone."
    if memory.get("confirmed"):
        return f"Memory pointed here ({kept}); confirmed against the current text."
    return f"Memory pointed here ({kept}), but the current text does not confirm it: check this finding by hand."
