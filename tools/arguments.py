"""A model's spelling of a tool call, made the tools' own: tool names, argument names, clause
types, verdicts and severities in any case, spacing, hyphenation or camelCase, and the usual
synonyms ("Non-Compliant", "Critical", "Limitation of Liability", "recordFinding", "clauseType").

Every tool boundary uses this one module: the tools' argument validators (`tools.toolset`), the
tools themselves against the run's own playbook, and the review loop, which rewrites a turn's
calls before they run (`normalise_call`), so the history a model reads back holds the names the
tools have. A value no rule maps is passed on as written: the tool then answers with its own
error, which lists what it accepts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

VERDICT_WORDS: dict[str, tuple[str, ...]] = {
    "standard": ("standard", "compliant", "conforming", "conforms", "acceptable", "ok", "okay", "pass", "passes",
                 "meets standard", "meets the standard", "in line", "green",
                 "market standard", "no issue", "no issues"),
    # present, and every provision favours the buyer (a cap only on the buyer's liability)
    "favourable": ("favourable", "favorable", "favours the buyer", "favors the buyer", "buyer favourable", "buyer favorable",
                   "in our favour", "in our favor", "better than standard", "present but favourable", "present but favorable"),
    "fallback": ("fallback", "fall back", "acceptable fallback", "partially compliant", "partly compliant", "partial",
                 "amber", "borderline", "negotiable"),
    "deviation": ("deviation", "deviates", "deviating", "deviant", "non compliant", "noncompliant", "not compliant",
                  "non standard", "nonstandard", "not standard", "red flag", "red", "issue", "problem", "fail",
                  "fails", "failed", "unacceptable", "off market", "not acceptable"),
    "missing": ("missing", "absent", "not found", "not present", "none found", "omitted", "no clause",
                "not included", "silent", "not addressed", "lacking", "lacks", "not in contract"),
    "not_applicable": ("not applicable", "n/a", "na", "inapplicable", "does not apply", "not relevant",
                       "irrelevant"),
}
SEVERITY_WORDS: dict[str, tuple[str, ...]] = {
    "high": ("high", "critical", "severe", "major", "significant", "serious", "urgent", "h"),
    "medium": ("medium", "moderate", "med", "mid", "middle", "intermediate", "m"),
    "low": ("low", "minor", "small", "slight", "trivial", "l"),
    "none": ("none", "no", "nil", "zero", "0", "n/a", "na", "info", "informational", "no risk", "not applicable",
             "n"),
}
# Names a model uses for a clause type that share no word with its playbook id or title.
CLAUSE_SYNONYMS: dict[str, str] = {
    "choice of law": "governing_law", "applicable law": "governing_law", "law and jurisdiction": "governing_law",
    "jurisdiction": "governing_law", "nda": "confidentiality", "non disclosure": "confidentiality",
    "privacy": "data_protection", "data privacy": "data_protection", "gdpr": "data_protection",
    "personal data": "data_protection", "indemnity": "uncapped_liability", "indemnities": "uncapped_liability",
    "change of control": "assignment", "evergreen": "auto_renewal", "auto renew": "auto_renewal",
    "automatic renewal": "auto_renewal", "non solicitation": "non_compete", "non solicit": "non_compete",
    "restrictive covenant": "non_compete", "restrictive covenants": "non_compete", "late delivery": "liquidated_damages",
    "delay penalties": "liquidated_damages", "penalties": "liquidated_damages", "take or pay": "minimum_commitment",
    "minimum purchase": "minimum_commitment", "minimum volume": "minimum_commitment",
    "exclusive remedy": "sole_remedy", "as is": "warranty_disclaimer", "disclaimer": "warranty_disclaimer",
    "mfn": "price_changes", "most favoured nation": "price_changes", "most favored nation": "price_changes",
    "most favoured customer": "price_changes", "price increase": "price_changes", "pricing": "price_changes",
    "price adjustment": "price_changes", "invoicing": "payment_terms", "payment": "payment_terms",
    "audit": "audit_rights", "inspection": "audit_rights", "limitation of liability": "liability_cap",
    "liability limit": "liability_cap", "cap on liability": "liability_cap", "cap": "liability_cap",
    "termination for convenience": "termination_convenience",
}
ARGUMENT_SYNONYMS: dict[str, str] = {
    "type": "clause_type", "clause": "clause_type", "clause name": "clause_type", "category": "clause_type",
    "section id": "section", "section number": "section", "id": "section", "clause number": "section",
    "text": "quote", "excerpt": "quote", "evidence": "quote", "reason": "rationale", "explanation": "rationale",
    "justification": "rationale", "risk": "severity", "risk level": "severity", "level": "severity",
    "assessment": "verdict", "result": "verdict", "status": "verdict", "keywords": "query", "search": "query",
    "q": "query", "limit": "k", "top k": "k", "recommendations": "recommendation", "suggestion": "recommendation",
}
TOOL_SYNONYMS: dict[str, str] = {
    "get section": "read_section", "section text": "read_section", "outline": "list_sections",
    "sections": "list_sections", "table of contents": "list_sections", "search": "search_contract",
    "find clause": "find_clauses", "locate clause": "find_clauses", "evaluate clause": "assess_clause",
    "review clause": "assess_clause", "save finding": "record_finding", "add finding": "record_finding",
}
_STOP = frozenset({"of", "and", "the", "a", "an", "for", "to", "on", "clause", "clauses", "provision", "provisions",
                   "section", "terms", "term", "obligation", "obligations"})


def words(text: str) -> list[str]:
    """'limitationOfLiability', 'Limitation-of Liability' -> ['limitation', 'of', 'liability']."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(text).strip())
    return re.findall(r"[a-z0-9]+|/", spaced.lower())


def squeeze(text: str) -> str:
    """The spelling-free key: letters and digits only, lower case ('Non-Compliant' -> 'noncompliant')."""
    return "".join(w for w in words(text) if w != "/")


def snake(text: str) -> str:
    return "_".join(w for w in words(text) if w != "/")


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _keys(phrases: Mapping[str, Iterable[str]]) -> dict[str, str]:
    return {squeeze(p): canonical for canonical, ps in phrases.items() for p in (*ps, canonical)}


_VERDICTS, _SEVERITIES = _keys(VERDICT_WORDS), _keys(SEVERITY_WORDS)


def verdict(value: Any) -> Any:
    """A verdict in any spelling or a synonym -> standard | fallback | deviation | missing | not_applicable | favourable."""
    return _VERDICTS.get(squeeze(value), snake(value) or value) if isinstance(value, str) else value


def severity(value: Any) -> Any:
    """A severity in any spelling or a synonym -> high | medium | low | none."""
    return _SEVERITIES.get(squeeze(value), snake(value) or value) if isinstance(value, str) else value


def _alike(a: str, b: str) -> bool:
    """The same word, or one word of the other's family ('confidential', 'confidentiality';
    'indemnity', 'indemnification'): a shared beginning of 6+ letters, most of the shorter word."""
    if a == b:
        return True
    shared = len(next((p for p in (a[:n] for n in range(min(len(a), len(b)), 0, -1)) if b.startswith(p)), ""))
    return shared >= 6 and shared >= 0.75 * min(len(a), len(b))


def _covers(wanted: set[str], have: set[str]) -> bool:
    return all(any(_alike(w, h) for h in have) for w in wanted)


def _content(text: str) -> set[str]:
    return {_stem(w) for w in words(text) if w not in _STOP and w != "/"}


def clause_type(value: Any, names: Sequence[str], titles: Mapping[str, str] | None = None) -> Any:
    """The clause type of `names` a model meant, or `value` in snake case when none is clear.

    In order: the id in any spelling (plural or singular), a known synonym, the one clause type
    whose id words hold every word of the value, then the one whose id and title words do
    ("Limitation of Liability" -> liability_cap, "Indemnification" -> uncapped_liability,
    "confidential" -> confidentiality). A value two clause types fit ("termination",
    "liability") maps to none of them."""
    if not isinstance(value, str) or not value.strip():
        return value
    key, singular = squeeze(value), "".join(_stem(w) for w in words(value) if w != "/")
    for name in names:
        if squeeze(name) == key or "".join(_stem(w) for w in words(name)) == singular:
            return name
    synonym = CLAUSE_SYNONYMS.get(" ".join(w for w in words(value) if w != "/"))
    if synonym in names:
        return synonym
    wanted = _content(value)
    if wanted:
        for described in (lambda n: _content(n), lambda n: _content(n) | _content((titles or {}).get(n, ""))):
            holders = [n for n in names if _covers(wanted, described(n))]
            if len(holders) == 1:
                return holders[0]
            if holders:
                break
    return snake(value) or value


def _match(given: str, names: Sequence[str], synonyms: Mapping[str, str]) -> str | None:
    key = squeeze(given)
    for name in names:
        if squeeze(name) == key:
            return name
    synonym = synonyms.get(" ".join(w for w in words(given) if w != "/"))
    if synonym in names:
        return synonym
    # 'find_clause', 'assess', 'functions.record_finding', 'contract_tools__read_section'
    near = [n for n in names if key and (squeeze(n).startswith(key) or key.startswith(squeeze(n))
                                         or key.endswith(squeeze(n)))]
    return near[0] if len(near) == 1 else None


def tool_name(given: str, names: Sequence[str]) -> str:
    """The tool a model meant ('Record_Finding', 'recordFinding', 'find_clause', 'assess'), or `given`."""
    return _match(given, names, TOOL_SYNONYMS) or given


def argument_names(args: Mapping[str, Any], parameters: Sequence[str]) -> dict[str, Any]:
    """Arguments keyed by the tool's own parameter names ('clauseType', 'Section_ID', 'type')."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        name = key if key in parameters else _match(key, parameters, ARGUMENT_SYNONYMS)
        if name is not None and name not in args and name not in out:
            out[name] = value
        elif key not in out:
            out[key] = value
    return out


def normalise_call(name: str, args: Mapping[str, Any], parameters: Mapping[str, Sequence[str]],
                   clause_types: Sequence[str], titles: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """One tool call in the tools' own spelling: `parameters` maps each tool name to its
    argument names; clause types are resolved against `clause_types` (the run's playbook)."""
    name = tool_name(name, list(parameters))
    fixed = argument_names(args if isinstance(args, Mapping) else {}, parameters.get(name, ()))
    if "clause_type" in fixed:
        fixed["clause_type"] = clause_type(fixed["clause_type"], clause_types, titles)
    if "verdict" in fixed:
        fixed["verdict"] = verdict(fixed["verdict"])
    if "severity" in fixed:
        fixed["severity"] = severity(fixed["severity"])
    return name, fixed
