"""Benchmark 2: bootstrap latency as memory grows, against the reference design's method.

One SQLite memory file grows in place: the own namespace (the settings' tenant and agent, so a
CLI review can use the file) gets 1k, 10k, 100k episodes and 10k facts; other tenants get ten
times as much. At each size: the whole bootstrap read path (the three read nodes of
graphs/memory_steps.py run concurrently, as LangGraph runs them, then the memory block), each tier
alone, and the reference method (the 100 newest episodes, cosine in Python), over >= 200 queries.
Each query names a real stored episode (party, contract kind, contract reference), so recall of
that episode shows what the 100-newest window misses. The cold start of a CLI review on the
largest memory file is bench/startup.py's.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from bench.common import Stopwatch, percentiles
from bench.memory_data import (
    FillState,
    Timeline,
    add_procedures,
    episode_spec,
    insert_episodes,
    insert_facts,
    insert_other_episodes,
)
from memory.records import Episode, Namespace

FULL_SIZES = (1_000, 10_000, 100_000)
OTHER_FACTOR = 10
OTHER_TENANTS = 10
REFERENCE_WINDOW = 100
P95_TARGET_MS = 30.0
GROWTH_TARGET = 5.0
QUERY_FORMS = [
    "Review the {kind} from {party}, contract {ref}",
    "Check {party}'s {kind} {ref} against the playbook",
    "{ref}: new {kind} sent by {party}",
    "Supplier contract review of the {party} {kind} (ref {ref})",
]


def _settings(home: Path):
    from agent.settings import Settings

    return Settings(home=home)


def grow(home: Path, own: int, facts: int, *, capacity: int, log=print) -> dict[str, Any]:
    """Bring the memory file in `home` to `own` own episodes (+ OTHER_FACTOR x for other tenants)
    and `facts` own facts (+ OTHER_FACTOR x). Reuses what an earlier call stored."""
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import load_embeddings, model_name_of

    settings = _settings(home)
    home.mkdir(parents=True, exist_ok=True)
    state = FillState(home)
    anchor = state.data.get("anchor")
    fresh = (anchor is None or state.data.get("capacity") != capacity or state.data.get("own", 0) > own
             or datetime.now(UTC) - datetime.fromisoformat(anchor) > timedelta(days=5))
    if fresh:  # an old cache would hold expired episodes: start over
        for name in ("memory.sqlite", "memory.sqlite-wal", "memory.sqlite-shm", "fill.json"):
            (home / name).unlink(missing_ok=True)
        state = FillState(home)
        state.data = {"anchor": datetime.now(UTC).isoformat(), "capacity": capacity, "own": 0, "facts": 0}
        state.save()
    timeline = Timeline(datetime.fromisoformat(state.data["anchor"]), capacity)
    embeddings = load_embeddings(settings.embeddings)
    own_ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    others = [Namespace(tenant=f"other-{t:02d}", agent=settings.agent) for t in range(1, OTHER_TENANTS + 1)]
    start = time.perf_counter()
    phases: dict[str, float] = {}
    with SqliteMemory(settings.sqlite_path) as memory:
        with memory.db.write() as conn:  # bulk load: a large page cache keeps index inserts in memory
            conn.execute("PRAGMA cache_size = -262144")
        have = state.data["own"]
        if own > have:
            tick = time.perf_counter()
            pool = insert_episodes(memory, own_ns, 0, have, own, embeddings, timeline)
            phases["own_episodes_s"] = round(time.perf_counter() - tick, 1)
            tick = time.perf_counter()
            if len(pool) < 1000:  # small growth steps: a pool of fresh vectors
                pool = np.asarray(embeddings.embed_documents(
                    [episode_spec(i, 99).summary() for i in range(2000)]), dtype=np.float32)
            per_tenant = max(1, OTHER_FACTOR // OTHER_TENANTS)
            for t, ns in enumerate(others, start=1):
                insert_other_episodes(memory, ns, t, have * per_tenant, own * per_tenant, model_name_of(embeddings),
                                      Timeline(timeline.anchor, capacity * per_tenant), pool)
            phases["other_episodes_s"] = round(time.perf_counter() - tick, 1)
            state.data["own"] = own
            state.save()
        if facts > state.data["facts"]:
            tick = time.perf_counter()
            insert_facts(memory, own_ns, 0, facts, embeddings, settings.domain)
            pool = np.asarray(embeddings.embed_documents([f"fact pool {i}" for i in range(1000)]), dtype=np.float32)
            for t, ns in enumerate(others, start=1):
                insert_facts(memory, ns, t, facts * OTHER_FACTOR // OTHER_TENANTS, embeddings, settings.domain,
                             vector_pool=pool)
            add_procedures(memory, own_ns, settings.task_type)
            phases["facts_s"] = round(time.perf_counter() - tick, 1)
            state.data["facts"] = facts
            state.save()
    seconds = time.perf_counter() - start
    size = (home / "memory.sqlite").stat().st_size + sum(
        p.stat().st_size for p in home.glob("memory.sqlite-*") if p.exists())
    log(f"  memory file: {own} own episodes, {facts} own facts, "
        f"{own * OTHER_FACTOR} + {facts * OTHER_FACTOR} other-tenant rows; filled in {seconds:.1f} s {phases}")
    return {"fill_seconds": round(seconds, 2), "fill_phases": phases, "file_mb": round(size / 2**20, 1)}


def queries(own: int, count: int, seed: int = 11) -> list[tuple[str, str]]:
    """(task text, run id of the stored episode it names), spread over the whole history."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        i = rng.randrange(own)
        spec = episode_spec(i, 0)
        text = QUERY_FORMS[n % len(QUERY_FORMS)].format(kind=spec.kind, party=spec.party, ref=spec.ref)
        out.append((text, f"bench-00-{i:07d}"))
    return out


def reference_search(memory, ns: Namespace, vector: list[float], model: str, *, k: int, min_score: float,
                     now: datetime) -> tuple[list[str], bool]:
    """The reference design: the 100 newest episodes of the agent, cosine computed in Python.
    Returns (run ids, best first) and whether the window held fewer episodes than the history."""
    with memory.db.read() as conn:
        rows = conn.execute(
            "SELECT vector, record FROM episodes WHERE tenant = ? AND agent = ? AND model = ? AND expires_at > ? "
            "ORDER BY created_at DESC LIMIT ?",
            (ns.tenant, ns.agent, model, now.timestamp(), REFERENCE_WINDOW),
        ).fetchall()
    q_norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    scored = []
    for blob, record in rows:
        stored = np.frombuffer(blob, dtype=np.float32).tolist()
        dot = sum(a * b for a, b in zip(vector, stored, strict=True))
        norm = math.sqrt(sum(b * b for b in stored)) or 1.0
        cosine = dot / (q_norm * norm)
        if cosine >= min_score:
            scored.append((cosine, Episode.model_validate_json(record).run_id))
    scored.sort(reverse=True)
    return [run_id for _, run_id in scored[:k]], len(rows) == REFERENCE_WINDOW


def measure(home: Path, own: int, n_queries: int) -> dict[str, Any]:
    """Time the read path at the current size of the memory file in `home`."""
    from graphs.context import InProcessContext, ReviewServices, run_scope
    from graphs.memory_steps import (
        _thresholds,
        build_memory_block,
        episodic_read,
        procedural_read,
        semantic_read,
    )
    from memory import episodic, procedural, semantic
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import load_embeddings, model_name_of
    from memory.stores import VectorQuery

    settings = _settings(home)
    embeddings = load_embeddings(settings.embeddings)
    model = model_name_of(embeddings)
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    batch = queries(own, n_queries)
    with SqliteMemory(settings.sqlite_path) as memory:  # a fresh open: the first search loads the matrix
        ctx = InProcessContext(agent=settings.agent, task_type=settings.task_type, domain=settings.domain,
                               services=ReviewServices(settings=settings, embeddings=embeddings, memory=memory))
        runtime = SimpleNamespace(context=ctx)
        episode_min, fact_min = _thresholds(run_scope(runtime), embeddings)
        now = datetime.now(UTC)
        with Stopwatch() as first:
            episodic.recall(memory.episodes, embeddings, ns, batch[0][0], k=3, min_score=episode_min, now=now)
        with Stopwatch() as first_facts:
            semantic.recall(memory.facts, embeddings, ns, batch[0][0], domain=settings.domain, k=5,
                            min_score=fact_min, now=now)
        timings: dict[str, list[float]] = {k: [] for k in ("bootstrap", "episodic", "semantic", "procedural",
                                                           "block", "reference", "embed")}
        found = {"full": 0, "vector_full": 0, "reference": 0}
        agree, agree_n, window_full = 0.0, 0, 0
        with ThreadPoolExecutor(max_workers=3) as pool:
            for text, target in batch:
                state = {"task": text}
                with Stopwatch() as whole:
                    reads = [pool.submit(node, state, runtime) for node in (episodic_read, semantic_read, procedural_read)]
                    merged: dict[str, Any] = dict(state)
                    for future in reads:
                        merged.update(future.result())
                    with Stopwatch() as block:
                        build_memory_block(merged, runtime)
                timings["bootstrap"].append(whole.ms)
                timings["block"].append(block.ms)
                with Stopwatch() as sw:
                    vector = embeddings.embed_query(text)
                timings["embed"].append(sw.ms)
                with Stopwatch() as sw:
                    hits = episodic.recall(memory.episodes, embeddings, ns, text, k=3, min_score=episode_min, now=now)
                timings["episodic"].append(sw.ms)
                with Stopwatch() as sw:
                    semantic.recall(memory.facts, embeddings, ns, text, domain=settings.domain, k=5,
                                    min_score=fact_min, now=now)
                timings["semantic"].append(sw.ms)
                with Stopwatch() as sw:
                    procedural.best(memory.procedures, ns, settings.task_type,
                                    trial_uses=settings.procedure_trial_uses,
                                    min_success_rate=settings.procedure_min_success_rate)
                timings["procedural"].append(sw.ms)
                with Stopwatch() as sw:
                    reference, full_window = reference_search(memory, ns, vector, model, k=3,
                                                              min_score=episode_min, now=now)
                timings["reference"].append(sw.ms)
                window_full += full_window
                vector_hits = memory.episodes.search(ns, VectorQuery(
                    text=text, vector=vector, embedding_model=model, k=3, min_score=episode_min, now=now, mode="vector"))
                full_ids = [h.item.run_id for h in hits]
                vector_ids = [h.item.run_id for h in vector_hits]
                found["full"] += target in full_ids
                found["vector_full"] += target in vector_ids
                found["reference"] += target in reference
                if vector_ids:  # like-for-like: same cosine, whole history vs the newest 100
                    agree += len(set(reference) & set(vector_ids)) / len(vector_ids)
                    agree_n += 1
    n = len(batch)
    return {
        "own_episodes": own,
        "queries": n,
        "first_search_ms": round(first.ms, 1),
        "first_fact_search_ms": round(first_facts.ms, 1),
        "latency_ms": {name: percentiles(values) for name, values in timings.items()},
        "target_found_at_3": {name: round(count / n, 3) for name, count in found.items()},
        "reference_overlap_with_vector_top3": round(agree / agree_n, 3) if agree_n else None,
    }


def run(data: Path, *, sizes: tuple[int, ...] = FULL_SIZES, facts: int = 10_000, n_queries: int = 200,
        log=print) -> dict[str, Any]:
    results = []
    for own in sizes:  # one memory file per size, each kept for the next run
        home = data / "bootstrap" / f"episodes-{own}"
        log(f"bootstrap: memory with {own} own episodes in {home}")
        fill = grow(home, own, facts, capacity=own, log=log)
        results.append({**measure(home, own, n_queries), **fill})
    largest, smallest = results[-1], results[0]
    p95_large = largest["latency_ms"]["bootstrap"]["p95"]
    p95_small = smallest["latency_ms"]["bootstrap"]["p95"]
    return {
        "own_facts": facts, "other_tenant_factor": OTHER_FACTOR, "other_tenants": OTHER_TENANTS,
        "reference_window": REFERENCE_WINDOW,
        "sizes": results,
        "targets": {
            "p95_at_largest_ms": p95_large, "p95_target_ms": P95_TARGET_MS, "p95_met": p95_large < P95_TARGET_MS,
            "growth": round(p95_large / p95_small, 2) if p95_small else None, "growth_target": GROWTH_TARGET,
            "growth_met": bool(p95_small) and p95_large <= GROWTH_TARGET * p95_small,
        },
    }
