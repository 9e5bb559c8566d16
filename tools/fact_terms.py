"""The playbook's words and positions as plain values for the semantic tier's claim reader.

Memory never imports the contract domain: the graph reads these from the playbook and passes
them to `memory.semantic.observe` (as a `memory.claims.Vocabulary`). `fact_topics` names each
clause type the ways a fact may name it; `fact_positions` gives each clause type with a
numeric metric its standard position, which no learned fact may contradict.
"""

from __future__ import annotations

import re
from typing import Any

from tools.playbook import Playbook

# the unit each numeric metric is written in (a claim in another unit is not compared)
METRIC_UNITS = {
    "cap_multiple": "x",
    "notice_days": "days",
    "renewal_notice_days": "days",
    "payment_days": "days",
    "price_increase_pct": "%",
    "warranty_months": "months",
    "survival_years": "years",
    "breach_notice_hours": "hours",
}


def fact_topics(playbook: Playbook) -> dict[str, list[str]]:
    """Clause type -> the names a fact may use for it: its id in words and its title, whole and
    in its parts ("Indemnification and uncapped liability" -> "indemnification", "uncapped
    liability"), without the bracketed remarks."""
    topics: dict[str, list[str]] = {}
    for clause_type, entry in playbook.clauses.items():
        title = re.sub(r"\([^)]*\)", " ", entry.title).lower()
        names = {clause_type.replace("_", " "), " ".join(title.split())}
        parts = (" ".join(part.split()) for part in re.split(r"\band\b|,|/", title))
        names.update(part for part in parts if len(part.split()) >= 2)  # "sole", "waivers" alone say too little
        topics[clause_type] = sorted(n for n in names if len(n) >= 4)
    return topics


def fact_positions(playbook: Playbook) -> dict[str, dict[str, Any]]:
    """Clause type -> {"unit", "standard_min", "standard_max"} for the numeric metrics."""
    positions: dict[str, dict[str, Any]] = {}
    for clause_type, entry in playbook.clauses.items():
        metric = entry.metric
        if metric is None or metric.name not in METRIC_UNITS:
            continue
        if metric.standard_min is None and metric.standard_max is None:
            continue
        positions[clause_type] = {"unit": METRIC_UNITS[metric.name], "standard_min": metric.standard_min,
                                  "standard_max": metric.standard_max}
    return positions
