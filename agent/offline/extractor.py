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

from langchain_core.messages import BaseMessage

from agent.offline.progress import Progress, finding_line, progress_of
from agent.offline.transcript import Transcript, read_transcript
from memory.pii.base import truncate

PROCEDURE_TITLE = "Supplier contract review against the buyer's playbook"
_NAME_RE = re.compile(r"[\"“']([^\"”'\n]{1,200})[\"”']")
_OPENING_RE = re.compile(r"Contract opening:\s*(.+)", re.DOTALL)
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


def _facts(findings: list[dict[str, Any]], task: str, domain: str) -> list[dict[str, Any]]:
    """Up to four "often deviate" facts (most severe first) and four clause-location facts."""
    deviations = sorted((f for f in findings if f.get("verdict") == "deviation" and f.get("severity") in _SEVERITY_CONFIDENCE),
                        key=lambda f: -_SEVERITY_CONFIDENCE[f["severity"]])
    facts = [{"text": f"Supplier contracts often deviate from the buyer's playbook on "
                      f"{f['clause_type'].replace('_', ' ')} ({f['severity']} severity).",
              "domain": domain, "confidence": _SEVERITY_CONFIDENCE[f["severity"]]}
             for f in deviations[:_FACTS_PER_KIND]]
    supplier = _supplier(task)
    located = [f for f in findings if f.get("section")] if supplier else []
    facts.extend({"text": f"{supplier} contracts place the {f['clause_type'].replace('_', ' ')} clause in section "
                          f"{str(f['section']).split('.')[0]}.",
                  "domain": domain, "confidence": 0.7}
                 for f in located[:_FACTS_PER_KIND])
    return facts


def _approach(transcript: Transcript, progress: Progress) -> tuple[str, list[str], list[str]]:
    """(approach text, reusable patterns, procedure steps) from how the run actually went."""
    # A type whose first call was an assessment went straight to a remembered location (the
    # extraction input has no system prompt, hence no memory block: judge by the calls alone).
    first_call = {}
    for call in transcript.calls:
        name = call.args.get("clause_type")
        if isinstance(name, str):
            first_call.setdefault(name, call.name)
    warm = [n for n in progress.order if first_call.get(n) == "assess_clause"]
    confirmed = [n for n in warm if (progress.types[n].assessments[0].result or {}).get("found") is True]
    explored = [n for n in progress.order if progress.types[n].finds or progress.types[n].searches]
    parts = []
    if warm:
        parts.append(f"checked {len(warm)} remembered clause locations first ({len(confirmed)} confirmed)")
    if explored:
        parts.append(f"located {len(explored)} clause types with find_clauses and search_contract, "
                     "reading the best candidate section")
    parts.append("assessed each clause against the playbook and recorded one finding per clause type")
    patterns = []
    if confirmed:
        patterns.append("Remembered clause locations from similar contracts were right for "
                        f"{len(confirmed)} of {len(warm)} clause types: assess them directly before exploring.")
    if explored:
        patterns.append("Triangulate find_clauses with search_contract and assess the section both rank highest.")
    if any(f.get("verdict") == "missing" for f in _findings(progress)):
        patterns.append("Record an absent clause as missing with the playbook severity instead of searching further.")
    steps = [
        "List the contract's sections once.",
        "For each clause type with a remembered location, assess that section first.",
        "Otherwise locate candidates with find_clauses and search_contract together.",
        "Read the best-ranked candidate section.",
        "Assess the clause against the playbook with assess_clause, record=true: it records the finding "
        "unless it names another section to assess first.",
        "Record each absent clause type as missing with record_finding.",
        "Finish with a short summary of the findings by severity.",
    ]
    approach = "; ".join(parts)
    return approach[0].upper() + approach[1:] + ".", patterns, steps


def _findings(progress: Progress) -> list[dict[str, Any]]:
    return [progress.types[n].finding for n in progress.order if progress.types[n].finding]


def extract_artifacts(messages: Sequence[BaseMessage], *, domain: str = "supplier_contracts") -> dict[str, Any]:
    """A dict that validates as `memory.records.RunArtifacts`, describing the run in `messages`.

    Outcome counts clause types from a `Clause types to review:` line when the messages have one,
    else the types the run's tool calls touched.
    """
    transcript = read_transcript(messages)
    progress = progress_of(transcript)
    findings = _findings(progress)
    total = len(progress.order)
    if findings and len(findings) == total:
        outcome = "COMPLETED"
    elif findings:
        outcome = "PARTIAL"
    else:
        outcome = "FAILED"
    approach, patterns, steps = _approach(transcript, progress)
    tools_used = list(dict.fromkeys(c.name for c in transcript.calls))
    return {
        "task_summary": task_summary(transcript.task),
        "outcome": outcome,
        "key_findings": [finding_line(f) for f in findings],
        "approach": approach if transcript.calls else "No tool was called.",
        "tools_used": tools_used,
        "step_count": transcript.model_steps,
        "reusable_patterns": patterns,
        "fact_candidates": _facts(findings, transcript.task, domain) if findings else [],
        "procedure": {"title": PROCEDURE_TITLE, "steps": steps} if findings else None,
    }
