"""Benchmark 5: the write path and footprint.

- consolidations per second: the real consolidate subgraph (extraction by the offline model, PII
  scrub, fact observation, procedure proposal, episode write with its embedding) replayed on the
  finished state of real reviews, each time under a new run id, on one memory file;
- bytes stored per 1,000 episodes: growth of the SQLite file (WAL checkpointed) while 1,000
  episodes are written through the public `EpisodeStore.add`, one transaction each, with real
  embeddings (rows, vectors, full-text index and its identifiers);
- peak RSS of one review: a fresh process runs `contract-review review` with memory on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.common import REPO, percentiles
from bench.memory_data import Timeline, _episodes

CONTRACTS = ["northwind_msa_01.pdf", "skyline_saas_subscription.txt", "tidewater_logistics_services.txt"]


def _finished_states(home: Path, sources: int) -> list[dict[str, Any]]:
    """The final graph state of a memory-off review of each contract (messages, task, findings)."""
    from agent.settings import Settings
    from graphs.runner import Reviewer, open_checkpointer

    settings = Settings(home=home)
    states = []
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver, use_memory=False)
        for name in CONTRACTS[:sources]:
            thread = f"source-{name}"
            reviewer.review_path(REPO / "sample_contracts" / name, thread_id=thread)
            # the run's own checkpoint thread (tenant/agent/run id): a bare run id names no thread, and
            # replayed an empty state until the memory steps refused one (issue 33)
            states.append(reviewer.graph.get_state(reviewer.thread_config(thread)).values)
    return states


def consolidations(home: Path, count: int, sources: int = len(CONTRACTS)) -> dict[str, Any]:
    """Replay the consolidate subgraph `count` times (new run id each time) on one memory file."""
    from agent.settings import Settings
    from graphs.consolidate import build_consolidate
    from graphs.context import forget_cached
    from graphs.runner import context_from_settings

    states = _finished_states(home / "sources", sources)
    settings = Settings(home=home / "memory")
    forget_cached("memory")
    graph = build_consolidate().compile()
    ctx = context_from_settings(settings)
    timings, outcomes = [], {}
    try:
        graph.invoke({**states[0], "run_id": "warm-up"}, context=ctx)  # loads models, embeddings, PII engine
        for i in range(count):
            state = {**states[i % len(states)], "run_id": f"bench-consolidation-{i}"}
            start = time.perf_counter()
            out = graph.invoke(state, context=ctx)
            timings.append((time.perf_counter() - start) * 1000)
            outcome = (out.get("artifacts") or {}).get("outcome", "none")
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        from graphs.context import open_memory_for, run_scope

        run = run_scope(SimpleNamespace(context=ctx))
        stored = len(open_memory_for(run).episodes.list(run.namespace, limit=count + 10))
    finally:
        forget_cached("memory")
    total_s = sum(timings) / 1000
    return {"count": count, "per_second": round(count / total_s, 1) if total_s else None,
            "latency_ms": percentiles(timings), "outcomes": outcomes, "episodes_stored": stored}


def _file_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def bytes_per_thousand(folder: Path, count: int = 1000) -> dict[str, Any]:
    """File growth for `count` episodes written one by one through the public store API."""
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import load_embeddings, model_name_of
    from memory.records import Namespace

    embeddings = load_embeddings("wordllama")
    model = model_name_of(embeddings)
    ns = Namespace(tenant="bench", agent="reviewer")
    path = folder / "footprint.sqlite"
    now = datetime.now(UTC)
    episodes = list(_episodes(0, 0, count, model, Timeline(now - timedelta(days=1), count)))
    vectors = embeddings.embed_documents([e.embedding_text() for e in episodes])
    with SqliteMemory(path) as memory:
        memory.episodes.add(ns, episodes[0], vectors[0])  # the first row allocates the tables' pages
        memory.db._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = _file_bytes(path)
        start = time.perf_counter()
        for episode, vector in zip(episodes[1:], vectors[1:], strict=True):
            memory.episodes.add(ns, episode, vector)
        seconds = time.perf_counter() - start
        memory.db._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        after = _file_bytes(path)
        record_bytes = sum(len(e.model_dump_json()) for e in episodes[1:])
    written = count - 1
    per_thousand = (after - before) * 1000 / written
    return {"episodes": written, "bytes_per_1000": int(per_thousand), "mb_per_1000": round(per_thousand / 2**20, 2),
            "record_json_bytes_per_1000": int(record_bytes * 1000 / written),
            "vector_bytes_per_1000": len(vectors[0]) * 4 * 1000,
            "adds_per_second": round(written / seconds, 1) if seconds else None}


def review_rss(home: Path, contract: Path) -> dict[str, Any]:
    """Peak RSS of a fresh process running one memory-on review through the CLI."""
    proc = subprocess.run([sys.executable, "-m", "bench.rss", str(home), str(contract)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
    if proc.returncode != 0 or line is None:
        raise RuntimeError(f"RSS probe failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return json.loads(line)


def run(*, count: int = 100, episodes: int = 1000, sources: int = len(CONTRACTS)) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-writepath-") as folder:
        root = Path(folder)
        return {
            "consolidation": consolidations(root / "consolidate", count, sources),
            "footprint": bytes_per_thousand(root, episodes),
            "review_rss": review_rss(root / "rss", REPO / "sample_contracts" / "northwind_msa_01.pdf"),
        }
