"""bootstrap: load the contract, read the three durable tiers (one step), build the prompt.

`start_run`, the review graph's first node, makes every invocation that starts at START a run of
its own: a LangGraph server thread keeps its state between runs, so without it a second contract
on a thread would reuse the first run's id (and write no episode: the id is taken) and inherit its
findings, messages and outcome.
"""

from __future__ import annotations

import typing
import uuid
from typing import Any

from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime
from langgraph.types import Overwrite

from agent.prompts import reviewer_system_prompt, task_prompt
from graphs.context import ReviewContext, run_scope
from graphs.memory_steps import build_memory_block, read_memory
from graphs.state import BootstrapOutput, ReviewInput, ReviewState
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


# What a caller's input may set; every other key of the state belongs to one run.
_INPUT_KEYS = frozenset(typing.get_type_hints(ReviewInput)) | {"thread_runs"}


def _empty(hint: Any) -> Any:
    """The value a per-run key starts a run with, from its type."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _empty(typing.get_args(hint)[0])
    if hint is type(None) or type(None) in typing.get_args(hint):
        return None
    base = origin or hint
    return {list: [], dict: {}, str: "", int: 0, float: 0.0, bool: False}.get(base)


_HINTS = typing.get_type_hints(ReviewState, include_extras=True)
_PER_RUN = {key: _empty(hint) for key, hint in _HINTS.items() if key not in _INPUT_KEYS}
_REDUCED = frozenset(key for key, hint in _HINTS.items() if typing.get_origin(hint) is typing.Annotated)


def start_run(state: ReviewState, config: RunnableConfig) -> dict:
    """A new run on this thread: its own run id, and every per-run key back to empty.

    The run id is the caller's (`run_id` in the input) unless a run on this thread already used it,
    which is what a server thread's second run finds in its state (but a CLI thread, keyed
    `tenant/agent/run id`, belongs to that one id); then the server's own id of the run, or a new one. A run resumed from a checkpoint
    does not pass here again, so it keeps its id."""
    used = list(state.get("thread_runs") or [])
    given = state.get("run_id")
    thread = str((config.get("configurable") or {}).get("thread_id") or "")
    # the CLI's thread is its run's own (`tenant/agent/run id`): the same id again is the same run
    if given and (given not in used or thread.rsplit("/", 1)[-1] == given):
        run_id = check_run_id(given)  # the run id keys the episode and the checkpoint thread
    else:
        served = str((config.get("metadata") or {}).get("run_id") or "")
        run_id = served if served and served not in used and _valid_run_id(served) else uuid.uuid4().hex
    update: dict[str, Any] = {"run_id": run_id, "thread_runs": [*used, run_id]}
    for key, empty in _PER_RUN.items():
        if state.get(key):  # only what an earlier run on the thread left
            if key == "messages":
                update[key] = [RemoveMessage(id=REMOVE_ALL_MESSAGES)]
            elif key == "contract" and not state.get("contract_text"):
                continue  # the input's parsed contract (the CLI sends one): this run's
            else:  # past the reducer where there is one (findings accumulate)
                update[key] = Overwrite(empty) if key in _REDUCED else empty
    return update


def _valid_run_id(value: str) -> bool:
    try:
        check_run_id(value)
    except ValueError:
        return False
    return True


def prepare(state: ReviewState, runtime: Runtime[ReviewContext]) -> dict:
    """Parse the contract (if the caller sent text) and state the task memory is searched with."""
    contract = state.get("contract")
    if state.get("contract_text") or not contract:  # text in the input is this run's contract
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
        "contract_name": "",  # kept in the contract; a later run on the thread names its own
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
