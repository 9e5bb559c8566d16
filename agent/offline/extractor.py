"""The offline run-artifacts extraction: a `memory.records.RunArtifacts` dict built from a run digest.

Everything comes from what the run did, never from the memory block: from the digest the memory
steps send (`agent.offline.digest`, read from the graph state), or from a whole run's messages
when it is handed one. One key finding per clause type in the ARCHITECTURE format, the outcome by
coverage, and general facts and a procedure worded the same way on every run, so the
confirmation gate can count independent runs that observed them. It knows contract reviews only:
`OfflineReviewerModel.extracts_only`, which the memory steps check before they ask it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from agent.offline.digest import Digest, digest_of, is_digest, read_digest
from agent.offline.progress import finding_line
from agent.offline.transcript import read_transcript, text_of

PROCEDURE_TITLE = "Supplier contract review"
# the keyed token of the counterparty the task summary carries (memory.graph.steps.task_of): location
# facts name it, never a party's name
_COUNTERPARTY_RE = re.compile(r"\bcounterparty (CP[0-9A-Z]+)\b")
_SEVERITY_CONFIDENCE = {"high": 0.85, "medium": 0.8, "low": 0.75}
_FACTS_PER_KIND = 4


def _facts(findings: list[dict[str, Any]], task: str, domain: str | None) -> list[dict[str, Any]]:
    """Up to four "often deviate" facts (most severe first) and, when the task names the
    counterparty's token, four clause-location facts for it; with no `domain`, the facts name
    none (the run stores them under its own)."""
    deviations = sorted((f for f in findings if f.get("verdict") == "deviation" and f.get("severity") in _SEVERITY_CONFIDENCE),
                        key=lambda f: -_SEVERITY_CONFIDENCE[f["severity"]])
    facts = [{"text": f"Supplier contracts often deviate from the playbook on "
                      f"{f['clause_type'].replace('_', ' ')} ({f['severity']} severity).",
              **({"domain": domain} if domain else {}), "confidence": _SEVERITY_CONFIDENCE[f["severity"]]}
             for f in deviations[:_FACTS_PER_KIND]]
    party = _COUNTERPARTY_RE.search(task)
    located = [f for f in findings if f.get("section")] if party else []
    facts.extend({"text": f"Contracts of counterparty {party[1]} place the {f['clause_type'].replace('_', ' ')} "
                          f"clause in section {str(f['section']).split('.')[0]}.",
                  **({"domain": domain} if domain else {}), "confidence": 0.7}
                 for f in located[:_FACTS_PER_KIND])
    return facts


def _approach(digest: Digest) -> tuple[str, list[str], list[str]]:
    """(approach text, reusable patterns, procedure steps) from how the run actually went."""
    warm = [name for name, _, _ in digest.remembered]
    confirmed = [name for name, _, held in digest.remembered if held]
    parts = []
    if warm:
        parts.append(f"checked {len(warm)} remembered clause locations first ({len(confirmed)} confirmed)")
    if digest.explored:
        parts.append(f"located {digest.explored} clause types with find_clauses and search_contract")
    parts.append("assessed each against the playbook, one finding per clause type")
    patterns = []
    if confirmed:
        patterns.append("Remembered clause locations from similar contracts were right for "
                        f"{len(confirmed)} of {len(warm)} clause types: assess them directly before exploring.")
    if digest.explored:
        patterns.append("Use find_clauses and search_contract together; assess the section both rank highest.")
    if any(f.get("verdict") == "missing" for f in digest.findings):
        patterns.append("Record an absent clause as missing instead of searching further.")
    # short steps: the memory block shows them to every later run that is served the procedure
    steps = [
        "List the contract's sections once.",
        "Assess each clause type's remembered section first.",
        "Else find it with find_clauses and search_contract; read the best-ranked section.",
        "Assess with assess_clause(record=true); assess a section it names instead.",
        "Record an absent clause type as missing.",
        "Summarise the findings by severity.",
    ]
    approach = "; ".join(parts)
    return approach[0].upper() + approach[1:] + ".", patterns, steps


def extract_artifacts(messages: Sequence[BaseMessage], *, domain: str = "supplier_contracts") -> dict[str, Any]:
    """A dict that validates as `memory.records.RunArtifacts`, describing the run in `messages`:
    a run digest (agent.offline.digest) when the messages hold one, else the whole run.

    The outcome is claimed by coverage (every clause type the digest counts has a finding:
    COMPLETED; some: PARTIAL; none: FAILED); it names no reason to lower the run's own, so the
    memory steps record what the run observed. A digest's facts name no domain (the extraction
    request asks for none: the run stores them under its own).
    """
    given = next((text_of(m) for m in messages if isinstance(m, HumanMessage) and is_digest(text_of(m))), None)
    digest = read_digest(given) if given is not None else digest_of(messages)
    findings = digest.findings
    if findings and len(findings) == digest.total:
        outcome = "COMPLETED"
    elif findings:
        outcome = "PARTIAL"
    else:
        outcome = "FAILED"
    approach, patterns, steps = _approach(digest)
    acted = bool(digest.tools or findings or digest.remembered or digest.explored)
    if given is None:
        acted = bool(read_transcript(messages).calls)
    return {
        "task_summary": " ".join(digest.task.split()),
        "outcome": outcome,
        "key_findings": [finding_line(f) for f in findings],
        "approach": approach if acted else "No tool was called.",
        "tools_used": list(digest.tools),
        "step_count": digest.steps,
        "reusable_patterns": patterns,
        "fact_candidates": _facts(findings, digest.task, domain if given is None else None) if findings else [],
        "procedure": {"title": PROCEDURE_TITLE, "steps": steps} if findings else None,
    }
