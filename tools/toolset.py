"""The contract tools the reviewer model calls (`TOOLS`), as LangChain tools over `tools.operations`.

The contract reaches each tool through LangGraph's `InjectedState` (`state["contract"]`, a
`Contract.model_dump()`); the model never sees or passes it. The playbook is the default one
(tools/playbook.yaml) unless the state carries `state["playbook"]` (a `Playbook.model_dump()`).
Every tool answers with a JSON string; `record_finding` answers with a `Command` that appends
the finding to `state["findings"]` and replies with a ToolMessage.

Argument schemas are typed so that small models follow them: verdict and severity are `Literal`
enums of the tool constants, clause types an enum of the default playbook's (and, for
`find_clauses`, the detectors') types, optional arguments plain strings (never `anyOf`, which
some providers, Ollama among them, flatten to `{}`). Values are normalised before validation
("Deviation", " HIGH ", "liability cap" are accepted). A call that does not validate is answered
by `tool_error_message`: what was wrong and the call to make instead, so one retry fixes it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any, Literal

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.prebuilt import InjectedState
from langgraph.prebuilt.tool_node import ToolInvocationError
from langgraph.types import Command
from pydantic import BeforeValidator, WithJsonSchema

from tools import arguments
from tools.contract import Contract, load_contract, parse_contract
from tools.detection.review import SEVERITIES, VERDICTS, detect_all, locate_quote
from tools.detection.rules import DETECTORS
from tools.operations import (
    assess_clause_data,
    build_finding,
    find_clauses_data,
    list_sections_data,
    read_section_data,
    search_contract_data,
    unassessed_pointer,
    unrecordable,
)
from tools.playbook import Playbook, load_playbook
from tools.recall import LocationCheck

__all__ = [
    "TOOLS",
    "Contract",
    "assess_clause",
    "detect_all",
    "find_clauses",
    "list_sections",
    "load_contract",
    "locate_quote",
    "parse_contract",
    "read_section",
    "record_finding",
    "search_contract",
    "tool_error_message",
]


@lru_cache(maxsize=1)
def _default_playbook() -> Playbook:
    return load_playbook()


def _contract(state: dict[str, Any]) -> Contract | None:
    raw = (state or {}).get("contract")
    if not raw:
        return None
    return raw if isinstance(raw, Contract) else Contract.model_validate(raw)


def _playbook(state: dict[str, Any]) -> Playbook:
    raw = (state or {}).get("playbook")
    if raw:
        return raw if isinstance(raw, Playbook) else Playbook.model_validate(raw)
    return _default_playbook()


_NO_CONTRACT = {"error": "no contract is loaded in this run"}


def _titles(playbook: Playbook) -> dict[str, str]:
    return {name: entry.title for name, entry in playbook.clauses.items()}


def _known_clause_type(value: Any) -> Any:
    """A clause type in any spelling or a usual name ('Liability-Cap', 'Limitation of Liability')
    -> the default playbook's (or a detector's) id; the tool checks it against the run's playbook."""
    return arguments.clause_type(value, DETECTABLE_CLAUSE_TYPES, _titles(_default_playbook()))


def _run_clause_type(clause_type: str, playbook: Playbook) -> str:
    """A clause type spelled for the default playbook, resolved against the run's own."""
    if clause_type in playbook.clauses or playbook is _default_playbook():
        return clause_type
    return arguments.clause_type(clause_type, [*playbook.clause_types, *sorted(DETECTORS)], _titles(playbook))


def _optional_text(value: Any) -> Any:
    """An empty or whitespace-only optional argument counts as not given."""
    if isinstance(value, str) and not value.strip():
        return None
    return value


def _optional(description: str) -> Any:
    """An optional string argument whose schema is a plain string (no anyOf with null)."""
    return Annotated[str | None, BeforeValidator(_optional_text), WithJsonSchema({"type": "string", "description": description})]


def _clause_type(names: list[str], description: str) -> Any:
    """A clause type: an enum for the model to follow, checked against the run's playbook by the tool
    (a run may carry its own playbook), so the validator only normalises the spelling."""
    return Annotated[str, BeforeValidator(_known_clause_type),
                     WithJsonSchema({"type": "string", "enum": names, "description": description})]


PLAYBOOK_CLAUSE_TYPES = list(_default_playbook().clause_types)
DETECTABLE_CLAUSE_TYPES = PLAYBOOK_CLAUSE_TYPES + sorted(set(DETECTORS) - set(PLAYBOOK_CLAUSE_TYPES))
ClauseType = _clause_type(PLAYBOOK_CLAUSE_TYPES, "a clause type of the playbook")
DetectableClauseType = _clause_type(DETECTABLE_CLAUSE_TYPES, "a clause type of the playbook (or another detectable type)")
Verdict = Annotated[Literal[VERDICTS], BeforeValidator(arguments.verdict)]
Severity = Annotated[Literal[SEVERITIES], BeforeValidator(arguments.severity)]
SectionId = Annotated[str, WithJsonSchema({"type": "string", "description": 'a section id from list_sections, e.g. "9.2"'})]
RECORD_HELP = ("true: also record the proposed finding when the clause is found here and the answer names no "
               "other section to assess (saves the record_finding call)")


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


@tool
def list_sections(state: Annotated[dict, InjectedState]) -> str:
    """List the contract's sections (id, title, character offsets) and who the parties are (the
    buyer, whom we review for, and the supplier). Call this first to see how the contract is
    organised; section ids are what the other tools take."""
    contract = _contract(state)
    return _json(list_sections_data(contract) if contract else _NO_CONTRACT)


@tool
def read_section(
    section: SectionId,
    state: Annotated[dict, InjectedState],
    tool_call_id: Annotated[str, InjectedToolCallId],
) -> str | Command:
    """Read one section's full text by its id (e.g. "9.2", "7", "h3", "preamble").
    A numbered section includes its sub-sections."""
    contract = _contract(state)
    if contract is None:
        return _json(_NO_CONTRACT)
    result = read_section_data(contract, section)
    if "error" in result:
        return _json(result)
    return Command(update={"examined": [{"tool": "read_section", "section": result["section"]}], "messages": [
        ToolMessage(_json(result), tool_call_id=tool_call_id, name="read_section")]})


@tool
def search_contract(query: str, state: Annotated[dict, InjectedState], k: int = 5) -> str:
    """Keyword (BM25) search over the sections, e.g. "limitation of liability" or
    "terminate for convenience notice". Returns the k best sections with a snippet."""
    contract = _contract(state)
    return _json(search_contract_data(contract, query, k) if contract else _NO_CONTRACT)


@tool
def find_clauses(
    clause_type: DetectableClauseType,
    state: Annotated[dict, InjectedState],
    tool_call_id: Annotated[str, InjectedToolCallId],
) -> str | Command:
    """Find the sentences that carry a clause type of the playbook (e.g. "liability_cap",
    "governing_law"), best first, each with its section, verbatim quote and offsets.
    An empty candidate list means the contract probably lacks that clause."""
    contract = _contract(state)
    if contract is None:
        return _json(_NO_CONTRACT)
    playbook = _playbook(state)
    result = find_clauses_data(contract, playbook, _run_clause_type(clause_type, playbook))
    if "error" in result:
        return _json(result)
    return Command(update={"examined": [examined_entry("find_clauses", result)], "messages": [
        ToolMessage(_json(result), tool_call_id=tool_call_id, name="find_clauses")]})


@tool
def assess_clause(
    clause_type: ClauseType,
    section: SectionId,
    state: Annotated[dict, InjectedState],
    tool_call_id: Annotated[str, InjectedToolCallId],
    record: Annotated[bool, WithJsonSchema({"type": "boolean", "description": RECORD_HELP})] = False,
) -> str | Command:
    """Assess a clause type in one section against the buyer's playbook: extracts the value
    (cap multiple, notice days, jurisdiction, who indemnifies whom ...), whom the clause binds and
    protects, and proposes a verdict (standard | fallback | deviation), severity, a rationale and
    a recommendation written for this contract, with the quote it read and its citation. The
    answer checks the whole contract: `other_side` (this sentence is the other party's) or
    `elsewhere` (the contract's main reading of the clause, or a worse burden on the buyer, is
    in another section) names the section to assess before recording. With record=true the
    proposed finding is recorded in the same call when the clause is found here and nothing
    names another section (no record_finding needed; the answer is then short: `found` and
    `recorded`); otherwise `recorded` is null and `not_recorded` says why."""
    contract = _contract(state)
    if contract is None:
        return _json(_NO_CONTRACT)
    playbook = _playbook(state)
    clause_type = _run_clause_type(clause_type, playbook)
    result = assess_clause_data(contract, playbook, clause_type, section)
    if "error" in result:
        return _json(result)
    # kept in state (not only in the messages compression replaces): record_finding checks it
    seen = {"examined": [examined_entry("assess_clause", result, asked=section, contract=contract)]}
    if not record:
        return Command(update={**seen, "messages": [ToolMessage(_json(result), tool_call_id=tool_call_id,
                                                                name="assess_clause")]})
    refusal = unrecordable(result)
    if refusal is None:
        finding = build_finding(contract, playbook, clause_type, result["verdict"], result["severity"], None, section)
        if "error" not in finding:
            # the finding holds the quote, rationale and recommendation (the report shows them),
            # so the answer keeps only where it is and what was recorded
            return _recorded(finding, tool_call_id, "assess_clause", base={"found": True}, offsets=False, extra=seen)
        refusal = finding["error"]  # cannot happen for a found clause; said plainly if it ever does
    answer = {**result, "recorded": None, "not_recorded": refusal}
    return Command(update={**seen, "messages": [ToolMessage(_json(answer), tool_call_id=tool_call_id,
                                                            name="assess_clause")]})


@tool
def record_finding(
    clause_type: ClauseType,
    verdict: Verdict,
    severity: Severity,
    state: Annotated[dict, InjectedState],
    tool_call_id: Annotated[str, InjectedToolCallId],
    section: _optional("the section holding the clause (omit for a missing or not_applicable clause)") = "",
    quote: _optional("a verbatim quote; omit it to record the one assess_clause gives for the section") = "",
    recommendation: _optional("omit it to record the one assess_clause wrote for this contract") = "",
    rationale: _optional("why the verdict; omit it to record the one assess_clause wrote") = "",
) -> Command:
    """Record the final finding for one clause type. verdict is standard | fallback |
    deviation | missing | not_applicable; severity is high | medium | low | none. For a clause
    that is present, give the section; omit the quote to record the one assess_clause gives for
    that section, or pass a verbatim quote (from read_section, find_clauses or assess_clause).
    Omit the recommendation and rationale to record the ones assess_clause wrote for this
    contract (what it says now, the change to ask for, why the verdict); pass your own when your
    verdict differs. For "missing" or "not_applicable" (find_clauses' if_missing says which)
    leave section and quote empty. Recording a clause type again replaces it."""
    contract = _contract(state)
    if contract is None:
        result: dict = _NO_CONTRACT
    else:
        playbook = _playbook(state)
        clause_type = _run_clause_type(clause_type, playbook)
        result = build_finding(contract, playbook, clause_type, verdict, severity, recommendation, section, quote,
                               rationale)
        if "error" not in result:
            result = unassessed_pointer(contract, playbook, result, assessed_sections(state, contract)) or result
    if "error" in result:
        message = ToolMessage(_json(result), tool_call_id=tool_call_id, name="record_finding", status="error")
        return Command(update={"messages": [message]})
    if _already_recorded(state, result):
        note = {"recorded": {k: result.get(k) for k in ("clause_type", "section", "verdict", "severity")},
                "note": "already recorded exactly so: nothing changed"}
        return Command(update={"messages": [ToolMessage(_json(note), tool_call_id=tool_call_id, name="record_finding")]})
    return _recorded(result, tool_call_id, "record_finding")


RECALL_NOTE = ("places earlier reviews of similar contracts kept the clause type, checked against this contract "
               "before they are listed: each section reads the clause here and each absence holds here. Assess a "
               "listed section first (assess_clause with record=true), then record; memory never decides the "
               "finding. An empty list: memory holds nothing that is true here, use find_clauses")


def _remembered(state: dict[str, Any]) -> list[list[str]]:
    """The key findings of the episodes recalled for this run, best first (`state["episodes"]`:
    already checked by the memory step; checked again here, so the tool holds on its own)."""
    found = []
    for scored in (state or {}).get("episodes") or []:
        item = scored.get("item") if isinstance(scored, dict) else None
        if isinstance(item, dict):
            found.append([str(line) for line in item.get("key_findings") or []])
    return found


@tool
def recall_locations(
    state: Annotated[dict, InjectedState],
    clause_type: _optional("a clause type of the playbook; omit for every clause type memory holds") = None,
) -> str:
    """Where earlier reviews of similar contracts kept a clause type, checked against this
    contract: a list of sections (with their heading here and the past reviews that kept it there)
    that read the clause in this contract, or an absence this contract shares. Use it to know
    where to look first; assess the section before recording. Empty when memory is off or holds
    nothing that is true for this contract."""
    contract = _contract(state)
    if contract is None:
        return _json(_NO_CONTRACT)
    playbook = _playbook(state)
    locations = LocationCheck(contract, playbook).locations(_remembered(state))
    if clause_type is None:
        return _json({"locations": locations, "note": RECALL_NOTE})
    name = _run_clause_type(arguments.clause_type(clause_type, DETECTABLE_CLAUSE_TYPES, _titles(_default_playbook())),
                            playbook)
    if name not in playbook.clauses:
        return _json({"error": f"unknown clause type {clause_type!r}",
                      "fix": f"call recall_locations with one of: {', '.join(playbook.clause_types)}, or without clause_type"})
    return _json({"clause_type": name, "places": locations.get(name, []), "note": RECALL_NOTE})


def examined_entry(tool: str, result: dict, *, asked: str = "", contract: Contract | None = None) -> dict:
    """What a find_clauses or assess_clause answer showed, kept in the graph's `examined` state
    (outside the messages, which compression replaces): record_finding checks other_side and
    elsewhere against it, and the run-state digest re-states it."""
    entry: dict[str, Any] = {"tool": tool, "clause_type": result.get("clause_type")}
    if tool == "find_clauses":
        entry["candidates"] = list(dict.fromkeys(str(c.get("section")) for c in result.get("candidates") or []))
        if isinstance(result.get("if_missing"), dict):
            entry["if_missing"] = {k: result["if_missing"].get(k) for k in ("verdict", "severity")}
        return entry
    entry.update(section=result.get("section"), asked=_section_id(contract, asked) if contract else asked,
                 found=result.get("found") is True)
    if entry["found"]:
        entry.update(verdict=result.get("verdict"), severity=result.get("severity"))
        entry["points_to"] = [[key, result[key]["section"]] for key in ("other_side", "elsewhere")
                              if isinstance(result.get(key), dict) and result[key].get("section")]
    return entry


def assessed_sections(state: dict[str, Any], contract: Contract) -> set[tuple[str, str]]:
    """(clause type, section id) pairs assessed in this run: the graph's `examined` key, and the
    assess_clause answers still in the messages (a graph without that key)."""
    pairs: set[tuple[str, str]] = set()
    for entry in (state or {}).get("examined") or []:
        if isinstance(entry, dict) and entry.get("tool") == "assess_clause":
            pairs |= {(entry.get("clause_type"), entry.get(k)) for k in ("section", "asked") if entry.get(k)}
    for message in (state or {}).get("messages") or []:
        if isinstance(message, ToolMessage) and message.name == "assess_clause":
            try:
                data = json.loads(str(message.content))
            except json.JSONDecodeError:
                continue
            if isinstance(data, dict) and data.get("clause_type") and data.get("section"):
                pairs.add((data["clause_type"], data["section"]))
    return pairs | {(t, _section_id(contract, str(s))) for t, s in pairs if t and s}


def _section_id(contract: Contract, section: str) -> str:
    found = contract.section(section)
    return found.id if found else section


def _already_recorded(state: dict[str, Any], finding: dict) -> bool:
    keys = ("clause_type", "section", "verdict", "severity", "start", "end")
    latest = [f for f in (state or {}).get("findings") or [] if f.get("clause_type") == finding["clause_type"]]
    return bool(latest) and all(latest[-1].get(k) == finding.get(k) for k in keys)


def _recorded(finding: dict, tool_call_id: str, name: str, base: dict | None = None, *, offsets: bool = True,
              extra: dict | None = None) -> Command:
    """The Command that appends `finding` to the run's findings and answers the call. The caller
    wrote the quote and recommendation itself, or took them by reference from what assess_clause
    showed: the answer echoes only what it may not know (the section heading and, for a quote it
    passed, the true `offsets`), next to `base`, so the context does not grow with copies."""
    keys = ("clause_type", "section", "section_title", "verdict", "severity") + (("start", "end") if offsets else ())
    echo = {k: finding.get(k) for k in keys}
    if finding.get("verdict") == "not_applicable":
        echo["rationale"] = finding.get("rationale")
    message = ToolMessage(_json({**(base or {}), "recorded": echo}), tool_call_id=tool_call_id, name=name)
    kept = {k: v for k, v in finding.items() if k != "section_title"}
    return Command(update={**(extra or {}), "findings": [kept], "messages": [message]})


TOOLS = [list_sections, read_section, search_contract, find_clauses, assess_clause, record_finding, recall_locations]
_BY_NAME = {t.name: t for t in TOOLS}
_LONG_ENUM = 8  # enums longer than this are spelled out only when that argument was wrong


def _argument_help(name: str, spec: dict[str, Any], required: bool, wrong: bool) -> str:
    enum = spec.get("enum")
    if enum and (wrong or len(enum) <= _LONG_ENUM):
        kind = " | ".join(str(v) for v in enum)
    elif enum:
        kind = f"one of {len(enum)} names"
    else:
        kind = str(spec.get("type", "value"))
    return f"{name}: {kind}" + ("" if required else " (optional)")


def tool_error_message(error: ToolInvocationError) -> str:
    """The answer to a call whose arguments do not validate: what was wrong, and the one call
    that fixes it (every argument with its type or allowed values). For ToolNode's
    `handle_tool_errors`; other exceptions are not handled (they are bugs, not model slips)."""
    tool_ = _BY_NAME.get(error.tool_name)
    problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
                for e in (error.filtered_errors or [])] or [str(error.source)]
    wrong = {str(e.get("loc", ("",))[0]) for e in (error.filtered_errors or []) if e.get("loc")}
    answer: dict[str, Any] = {"error": f"{error.tool_name} was called with invalid arguments: {'; '.join(problems)}"}
    if tool_ is not None:
        schema = tool_.tool_call_schema.model_json_schema()
        required = set(schema.get("required", []))
        arguments = [_argument_help(name, spec, name in required, name in wrong)
                     for name, spec in schema.get("properties", {}).items()]
        answer["fix"] = f"call {error.tool_name} again with " + "; ".join(arguments)
        if "clause_type" in wrong:
            answer["fix"] += " (clause_type exactly as written, e.g. liability_cap)"
    answer["you_sent"] = error.tool_kwargs
    return _json(answer)
