"""A tiny contract world with the ARCHITECTURE tool contract, to drive the offline reviewer in tests.

The tools answer the documented JSON; `drive` runs model -> tools until the model answers text,
with an optional working-memory compression before each step (the real `memory.working.compress`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from agent.prompts import reviewer_system_prompt, task_prompt


def list_sections() -> str:
    """List the contract's numbered sections."""
    return ""


def read_section(section: str) -> str:
    """Read one section's text."""
    return section


def search_contract(query: str, k: int = 5) -> str:
    """BM25 search over the sections."""
    return query


def find_clauses(clause_type: str) -> str:
    """Detector candidates for a clause type."""
    return clause_type


def assess_clause(clause_type: str, section: str, record: bool = False) -> str:
    """Assess a clause in a section against the playbook (record=True: and record the finding)."""
    return clause_type


def record_finding(clause_type: str, verdict: str, severity: str, section: str | None = None,
                   quote: str | None = None, recommendation: str | None = None) -> str:
    """Record one finding per clause type."""
    return clause_type


TOOL_SCHEMAS = [list_sections, read_section, search_contract, find_clauses, assess_clause, record_finding]
SEVERITY = {"liability_cap": "high", "governing_law": "medium", "warranty": "high", "audit_rights": "low"}


@dataclass
class World:
    """Sections with text, where each clause type sits, and the verdict the assessor gives."""

    sections: dict[str, str]
    located: dict[str, str]  # clause type -> section holding it
    verdicts: dict[str, str] = field(default_factory=dict)  # default "deviation"
    decoys: dict[str, str] = field(default_factory=dict)  # clause type -> a wrong section the detector ranks first
    failing: dict[str, int] = field(default_factory=dict)  # tool name -> how many calls fail first
    echoes: dict[str, str] = field(default_factory=dict)  # clause type -> another section the assessor also reads it in
    findings: dict[str, dict] = field(default_factory=dict)

    def _fail(self, name: str) -> str | None:
        if self.failing.get(name, 0) > 0:
            self.failing[name] -= 1
            return json.dumps({"error": f"{name} is temporarily unavailable"})
        return None

    def run(self, name: str, args: dict[str, Any]) -> str:
        failed = self._fail(name)
        if failed:
            return failed
        return json.dumps(getattr(self, f"_{name}")(**args))

    def _list_sections(self) -> dict:
        return {"sections": [{"id": s, "title": f"Section {s}", "start": 0, "end": 1} for s in self.sections]}

    def _read_section(self, section: str) -> dict:
        if section not in self.sections:
            return {"error": f"unknown section {section!r}"}
        return {"section": section, "title": f"Section {section}", "start": 0, "end": 1, "text": self.sections[section]}

    def _search_contract(self, query: str, k: int = 5) -> dict:
        words = set(query.lower().split()) - {"clause"}
        scored = [(sum(w in text.lower() for w in words), s) for s, text in self.sections.items()]
        hits = [s for score, s in sorted(scored, key=lambda x: -x[0]) if score > 0][:k]
        return {"hits": [{"section": s, "title": f"Section {s}", "score": 1.0, "snippet": ""} for s in hits]}

    def _find_clauses(self, clause_type: str) -> dict:
        if clause_type not in SEVERITY:
            return {"error": f"unknown clause type {clause_type!r}"}
        sections = [self.decoys[clause_type]] if clause_type in self.decoys else []
        if clause_type in self.located:
            sections.append(self.located[clause_type])
        return {"clause_type": clause_type,
                "candidates": [{"section": s, "quote": self.sections[s][:20], "start": 0, "end": 20, "score": 0.9}
                               for s in sections],
                "if_missing": {"severity": "medium", "recommendation": f"Add a {clause_type} clause."}}

    def _assess_clause(self, clause_type: str, section: str, record: bool = False) -> dict:
        """Like the real tool: with record=True a found clause's proposed finding is recorded and
        the answer is short (citation and `recorded`); otherwise `recorded` is null."""
        assessed = self._assessment(clause_type, section)
        if not record or "error" in assessed:
            return assessed
        if assessed.get("found") is not True:
            return {**assessed, "recorded": None, "not_recorded": "the clause is not in this section"}
        if self.failing.get("record_finding", 0) > 0:  # recording is what fails: say so, record nothing
            return {**assessed, "recorded": None, "not_recorded": "recording is temporarily unavailable"}
        recorded = self._record_finding(clause_type, assessed["verdict"], assessed["severity"], section)["recorded"]
        return {"found": True, "citation": f"Section {section}", "recorded": recorded}

    def _assessment(self, clause_type: str, section: str) -> dict:
        if section not in self.sections:
            return {"error": f"unknown section {section!r}"}
        if section not in (self.located.get(clause_type), self.echoes.get(clause_type)):
            return {"clause_type": clause_type, "section": section, "found": False, "reason": "no such clause here"}
        verdict = self.verdicts.get(clause_type, "deviation")
        return {"clause_type": clause_type, "section": section, "found": True, "quote": self.sections[section],
                "start": 0, "end": len(self.sections[section]), "verdict": verdict,
                "severity": SEVERITY[clause_type] if verdict != "standard" else "none",
                "recommendation": f"Fix {clause_type}.", "rationale": "test"}

    def _record_finding(self, clause_type, verdict, severity, section=None, quote=None, recommendation=None) -> dict:
        if clause_type not in SEVERITY:
            return {"error": f"unknown clause type {clause_type!r}"}
        # like the real tool: an omitted quote is the assessed one, an omitted recommendation the playbook's
        if verdict != "missing" and not quote and section in self.sections:
            quote = self.sections[section]
        recommendation = recommendation or (f"Add a {clause_type} clause." if verdict == "missing" else f"Fix {clause_type}.")
        finding = {"clause_type": clause_type, "section": section, "quote": quote, "start": -1, "end": -1,
                   "verdict": verdict, "severity": severity, "recommendation": recommendation}
        self.findings[clause_type] = finding
        return {"recorded": finding}


def standard_world() -> World:
    return World(
        sections={
            "1": "Definitions of terms used in this agreement.",
            "9.2": "Limitation of liability: the liability cap is the fees paid in the prior month.",
            "14": "Governing law: this agreement is governed by the laws of Texas.",
            "7": "Warranty: the goods are provided as is.",
        },
        located={"liability_cap": "9.2", "governing_law": "14", "warranty": "7"},
    )


def start_messages(clause_types: list[str], memory_block: str = "") -> list[BaseMessage]:
    opening = ('MASTER SUPPLY AGREEMENT This Master Supply Agreement is made between Acme Components Ltd '
               '("Supplier") and Beta Retail Inc ("Customer").')
    return [SystemMessage(reviewer_system_prompt(clause_types, memory_block)),
            HumanMessage(task_prompt("acme_msa.txt", "supplier_contract_review", opening))]


@dataclass
class Run:
    messages: list[BaseMessage]
    tool_calls: list[dict]
    steps: int
    input_tokens: int
    compressions: int = 0

    def calls_named(self, name: str) -> list[dict]:
        return [c for c in self.tool_calls if c["name"] == name]


def drive(model, world: World, messages: list[BaseMessage], *, max_steps: int = 40,
          compress_with=None, threshold: int = 30, keep_recent: int = 15) -> Run:
    """Model <-> tools until a text answer; like the analyze graph, but in a plain loop."""
    from memory.working import compress

    bound = model.bind_tools(TOOL_SCHEMAS)
    run = Run(messages=list(messages), tool_calls=[], steps=0, input_tokens=0)
    for _ in range(max_steps):
        if compress_with is not None:
            squeezed = compress(run.messages, compress_with, threshold=threshold, keep_recent=keep_recent)
            if squeezed is not None:
                run.messages = squeezed.messages
                run.compressions += 1
        answer: AIMessage = bound.invoke(run.messages)
        run.steps += 1
        run.input_tokens += answer.usage_metadata["input_tokens"]
        run.messages.append(answer)
        if not answer.tool_calls:
            return run
        for call in answer.tool_calls:
            run.tool_calls.append(call)
            run.messages.append(ToolMessage(world.run(call["name"], call["args"]), tool_call_id=call["id"],
                                            name=call["name"]))
    raise AssertionError(f"no final answer after {max_steps} steps")
