"""Benchmark 2: bootstrap latency as memory grows, against the reference design's method.

One SQLite memory file grows in place: the own namespace (the settings' tenant and agent, so a
CLI review can use the file) gets 1k, 10k, 100k episodes and 10k facts; other tenants get ten
times as much. At each size: the whole bootstrap read path (the graph's two steps:
graphs/memory_steps.read_memory, which reads the three tiers one after another for this backend,
then the memory block), each tier alone, and the reference method (the 100 newest episodes,
cosine in Python), over >= 200 queries.
Each query names a real stored episode (party, contract kind, contract reference), so recall of
that episode shows what the 100-newest window misses. The cold start of a CLI review on the
largest memory file is bench/startup.py's; `bench bootstrap --size 1m` passes it in to time the
cold start at every size.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import resource
import shutil
import time
from collections.abc import Callable
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
WARM_UP_QUERIES, WARM_UP_SEED = 50, 12  # untimed queries before the timed ones (a seed of their own)
P95_TARGETS_MS = {100_000: 10.0, 1_000_000: 50.0}  # bootstrap p95 (3 tiers + block), issue 18
ANN_RECALL_TARGET = 0.98  # recall@10 of the nearest-neighbour index against the exact scan
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


def other_factor(own: int) -> int:
    """Other tenants hold this many times the own namespace's episodes and facts (1x from 1M
    own episodes on, so the 1M file stays within a few GB of disk)."""
    return 1 if own >= 1_000_000 else OTHER_FACTOR


def grow(home: Path, own: int, facts: int, *, capacity: int, log=print) -> dict[str, Any]:
    """Bring the memory file in `home` to `own` own episodes (+ `other_factor(own)` x for other
    tenants) and `facts` own facts (+ the same factor), with the bulk loader (`bench.bulk_load`).
    Reuses what an earlier call stored."""
    from bench.bulk_load import BulkWriter
    from memory.backends.sqlite import SqliteMemory
    from memory.backends.sqlite.search import as_blob
    from memory.embeddings import load_embeddings, model_name_of

    settings = _settings(home)
    home.mkdir(parents=True, exist_ok=True)
    state = FillState(home)
    anchor = state.data.get("anchor")
    fresh = (anchor is None or state.data.get("capacity") != capacity or state.data.get("own", 0) > own
             or state.data.get("loading") or datetime.now(UTC) - datetime.fromisoformat(anchor) > timedelta(days=5))
    if fresh:  # an old cache would hold expired episodes, a load cut short a broken file: start over
        for name in ("memory.sqlite", "memory.sqlite-wal", "memory.sqlite-shm", "memory.sqlite-journal", "fill.json"):
            (home / name).unlink(missing_ok=True)
        shutil.rmtree(home / "memory.sqlite.vectors", ignore_errors=True)
        state = FillState(home)
        state.data = {"anchor": datetime.now(UTC).isoformat(), "capacity": capacity, "own": 0, "facts": 0}
        state.save()
    timeline = Timeline(datetime.fromisoformat(state.data["anchor"]), capacity)
    embeddings = load_embeddings(settings.embeddings)
    own_ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    others = [Namespace(tenant=f"other-{t:02d}", agent=settings.agent) for t in range(1, OTHER_TENANTS + 1)]
    have, have_facts, factor = state.data["own"], state.data["facts"], other_factor(own)
    if own <= have and facts <= have_facts:
        return _filled(home, own, facts, state.data.get("build"), log)
    start, cpu, load_before = time.perf_counter(), _cpu_seconds(), [round(x, 2) for x in os.getloadavg()]
    phases: dict[str, float] = {}
    with SqliteMemory(settings.sqlite_path):
        pass  # the backend makes (or migrates) the schema; the loader only adds rows
    state.data["loading"] = True
    state.save()
    with BulkWriter(settings.sqlite_path, log=log) as writer:
        if own > have:
            tick = time.perf_counter()
            pool = insert_episodes(writer, own_ns, 0, have, own, embeddings, timeline,
                                   keep=own * factor // OTHER_TENANTS)
            phases["own_episodes_s"] = round(time.perf_counter() - tick, 1)
            tick = time.perf_counter()
            if len(pool) < 1000:  # small growth steps: a pool of fresh vectors
                pool = [as_blob(v) for v in embeddings.embed_documents(
                    [episode_spec(i, 99).summary() for i in range(2000)])]
            for t, ns in enumerate(others, start=1):
                insert_other_episodes(writer, ns, t, have * factor // OTHER_TENANTS, own * factor // OTHER_TENANTS,
                                      model_name_of(embeddings),
                                      Timeline(timeline.anchor, max(1, capacity * factor // OTHER_TENANTS)), pool)
            phases["other_episodes_s"] = round(time.perf_counter() - tick, 1)
        if facts > have_facts:
            tick = time.perf_counter()
            insert_facts(writer, own_ns, 0, facts, embeddings, settings.domain, timeline.anchor)
            fact_pool = np.asarray(embeddings.embed_documents([f"fact pool {i}" for i in range(1000)]),
                                   dtype=np.float32)
            for t, ns in enumerate(others, start=1):
                insert_facts(writer, ns, t, facts * factor // OTHER_TENANTS, embeddings, settings.domain,
                             timeline.anchor, vector_pool=fact_pool)
            phases["facts_s"] = round(time.perf_counter() - tick, 1)
        phases.update({f"{step}_s": round(seconds, 1) for step, seconds in writer.timings.items()})
    if facts > have_facts:
        with SqliteMemory(settings.sqlite_path) as memory:
            add_procedures(memory, own_ns, settings.task_type)  # through the store: a few rows
    build = {"seconds": round(time.perf_counter() - start, 1), "cpu_seconds": round(_cpu_seconds() - cpu, 1),
             "phases": phases, "load_average_before": load_before,
             "load_average_after": [round(x, 2) for x in os.getloadavg()],
             "finished_at": datetime.now(UTC).isoformat(timespec="seconds"), "grew_from": [have, have_facts]}
    state.data.update(own=max(own, have), facts=max(facts, have_facts), loading=False, build=build)
    state.save()
    return _filled(home, own, facts, build, log, now=True)


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the loader's worker processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _filled(home: Path, own: int, facts: int, build: dict[str, Any] | None, log, *, now: bool = False) -> dict[str, Any]:
    """What the fill reports: this run's build time (0 when the file was reused) and the build's
    own record from `fill.json` (how long the file took to build, when, under what load)."""
    size = (home / "memory.sqlite").stat().st_size + sum(
        p.stat().st_size for p in home.glob("memory.sqlite-*") if p.exists())
    how = "built" if now else "reused, built earlier"
    told = (f"{how} in {build['seconds']:.1f} s ({build.get('cpu_seconds', '?')} s CPU) {build['phases']}"
            if build else "reused")
    log(f"  memory file: {own} own episodes, {facts} own facts, "
        f"{own * other_factor(own)} + {facts * other_factor(own)} other-tenant rows; {told}; {size / 2**20:,.0f} MB")
    return {"fill_seconds": build["seconds"] if now and build else 0.0, "build": build,
            "file_mb": round(size / 2**20, 1)}


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


def ensure_indexes(home: Path) -> dict[str, Any]:
    """Build the own namespace's vector indexes when the file has none (a bulk load writes rows,
    not indexes), timed: the first search of a memory without them would pay it."""
    from memory.backends.sqlite import SqliteMemory
    from memory.backends.sqlite.vectors import IndexKey
    from memory.embeddings import load_embeddings, model_name_of

    settings = _settings(home)
    model = model_name_of(load_embeddings(settings.embeddings))
    built: dict[str, Any] = {}
    with SqliteMemory(settings.sqlite_path) as memory:
        for key in (IndexKey("episodes", settings.tenant, settings.agent, model),
                    IndexKey("facts", settings.tenant, "", model)):
            files = dict(memory.vectors.files_of(settings.tenant))
            if key in files:  # its build time, from the sidecar the build wrote
                sidecar = json.loads((memory.vectors.folder / files[key]).with_suffix(".json").read_text())
                built[key.kind] = {"vectors": sidecar["count"], "seconds": sidecar.get("built_seconds"), "reused": True}
                continue
            tick = time.perf_counter()
            count = memory.vectors.build(key, full=True)
            built[key.kind] = {"vectors": count, "seconds": round(time.perf_counter() - tick, 1)}
    return built


def read_through(database: Path, chunk: int = 1 << 20) -> dict[str, float]:
    """Read the memory file, its journal and its vector indexes once, front to back, so the
    timed reads find every page in memory: what "warm" means. On this VM a page of the OS cache
    that the guest has not touched lately costs 25-95 us to read, about 2 us once touched (4 KiB
    preads at random offsets of a fully cached 3.6 GB file, two passes): without this, a warm
    bootstrap's first touches of its rows are what is timed, not its work."""
    files = [database, *database.parent.glob(database.name + "-*")]
    folder = database.parent / (database.name + ".vectors")
    files += sorted(folder.glob("*")) if folder.is_dir() else []
    tick, read = time.perf_counter(), 0
    buffer = bytearray(chunk)
    for path in files:
        with contextlib.suppress(FileNotFoundError), open(path, "rb", buffering=0) as handle:
            while size := handle.readinto(buffer):
                read += size
    return {"mb": round(read / 2**20, 1), "seconds": round(time.perf_counter() - tick, 2)}


def measure(home: Path, own: int, n_queries: int, *, vector_index: str = "ann",
            reference: bool = True) -> dict[str, Any]:
    """Time the read path at the current size of the memory file in `home`, searching vectors
    through the nearest-neighbour index ("ann") or by scanning them all ("exact")."""
    from graphs.context import InProcessContext, ReviewServices, run_scope
    from graphs.memory_steps import build_memory_block, read_memory
    from memory import episodic, procedural, semantic
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import load_embeddings, model_name_of
    from memory.stores import VectorQuery

    settings = _settings(home)
    embeddings = load_embeddings(settings.embeddings)
    model = model_name_of(embeddings)
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    batch = queries(own, n_queries)
    # a fresh open: the first search maps the index (ann) or loads every vector row by row (exact)
    with SqliteMemory(settings.sqlite_path, vector_index=vector_index) as memory:
        ctx = InProcessContext(agent=settings.agent, task_type=settings.task_type, domain=settings.domain,
                               services=ReviewServices(settings=settings, embeddings=embeddings, memory=memory))
        runtime = SimpleNamespace(context=ctx)
        scope = run_scope(runtime)
        episode_min, fact_min = scope.limits.thresholds(embeddings)
        alone = scope.limits.vector_alone(embeddings)
        now = datetime.now(UTC)
        with Stopwatch() as first:
            episodic.recall(memory.episodes, embeddings, ns, batch[0][0], k=3, min_score=episode_min, now=now,
                            vector_alone=alone)
        with Stopwatch() as first_facts:
            semantic.recall(memory.facts, embeddings, ns, batch[0][0], domain=settings.domain, k=5,
                            min_score=fact_min, now=now)
        # the target is the warm bootstrap: the memory file and its indexes read once (their pages
        # in memory), then a warm-up on other queries than those timed (remembered word counts:
        # memory.backends.sqlite.holders)
        warmed = read_through(settings.sqlite_path)
        for text, _ in queries(own, WARM_UP_QUERIES, seed=WARM_UP_SEED):
            warm: dict[str, Any] = {"task": text}
            warm.update(read_memory(warm, runtime))
            build_memory_block(warm, runtime)
        timings: dict[str, list[float]] = {k: [] for k in ("bootstrap", "episodic", "semantic", "procedural",
                                                           "block", "reference", "embed")}
        found = {"full": 0, "vector_full": 0, "reference": 0}
        agree, agree_n = 0.0, 0
        nearest: list[list[str]] = []
        for text, target in batch:
            state = {"task": text}
            with Stopwatch() as whole:  # the graph's two steps: read_memory, then build_memory_block
                merged: dict[str, Any] = {**state, **read_memory(state, runtime)}
                with Stopwatch() as block:
                    build_memory_block(merged, runtime)
            timings["bootstrap"].append(whole.ms)
            timings["block"].append(block.ms)
            with Stopwatch() as sw:
                vector = embeddings.embed_query(text)
            timings["embed"].append(sw.ms)
            with Stopwatch() as sw:
                hits = episodic.recall(memory.episodes, embeddings, ns, text, k=3, min_score=episode_min, now=now,
                                       vector_alone=alone)
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
            top10 = memory.episodes.search(ns, VectorQuery(
                text=text, vector=vector, embedding_model=model, k=10, min_score=-1.0, now=now, mode="vector"))
            nearest.append([h.item.run_id for h in top10])
            vector_ids = [h.item.run_id for h in top10[:3] if h.score >= episode_min]
            found["full"] += target in [h.item.run_id for h in hits]
            found["vector_full"] += target in vector_ids
            if not reference:
                continue
            with Stopwatch() as sw:
                newest, _ = reference_search(memory, ns, vector, model, k=3, min_score=episode_min, now=now)
            timings["reference"].append(sw.ms)
            found["reference"] += target in newest
            if vector_ids:  # like-for-like: same cosine, whole history vs the newest 100
                agree += len(set(newest) & set(vector_ids)) / len(vector_ids)
                agree_n += 1
    n = len(batch)
    return {
        "own_episodes": own,
        "vector_index": vector_index,
        "queries": n,
        "warm_up_queries": WARM_UP_QUERIES,
        "warm_up_read": warmed,
        "first_search_ms": round(first.ms, 1),
        "first_fact_search_ms": round(first_facts.ms, 1),
        "latency_ms": {name: percentiles(values) for name, values in timings.items() if values},
        "target_found_at_3": {name: round(count / n, 3) for name, count in found.items()
                              if reference or name != "reference"},
        "reference_overlap_with_vector_top3": round(agree / agree_n, 3) if agree_n else None,
        "nearest_10": nearest,
    }


def recall_against_exact(ann: list[list[str]], exact: list[list[str]]) -> float:
    """Mean share of the exact 10 nearest episodes that the index returned."""
    shares = [len(set(a) & set(e)) / len(e) for a, e in zip(ann, exact, strict=True) if e]
    return round(sum(shares) / len(shares), 4) if shares else 1.0


def measure_both(home: Path, own: int, n_queries: int) -> dict[str, Any]:
    """The index and the exact scan on the same file and queries, one after the other."""
    ann = measure(home, own, n_queries)
    exact = measure(home, own, n_queries, vector_index="exact", reference=False)
    return {
        **{k: v for k, v in ann.items() if k != "nearest_10"},
        "exact_scan": {k: exact[k] for k in ("first_search_ms", "first_fact_search_ms", "latency_ms",
                                             "target_found_at_3")},
        "ann_recall_at_10": recall_against_exact(ann["nearest_10"], exact["nearest_10"]),
    }


def run(data: Path, *, sizes: tuple[int, ...] = FULL_SIZES, facts: int = 10_000, n_queries: int = 200,
        cold_start: Callable[[Path], dict[str, Any]] | None = None, log=print) -> dict[str, Any]:
    """`cold_start(home)`, when given, times a CLI review's cold start on each size's file."""
    results = []
    for own in sizes:  # one memory file per size, each kept for the next run
        home = data / "bootstrap" / f"episodes-{own}"
        log(f"bootstrap: memory with {own} own episodes in {home}")
        fill = grow(home, own, facts, capacity=own, log=log)
        tick = time.perf_counter()
        indexes = ensure_indexes(home)
        log(f"  vector indexes: {indexes} ({time.perf_counter() - tick:.1f} s)")
        figures = {**measure_both(home, own, n_queries), **fill, "index_build": indexes,
                   "other_tenant_factor": other_factor(own)}
        if cold_start is not None:
            figures["cold_start"] = cold_start(home)
        results.append(figures)
        lat = figures["latency_ms"]["bootstrap"]["p95"]
        log(f"  bootstrap p95 {lat:.1f} ms (exact scan {figures['exact_scan']['latency_ms']['bootstrap']['p95']:.1f} ms), "
            f"ANN recall@10 {figures['ann_recall_at_10']}")
    largest, smallest = results[-1], results[0]
    p95_large = largest["latency_ms"]["bootstrap"]["p95"]
    p95_small = smallest["latency_ms"]["bootstrap"]["p95"]
    targets = {size["own_episodes"]: P95_TARGETS_MS[size["own_episodes"]] for size in results
               if size["own_episodes"] in P95_TARGETS_MS}
    return {
        "own_facts": facts, "other_tenants": OTHER_TENANTS, "reference_window": REFERENCE_WINDOW,
        "sizes": results,
        "targets": {
            "p95_ms": {str(own): {"target": target, "measured": size["latency_ms"]["bootstrap"]["p95"],
                                  "met": size["latency_ms"]["bootstrap"]["p95"] <= target}
                       for own, target in targets.items() for size in results if size["own_episodes"] == own},
            "ann_recall_at_10_min": ANN_RECALL_TARGET,
            "ann_recall_met": all(size["ann_recall_at_10"] >= ANN_RECALL_TARGET for size in results),
            "growth": round(p95_large / p95_small, 2) if p95_small else None, "growth_target": GROWTH_TARGET,
            "growth_met": bool(p95_small) and p95_large <= GROWTH_TARGET * p95_small,
        },
    }
