"""bootstrap: load the contract, read the three durable tiers (one step), build the prompt."""

from __future__ import annotations

import uuid

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent.prompts import reviewer_system_prompt, task_prompt
from graphs.context import ReviewContext, run_scope
from graphs.memory_steps import build_memory_block, read_memory
from graphs.state import BootstrapOutput, ReviewState
from memory.graph import emit
from memory.pii.base import truncate
from memory.records import check_run_id
from tools.contract import content_id, parse_contract
from tools.detection.parties import identify_parties
from tools.playbook import load_playbook

OPENING_SOURCE_CHARS = 900  # of the contract text the task's opening is taken from


def task_of(contract: dict, task_type: str) -> str:
    """The reviewer's task message: the contract's name and opening. Memory never keeps it (the
    contract agent's profile is what memory keeps and searches by: agent.memory_agent)."""
    return task_prompt(contract["name"], task_type, truncate(contract["text"], OPENING_SOURCE_CHARS))


def prepare(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    """Parse the contract (if the caller sent text) and state the task memory is searched with."""
    contract = state.get("contract")
    if not contract:
        name = state.get("contract_name") or "contract"
        contract = parse_contract(state.get("contract_text") or "", name).model_dump()
    # Who the buyer (our side) and the supplier are, settled once for the run with the user's
    # `we`; every tool reads them from the contract.
    contract = {**contract, "parties": identify_parties(contract["text"], runtime.context.we).as_dict()}
    task = task_of(contract, run_scope(runtime).task_type)
    emit(runtime, progress="contract", sections=len(contract.get("sections") or []))
    return {
        "contract": contract,
        "contract_text": "",  # the parsed contract replaces the raw input in the checkpoint
        # the run id keys the episode and the checkpoint thread: a crafted one is refused here too
        "run_id": check_run_id(state["run_id"]) if state.get("run_id") else uuid.uuid4().hex,
        "task": task,
        "source_id": content_id(contract["text"]),
    }


def compose_prompt(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    """System prompt (playbook clause types + memory block) and the task message."""
    playbook = load_playbook()
    system = reviewer_system_prompt(playbook.clause_types, state.get("memory_block", ""))
    return {"messages": [SystemMessage(system), HumanMessage(state["task"])]}


# The reviewer's block shows, per clause type, where similar contracts kept it (agent/memory_view.py).
review_memory_block = build_memory_block


def build_bootstrap() -> StateGraph:
    builder = StateGraph(ReviewState, context_schema=ReviewContext, output_schema=BootstrapOutput)
    builder.add_node("prepare", prepare)
    builder.add_node("read_memory", read_memory)
    builder.add_node("build_memory_block", review_memory_block)
    builder.add_node("compose_prompt", compose_prompt)
    builder.add_edge(START, "prepare")
    # one step reads the three tiers: concurrently where the backend's reads wait on the network
    # (graphs.memory_steps.read_memory), the fork template's fan-out of three nodes works too
    builder.add_edge("prepare", "read_memory")
    builder.add_edge("read_memory", "build_memory_block")
    builder.add_edge("build_memory_block", "compose_prompt")
    builder.add_edge("compose_prompt", END)
    return builder
