"""What a finding tells the buyer's lawyer: why the verdict (the rationale) and what to ask for
in this contract (the recommendation), written from what was read, never the playbook alone.

rationale:       where it was read, what it says (the figure), whom it binds and protects, and how
                 that compares with the playbook's standard and fallback positions;
recommendation:  what this contract says now (its figure or wording) and the change to ask for
                 (the playbook entry's `ask`, with its thresholds filled in): what the tools answer
                 while the review runs;
requested_change: the report's requested change, drafted for this contract: a redline in the
                 contract's own words and defined terms (tools/detection/redline.py).
"""

from __future__ import annotations

from tools.detection.parties import Parties
from tools.detection.redline import ContractTerms, draft
from tools.playbook import PlaybookEntry


def ask_for(entry: PlaybookEntry) -> str:
    """The entry's `ask` with the metric's thresholds filled in (the recommendation if no ask)."""
    if not entry.ask:
        return entry.recommendation.rstrip(".")
    values = {k: v for k, v in (entry.metric.model_dump() if entry.metric else {}).items() if v is not None}
    try:
        return entry.ask.format(**values)
    except (KeyError, ValueError, IndexError):
        return entry.ask


def _sentence(text: str) -> str:
    text = " ".join(str(text).split()).rstrip(".")
    return text[:1].upper() + text[1:] if text else text


def comparison(entry: PlaybookEntry, verdict: str) -> str:
    if verdict == "standard":
        return f"meets the playbook's standard ({entry.standard.rstrip('.')})"
    if verdict == "fallback":
        return f"falls short of the standard ({entry.standard.rstrip('.')}) but within the fallback ({entry.fallback.rstrip('.')})"
    return f"is outside the playbook's fallback ({entry.fallback.rstrip('.')})"


def rationale(entry: PlaybookEntry, verdict: str, reading: str, citation: str, *, binds: str | None,
              protects: str | None, parties: Parties, adjusted: str = "") -> str:
    """Why the verdict: what was read where, the figure, who is bound and protected, the comparison."""
    who = ""
    if binds or protects:
        who = f" It binds {parties.describe(binds)} and protects {parties.describe(protects)}."
    extra = f" {_sentence(adjusted)}." if adjusted else ""
    return f"{_sentence(citation)}: {reading.rstrip('.')}.{who}{extra} This {comparison(entry, verdict)}."


def recommendation(entry: PlaybookEntry, verdict: str, reading: str, citation: str) -> str:
    """The change to ask for, starting from what this contract says."""
    if verdict == "standard":
        return f"No change needed: {citation} {reading.rstrip('.')}."
    ask = ask_for(entry)
    if verdict == "fallback":
        return f"{_sentence(citation)}: {reading.rstrip('.')}. Acceptable as a fallback; to reach the standard, ask for {ask}."
    return f"{_sentence(citation)}: {reading.rstrip('.')}. Ask for {ask}."


def missing_advice(entry: PlaybookEntry, contract_name: str = "") -> tuple[str, str]:
    """(rationale, recommendation) for a clause type the contract lacks."""
    what = entry.title[:1].lower() + entry.title[1:]
    if entry.missing.severity == "none":
        return (f"No {what} clause was found; the playbook accepts its absence ({entry.standard.rstrip('.')}).",
                "No change needed: the contract has no such clause, which is the playbook's standard.")
    return (f"No {what} clause was found anywhere in the contract; the playbook's standard is: {entry.standard.rstrip('.')}",
            f"The contract has no {what} clause. Ask for {ask_for(entry)}.")


def not_applicable_advice(entry: PlaybookEntry) -> tuple[str, str]:
    reason = entry.applies_if.otherwise if entry.applies_if else "it does not apply to this deal"
    what = entry.title[:1].lower() + entry.title[1:]
    return (f"Not applicable: {reason}, so no {what} clause is needed.",
            f"No change needed: {reason}. Add {what} terms if the deal later involves it.")


def requested_change(finding: dict, entry: PlaybookEntry, terms: ContractTerms) -> tuple[str, dict[str, str], str]:
    """(recommendation, redline, headline) drafted for this contract from a finding's quote,
    citation and verdict and the contract's defined terms (tools/detection/redline.py): the
    requested change names the provision and its figure and gives wording to paste; "no change"
    says why in one line. The headline is the one-line ask of the executive summary."""
    redline = draft(finding, entry, terms)
    return redline.sentence(), redline.as_dict(), redline.headline(entry.title)
