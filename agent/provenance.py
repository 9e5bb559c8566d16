"""Per finding, what memory had to do with it: where the retrieved episodes kept the clause type,
whether that pointed to the place the finding cites, and whether the current text confirms it.

Verdicts come from the current text, never from memory; this says how far memory steered the
look. `memory` on each report finding:

    {"remembered": ["13.1 \"Restrictive Covenants\""], "pointed": true, "confirmed": false}

- `remembered`: the places the retrieved episodes recorded for the clause type (a section with its
  heading, or `missing` / `not_applicable`), best episode first; empty when memory held none.
- `pointed`: memory named the finding's place (the same section id, or the same heading under a
  new number; for an absent clause, a remembered absence).
- `confirmed` (only when memory pointed, else null): the current contract bears the place out,
  checked afresh: the clause is found there with the recorded verdict and no other place sets it
  worse for the buyer (for an absence: the detector finds no candidate anywhere). `false` means
  memory pointed here but the text says otherwise, a finding to check by hand.
"""

from __future__ import annotations

from typing import Any

from agent.memory_view import ABSENT, KEY_FINDING, heading_key
from tools.contract import Contract
from tools.detection.clauses import find_candidates
from tools.detection.review import assess, stronger_elsewhere
from tools.playbook import Playbook


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


def _confirmed(finding: dict[str, Any], contract: Contract, playbook: Playbook) -> bool:
    entry = playbook.entry(finding["clause_type"])
    if finding.get("verdict") in ABSENT or not finding.get("section"):
        return not find_candidates(contract, entry.id, limit=1)
    section = contract.section(str(finding["section"]))
    assessed = assess(contract, entry, section) if section else None
    if assessed is None or assessed["verdict"] != finding.get("verdict"):
        return False
    return stronger_elsewhere(contract, entry, assessed) is None


def annotate(findings: list[dict[str, Any]], episodes: list[dict[str, Any]], contract: Contract | None,
             playbook: Playbook) -> list[dict[str, Any]]:
    """The findings, each with its `memory` provenance (see the module docstring)."""
    places = remembered_places(episodes)
    out = []
    for finding in findings:
        kept = places.get(finding["clause_type"], [])
        pointed = bool(kept) and contract is not None and _pointed(finding, kept, contract)
        confirmed = None
        if pointed and contract is not None and finding["clause_type"] in playbook.clauses:
            confirmed = _confirmed(finding, contract, playbook)
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
