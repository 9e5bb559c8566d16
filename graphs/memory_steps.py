"""The graph's memory steps: read and write nodes of each durable tier over named state keys.

Nothing here knows about contracts. A fork wires these nodes into its own graph, or drops a tier
by leaving its node out: `episodic_read` fills `episodes`, `semantic_read` fills `facts`,
`procedural_read` fills `procedure` (`read_memory` does all three in one step, concurrently only
where the backend's reads wait on the network), `build_memory_block` turns them into
`memory_block`; `extract_artifacts_node(...)` fills `artifacts`, and the write nodes store them.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from agent.model_errors import raise_for_setup
from graphs.context import ReviewContext, RunScope, run_scope
from graphs.state import add_usage, call_usage
from memory import episodic, extraction, procedural, semantic
from memory.block import FindingsView, format_memory_block, new_nonce
from memory.embeddings import calibrated_thresholds, calibrated_vector_alone, model_name_of
from memory.pii import default_scrubber, scrub_artifacts
from memory.records import Episode, Fact, Outcome, Procedure, RunArtifacts, Scored, worse_outcome
from memory.screen import has_instruction, screen_artifacts
from memory.telemetry import Hit, Tier, record_retrieval
from tools.detection.parties import company_name

log = logging.getLogger(__name__)


def now(ctx: RunScope) -> datetime:
    return ctx.now()


def _thresholds(ctx: RunScope, embeddings: Any) -> tuple[float, float]:
    settings = ctx.config
    if settings.episode_min_score is not None and settings.fact_min_score is not None:
        return settings.episode_min_score, settings.fact_min_score  # set explicitly: any model works
    # The name every stored vector records (e.g. an OllamaEmbeddings' `model`), not only `model_name`.
    episode_min, fact_min = calibrated_thresholds(model_name_of(embeddings))
    if settings.episode_min_score is not None:
        episode_min = settings.episode_min_score
    if settings.fact_min_score is not None:
        fact_min = settings.fact_min_score
    return episode_min, fact_min


def _vector_alone(ctx: RunScope, embeddings: Any) -> float | None:
    """The calibrated cosine that passes an episode search alone; None when the episode
    threshold is set by hand (an uncalibrated model keeps the seed's single threshold)."""
    if ctx.config.episode_min_score is not None:
        return None
    return calibrated_vector_alone(model_name_of(embeddings))


# ---------------------------------------------------------------- read path (bootstrap)


def _record(ctx: RunScope, memory: Any, state: dict, tier: Tier, hits: list[Hit], started: float) -> None:
    """Retrieval telemetry of a run's read (`memory stats`); reads outside a run are not recorded."""
    latency_ms = (time.perf_counter() - started) * 1000
    record_retrieval(memory, ctx.namespace, state.get("run_id"), tier, hits, latency_ms, now(ctx))


def counterparty(state: dict, scrubber: Any = None) -> str:
    """The deal's other side as memory may keep it: the supplier's name when it names an
    organisation (`tools.detection.parties.company_name`: a person's name is never kept), and,
    with a `scrubber`, only when scrubbing leaves it whole and it reads as no instruction."""
    supplier = (((state.get("contract") or {}).get("parties") or {}).get("supplier") or {})
    name = company_name(str(supplier.get("name") or ""))
    if not name or scrubber is None:
        return name
    return name if scrubber.scrub(name).text == name and not has_instruction(name) else ""


def episodic_read(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return {"episodes": []}
    res = ctx.resources()
    episode_min, _ = _thresholds(ctx, res.embeddings)
    started = time.perf_counter()
    found = episodic.recall(
        res.memory.episodes, res.embeddings, ctx.namespace, state["task"],
        k=ctx.config.episode_top_k, min_score=episode_min, now=now(ctx),
        vector_alone=_vector_alone(ctx, res.embeddings), counterparty=counterparty(state),
    )
    _record(ctx, res.memory, state, "episodic", [Hit(id=s.item.run_id, score=s.score) for s in found], started)
    return {"episodes": [s.model_dump(mode="json") for s in found]}


def semantic_read(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return {"facts": []}
    res = ctx.resources()
    _, fact_min = _thresholds(ctx, res.embeddings)
    started = time.perf_counter()
    found = semantic.recall(
        res.memory.facts, res.embeddings, ctx.namespace, state["task"],
        domain=ctx.domain, k=ctx.config.fact_top_k, min_score=fact_min, now=now(ctx),
    )
    _record(ctx, res.memory, state, "semantic", [Hit(id=s.item.fact_id, score=s.score) for s in found], started)
    return {"facts": [s.model_dump(mode="json") for s in found]}


def procedural_read(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    if not ctx.use_memory:
        return {"procedure": None}
    res = ctx.resources()
    started = time.perf_counter()
    best = procedural.best(
        res.memory.procedures, ctx.namespace, ctx.task_type,
        trial_uses=ctx.config.procedure_trial_uses, min_success_rate=ctx.config.procedure_min_success_rate,
    )
    _record(ctx, res.memory, state, "procedural", [Hit(id=best.procedure_id)] if best else [], started)
    return {"procedure": best.model_dump(mode="json") if best else None}


TIER_READS = (episodic_read, semantic_read, procedural_read)
_read_pool: Any = None
_read_pool_lock = threading.Lock()


def _pool() -> Any:
    global _read_pool
    with _read_pool_lock:
        if _read_pool is None:
            from concurrent.futures import ThreadPoolExecutor

            _read_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="memory-read")
        return _read_pool


def read_memory(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    """The three durable tiers read in one step: what `episodic_read`, `semantic_read` and
    `procedural_read` return, merged.

    Concurrently where the backend says its reads wait on the network (`concurrent_reads`: AWS,
    a LangGraph store such as PostgreSQL), so their round trips overlap. One after another in
    the calling thread otherwise: the embedded backends' reads are CPU work in this process,
    which the GIL runs one at a time whatever the threads, and handing them to threads and back
    cost more than it could save (at 100k episodes, warm: bootstrap p50 9.2 ms in three threads
    against 7.2 ms in one; a LangGraph fan-out of three 1 ms nodes took 1.2 ms more than a chain
    of them; docs/BENCHMARKS.md)."""
    ctx = run_scope(runtime)
    concurrent = ctx.use_memory and bool(getattr(ctx.resources().memory, "concurrent_reads", False))
    merged: dict = {}
    if not concurrent:
        for read in TIER_READS:
            merged.update(read(state, runtime))
        return merged
    from concurrent.futures import wait

    futures = [_pool().submit(contextvars.copy_context().run, read, state, runtime) for read in TIER_READS]
    wait(futures)  # every read finishes before a failure is raised (the first, in tier order)
    for future in futures:
        merged.update(future.result())
    return merged


def memory_block_node(findings_view: FindingsView | None = None):
    """A node joining the three reads into one delimited block (empty when memory is off or found
    nothing); `findings_view` shows the episodes' key findings (memory.block.format_memory_block)."""

    def build_memory_block(state: dict, runtime: Runtime[ReviewContext]) -> dict:
        ctx = run_scope(runtime)
        episodes = [Scored[Episode].model_validate(e) for e in state.get("episodes") or []]
        facts = [Scored[Fact].model_validate(f) for f in state.get("facts") or []]
        raw_procedure = state.get("procedure")
        proc = Procedure.model_validate(raw_procedure) if raw_procedure else None
        settings = ctx.config
        block = format_memory_block(
            episodes, facts, proc, nonce=new_nonce(), max_episodes=settings.episode_top_k,
            max_facts=settings.fact_top_k, trial_uses=settings.procedure_trial_uses, findings_view=findings_view,
        )
        return {"memory_block": ctx.filter_block(block)}

    return build_memory_block


build_memory_block = memory_block_node()  # every key finding once, as memory.block shows them


# ---------------------------------------------------------------- write path (consolidate)

def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).lower() == " ".join(b.split()).lower()


_TASK_ECHO = 200  # characters of the task's opening that a summary only copies, never writes


def _not_the_prompt(artifacts: RunArtifacts, read: Sequence[str], fallback_summary: str) -> RunArtifacts:
    """A task summary that only repeats what the model read (the task prompt, the run digest) says
    nothing new and, embedded, looks like every later task: replace it by the run's own summary."""
    summary = artifacts.task_summary
    flat_summary = " ".join(summary.split())
    for text in filter(None, read):
        flat = " ".join(text.split())
        # the text itself, most of it, or its opening inside a longer copy of what the model read
        if summary and (_same_text(summary, text) or (len(summary) > 0.8 * len(text) and flat_summary in flat)
                        or flat[:_TASK_ECHO] in flat_summary):
            artifacts.task_summary = fallback_summary
            break
    return artifacts


def extract_artifacts_node(instructions: str, fallback: Callable[[dict], RunArtifacts] | None = None,
                           memory_task: Callable[..., str] | None = None,
                           private_names: Callable[..., Iterable[str]] | None = None,
                           digest: Callable[[Sequence[AnyMessage], dict], str] | None = None):
    """A node that asks the extraction model to distil the run in `state["messages"]`.

    The model answers through native structured output where it has one, else text; the usual
    slips are repaired and an unreadable answer is sent back once (memory.extraction). If no
    answer can be read, `fallback(state)` records the run from what it did (no facts, no
    procedure: nothing the model vouched for), else an empty record; either way the failure is
    reported in `extraction` (and the report), logged, and marked on the episode so retrieval
    ranks it below useful ones. The outcome is the worse of the model's claim and the run's own
    `outcome_hint` (what the agent observed), so a model cannot promote a run.

    With a `fallback`, what the run records about itself (`memory.extraction.RECORDED_FIELDS`: key
    findings, tools used, step count) is taken from `fallback(state)`, never from the model: the
    model is asked only for the fields that need judgement (`memory.extraction.judgement_schema`),
    writes fewer tokens, and cannot misquote a finding.

    `memory_task(state, scope, scrubber) -> str`, when given, is the run's task as memory may keep
    it (scrubbed whole, then cut): the extraction and the fallback read it in place of the task
    message the agent worked from, so whatever either copies or cuts from the task is already clean.
    `private_names(state, scrubber) -> names`, when given, are the people the run's input names
    (found with the context a single stored field lacks): every field is scrubbed of them too.

    `digest(messages, state) -> str`, when given, turns the run (with that task) into one compact
    text the model reads instead of the whole transcript, ending with the request to answer: only
    what the judged fields are judged from, never the tool results. The extraction then costs a
    small share of the run, so a first run with memory costs about what the same run costs without.
    """

    def extract_artifacts(state: dict, runtime: Runtime[ReviewContext]) -> dict:
        ctx = run_scope(runtime)
        if not ctx.use_memory:
            return {"artifacts": {}}
        res = ctx.resources()
        run = [m for m in state.get("messages", []) if not isinstance(m, SystemMessage)]
        task = state.get("task", "")
        scrubber = res.scrubber or default_scrubber()
        if memory_task is not None and task:
            safe = memory_task(state, ctx, scrubber)
            run = [HumanMessage(safe), *(m for m in run if not (isinstance(m, HumanMessage) and m.content == task))]
            task = safe
        ask = [HumanMessage(digest(run, state))] if digest is not None else [
            *run, HumanMessage(extraction.EXTRACT_REQUEST)]
        request = [SystemMessage(instructions), *ask]

        def fail_on_setup(exc: BaseException) -> None:
            raise_for_setup(exc, role="extraction", model=res.extractor)

        schema = extraction.judgement_schema() if fallback is not None else extraction.ARTIFACTS_SCHEMA
        result = extraction.extract(res.extractor, request, on_error=fail_on_setup, schema=schema)
        own = (fallback({**state, "task": task}) if fallback is not None
               else RunArtifacts(outcome=Outcome(state.get("outcome_hint") or Outcome.UNKNOWN)))
        if result.artifacts is None:
            log.warning("run %s: the extraction model's answer could not be read (%s); the episode is recorded "
                        "from the run itself, without facts or a procedure", state.get("run_id"),
                        "; ".join(result.errors))
            artifacts = own.model_copy(update={"fact_candidates": [], "procedure": None})
        else:
            read = [task, str(ask[0].content)] if digest is not None else [task]
            artifacts = _not_the_prompt(result.artifacts, read, own.task_summary)
            if fallback is not None:  # what the run recorded itself, whatever the model wrote
                artifacts = artifacts.model_copy(update={k: getattr(own, k) for k in extraction.RECORDED_FIELDS})
        artifacts.extraction = result.status
        artifacts.outcome = worse_outcome(artifacts.outcome, state.get("outcome_hint"))
        people = private_names(state, scrubber) if private_names is not None else ()
        scrubbed = screen_artifacts(scrub_artifacts(artifacts, scrubber, names=people))
        usage: dict[str, int] = {}
        for call in result.usage:
            usage = add_usage(usage, call_usage(res.extractor, call))
        return {"artifacts": scrubbed.model_dump(mode="json"), "extraction": result.report(),
                "usage": add_usage(state.get("usage"), usage)}

    return extract_artifacts


def _artifacts(state: dict) -> RunArtifacts | None:
    raw = state.get("artifacts")
    return RunArtifacts.model_validate(raw) if raw else None


def episodic_write(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    artifacts = _artifacts(state)
    if not ctx.use_memory or artifacts is None:
        return {}
    res = ctx.resources()
    episode = episodic.remember(
        res.memory.episodes, res.embeddings, ctx.namespace, state["run_id"], ctx.task_type,
        artifacts, ttl_days=ctx.config.episode_ttl_days, now=now(ctx),
        counterparty=counterparty(state, res.scrubber or default_scrubber()),
    )
    return {"memory_writes": {**(state.get("memory_writes") or {}), "episode": episode.run_id if episode else None}}


def semantic_write(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    artifacts = _artifacts(state)
    if not ctx.use_memory or artifacts is None:
        return {}
    res = ctx.resources()
    settings = ctx.config
    confirmed = semantic.observe(
        res.memory.facts, res.memory.confirmations, res.embeddings, ctx.namespace,
        state["run_id"], artifacts.outcome, artifacts.fact_candidates,
        default_domain=ctx.domain, min_confidence=settings.fact_min_confidence,
        confirmations_needed=settings.fact_confirmations, now=now(ctx),
        episodes=res.memory.episodes, source=state.get("source_id") or None,
    )
    writes = {**(state.get("memory_writes") or {}), "facts_confirmed": [f.fact_id for f in confirmed]}
    return {"memory_writes": writes}


def procedural_write(state: dict, runtime: Runtime[ReviewContext]) -> dict:
    ctx = run_scope(runtime)
    artifacts = _artifacts(state)
    if not ctx.use_memory or artifacts is None:
        return {}
    res = ctx.resources()
    writes = dict(state.get("memory_writes") or {})
    served = state.get("procedure")
    if served:
        procedural.record_application(
            res.memory.procedures, ctx.namespace, served["procedure_id"],
            run_id=state["run_id"], success=artifacts.outcome == Outcome.COMPLETED,
            trial_uses=ctx.config.procedure_trial_uses,
            min_success_rate=ctx.config.procedure_min_success_rate,
        )
        writes["procedure_applied"] = served["procedure_id"]
    proposed = procedural.propose(
        res.memory.procedures, ctx.namespace, state["run_id"], ctx.task_type,
        artifacts.outcome, artifacts.procedure, now=now(ctx),
    )
    writes["procedure_proposed"] = proposed.procedure_id if proposed else None
    return {"memory_writes": writes}
