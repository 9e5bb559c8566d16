"""The memory steps of a graph: read and write nodes of each durable tier over named state keys.

`MemorySteps(agent, scope=...)` binds the generic nodes to one agent (`memory.graph.MemoryAgent`,
what the steps ask about a run) and to the function that gives a node its run scope
(`memory.graph.MemoryScope`, where stores, models and limits come from). Nothing here knows a
domain. A graph wires the nodes it wants, or drops a tier by leaving its node out:

- `episodic_read` fills `episodes`, `semantic_read` `facts`, `procedural_read` `procedure`;
  `read_memory` does all three in one step (concurrently only where the backend's reads wait on
  the network); a fork can wire the three as parallel nodes instead;
- `build_memory_block` lets the agent filter what was recalled for the current input
  (`MemoryAgent.recalled`) and turns the rest into `memory_block`;
- `extract_artifacts` settles the run's `outcome` (what the graph observed, lowered only for a
  reason the state confirms: memory.graph.outcome), asks the extraction model to judge a digest
  of the state, and fills `artifacts` (PII scrubbed, instructions screened out);
- `episodic_write`, `semantic_write`, `procedural_write` store them.

Memory keeps what the run derived: the agent's task summary with keyed tokens of the
counterparty and the layout (never their names), its results, the model's judgement. The steps
send custom stream events (`{"progress": "memory_read" | "extracting" | "memory_write", ...}`)
that a caller streaming with `stream_mode="custom"` shows as progress.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from memory import episodic, extraction, procedural, semantic
from memory.block import format_memory_block, new_nonce
from memory.errors import ExtractionNotSupported, MissingStateKey
from memory.graph.agent import MemoryAgent, Recalled, TaskProfile
from memory.graph.notes import notes_as_proposals
from memory.graph.outcome import Settled, settle
from memory.graph.recall import recall_episodes, recall_facts, recall_procedure
from memory.graph.scope import MemoryScope, keyed_token
from memory.graph.state import add_usage
from memory.pii import default_scrubber, scrub_artifacts
from memory.records import Episode, Fact, Outcome, Procedure, RunArtifacts, Scored
from memory.screen import screen_artifacts

log = logging.getLogger(__name__)

COUNTERPARTY, LAYOUT = "CP", "TP"  # token prefixes: an identifier to retrieval, never a name


@dataclass(frozen=True)
class Task:
    """A run's task as memory keeps it (`summary`) and searches by it (`query`), with the tokens."""

    summary: str
    query: str
    counterparty: str = ""
    layout: str = ""


def task_of(profile: TaskProfile, scope: MemoryScope, search: str = "") -> Task:
    """The stored summary of `profile` and the text to search by (`search`, else the summary),
    each with the keyed tokens of its counterparty and layout (the raw values stay out of memory)."""
    tenant = scope.namespace.tenant
    party = keyed_token(COUNTERPARTY, profile.counterparty, key=scope.token_key, tenant=tenant)
    layout = keyed_token(LAYOUT, profile.template, key=scope.token_key, tenant=tenant)
    tokens = "; ".join(filter(None, [f"counterparty {party}" if party else "", f"layout {layout}" if layout else ""]))
    summary = f"{profile.summary}; {tokens}" if tokens else profile.summary
    query = f"{search or profile.summary}\n{tokens}" if tokens else (search or profile.summary)
    return Task(summary=summary, query=query, counterparty=party, layout=layout)


def run_id_of(state: dict) -> str:
    """The run's id (it keys the episode): a clear error when the graph never set it."""
    run_id = state.get("run_id")
    if not run_id:
        raise MissingStateKey("the memory write steps need state['run_id'] (MemoryState.run_id: the run's id, "
                              "which keys its episode): set it in the graph's input or in a step before them")
    return str(run_id)


def emit(runtime: Any, **event: Any) -> None:
    """A custom stream event: the node's `runtime.stream_writer`, the writer
    `langgraph.config.get_stream_writer()` returns (nothing when the caller is not streaming
    custom events, or calls the node outside a graph)."""
    writer = getattr(runtime, "stream_writer", None)
    if callable(writer):
        writer(event)


_read_pool: Any = None
_read_pool_lock = threading.Lock()


def _pool() -> Any:
    global _read_pool
    with _read_pool_lock:
        if _read_pool is None:
            from concurrent.futures import ThreadPoolExecutor

            _read_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="memory-read")
        return _read_pool


class MemorySteps:
    """The generic memory nodes for one agent (see the module docstring). Each node is a method
    taking `(state, runtime)`: add it to a graph as it is (`builder.add_node("read_memory",
    steps.read_memory)`)."""

    def __init__(self, agent: MemoryAgent, *, scope: Callable[[Any], MemoryScope]):
        self.agent = agent
        self.scope = scope

    # ------------------------------------------------------------ checks

    def check_extractor(self, scope: MemoryScope, extractor: Any) -> None:
        """Refuse an extraction model that distils other agents' runs only (`extracts_only`), before
        anything is read or written."""
        only = tuple(getattr(extractor, "extracts_only", None) or ())
        if only and self.agent.kind not in only:
            raise ExtractionNotSupported(
                f"the extraction model {scope.model_name(extractor)} distils {' and '.join(only)} runs only, and this "
                f"agent's runs are {self.agent.kind!r}: give the {self.agent.kind} agent an extraction model of its "
                "own (the run scope's extraction model), or its episodes would record nothing it did")

    def _scope(self, runtime: Any) -> MemoryScope:
        return self.scope(runtime)

    # ------------------------------------------------------------ read path

    def _episodes(self, state: dict, scope: MemoryScope, task: Task) -> dict:
        found = recall_episodes(scope, task.query, run_id=state.get("run_id"), counterparty=task.counterparty)
        return {"episodes": [s.model_dump(mode="json") for s in found]}

    def _facts(self, state: dict, scope: MemoryScope, task: Task) -> dict:
        found = recall_facts(scope, task.query, run_id=state.get("run_id"))
        return {"facts": [s.model_dump(mode="json") for s in found]}

    def _procedure(self, state: dict, scope: MemoryScope, task: Task | None = None) -> dict:
        best = recall_procedure(scope, run_id=state.get("run_id"))
        return {"procedure": best.model_dump(mode="json") if best else None}

    def _reading(self, state: dict, runtime: Any) -> tuple[MemoryScope, Task | None]:
        """The scope, and the task to search by (None when memory is off)."""
        scope = self._scope(runtime)
        if not scope.use_memory:
            return scope, None
        self.check_extractor(scope, scope.memory_resources().extractor)
        profile = self.agent.profile(state)
        return scope, task_of(profile, scope, self.agent.search(state, profile))

    def episodic_read(self, state: dict, runtime: Any) -> dict:
        scope, task = self._reading(state, runtime)
        return self._episodes(state, scope, task) if task else {"episodes": []}

    def semantic_read(self, state: dict, runtime: Any) -> dict:
        scope, task = self._reading(state, runtime)
        return self._facts(state, scope, task) if task else {"facts": []}

    def procedural_read(self, state: dict, runtime: Any) -> dict:
        scope, task = self._reading(state, runtime)
        return self._procedure(state, scope) if task else {"procedure": None}

    def read_memory(self, state: dict, runtime: Any) -> dict:
        """The three durable tiers read in one step: what `episodic_read`, `semantic_read` and
        `procedural_read` return, merged.

        Concurrently where the backend says its reads wait on the network (`concurrent_reads`: AWS,
        a LangGraph store such as PostgreSQL), so their round trips overlap. One after another in
        the calling thread otherwise: the embedded backends' reads are CPU work in this process,
        which the GIL runs one at a time whatever the threads, and handing them to threads and back
        cost more than it could save (at 100k episodes, warm: bootstrap p50 9.2 ms in three threads
        against 7.2 ms in one; a LangGraph fan-out of three 1 ms nodes took 1.2 ms more than a chain
        of them; docs/BENCHMARKS.md)."""
        scope, task = self._reading(state, runtime)
        if task is None:
            return {"episodes": [], "facts": [], "procedure": None}
        reads = (self._episodes, self._facts, self._procedure)
        merged: dict = {}
        if not getattr(scope.memory_resources().memory, "concurrent_reads", False):
            for read in reads:
                merged.update(read(state, scope, task))
        else:
            from concurrent.futures import wait

            futures = [_pool().submit(contextvars.copy_context().run, read, state, scope, task) for read in reads]
            wait(futures)  # every read finishes before a failure is raised (the first, in tier order)
            for future in futures:
                merged.update(future.result())
        emit(runtime, progress="memory_read", episodes=len(merged["episodes"]), facts=len(merged["facts"]),
             procedure=merged["procedure"] is not None)
        return merged

    def build_memory_block(self, state: dict, runtime: Any) -> dict:
        """What was recalled, as the agent serves it for the current input (`MemoryAgent.recalled`),
        joined into one delimited block (empty when memory is off or nothing is left)."""
        scope = self._scope(runtime)
        raw_procedure = state.get("procedure")
        recalled = self.agent.recalled(state, Recalled(
            episodes=[Scored[Episode].model_validate(e) for e in state.get("episodes") or []],
            facts=[Scored[Fact].model_validate(f) for f in state.get("facts") or []],
            procedure=Procedure.model_validate(raw_procedure) if raw_procedure else None,
        ))
        limits = scope.limits
        block = format_memory_block(
            recalled.episodes, recalled.facts, recalled.procedure, nonce=new_nonce(), max_episodes=limits.episode_top_k,
            max_facts=limits.fact_top_k, trial_uses=limits.procedure_trial_uses, findings_view=self.agent.findings_view,
        )
        return {"memory_block": scope.filter_block(block),
                "episodes": [s.model_dump(mode="json") for s in recalled.episodes],
                "facts": [s.model_dump(mode="json") for s in recalled.facts],
                "procedure": recalled.procedure.model_dump(mode="json") if recalled.procedure else None}

    # ------------------------------------------------------------ write path

    def extract_artifacts(self, state: dict, runtime: Any) -> dict:
        """Settle the run's outcome and distil the run for memory (see the module docstring).

        What the run records about itself (`MemoryAgent.record`: the task summary, results, tools,
        step count) is the graph's, whatever the model writes; the model reads the agent's digest
        of the state and is asked only for what needs judgement (`memory.extraction.judgement_schema`).
        An answer that cannot be read after one retry leaves the episode recorded from the run
        itself, without facts or a procedure (nothing a model vouched for), with the failure in
        `extraction`, `warnings` and the episode's own `extraction` mark."""
        scope = self._scope(runtime)
        observed = self.agent.observe(state)
        if not scope.use_memory:
            return {"artifacts": {}, "outcome": observed.outcome.value}
        res = scope.memory_resources()
        self.check_extractor(scope, res.extractor)
        run_id_of(state)  # before the model is asked: nothing could be stored without it
        task = task_of(self.agent.profile(state), scope)
        record = self.agent.record(state, TaskProfile(summary=task.summary), observed)
        record = record.model_copy(update={"task_summary": task.summary})
        request = [SystemMessage(self.agent.extraction_instructions),
                   HumanMessage(self.agent.digest(state, record, observed))]
        emit(runtime, progress="extracting", observed=observed.outcome.value)

        def model_failed(exc: BaseException) -> None:
            scope.model_failed(exc, role="extraction", model=res.extractor)

        result = extraction.extract(res.extractor, request, on_error=model_failed, schema=extraction.judgement_schema())
        warnings = list(state.get("warnings") or [])
        if result.artifacts is None:
            log.warning("run %s: the extraction model's answer could not be read (%s); the episode is recorded "
                        "from the run itself, without facts or a procedure", state.get("run_id"),
                        "; ".join(result.errors))
            warnings.append(f"the extraction model ({scope.model_name(res.extractor)}) gave no answer that could be read "
                            f"({'; '.join(result.errors)}): the episode was recorded from the run itself, without "
                            "facts or a procedure")
            artifacts, settled = record, Settled(observed=observed.outcome, recorded=observed.outcome)
        else:
            judged = result.artifacts
            claimed = judged.outcome if judged.outcome != Outcome.UNKNOWN else None
            settled = settle(observed, claimed, judged.lowered_because, self.agent.item)
            artifacts = judged.model_copy(update={k: getattr(record, k) for k in extraction.RECORDED_FIELDS})
        # the model's mid-run notes join the proposals here, before scrubbing, screening and the gates
        noted_facts, noted_patterns = notes_as_proposals(
            state.get("memory_notes"), domain=scope.domain, confidence=scope.limits.fact_min_confidence)
        artifacts = artifacts.model_copy(update={
            "outcome": settled.recorded, "lowered_because": settled.lowered_because, "extraction": result.status,
            "fact_candidates": [*artifacts.fact_candidates, *noted_facts],
            "reusable_patterns": list(dict.fromkeys([*artifacts.reusable_patterns, *noted_patterns]))})
        scrubber = res.scrubber or default_scrubber()
        people = self.agent.private_names(state, scrubber)
        scrubbed = screen_artifacts(scrub_artifacts(artifacts, scrubber, names=people))
        usage: dict[str, int] = {}
        for call in result.usage:
            usage = add_usage(usage, scope.usage(res.extractor, call))
        update = {"artifacts": scrubbed.model_dump(mode="json"), "outcome": settled.recorded.value,
                  "extraction": {**result.report(), "outcome": settled.report()},
                  "usage": add_usage(state.get("usage"), usage)}
        if warnings != list(state.get("warnings") or []):
            update["warnings"] = warnings
        return update

    def _written(self, state: dict, runtime: Any) -> tuple[MemoryScope, RunArtifacts | None]:
        scope = self._scope(runtime)
        raw = state.get("artifacts")
        artifacts = RunArtifacts.model_validate(raw) if raw and scope.use_memory else None
        return scope, artifacts

    def episodic_write(self, state: dict, runtime: Any) -> dict:
        scope, artifacts = self._written(state, runtime)
        if artifacts is None:
            return {}
        res = scope.memory_resources()
        task = task_of(self.agent.profile(state), scope)
        now = scope.now()
        episode = episodic.remember(
            res.memory.episodes, res.embeddings, scope.namespace, run_id_of(state), scope.task_type,
            artifacts, ttl_days=scope.limits.episode_ttl_days, now=now, counterparty=task.counterparty,
        )
        emit(runtime, progress="memory_write", tier="episodic", outcome=artifacts.outcome.value,
             episode=episode is not None)
        update: dict[str, Any] = {
            "memory_writes": {**(state.get("memory_writes") or {}), "episode": episode.run_id if episode else None}}
        if episode is not None and episode.created_at > now:  # re-dated: memory.episodic.after_newest
            update["warnings"] = [*(state.get("warnings") or []), (
                f"this clock ({now:%Y-%m-%d %H:%M} UTC) is behind the newest episode in memory "
                f"({episode.created_at:%Y-%m-%d %H:%M} UTC): the episode was dated as that one, so it does not "
                "expire early; check the machine's clock")]
        return update

    def semantic_write(self, state: dict, runtime: Any) -> dict:
        scope, artifacts = self._written(state, runtime)
        if artifacts is None:
            return {}
        res = scope.memory_resources()
        limits = scope.limits
        # the keyed tokens of the counterparty and the layout: a fact needs several of each
        task = task_of(self.agent.profile(state), scope)
        confirmed = semantic.observe(
            res.memory.facts, res.memory.confirmations, res.embeddings, scope.namespace,
            run_id_of(state), artifacts.outcome, artifacts.fact_candidates,
            default_domain=scope.domain, min_confidence=limits.fact_min_confidence,
            confirmations_needed=limits.fact_confirmations, now=scope.now(),
            episodes=res.memory.episodes, source=state.get("source_id") or None,
            counterparty=task.counterparty or None, template=task.layout or None,
            parties=self.agent.parties(state), vocabulary=self.agent.vocabulary(state),
            min_counterparties=self.agent.fact_min_counterparties, min_templates=self.agent.fact_min_templates,
        )
        emit(runtime, progress="memory_write", tier="semantic", facts_confirmed=len(confirmed))
        return {"memory_writes": {**(state.get("memory_writes") or {}), "facts_confirmed": [f.fact_id for f in confirmed]}}

    def procedural_write(self, state: dict, runtime: Any) -> dict:
        scope, artifacts = self._written(state, runtime)
        if artifacts is None:
            return {}
        res = scope.memory_resources()
        limits = scope.limits
        writes = dict(state.get("memory_writes") or {})
        served = state.get("procedure")
        if served:
            procedural.record_application(
                res.memory.procedures, scope.namespace, served["procedure_id"],
                run_id=run_id_of(state), success=artifacts.outcome == Outcome.COMPLETED,
                trial_uses=limits.procedure_trial_uses, min_success_rate=limits.procedure_min_success_rate,
            )
            writes["procedure_applied"] = served["procedure_id"]
        proposed = procedural.propose(
            res.memory.procedures, scope.namespace, run_id_of(state), scope.task_type,
            artifacts.outcome, artifacts.procedure, now=scope.now(),
        )
        writes["procedure_proposed"] = proposed.procedure_id if proposed else None
        emit(runtime, progress="memory_write", tier="procedural", procedure_proposed=proposed is not None)
        return {"memory_writes": writes}
