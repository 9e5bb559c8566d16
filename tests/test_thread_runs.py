"""Several runs on one thread (as a LangGraph server client runs them): each is a run of its own.

A server thread keeps its state between runs. The second contract on a thread must get its own
run id and write its own episode, and nothing of the first run (its findings, messages, outcome,
contract name) may leak into the second's report.
"""

from __future__ import annotations

from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from graphs.runner import Reviewer
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES

FIRST, SECOND = "northwind_msa_01", "northwind_msa_02"


def _input(name: str, **extra) -> dict:
    return {"contract_text": (SAMPLES / f"{name}.txt").read_text(), "contract_name": name, **extra}


def test_two_contracts_on_one_thread_are_two_runs_with_two_episodes(home):
    settings = Settings(home=home)
    reviewer = Reviewer(settings, InMemorySaver())
    config = {"configurable": {"thread_id": "client-thread"}, "recursion_limit": 200}
    first = reviewer.graph.invoke(_input(FIRST), config, context=reviewer.context)
    second = reviewer.graph.invoke({"contract_text": (SAMPLES / f"{SECOND}.txt").read_text()}, config,
                                   context=reviewer.context)
    elsewhere = Reviewer(Settings(home=home / "alone"), InMemorySaver())  # the same contract, alone on a thread
    alone = elsewhere.graph.invoke(_input(SECOND), {"configurable": {"thread_id": "t"}, "recursion_limit": 200},
                                   context=elsewhere.context)

    assert first["run_id"] and second["run_id"] and first["run_id"] != second["run_id"]
    assert second["memory_writes"]["episode"] == second["run_id"]
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    assert sorted(e.run_id for e in memory.episodes.list(ns, limit=10)) == sorted([first["run_id"], second["run_id"]])
    # the second run's state is its own: the findings, the contract and its name, the messages
    assert second["contract"]["name"] != FIRST
    assert second["contract"]["text"] == alone["contract"]["text"]
    assert sorted((f["clause_type"], f["verdict"]) for f in second["findings"]) == \
        sorted((f["clause_type"], f["verdict"]) for f in alone["findings"])
    assert not {m.id for m in first["messages"]} & {m.id for m in second["messages"]}
    assert [m.type for m in second["messages"]].count("system") == 1
    # its counters count its own calls only
    assert second["usage"]["tool_calls"] == sum(m.type == "tool" for m in second["messages"])


def test_a_caller_reusing_a_run_id_on_its_thread_gets_a_new_one(home):
    settings = Settings(home=home)
    reviewer = Reviewer(settings, InMemorySaver())
    config = {"configurable": {"thread_id": "client-thread"}, "recursion_limit": 200}
    first = reviewer.graph.invoke(_input(FIRST, run_id="mine-1"), config, context=reviewer.context)
    again = reviewer.graph.invoke(_input(SECOND, run_id="mine-1"), config, context=reviewer.context)
    assert first["run_id"] == "mine-1"
    assert again["run_id"] != "mine-1" and again["memory_writes"]["episode"] == again["run_id"]
