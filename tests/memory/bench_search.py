"""Search latency at scale: `python -m tests.memory.bench_search [own] [other_factor] [path]`.

Fills one SQLite file with `own` episodes of one namespace and `own * other_factor` episodes
spread over other tenants (realistic shared vocabulary, random 256-dim vectors), then times
hybrid searches of the one namespace. Also used, scaled down, by test_sqlite_backend.py.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from memory.backends.sqlite import SqliteMemory
from memory.records import Episode, Namespace, Outcome
from memory.stores import VectorQuery

NOW = datetime(2026, 6, 1, tzinfo=UTC)
MODEL = "bench-256"
PARTIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka", "Soylent", "Tyrell"]
TOPICS = ["liability cap", "payment terms", "auto renewal", "data protection", "insurance", "warranty",
          "exclusivity", "termination for convenience", "price changes", "audit rights"]
CONTRACTS = ["supply agreement", "services contract", "software licence", "distribution agreement"]


def _summary(rng: random.Random, i: int) -> str:
    return (f"Review the {rng.choice(PARTIES)} {rng.choice(CONTRACTS)} {i} for {rng.choice(TOPICS)} "
            f"and {rng.choice(TOPICS)}; clause {rng.randint(1, 20)}.{rng.randint(1, 9)}")


def _episodes(ns: Namespace, count: int, rng: random.Random) -> list[Episode]:
    return [Episode(run_id=f"{ns.tenant}-{i}", task_type="review", task_summary=_summary(rng, i),
                    outcome=Outcome.COMPLETED if i % 4 else Outcome.FAILED,
                    created_at=NOW - timedelta(minutes=i), expires_at=NOW + timedelta(days=30),
                    key_findings=[f"{rng.choice(TOPICS)} in section {rng.randint(1, 20)}.{rng.randint(1, 9)}: deviation (high)"],
                    embedding_model=MODEL) for i in range(count)]


def fill(memory: SqliteMemory, ns: Namespace, count: int, rng: random.Random, dim: int = 256) -> None:
    """Through the public API: one transaction per episode, as the agent writes them."""
    vectors = np.random.default_rng(rng.randint(0, 2**32)).standard_normal((count, dim)).astype(np.float32)
    for episode, vector in zip(_episodes(ns, count, rng), vectors, strict=True):
        memory.episodes.add(ns, episode, vector)


def bulk_fill(memory: SqliteMemory, ns: Namespace, count: int, rng: random.Random, dim: int = 256) -> None:
    """The same rows in one transaction (fast set-up for tests); same tables, same index text."""
    from memory.backends.sqlite.schema import scope_token
    from memory.backends.sqlite.search import as_blob, index_rows
    from memory.retrieval import identifiers

    vectors = np.random.default_rng(rng.randint(0, 2**32)).standard_normal((count, dim)).astype(np.float32)
    scope = scope_token("episodes", ns.tenant, ns.agent)
    with memory.db.write() as conn:
        for episode, vector in zip(_episodes(ns, count, rng), vectors, strict=True):
            row = conn.execute(
                "INSERT INTO episodes (tenant, agent, run_id, task_type, outcome, created_at, expires_at, model, "
                "vector, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ns.tenant, ns.agent, episode.run_id, episode.task_type, episode.outcome.value,
                 episode.created_at.timestamp(), episode.expires_at.timestamp(), MODEL, as_blob(vector),
                 episode.model_dump_json()),
            ).lastrowid
            text = episode.embedding_text()
            index_rows(conn, "episodes", [(row, scope, text, " ".join(sorted(identifiers(text))))])


def time_searches(memory: SqliteMemory, ns: Namespace, queries: int, rng: random.Random, dim: int = 256) -> list[float]:
    vectors = np.random.default_rng(7).standard_normal((queries, dim)).astype(np.float32)
    timings = []
    for i in range(queries):
        query = VectorQuery(text=f"Review the {rng.choice(PARTIES)} {rng.choice(CONTRACTS)} for {rng.choice(TOPICS)}",
                            vector=vectors[i].tolist(), embedding_model=MODEL, k=3, min_score=0.1, now=NOW)
        start = time.perf_counter()
        memory.episodes.search(ns, query)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def main(own: int = 100_000, other_factor: int = 10, path: str | None = None) -> None:
    rng = random.Random(42)
    file = Path(path) if path else Path(tempfile.mkdtemp()) / "bench.sqlite"
    mine = Namespace(tenant="tenant-0", agent="reviewer")
    with SqliteMemory(file) as memory:
        if not memory.episodes.list(mine, limit=1):
            start = time.perf_counter()
            fill(memory, mine, own, rng)
            for t in range(1, 11):
                fill(memory, Namespace(tenant=f"tenant-{t}", agent="reviewer"), own * other_factor // 10, rng)
            print(f"filled {own} + {own * other_factor} episodes in {time.perf_counter() - start:.0f} s")
    with SqliteMemory(file) as memory:  # a fresh process view: the first search loads the matrix
        start = time.perf_counter()
        time_searches(memory, mine, 1, rng)
        print(f"first search (cache load): {(time.perf_counter() - start) * 1000:.0f} ms")
        timings = sorted(time_searches(memory, mine, 200, rng))
        print(f"200 searches over {own} own episodes: p50 {timings[100]:.1f} ms, p95 {timings[189]:.1f} ms, "
              f"max {timings[-1]:.1f} ms")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]), *sys.argv[3:4])
