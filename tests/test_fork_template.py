"""A fork keeps `memory/` and its graph steps (`memory.graph`) as they are.

This builds a small agent that has nothing to do with contracts (it triages support tickets)
on the same tiers and steps: its `MemoryAgent` says what the task is, how a run ended and what
it found, from the fork's own state keys; the three reads run as parallel nodes. It checks that
all three durable tiers work for it (what it imports loads no contract code: tests/test_memory_core.py).
"""

from __future__ import annotations

import json
from typing import Annotated

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.runtime import Runtime

from graphs.context import ReviewContext, context_from_settings, run_scope
from memory.graph import MemoryAgent, MemoryState, MemorySteps, Observed, TaskProfile
from memory.records import Namespace, Outcome, ProcedureStatus

TRIAGE_EXTRACT = "TASK: extract-run-artifacts\nDistil this ticket-triage run as JSON."


class TriageState(MemoryState, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    ticket: str
    route: str


class TriageAgent(MemoryAgent):
    """What the memory core asks of the fork, answered from the fork's own keys."""

    kind = "ticket_triage"
    extraction_instructions = TRIAGE_EXTRACT

    def profile(self, state):
        return TaskProfile(summary=f"Triage ticket: {state['ticket']}")

    def observe(self, state):
        return Observed(Outcome.COMPLETED if state.get("route") else Outcome.FAILED,
                        open_items=() if state.get("route") else ("route",))

    def results(self, state):
        return [f"ticket routed to {state['route']}"] if state.get("route") else []


STEPS = MemorySteps(TriageAgent(), scope=run_scope)


def triage(state: TriageState, runtime: Runtime[ReviewContext]) -> dict:
    """The fork's own step: it sees the memory block in its system prompt."""
    system = "You triage support tickets.\n" + state.get("memory_block", "")
    return {"messages": [SystemMessage(system), HumanMessage(state["ticket"]), AIMessage("route: billing")],
            "route": "billing"}


def build_triage_graph(steps: MemorySteps = STEPS, state: type = TriageState):
    builder = StateGraph(state, context_schema=ReviewContext)
    for name in ("episodic_read", "semantic_read", "procedural_read", "build_memory_block", "extract_artifacts",
                 "episodic_write", "semantic_write", "procedural_write"):
        builder.add_node(name, getattr(steps, name))
    builder.add_node("triage", triage)
    reads = ["episodic_read", "semantic_read", "procedural_read"]
    for read in reads:
        builder.add_edge(START, read)
    builder.add_edge(reads, "build_memory_block")
    chain = ["build_memory_block", "triage", "extract_artifacts", "episodic_write", "semantic_write", "procedural_write"]
    for a, b in zip(chain, chain[1:], strict=False):
        builder.add_edge(a, b)
    builder.add_edge("procedural_write", END)
    return builder.compile(checkpointer=InMemorySaver())


ARTIFACTS = {
    "task_summary": "Triage ticket: customer double-charged on invoice for the annual plan",
    "outcome": "COMPLETED",
    "key_findings": ["double charge on annual plan routed to billing"],
    "approach": "matched keywords charge/invoice",
    "tools_used": [],
    "step_count": 1,
    "reusable_patterns": ["charges and invoices go to billing"],
    "fact_candidates": [{"text": "Double charges are handled by the billing team", "domain": "support", "confidence": 0.9}],
    "procedure": {"title": "Triage a billing ticket", "steps": ["Read the ticket", "Look for charge words", "Route to billing"]},
}


def test_a_non_contract_agent_uses_all_three_tiers(settings):
    extractor = GenericFakeChatModel(messages=iter([AIMessage(json.dumps(ARTIFACTS))] * 10))
    ctx = context_from_settings(
        settings, tenant="acme", agent="triage-bot", task_type="ticket_triage", domain="support",
        extraction_model=extractor,
    )
    graph = build_triage_graph()
    ticket = "I was charged twice on my invoice for the annual plan"
    states = []
    for i in range(3):
        states.append(graph.invoke(
            {"ticket": ticket, "run_id": f"t{i}"}, {"configurable": {"thread_id": f"t{i}"}}, context=ctx,
        ))
    first, second, third = states
    assert first["memory_block"] == ""  # nothing remembered yet
    assert "Triage ticket" in second["memory_block"]  # the first run came back as an episode
    assert "ticket routed to billing" in second["memory_block"]  # what the run found, from its state
    assert first["artifacts"]["outcome"] == "COMPLETED"  # what the fork observed
    assert first["artifacts"]["key_findings"] == ["ticket routed to billing"]
    assert second["facts"] == []  # one or two runs do not confirm a fact
    assert third["memory_writes"]["facts_confirmed"]  # the third distinct run does

    from memory.backends import open_memory

    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant="acme", agent="triage-bot")
    (procedure,) = memory.procedures.list(ns)
    assert procedure.status == ProcedureStatus.PENDING and procedure.task_type == "ticket_triage"
    assert third["procedure"] is None  # pending procedures are never served
    memory.procedures.set_status(ns, procedure.procedure_id, ProcedureStatus.VALIDATED, by="test")

    fourth = graph.invoke({"ticket": ticket, "run_id": "t3"}, {"configurable": {"thread_id": "t3"}}, context=ctx)
    assert "Double charges are handled by the billing team".lower() in fourth["memory_block"].lower()
    assert "Triage a billing ticket" in fourth["memory_block"]
    assert "1. Read the ticket" in fourth["memory_block"]
