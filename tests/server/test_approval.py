"""Human-in-the-loop procedure approval, in process: interrupt after consolidate, resume with a decision."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from agent.settings import Settings
from graphs.runner import build_graph, context_from_settings
from memory.backends import open_memory
from memory.records import Namespace, ProcedureStatus
from tests.conftest import SAMPLES

NS = Namespace(tenant="acme", agent="reviewer-1")


def _text(name: str) -> str:
    return (SAMPLES / f"{name}.txt").read_text()


@pytest.fixture
def memory_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'memory.sqlite'}"


@pytest.fixture
def run(memory_url):
    graph = build_graph(InMemorySaver())

    def run(thread: str, payload, *, approve: bool = True, contract: str = "northwind_msa_01"):
        ctx = context_from_settings(
            Settings(), tenant=NS.tenant, agent=NS.agent, memory=memory_url, approve_procedures=approve,
            reviewer_model="offline", compression_model="offline", extraction_model="offline",
            embeddings="wordllama",
        )
        config = {"configurable": {"thread_id": thread}, "recursion_limit": 400}
        if payload is None:
            payload = {"contract_text": _text(contract), "contract_name": contract}
        state = graph.invoke(payload, config, context=ctx)
        return state, graph.get_state(config)

    return run


def _procedures(memory_url):
    return open_memory(memory_url).procedures.list(NS)


def _pending_request(state) -> dict:
    interrupts = state.get("__interrupt__") or []
    assert len(interrupts) == 1, f"expected one pending approval, got {interrupts}"
    return interrupts[0].value


def test_a_proposed_procedure_waits_for_approval_and_is_served_once_approved(run, memory_url):
    state, snapshot = run("t1", None)
    request = _pending_request(state)
    assert snapshot.next == ("approve_procedure",)
    assert request["kind"] == "approve_procedure" and request["run_id"]
    proposed = request["procedure"]
    assert proposed["status"] == "pending" and proposed["steps"], "the person sees the steps to judge"
    assert "approve" in request["instructions"]
    [stored] = _procedures(memory_url)
    assert stored.status == ProcedureStatus.PENDING  # nothing is served while the question is open

    state, snapshot = run("t1", Command(resume={"approve": True, "by": "Dana Reyes"}))
    assert not snapshot.next and "__interrupt__" not in state
    assert state["memory_writes"]["procedure_review"] == {
        "procedure_id": proposed["procedure_id"], "status": "validated", "by": "Dana Reyes", "asked": True,
    }
    [stored] = _procedures(memory_url)
    assert stored.status == ProcedureStatus.VALIDATED and stored.validated_by == "Dana Reyes"
    assert state["final_review"] and state["memory_writes"]["episode"] == state["run_id"]

    # The next similar review is served the approved procedure and, proposing the same steps,
    # asks nobody again.
    state, snapshot = run("t2", None, contract="northwind_msa_02")
    assert state["procedure"]["procedure_id"] == proposed["procedure_id"]
    assert "__interrupt__" not in state and not snapshot.next
    assert state["memory_writes"]["procedure_review"]["asked"] is False


def test_rejecting_keeps_the_procedure_for_the_record_but_never_serves_it(run, memory_url):
    state, _ = run("t1", None)
    procedure_id = _pending_request(state)["procedure"]["procedure_id"]
    state, _ = run("t1", Command(resume={"approve": False, "by": "Dana Reyes"}))
    assert state["memory_writes"]["procedure_review"]["status"] == "rejected"
    [stored] = _procedures(memory_url)
    assert stored.procedure_id == procedure_id and stored.status == ProcedureStatus.REJECTED
    state, _ = run("t2", None, contract="northwind_msa_02", approve=False)
    assert state["procedure"] is None


@pytest.mark.parametrize(
    "answer, complaint",
    [({"approve": "yes", "by": "Dana"}, "true or false"), ({"approve": True, "by": " "}, "name the person"), ("ok", "expected an object")],
)
def test_a_malformed_answer_is_asked_again_with_the_reason(run, memory_url, answer, complaint):
    run("t1", None)
    state, snapshot = run("t1", Command(resume=answer))
    again = _pending_request(state)
    assert complaint in again["error"] and snapshot.next == ("approve_procedure",)
    assert _procedures(memory_url)[0].status == ProcedureStatus.PENDING
    state, snapshot = run("t1", Command(resume={"approve": True, "by": "Dana"}))
    assert not snapshot.next and _procedures(memory_url)[0].status == ProcedureStatus.VALIDATED


def test_without_the_option_the_run_never_pauses_and_the_proposal_stays_pending(run, memory_url):
    state, snapshot = run("t1", None, approve=False)
    assert "__interrupt__" not in state and not snapshot.next
    assert state["memory_writes"]["procedure_proposed"]
    assert [p.status for p in _procedures(memory_url)] == [ProcedureStatus.PENDING]
