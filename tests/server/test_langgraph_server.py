"""The review graph served by `langgraph dev` and driven through `langgraph_sdk`, as a client would."""

from __future__ import annotations

import asyncio

import pytest
from langgraph_sdk import get_client, get_sync_client

from memory.backends import open_memory
from memory.records import Namespace, ProcedureStatus
from tests.conftest import SAMPLES
from tests.server.harness import langgraph_dev

ASSISTANT = "contract_review"  # the graph id in langgraph.json
NS = Namespace(tenant="acme", agent="server-reviewer")
CONTRACTS = ("northwind_msa_01", "northwind_msa_02")


@pytest.fixture
def served(tmp_path):  # one server per test: the whole client journey runs in one test to start it once
    with langgraph_dev(tmp_path, {"CONTRACT_AGENT_HOME": str(tmp_path / "server-home")}) as server:
        yield server


def review_context(memory_url: str, **overrides) -> dict:
    """The graph's configurable inputs, as JSON a remote client sends (ReviewContext fields)."""
    return {
        "tenant": NS.tenant, "agent": NS.agent, "task_type": "supplier_contract_review",
        "domain": "supplier_contracts", "reviewer_model": "offline", "compression_model": "offline",
        "extraction_model": "offline", "embeddings": "wordllama", "memory": memory_url,
        "approve_procedures": True, **overrides,
    }


def contract_input(name: str) -> dict:
    return {"contract_text": (SAMPLES / f"{name}.txt").read_text(), "contract_name": name}


def planted(expected: list[dict]) -> set[tuple[str, str]]:
    return {(e["clause_type"], e["verdict"]) for e in expected if e["verdict"] in ("deviation", "missing")}


def test_a_full_review_streams_pauses_for_approval_resumes_and_reports_bad_contexts(served, tmp_path, expected_findings):
    memory_url = f"sqlite:///{tmp_path / 'memory.sqlite'}"
    context = review_context(memory_url)
    client = get_sync_client(url=served.url, timeout=60)
    [assistant] = client.assistants.search(graph_id=ASSISTANT)
    assert assistant["graph_id"] == ASSISTANT
    thread = client.threads.create()

    nodes, values = [], []
    for part in client.runs.stream(
        thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[0]), context=context,
        stream_mode=["updates", "values"],
    ):
        assert part.event != "error", part.data
        if part.event == "updates":
            nodes.extend(part.data)
        elif part.event == "values":
            values.append(part.data)
    assert nodes == ["bootstrap", "analyze", "consolidate", "__interrupt__"]
    assert values and values[-1]["final_review"]

    state = client.threads.get_state(thread["thread_id"])
    assert state["next"] == ["approve_procedure"]
    [pending] = state["interrupts"]
    request = pending["value"]
    assert request["kind"] == "approve_procedure" and request["tenant"] == NS.tenant
    assert request["procedure"]["status"] == "pending" and request["procedure"]["steps"]
    found = {(f["clause_type"], f["verdict"]) for f in state["values"]["findings"]}
    assert planted(expected_findings[CONTRACTS[0]]) <= found
    run_id = state["values"]["run_id"]
    memory = open_memory(memory_url)
    assert memory.episodes.get(NS, run_id) is not None  # consolidated before the question
    assert memory.procedures.get(NS, request["procedure"]["procedure_id"]).status == ProcedureStatus.PENDING

    final = client.runs.wait(
        thread["thread_id"], ASSISTANT, command={"resume": {"approve": True, "by": "Dana Reyes"}}, context=context,
    )
    assert final["memory_writes"]["procedure_review"]["status"] == "validated"
    assert client.threads.get_state(thread["thread_id"])["next"] == []
    approved = memory.procedures.get(NS, request["procedure"]["procedure_id"])
    assert approved.status == ProcedureStatus.VALIDATED and approved.validated_by == "Dana Reyes"

    # A second review on a new thread is served the approved procedure and asks nobody.
    second = client.runs.wait(None, ASSISTANT, input=contract_input(CONTRACTS[1]), context=context)
    assert second["procedure"]["procedure_id"] == approved.procedure_id
    assert [e["item"]["run_id"] for e in second["episodes"]] == [run_id], "the first review is remembered"
    assert "__interrupt__" not in second

    # The async client, on the same server: a bad context fails the run with the reason.
    asyncio.run(_bad_context_run(served.url))


async def _bad_context_run(url: str) -> None:
    """A memory URL of an unknown scheme: the run errors, and the thread says what to use instead."""
    client = get_client(url=url, timeout=60)
    thread = await client.threads.create()
    bad = review_context("mongodb://nowhere", approve_procedures=False)
    run = await client.runs.create(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[0]), context=bad)
    await client.runs.join(thread["thread_id"], run["run_id"])
    finished = await client.runs.get(thread["thread_id"], run["run_id"])
    assert finished["status"] == "error"
    thread_state = await client.threads.get(thread["thread_id"])
    assert thread_state["status"] == "error"
    error = str(thread_state.get("error") or finished)
    assert "mongodb" in error and "sqlite" in error, error  # the message says what to use instead
