"""The confirmation gate counts distinct runs exactly, even with several processes at once.

Three processes observe the same fact. Phase 1: each observes the same two runs, several times:
the fact must NOT be stored (two distinct runs, however many calls). Phase 2: each observes
four more shared runs and one of its own: the fact is stored once, and the log holds exactly
the distinct runs (2 + 4 + 3). Runs on SQLite (one file), on AWS (a moto server over HTTP,
which the processes reach like DynamoDB itself) and on LangGraph's PostgresStore (a real
PostgreSQL server, which has no atomic increment: one item per (fact, run), counted).
"""

from __future__ import annotations

import multiprocessing

import pytest

from memory import semantic
from memory.backends import open_memory
from tests.backends import FACTORIES
from tests.security.gate_worker import FACT, NS, SHARED_FIRST, SHARED_LATER, observe_in_process

WORKERS = 3


def _opened(kind: str, request, tmp_path) -> tuple[object, str]:
    """The backend the parent checks, and the URL each worker process opens it by."""
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'memory.sqlite'}"
        return open_memory(url), url
    if kind == "store-postgres":
        url = request.getfixturevalue("postgres_server").fresh_url()
        return open_memory(url), url  # creates the store's tables before the workers start
    backend = FACTORIES[kind](tmp_path)
    config = backend.config
    return backend, (f"aws://?region={config.region}&table_prefix={config.table_prefix}&bucket={config.bucket}"
                     f"&endpoint_url={config.endpoint_url}")


@pytest.mark.parametrize("kind", [k for k in ("sqlite", "aws-server+fake-queryvectors", "store-postgres")
                                  if k in FACTORIES])
def test_processes_confirming_one_fact_count_each_run_once(kind, request, tmp_path, monkeypatch):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):  # the moto server takes any key
        monkeypatch.setenv(name, "testing")
    backend, url = _opened(kind, request, tmp_path)
    key = semantic.fact_key(FACT)
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(WORKERS + 1)
    workers = [context.Process(target=observe_in_process, args=(url, w, barrier))
               for w in range(WORKERS)]
    for worker in workers:
        worker.start()
    try:
        barrier.wait(120)
        assert sorted(backend.confirmations.runs(NS, key)) == SHARED_FIRST
        assert backend.facts.get(NS, key) is None, "two distinct runs must not pass a gate of three"
        barrier.wait(60)
    finally:
        for worker in workers:
            worker.join(120)
    assert [w.exitcode for w in workers] == [0] * WORKERS
    expected = sorted([*SHARED_FIRST, *SHARED_LATER, *(f"solo-{w}" for w in range(WORKERS))])
    assert sorted(backend.confirmations.runs(NS, key)) == expected
    assert backend.confirmations.observe(NS, key, "run-0") == len(expected)  # a repeat still counts once
    facts = backend.facts.list(NS)
    assert [f.fact_id for f in facts] == [key]
    assert set(facts[0].source_runs) <= set(expected) and len(facts[0].source_runs) >= 3
    backend.close()
