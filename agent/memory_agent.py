"""The contract reviewer as the memory core sees it: its `memory.graph.MemoryAgent`.

What memory keeps of a review is what the graph derived, never contract text: the kind of
contract as a label from a closed list (`contract_kind`), the number of sections, keyed tokens of
the supplier and of the section layout (`memory.graph.steps.task_of`), and one key finding per
clause type: its section number and heading as the sectioner read them (folded, `memory.fold`,
and screened, `memory.screen`), its verdict and severity. Recall searches by that summary and by
the no-model review of the current contract (where the detectors place each clause type and how
the playbook reads it there), written as key findings are (`search`, never stored): a review finds
first the past reviews whose clauses sat where this contract's clauses sit, which is what a
template is.

The outcome is what the graph observed: every clause type of the run's playbook has a finding
(COMPLETED), some do (PARTIAL), none do (FAILED), with what is open and the problems the run
recorded (why the loop stopped, its warnings, tool errors). An extraction model may lower it only
by naming one of those, in any spelling the tools accept for a clause type (`tools.arguments`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage

from agent.memory_view import clause_locations, heading_key, made_by_graph
from agent.offline.digest import render, state_digest
from agent.offline.progress import finding_line
from agent.prompts import EXTRACT_INSTRUCTIONS
from agent.report import final_findings
from memory.claims import Vocabulary
from memory.fold import fold
from memory.graph import MemoryAgent, Observed, Problem, Recalled, TaskProfile, require
from memory.pii import person_names
from memory.records import Outcome, RunArtifacts
from memory.screen import has_instruction
from tools import detect_all
from tools.arguments import clause_type
from tools.contract import Contract
from tools.detection.parties import company_name
from tools.fact_terms import fact_positions, fact_topics
from tools.playbook import Playbook, load_playbook
from tools.recall import LocationCheck

# The words a contract's title may contribute to the label memory keeps of it: a closed list, so
# the label can hold no name, number or instruction whatever the title says.
KIND_WORDS = frozenset("""
    master framework supply purchase purchasing procurement distribution reseller dealer services service
    subscription saas software license licence maintenance support logistics transport freight carriage
    manufacturing outsourcing consulting consultancy professional hosting cloud data processing lease rental hire
    equipment goods products product sale sales agreement contract terms conditions order statement work agency
    franchise development marketing sponsorship nondisclosure confidentiality guest hospitality catering
    construction installation engineering platform research clinical staffing security cleaning facilities
    """.split())
TITLE_LINES = 3  # the title is read from the first lines of the contract that hold letters
OUTLINE_SECTIONS = 200  # headings a search sends (of a contract with hundreds of sections: the first)
HEADING_CHARS = 80  # a longer "heading" is text the sectioner took for one: memory keeps none of it
FIRST_CALLS_PER_TYPE = 2  # remembered sections of one clause type the graph assesses before the first turn
# what the graph's assessments leave out (the model reads them on every turn until it records):
# record_finding records assess_clause's own rationale and recommendation when they are omitted
FIRST_CALLS_OMIT = ("rationale", "recommendation", "start", "end")


TITLE_NOUNS = ("agreement", "contract")  # a title ends with one of these, a longer first line is cut there


def contract_kind(text: str) -> str:
    """The kind of contract as its title names it, in words of `KIND_WORDS` only ("master supply
    agreement"), else "contract"."""
    lines = [line for line in text.splitlines() if re.search(r"[^\W\d_]", line)][:TITLE_LINES]
    for line in lines:
        found = list(dict.fromkeys(w for w in re.findall(r"[a-z]+", fold(line).casefold()) if w in KIND_WORDS))
        if found:
            end = next((i for i, w in enumerate(found) if w in TITLE_NOUNS), len(found) - 1)
            return " ".join(found[:end + 1][-5:])
    return "contract"


def heading(title: str | None) -> str:
    """A section heading as memory may keep it: folded (no look-alike letters, no invisible or bidi
    characters), and none at all when it is too long for a heading or reads as an instruction."""
    folded = fold(title or "").replace('"', "'")
    if not folded or len(folded) > HEADING_CHARS or has_instruction(folded):
        return ""
    return folded


def layout(sections: Sequence[Mapping[str, Any]]) -> str:
    """The layout of the contract's sections (numbers and headings, loosely): what its keyed token
    stands for, so reviews of the same template find each other."""
    return " | ".join(f"{s.get('id')} {heading_key(heading(s.get('title')))}".strip() for s in sections)


def _playbook(state: Mapping[str, Any]) -> Playbook:
    raw = state.get("playbook")
    return (raw if isinstance(raw, Playbook) else Playbook.model_validate(raw)) if raw else load_playbook()


class ContractMemoryAgent(MemoryAgent):
    """The contract reviewer's answers to the memory core (see the module docstring)."""

    kind = "contract_review"
    extraction_instructions = EXTRACT_INSTRUCTIONS
    findings_view = staticmethod(clause_locations)  # per clause type, where similar contracts kept it
    # a fact about contracts needs three contracts from two counterparties on two templates (issue 31)
    fact_min_counterparties = 2
    fact_min_templates = 2

    def profile(self, state: Mapping[str, Any]) -> TaskProfile:
        contract = state.get("contract")
        if not contract and state.get("task"):  # a task typed by a person (`memory search`): search by it
            return TaskProfile(summary=str(state["task"]))
        contract = require(state, "contract", "profile")
        sections = contract.get("sections") or []
        summary = f"Contract review: {contract_kind(contract.get('text') or '')}, {len(sections)} sections"
        supplier = ((contract.get("parties") or {}).get("supplier") or {}).get("name") or ""
        return TaskProfile(summary=summary, counterparty=company_name(str(supplier)), template=layout(sections))

    def search(self, state: Mapping[str, Any], profile: TaskProfile) -> str:
        """The summary, and the no-model review of this contract (`tools.detect_all`: where the
        detectors place each clause type and how the playbook reads it there), one line each as a
        key finding is written: past reviews of the same template hold the same lines."""
        contract = state.get("contract")
        if not contract:
            return profile.summary
        parsed = Contract.model_validate(contract)
        titles = {s.id: s.title for s in parsed.sections}
        found = detect_all(parsed, _playbook(state))
        return "\n".join([profile.summary, *(finding_line({**f, "section_title": heading(titles.get(f.get("section") or ""))})
                                             for f in found)])

    def observe(self, state: Mapping[str, Any]) -> Observed:
        wanted = list(_playbook(state).clause_types)
        recorded = {f.get("clause_type") for f in state.get("findings") or []}
        open_types = tuple(t for t in wanted if t not in recorded)
        if not open_types:
            outcome = Outcome.COMPLETED
        else:
            outcome = Outcome.PARTIAL if len(open_types) < len(wanted) else Outcome.FAILED
        problems = [Problem("stopped", str(state["stop_reason"]))] if state.get("stop_reason") else []
        problems += [Problem(f"warning-{i}", str(w)) for i, w in enumerate(state.get("warnings") or [], start=1)]
        errors = int((state.get("loop") or {}).get("tool_errors") or 0)
        if errors:
            problems.append(Problem("tool-errors", f"{errors} tool call{'s were' if errors > 1 else ' was'} answered "
                                                   "with an error"))
        return Observed(outcome, open_items=open_types, problems=tuple(problems))

    def item(self, text: str, observed: Observed) -> str | None:
        """A clause type in any spelling the tools accept ("CONFIDENTIALITY", "Limitation of
        Liability"), else the default reading."""
        playbook = load_playbook()
        named = clause_type(str(text), playbook.clause_types, {n: e.title for n, e in playbook.clauses.items()})
        if named in observed.open_items:
            return named
        return super().item(text, observed)

    def _findings(self, state: Mapping[str, Any]) -> list[dict[str, Any]]:
        titles = {s["id"]: s.get("title", "") for s in (state.get("contract") or {}).get("sections") or []}
        return [{**f, "section_title": heading(titles.get(f.get("section") or ""))}
                for f in final_findings(state.get("findings") or [])]

    def results(self, state: Mapping[str, Any]) -> list[str]:
        return [finding_line(f) for f in self._findings(state)]

    def tools_used(self, state: Mapping[str, Any]) -> list[str]:
        # what analyze kept of the tools called (the messages lose what compression replaced)
        calls = [*(state.get("tools_called") or []),
                 *(c["name"] for m in state.get("messages") or [] if isinstance(m, AIMessage) and not made_by_graph(m)
                   for c in m.tool_calls)]
        return list(dict.fromkeys(calls))

    def record(self, state: Mapping[str, Any], profile: TaskProfile, observed: Observed) -> RunArtifacts:
        record = super().record(state, profile, observed)
        return record.model_copy(update={"approach": f"Recorded from the run itself ({len(record.key_findings)} "
                                                     "findings recorded with the contract tools)."})

    def digest(self, state: Mapping[str, Any], record: RunArtifacts, observed: Observed) -> str:
        return render(state_digest(state, task=record.task_summary, findings=self._findings(state),
                                   open_types=observed.open_items, problems=[(p.key, p.text) for p in observed.problems],
                                   tools=record.tools_used, steps=record.step_count))

    def private_names(self, state: Mapping[str, Any], scrubber: Any) -> list[str]:
        """The people the contract names, as the scrubber finds them in its whole text and its file
        name, where a name has its context ("Marisol Etxeberria, an individual", a signature block):
        memory keeps none of them in any field, even where a model's text names one without it."""
        contract = state.get("contract")
        if not contract:  # a run recorded without its contract (a benchmark's consolidation alone)
            return []
        return person_names(contract.get("text") or "", scrubber) + person_names(contract.get("name") or "", scrubber)

    def recalled(self, state: Mapping[str, Any], recalled: Recalled) -> Recalled:
        """Only what holds for this contract (`tools.recall`): each episode keeps the key findings
        whose place this contract bears out (a renumbered place under its number here), and a
        fact that places a clause type in a section is served only where that section reads it.
        A place that does not hold is left out, never offered to be tried. Without a contract (a
        task typed by a person: `memory search`) there is nothing to check against: all of it."""
        contract = state.get("contract")
        if not contract or not contract.get("text"):
            return recalled
        check = LocationCheck(Contract.model_validate(contract), _playbook(state))
        episodes = [scored.model_copy(update={"item": scored.item.model_copy(
            update={"key_findings": check.lines(scored.item.key_findings)})}) for scored in recalled.episodes]
        facts = [scored for scored in recalled.facts if check.fact_holds(scored.item.text)]
        return Recalled(episodes=episodes, facts=facts, procedure=recalled.procedure)

    def first_calls(self, state: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What the graph assesses itself before the reviewer's first turn: per clause type of the
        run's playbook, the remembered sections this contract bears out (`tools.recall`: the tools
        read the clause there, under its number here), best episode first, with `assess_clause`,
        up to the first whose answer names no other section (at most `FIRST_CALLS_PER_TYPE`);
        else, for a remembered absence that holds here, `find_clauses`. The answers are the tools' own: where another provision competes,
        the assessment names it (`other_side`, `elsewhere`) and memory decides nothing."""
        contract = state.get("contract")
        episodes = state.get("episodes") or []
        if not contract or not contract.get("text") or not episodes:
            return []
        playbook = _playbook(state)
        remembered = [[str(line) for line in ((e.get("item") if isinstance(e, Mapping) else None) or {})
                       .get("key_findings") or []] for e in episodes]
        check = LocationCheck(Contract.model_validate(contract), playbook)
        locations = check.locations(remembered)
        calls: list[dict[str, Any]] = []
        for name in playbook.clause_types:
            places = locations.get(name) or []
            sections = [str(p["section"]) for p in places if p.get("section")]
            for section in sections[:FIRST_CALLS_PER_TYPE]:
                calls.append({"name": "assess_clause", "args": {"clause_type": name, "section": section},
                              "omit": FIRST_CALLS_OMIT})
                if check.settled(name, section):  # nothing names another section: the next place is not needed
                    break
            if not sections and any(p.get("absent") for p in places):
                calls.append({"name": "find_clauses", "args": {"clause_type": name}})
        return calls

    def parties(self, state: Mapping[str, Any]) -> list[str]:
        """The contract's parties as its preamble names them (supplier, buyer, any other role): a
        fact naming one (a distinctive word of its name) is refused."""
        contract = state.get("contract") or {}
        roles = (contract.get("parties") or {}).values()
        return [str(p.get("name")).strip() for p in roles if isinstance(p, Mapping) and str(p.get("name") or "").strip()]

    def vocabulary(self, state: Mapping[str, Any]) -> Vocabulary:
        """The playbook's clause types (the names each goes by) and their standard positions."""
        playbook = _playbook(state)
        return Vocabulary(topics=fact_topics(playbook), positions=fact_positions(playbook))
