"""The invoice checker's graph, on the memory core's generic steps. Exports `builder`, `graph` (what
langgraph.json serves: compiled without a checkpointer, the server brings its own) and
`build_graph(checkpointer)` for in-process runs.

    prepare -> read_memory -> build_memory_block -> compose_prompt -> checker <-> tools
            -> finish -> extract_artifacts -> episodic_write -> semantic_write -> procedural_write

`prepare`, `compose_prompt`, `checker`, `tools` and `finish` are this agent's; the memory nodes are
`memory.graph.MemorySteps` bound to its `InvoiceMemoryAgent` and to its run scope
(`invoice_scope`: the generic `graphs.context.run_scope`, with this agent's stand-in as every model
the run's services do not name). The checker's model is bound to the agent's tools and, when
memory is on, to the memory tools (`search_memory`, `remember`).
"""

from __future__ import annotations

import uuid
from dataclasses import field, replace
from typing import Annotated, Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime
from pydantic import ConfigDict, Field
from pydantic.dataclasses import dataclass as validated_dataclass

from examples.invoice_check import prompts
from examples.invoice_check.checks import CHECKS, decision
from examples.invoice_check.memory_agent import KIND, InvoiceMemoryAgent
from examples.invoice_check.records import books_of, content_id, invoice_of
from examples.invoice_check.standin import InvoiceStandIn
from examples.invoice_check.state import InvoiceInput, InvoiceOutput, InvoiceState
from examples.invoice_check.tools import TOOLS, latest_results
from graphs.context import ID_PATTERN, ReviewContext, RunScope, run_scope
from graphs.state import add_usage
from memory.graph import MemorySteps, emit
from memory.graph.tools import memory_tools
from memory.records import check_run_id

AGENT, DOMAIN = "invoice-checker", "supplier_invoices"
STEP_BUDGET = 16  # model turns; the stand-in needs 4 to 7
MAX_NUDGES = 2  # prose turns in a row, while checks are open, answered with what is open
STAND_IN = InvoiceStandIn()


@validated_dataclass(kw_only=True, config=ConfigDict(extra="forbid"))
class InvoiceContext(ReviewContext):
    """What a caller may choose for a check: the generic run context with this agent's defaults."""

    agent: Annotated[str, Field(pattern=ID_PATTERN, description="Which of your tenant's agents checks the invoice: "
                                "episodes and procedures are kept per agent.")] = field(default=AGENT)
    task_type: Annotated[str, Field(pattern=ID_PATTERN, description="The kind of task: which validated procedure "
                                    "is served.")] = field(default=KIND)
    domain: Annotated[str, Field(pattern=ID_PATTERN, description="The domain whose facts are retrieved and "
                                 "stored.")] = field(default=DOMAIN)


def invoice_scope(runtime: Any) -> RunScope:
    """The run's scope: `graphs.context.run_scope`, with this agent's stand-in for each model role
    the run's services leave unset (the contract reviewer's settings name its own stand-in, which
    checks no invoice)."""
    run = run_scope(runtime)
    services = run.services
    models = {role: getattr(services, role) or STAND_IN
              for role in ("reviewer_model", "compression_model", "extraction_model")}
    return replace(run, services=replace(services, **models))


def context(settings: Any, **options: Any) -> Any:
    """An in-process run's context (`graphs.context.context_from_settings`) with this agent's id,
    task type and domain unless `options` name others."""
    from graphs.context import context_from_settings

    return context_from_settings(settings, **{"agent": AGENT, "task_type": KIND, "domain": DOMAIN, **options})


STEPS = MemorySteps(InvoiceMemoryAgent(), scope=invoice_scope)
MEMORY_TOOLS = memory_tools(scope=invoice_scope)
ALL_TOOLS = [*TOOLS, *MEMORY_TOOLS]


def prepare(state: InvoiceState, runtime: Runtime[InvoiceContext]) -> dict:
    """Validate the input before anything is read or written (a bad invoice: InvoiceError)."""
    invoice = invoice_of(state.get("invoice"))
    books_of(state.get("books"))
    emit(runtime, progress="invoice", lines=len(invoice.lines))
    return {"invoice": invoice.model_dump(), "source_id": content_id(invoice),
            "run_id": check_run_id(state["run_id"]) if state.get("run_id") else uuid.uuid4().hex}


def compose_prompt(state: InvoiceState) -> dict:
    invoice = invoice_of(state["invoice"])
    task = prompts.TASK.format(number=invoice.invoice_number, supplier=invoice.supplier, lines=len(invoice.lines),
                               total=invoice.total, currency=invoice.currency)
    return {"messages": [SystemMessage(prompts.system_prompt(state.get("memory_block", ""))), HumanMessage(task)]}


def checker(state: InvoiceState, runtime: Runtime[InvoiceContext]) -> dict:
    """One model step: the next tool calls, or the closing text. Ends the loop at the step budget,
    and after MAX_NUDGES prose turns in a row while checks are still open."""
    scope = invoice_scope(runtime)
    model = scope.resources().reviewer
    bound = model.bind_tools(ALL_TOOLS if scope.use_memory else TOOLS)
    steps = state.get("steps", 0) + 1
    try:
        answer = bound.invoke(state["messages"])
    except Exception as exc:
        scope.model_failed(exc, role="reviewer", model=model)  # a setup mistake raises a configuration error
        raise
    usage = add_usage(state.get("usage"), {**scope.usage(model, answer), "tool_calls": len(answer.tool_calls)})
    update: dict[str, Any] = {"steps": steps, "usage": usage, "messages": [answer]}
    if answer.tool_calls:
        called = [c["name"] for c in answer.tool_calls]
        update["tools_called"] = list(dict.fromkeys([*(state.get("tools_called") or []), *called]))
        if steps >= STEP_BUDGET:
            update["messages"] = [AIMessage(f"Stopped after {steps} model steps (the step budget).")]
            update["stop_reason"] = f"step budget of {STEP_BUDGET} model steps used up"
        return update
    open_checks = [c for c in CHECKS if c not in latest_results(state)]
    nudges = sum(1 for _ in _trailing_nudges(state["messages"]))
    if open_checks and steps < STEP_BUDGET and nudges < MAX_NUDGES:
        update["messages"] = [answer, HumanMessage(f"{NUDGE} No result yet for: {', '.join(open_checks)}. "
                                                   "Call run_check for each (after get_purchase_order and match_lines).")]
    elif open_checks:
        update["stop_reason"] = "the model stopped calling tools with checks still open"
    emit(runtime, progress="checker", step=steps, checks=len(CHECKS) - len(open_checks))
    return update


NUDGE = "Continue the check with the tools."


def _trailing_nudges(messages: list) -> list:
    out = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage) and str(message.content).startswith(NUDGE):
            out.append(message)
        elif not isinstance(message, AIMessage) or message.tool_calls:
            break
    return out


def route(state: InvoiceState) -> str:
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    return "checker" if isinstance(last, HumanMessage) else "finish"


def finish(state: InvoiceState) -> dict:
    """The decision, from the recorded results only."""
    last = state["messages"][-1]
    return {"decision": decision(list(latest_results(state).values())), "final": str(last.content),
            "stop_reason": state.get("stop_reason", "")}


def after_extraction(state: InvoiceState, runtime: Runtime[InvoiceContext]) -> str:
    return "episodic_write" if invoice_scope(runtime).use_memory else END


def build_builder(*, steps: MemorySteps = STEPS, output_schema: type | None = None) -> StateGraph:
    """The graph's builder; `steps` binds the memory nodes (a test binds them to another scope)."""
    builder = StateGraph(InvoiceState, context_schema=InvoiceContext, input_schema=InvoiceInput,
                         output_schema=output_schema)
    builder.add_node("prepare", prepare)
    for name in ("read_memory", "build_memory_block", "extract_artifacts", "episodic_write", "semantic_write",
                 "procedural_write"):
        builder.add_node(name, getattr(steps, name))
    builder.add_node("compose_prompt", compose_prompt)
    builder.add_node("checker", checker)
    builder.add_node("tools", ToolNode(ALL_TOOLS))
    builder.add_node("finish", finish)
    for a, b in (("prepare", "read_memory"), ("read_memory", "build_memory_block"),
                 ("build_memory_block", "compose_prompt"), ("compose_prompt", "checker"), ("tools", "checker"),
                 ("finish", "extract_artifacts"), ("episodic_write", "semantic_write"),
                 ("semantic_write", "procedural_write"), ("procedural_write", END)):
        builder.add_edge(a, b)
    builder.add_edge(START, "prepare")
    builder.add_conditional_edges("checker", route, ["tools", "checker", "finish"])
    builder.add_conditional_edges("extract_artifacts", after_extraction, ["episodic_write", END])
    return builder


def build_graph(checkpointer: BaseCheckpointSaver | None = None, *, steps: MemorySteps = STEPS):
    """The graph compiled for in-process runs (an in-memory checkpointer unless one is given)."""
    return build_builder(steps=steps).compile(checkpointer=checkpointer or InMemorySaver())


builder = build_builder()
graph = build_builder(output_schema=InvoiceOutput).compile()
