"""Issue 33, "the memory core imports no domain": `memory/` and its graph steps (`memory.graph`)
depend only on the small typed interface an agent implements (`memory.graph.MemoryAgent`) and on
a run scope (`memory.graph.MemoryScope`); the contract reviewer is one implementation. A fork
that leaves out what the steps need gets an error naming the state key and the interface
method, and one that forgets its extraction gets a clear error, never a silent FAILED episode.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Annotated

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.runtime import Runtime

from memory.errors import MemoryConfigError
from memory.graph import MemoryAgent, MemoryState, MemorySteps, MissingStateKey, Observed
from memory.records import Namespace, Outcome
from tests.conftest import ROOT

CONTRACT_CODE = ("tools", "agent.prompts", "agent.offline", "agent.report", "agent.memory_agent", "graphs.review",
                 "graphs.bootstrap", "graphs.analyze", "graphs.consolidate", "graphs.memory_steps")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_memory_core_and_the_run_scope_load_no_contract_code():
    """What a fork imports to run its own graph: the memory core, the run scope, the runner's
    context and checkpointer. None of it loads the contract tools, prompts, stand-in or graph."""
    loaded = _loaded_after("import memory.graph, graphs.context, graphs.state\n"
                           "from graphs.runner import context_from_settings, open_checkpointer")
    leaked = sorted(m for m in loaded if any(m == c or m.startswith(c + ".") for c in CONTRACT_CODE))
    assert not leaked, leaked


def test_an_import_linter_contract_keeps_the_memory_core_free_of_every_domain():
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    core = next(c for c in contracts if c["id"] == "memory-core")
    assert core["type"] == "forbidden" and core["source_modules"] == ["memory"]
    assert {"tools", "agent", "graphs", "cli", "bench"} <= set(core["forbidden_modules"])
    fork = next(c for c in contracts if c["id"] == "generic-run")
    assert {"graphs.context", "graphs.state"} <= set(fork["source_modules"])


# ---------------------------------------------------------------- a fork with nothing of its own


class NotesState(MemoryState, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    note: str


class Notes(MemoryAgent):
    """The smallest agent: every method the interface has a default for is left to it."""

    kind = "notes"
    extraction_instructions = "TASK: extract-run-artifacts\nDistil this note-taking run as JSON."


def _graph(steps: MemorySteps, *, reads: bool = True):
    from graphs.context import ReviewContext

    builder = StateGraph(NotesState, context_schema=ReviewContext)
    chain = ["read_memory", "build_memory_block", "extract_artifacts", "episodic_write"] if reads else [
        "extract_artifacts", "episodic_write"]
    for name in chain:
        builder.add_node(name, getattr(steps, name))
    builder.add_edge(START, chain[0])
    for a, b in zip(chain, chain[1:], strict=False):
        builder.add_edge(a, b)
    builder.add_edge(chain[-1], END)
    return builder.compile()


def _scope(settings, **services):
    from graphs.context import run_scope
    from graphs.runner import context_from_settings

    ctx = context_from_settings(settings, tenant="acme", agent="notes-bot", task_type="notes", domain="notes",
                                **services)
    return ctx, run_scope


ANSWER = {"outcome": "COMPLETED", "approach": "wrote it down", "reusable_patterns": [], "fact_candidates": [],
          "procedure": None}


def test_a_missing_state_key_names_the_key_and_the_interface_method(settings):
    ctx, scope = _scope(settings, extraction_model=GenericFakeChatModel(messages=iter([AIMessage(json.dumps(ANSWER))])))
    graph = _graph(MemorySteps(Notes(), scope=scope))
    with pytest.raises(MissingStateKey) as read:
        graph.invoke({"run_id": "n1"}, context=ctx)
    assert "'task'" in str(read.value) and "MemoryAgent.profile" in str(read.value)
    with pytest.raises(MissingStateKey) as write:
        graph.invoke({"run_id": "n2", "task": "Write down the meeting notes"}, context=ctx)
    assert "'outcome_hint'" in str(write.value) and "MemoryAgent.observe" in str(write.value)
    done = graph.invoke({"run_id": "n3", "task": "Write down the meeting notes", "outcome_hint": "COMPLETED",
                         "results": ["notes filed under weekly"]}, context=ctx)
    assert done["artifacts"]["outcome"] == "COMPLETED" and done["memory_writes"]["episode"] == "n3"


@pytest.mark.parametrize("reads", [True, False])
def test_a_fork_that_forgets_its_extraction_model_gets_a_clear_error_and_writes_nothing(settings, reads):
    """The default extraction model is the offline stand-in, which distils contract reviews only."""
    ctx, scope = _scope(settings)
    graph = _graph(MemorySteps(Notes(), scope=scope), reads=reads)
    state = {"run_id": "n1", "task": "Write down the meeting notes", "outcome_hint": "COMPLETED", "results": ["x"]}
    with pytest.raises(MemoryConfigError) as refused:
        graph.invoke(state, context=ctx)
    message = str(refused.value)
    assert "offline" in message and "contract" in message and "notes" in message and "extraction model" in message
    from memory.backends import open_memory

    memory = open_memory(settings.resolved_memory_url())
    assert memory.episodes.list(Namespace(tenant="acme", agent="notes-bot"), limit=5) == []


def test_the_steps_read_their_scope_from_the_runtime_the_agent_gives(settings):
    """Any object with the MemoryScope attributes will do: the steps ask for nothing else."""
    ctx, scope = _scope(settings, extraction_model=GenericFakeChatModel(messages=iter([AIMessage(json.dumps(ANSWER))])))
    seen = []

    def spy(runtime: Runtime):
        seen.append(runtime)
        return scope(runtime)

    graph = _graph(MemorySteps(Notes(), scope=spy))
    graph.invoke({"run_id": "n4", "task": "Write notes", "outcome_hint": "PARTIAL", "results": []}, context=ctx)
    assert seen and all(r.context is ctx for r in seen)


def test_observed_is_what_the_outcome_is_settled_from():
    observed = Observed(Outcome.PARTIAL, open_items=("insurance",))
    assert observed.outcome == Outcome.PARTIAL and observed.open_items == ("insurance",)
