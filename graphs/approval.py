"""Human-in-the-loop approval of the procedure a run proposes (the `approve_procedures` option).

With `ReviewContext.approve_procedures` on, the graph pauses after consolidate whenever the run
proposed a procedure that is still pending: `interrupt(...)` hands the caller the procedure, and
the run ends once someone resumes it with `Command(resume={"approve": true, "by": "name"})`
(validated through `memory.procedural.approve`, so it is served from the next run on) or
`{"approve": false, "by": "name"}` (rejected: kept for the record, never served). An answer that
is not of that shape is not guessed at: the node asks again, saying what was wrong.

Without the option nothing pauses and proposals stay pending until approved from the CLI.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from graphs.context import ReviewContext, run_scope
from memory import procedural
from memory.records import ProcedureStatus

APPROVAL_NODE = "approve_procedure"
RESUME_HELP = 'resume with {"approve": true, "by": "<your name>"} to validate it, or {"approve": false, "by": "<your name>"} to reject it'


def needs_approval(state: dict, runtime: Runtime[ReviewContext]) -> str:
    """Route after consolidate: to the approval node only when asked for and something was proposed."""
    ctx = run_scope(runtime)
    proposed = (state.get("memory_writes") or {}).get("procedure_proposed")
    if not (ctx.approve_procedures and ctx.use_memory and proposed):
        return END
    return APPROVAL_NODE


def parse_decision(answer: Any) -> tuple[bool, str]:
    """`{"approve": bool, "by": non-empty str}` -> (approve, by); ValueError says what is wrong."""
    if not isinstance(answer, dict):
        raise ValueError(f"expected an object like {{\"approve\": true, \"by\": \"name\"}}, got {type(answer).__name__}")
    approve = answer.get("approve")
    if not isinstance(approve, bool):
        raise ValueError('"approve" must be true or false')
    by = answer.get("by")
    if not isinstance(by, str) or not by.strip():
        raise ValueError('"by" must name the person deciding')
    return approve, by.strip()


def approve_procedure(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    """Pause with the pending procedure; on resume, validate or reject it as the person decided."""
    ctx = run_scope(runtime)
    store = ctx.resources().memory.procedures
    procedure_id = state["memory_writes"]["procedure_proposed"]
    procedure = store.get(ctx.namespace, procedure_id)
    writes = dict(state.get("memory_writes") or {})
    if procedure is None or procedure.status != ProcedureStatus.PENDING:
        # Already decided (an identical proposal from an earlier run): nothing to ask.
        writes["procedure_review"] = {
            "procedure_id": procedure_id,
            "status": procedure.status.value if procedure else None,
            "by": procedure.validated_by if procedure else None,
            "asked": False,
        }
        return {"memory_writes": writes}
    request: dict[str, Any] = {
        "kind": "approve_procedure",
        "tenant": ctx.tenant,
        "agent": ctx.agent,
        "run_id": state.get("run_id"),
        "procedure": procedure.model_dump(mode="json"),
        "instructions": RESUME_HELP,
    }
    # Each interrupt() call is matched to its own resume value, so asking again after a malformed
    # answer is safe across replays of this node.
    while True:
        answer = interrupt(request)
        try:
            approve, by = parse_decision(answer)
            break
        except ValueError as exc:
            request = {**request, "error": f"{exc}; {RESUME_HELP}"}
    decide = procedural.approve if approve else procedural.reject
    decided = decide(store, ctx.namespace, procedure_id, by=by)
    writes["procedure_review"] = {
        "procedure_id": procedure_id, "status": decided.status.value, "by": by, "asked": True,
    }
    return {"memory_writes": writes}
