"""How the reviewer's memory block shows past key findings: per clause type, where similar
contracts kept it.

The next review uses memory for one thing: where to look first. Past verdicts are left out on
purpose (a verdict comes from the current text, never from memory; facts carry what tends to
deviate), and so is every repeat. One line per clause type lists each remembered place once, with
the episodes that saw it there (best episode first, as retrieved):

    - liability_cap: 8.2 "Financial Ceiling" [1,2]; 7.4 [3]; 9.3 "Limitation of Liability" [4]
    - data_protection: 6.1 "Client Personal Data" [1]; missing (high) [2]

A clause type none of whose remembered places holds for the current contract (`tools.recall`) is
one line `- sole_remedy: not where remembered [1,2]`. A place without a heading has the heading of
the place before it on the line. Lines that are not
key findings in the docs/ARCHITECTURE.md format are shown as memory.block shows them. The
reader is `agent.offline.transcript.parse_memory_hints`.
"""

from __future__ import annotations

from memory.block import merged_findings
from tools.recall import ABSENT, KEY_FINDING, MOVED, MOVED_LINE, heading_key

__all__ = ["ABSENT", "KEY_FINDING", "clause_locations", "heading_key"]

def _refs(numbers: list[int]) -> str:
    return "[" + ",".join(str(n) for n in numbers) + "]"


def clause_locations(findings_by_episode: list[list[str]]) -> list[str]:
    """The block's key-finding lines for the episodes' key findings (best episode first)."""
    places: dict[str, dict[tuple[str, str], list[int]]] = {}  # type -> (section or verdict, title) -> episodes
    moved: dict[str, list[int]] = {}  # type -> episodes whose place does not hold here (tools.recall)
    other: list[list[str]] = []
    for number, findings in enumerate(findings_by_episode, start=1):
        unread = []
        for line in findings:
            match = KEY_FINDING.match(line)
            if match is None:
                if moved_line := MOVED_LINE.match(line):
                    episodes = moved.setdefault(moved_line["type"], [])
                    episodes.extend([number] if number not in episodes else [])
                else:
                    unread.append(line)
                continue
            if match["verdict"] in ABSENT or not match["section"]:
                where = (f"{match['verdict'] if match['verdict'] in ABSENT else 'missing'} ({match['severity']})", "")
            else:
                where = (match["section"], match["title"] or "")
            episodes = places.setdefault(match["type"], {}).setdefault(where, [])
            if number not in episodes:
                episodes.append(number)
        other.append(unread)
    lines = []
    for clause_type, by_place in places.items():
        entries, last_title = [], None
        for (where, title), numbers in by_place.items():
            absent = where.startswith(ABSENT)
            shown_title = "" if absent or title == last_title else f' "{title}"'
            entries.append(f"{where}{shown_title} {_refs(numbers)}")
            if not absent:
                last_title = title
        lines.append(f"- {clause_type}: {'; '.join(entries)}")
    # a clause type none of whose remembered places holds here: said once, never offered as a place
    lines += [f"- {clause_type}: {MOVED} {_refs(numbers)}" for clause_type, numbers in moved.items()
              if clause_type not in places]
    return lines + merged_findings(other)
