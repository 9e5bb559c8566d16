"""A remembered clause that moved is served where it is now (memory's places are checked against
the contract before they are served), without a find_clauses round trip, and memory-off reviews
are unchanged."""

from __future__ import annotations

import uuid

from langchain_core.callbacks import BaseCallbackHandler

from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES
from tools.contract import load_contract
from tools.operations import assess_clause_data
from tools.playbook import load_playbook


class ToolCalls(BaseCallbackHandler):
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def on_llm_end(self, response, **kwargs) -> None:  # noqa: ANN001
        for generations in response.generations:
            for generation in generations:
                self.calls.extend(getattr(generation.message, "tool_calls", None) or [])


def _review(reviewer: Reviewer, name: str) -> list[dict]:
    contract = load_contract(SAMPLES / name, max_bytes=10**8).model_dump()
    handler = ToolCalls()
    run = uuid.uuid4().hex
    reviewer.graph.invoke({"contract": contract, "run_id": run},
                          {"configurable": {"thread_id": run}, "callbacks": [handler], "recursion_limit": 400},
                          context=reviewer.context)
    return handler.calls


def test_a_rejected_assessment_names_the_detectors_best_sections():
    contract = load_contract(SAMPLES / "northwind_msa_03.pdf", max_bytes=10**8)
    result = assess_clause_data(contract, load_playbook(), "audit_rights", "12.2")
    assert result["found"] is False and result["candidates"][0] == "4.7"


def test_moved_clause_is_assessed_at_the_suggested_section_without_find_clauses(settings):
    with open_checkpointer(settings) as saver:
        warm = Reviewer(settings, saver)
        _review(warm, "northwind_msa_01.pdf")  # audit rights remembered in 12.2 "Audit Rights"
        calls = [c for c in _review(warm, "northwind_msa_03.pdf") if c["args"].get("clause_type") == "audit_rights"]
        # memory's place is checked before it is served (tools.recall): 12.2 does not exist here, the
        # one section under a heading of the remembered words ("Audit") reads the clause: memory
        # serves 4.7, which the graph assesses itself before the reviewer's first turn (issue 29,
        # tests/test_memory_preassessed.py); the reviewer only records it there, no search
        assert [(c["name"], c["args"].get("section")) for c in calls] == [("record_finding", "4.7")]
        cold = [c for c in _review(Reviewer(settings, saver, use_memory=False), "northwind_msa_03.pdf")
                if c["args"].get("clause_type") == "audit_rights"]
        assert cold[0]["name"] == "find_clauses"  # memory off explores first
