"""The offline run-artifacts extraction: a `memory.records.RunArtifacts` dict built from a run's messages.

Everything comes from what the run did (tool calls and results, summaries included), never from
the memory block: task summary from the task message, one key finding per clause type in the
ARCHITECTURE format, outcome by coverage, and general facts and a procedure worded the same way
on every run, so the confirmation gate can count independent runs that observed them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from agent.offline.digest import Digest, digest_of, is_digest, read_digest
from agent.offline.progress import finding_line
from agent.offline.transcript import read_transcript, text_of
from memory.pii.base import truncate

PROCEDURE_TITLE = "Supplier contract review"
_NAME_RE = re.compile(r"[\"“']([^\"”'\n]{1,200})[\"”']")
_OPENING_RE = re.compile(r"\b(?:Contract opening|Opening):\s*(.+)", re.DOTALL)  # the task, or a run digest's task line
_TITLE_RE = re.compile(r"\b((?:[A-Z][A-Za-z&\-]*\s+){0,5}(?:AGREEMENT|Agreement|CONTRACT|Contract|TERMS|Terms))\b")
_PARTIES_RE = re.compile(r"\bbetween\s*:?\s*(?:\(1\)\s*)?(.+?)\s+and\s+(?:\(2\)\s*)?(.+?)(?=;|\.\s|\.$|\s+whose\b|$)", re.IGNORECASE)
_NUMBERED_PARTY_RE = re.compile(r"\(\d\)\s*([A-Z][A-Za-z0-9&.,\- ]*?[A-Za-z.])(?=\s*,|\s*\()")
_PARTY_INTRO_RE = re.compile(r"(?:\(\d\)|\bbetween\b|\band\b)\s*:?\s*([A-Z][A-Za-z0-9&.,\- ]*?[A-Za-z.])(?=\s*,|\s*\()")
_SUPPLIER_LABEL_RE = re.compile(r"\(\s*(?:the\s+)?[\"“]?(?:Supplier|Vendor|Seller|Provider|Contractor|Licensor)", re.IGNORECASE)
_SEVERITY_CONFIDENCE = {"high": 0.85, "medium": 0.8, "low": 0.75}
_FACTS_PER_KIND = 4


def _clean_party(text: str) -> str:
    """A party's name without its role label or description: `Acme Ltd ("Supplier"), a ...` -> `Acme Ltd`."""
    name = re.split(r"\s*[(,]", " ".join(text.split()), maxsplit=1)[0]
    return truncate(re.sub(r"^the\s+", "", name, flags=re.IGNORECASE), 80)


def task_parts(task: str) -> dict[str, str]:
    """Contract name, title and parties read from the task message, where it states them."""
    name = _NAME_RE.search(task)
    opening_match = _OPENING_RE.search(task)
    opening = " ".join((opening_match.group(1) if opening_match else task).split())
    title = _TITLE_RE.search(opening)
    parties = _PARTIES_RE.search(opening)
    return {
        "name": name.group(1).strip() if name else "",
        "title": " ".join(title.group(1).split()) if title else "",
        "parties": f"{_clean_party(parties.group(1))} and {_clean_party(parties.group(2))}" if parties else "",
        "opening": truncate(opening, 200),
    }


def task_summary(task: str) -> str:
    parts = task_parts(task)
    if not any(parts[k] for k in ("name", "title", "parties")):
        return truncate(" ".join(task.split()), 300)
    summary = "Review of supplier contract"
    if parts["name"]:
        summary += f' "{parts["name"]}"'
    if parts["title"]:
        summary += f" ({parts['title']})"
    if parts["parties"]:
        summary += f" between {parts['parties']}"
    return f"{summary}. Opening: {parts['opening']}"


def _supplier(task: str) -> str:
    """The party the task's opening labels as the supplier (or vendor, seller ...), else the first named."""
    opening_match = _OPENING_RE.search(task)
    opening = " ".join((opening_match.group(1) if opening_match else task).split())
    label = _SUPPLIER_LABEL_RE.search(opening)
    if label:  # `(1) ACME LTD, a company ... ("Supplier")`: the party introduced last before the label
        before = opening[: label.start()]
        intros = list(_NUMBERED_PARTY_RE.finditer(before)) or list(_PARTY_INTRO_RE.finditer(before))
        if intros:
            return _clean_party(intros[-1].group(1))
    parties = _PARTIES_RE.search(opening)
    if not parties:
        return ""
    raw = [parties.group(1), parties.group(2)]
    labelled = [p for p in raw if _SUPPLIER_LABEL_RE.search(p)]
    return _clean_party((labelled or raw)[0])


def _facts(findings: list[dict[str, Any]], task: str, domain: str | None) -> list[dict[str, Any]]:
    """Up to four "often deviate" facts (most severe first) and four clause-location facts; with
    no `domain`, the facts name none (the run stores them under its own)."""
    deviations = sorted((f for f in findings if f.get("verdict") == "deviation" and f.get("severity") in _SEVERITY_CONFIDENCE),
                        key=lambda f: -_SEVERITY_CONFIDENCE[f["severity"]])
    facts = [{"text": f"Supplier contracts often deviate from the playbook on "
                      f"{f['clause_type'].replace('_', ' ')} ({f['severity']} severity).",
              **({"domain": domain} if domain else {}), "confidence": _SEVERITY_CONFIDENCE[f["severity"]]}
             for f in deviations[:_FACTS_PER_KIND]]
    supplier = _supplier(task)
    located = [f for f in findings if f.get("section")] if supplier else []
    facts.extend({"text": f"{supplier} contracts place the {f['clause_type'].replace('_', ' ')} clause in section "
                          f"{str(f['section']).split('.')[0]}.",
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

    Outcome counts clause types from a `Clause types to review:` line when the messages have one
    (a digest says how many), else the types the run's tool calls touched. A digest carries no
    tools or step count (the run records them itself): those are empty then, and the facts name
    no domain (the extraction request asks for none: the run stores them under its own).
    """
    given = next((text_of(m) for m in messages if isinstance(m, HumanMessage) and is_digest(text_of(m))), None)
    transcript = read_transcript(messages) if given is None else None
    digest = read_digest(given) if given is not None else digest_of(messages)
    findings = digest.findings
    if findings and len(findings) == digest.total:
        outcome = "COMPLETED"
    elif findings:
        outcome = "PARTIAL"
    else:
        outcome = "FAILED"
    approach, patterns, steps = _approach(digest)
    calls = transcript.calls if transcript is not None else []
    acted = bool(calls) or given is not None and bool(findings or digest.remembered or digest.explored)
    return {
        "task_summary": task_summary(digest.task),
        "outcome": outcome,
        "key_findings": [finding_line(f) for f in findings],
        "approach": approach if acted else "No tool was called.",
        "tools_used": list(dict.fromkeys(c.name for c in calls)),
        "step_count": transcript.model_steps if transcript is not None else 0,
        "reusable_patterns": patterns,
        "fact_candidates": _facts(findings, digest.task, domain if given is None else None) if findings else [],
        "procedure": {"title": PROCEDURE_TITLE, "steps": steps} if findings else None,
    }
