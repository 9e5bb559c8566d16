"""The bench's bulk loader writes what the stores write: a small file loaded by `bootstrap.grow`
and the same records written one by one through the stores hold the same tables, full-text rows,
name index and vector journal, and answer searches alike. The records of the second file are
generated again from the generator, not copied from the first, so the loader cannot drift."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import numpy as np
import pytest

from bench import bootstrap
from bench.bulk_load import in_workers
from bench.memory_data import Timeline, _episodes, _fact_text, episode_spec
from memory.backends.sqlite import SqliteMemory
from memory.backends.sqlite.search import as_blob
from memory.embeddings import load_embeddings, model_name_of
from memory.records import Fact, Namespace
from memory.stores import VectorQuery

OWN, FACTS = 24, 6
OWN_NS = Namespace(tenant="default", agent="contract-reviewer")
TABLES = {  # table -> the columns compared, in row order
    "episodes": "id, tenant, agent, run_id, task_type, outcome, created_at, expires_at, model, vector, record",
    "facts": "id, tenant, fact_id, domain, updated_at, model, vector, record",
    "episodes_fts": "rowid, scope, body, idents",
    "facts_fts": "rowid, scope, body, idents",
    "episodes_names": "rowid, names",
    "facts_names": "rowid, names",
    "vector_log": "seq, kind, tenant, agent, model, row_id, op",
    "vector_indexes": "kind, tenant, agent, model, seq, count, dim",
    "generations": "scope, value",
    "procedures": "tenant, agent, procedure_id, task_type, status, title, steps, validated_by, applications, successes",
}


def _rows(path, table: str) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        order = {"vector_indexes": "1, 2, 3, 4", "generations": "1", "procedures": "1, 2, 3"}.get(table, "rowid")
        return conn.execute(f"SELECT {TABLES[table]} FROM {table} ORDER BY {order}").fetchall()


def _through_the_stores(loaded_home, home) -> None:
    """The records `grow` generates, written again one by one through the stores, as the agent's
    write path does (each vector embedded alone)."""
    state = json.loads((loaded_home / "fill.json").read_text())
    anchor = datetime.fromisoformat(state["anchor"])
    embeddings = load_embeddings("wordllama")
    model = model_name_of(embeddings)
    fact_time = anchor  # facts are written "at" the anchor: the file is the same whenever it is built
    per_other = OWN * bootstrap.other_factor(OWN) // bootstrap.OTHER_TENANTS
    episode_pool = [embeddings.embed_query(episode_spec(i, 99).summary()) for i in range(per_other)]
    fact_pool = embeddings.embed_documents([f"fact pool {i}" for i in range(1000)])
    with SqliteMemory(home / "memory.sqlite") as memory:
        for episode in _episodes(0, 0, OWN, model, Timeline(anchor, OWN)):
            assert memory.episodes.add(OWN_NS, episode, embeddings.embed_query(episode.embedding_text()))
        for t in range(1, bootstrap.OTHER_TENANTS + 1):
            ns = Namespace(tenant=f"other-{t:02d}", agent=OWN_NS.agent)
            for i, episode in enumerate(_episodes(t, 0, per_other, model, Timeline(anchor, per_other))):
                memory.episodes.add(ns, episode, episode_pool[i])
        for t, count in [(0, FACTS)] + [(t, FACTS * bootstrap.other_factor(OWN) // bootstrap.OTHER_TENANTS)
                                        for t in range(1, bootstrap.OTHER_TENANTS + 1)]:
            ns = OWN_NS if t == 0 else Namespace(tenant=f"other-{t:02d}", agent=OWN_NS.agent)
            for i in range(count):
                text = _fact_text(t, i)
                fact = Fact(fact_id=f"fact-{t:02d}-{i:06d}", domain="supplier_contracts", text=text, confidence=0.8,
                            source_runs=["a", "b", "c"], created_at=fact_time, updated_at=fact_time,
                            embedding_model=model)
                memory.facts.put(ns, fact, embeddings.embed_query(text) if t == 0 else fact_pool[i % 1000])
        bootstrap.add_procedures(memory, OWN_NS, "supplier_contract_review")


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    loaded, written = tmp_path_factory.mktemp("loaded"), tmp_path_factory.mktemp("written")
    bootstrap.grow(loaded, OWN, FACTS, capacity=OWN, log=lambda _: None)
    _through_the_stores(loaded, written)
    return loaded, written


@pytest.mark.parametrize("table", sorted(TABLES))
def test_bulk_loaded_tables_equal_the_stores_rows(both, table):
    loaded, written = both
    assert _rows(loaded / "memory.sqlite", table) == _rows(written / "memory.sqlite", table)


def test_bulk_loaded_file_has_the_backends_schema_and_mode(both):
    loaded, written = both
    schemas = []
    for home in both:
        with sqlite3.connect(home / "memory.sqlite") as conn:
            schemas.append(conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall())
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert schemas[0] == schemas[1]
    assert not json.loads((loaded / "fill.json").read_text())["loading"]


def test_searches_over_the_bulk_loaded_file_answer_like_the_written_one(both):
    embeddings = load_embeddings("wordllama")
    model = model_name_of(embeddings)
    texts = [text for text, _ in bootstrap.queries(OWN, 6)] + ["liability cap in section 7.2", "Northwind SaaS"]
    answers = []
    for home in both:
        with SqliteMemory(home / "memory.sqlite") as memory:
            found = []
            for text in texts:
                for mode in ("hybrid", "vector", "lexical"):
                    query = VectorQuery(text=text, vector=embeddings.embed_query(text), embedding_model=model, k=5,
                                        min_score=-1.0, now=datetime.now(UTC), mode=mode)
                    found.append([(h.item.run_id, round(h.score, 6)) for h in memory.episodes.search(OWN_NS, query)])
                    found.append([(h.item.fact_id, round(h.score, 6)) for h in memory.facts.search(OWN_NS, query)])
            answers.append(found)
    assert answers[0] == answers[1]
    assert any(answers[0])


def test_workers_yield_every_batch_in_order():
    assert list(in_workers(lambda lo, hi: list(range(lo, hi)), 3, 40, 7, workers=2)) == \
        [list(range(lo, min(40, lo + 7))) for lo in range(3, 40, 7)]


def test_an_interrupted_load_is_started_over(tmp_path):
    home = tmp_path / "home"
    bootstrap.grow(home, 12, 0, capacity=12, log=lambda _: None)
    state = json.loads((home / "fill.json").read_text())
    (home / "fill.json").write_text(json.dumps({**state, "loading": True}))  # as a killed load leaves it
    with sqlite3.connect(home / "memory.sqlite") as conn:
        conn.execute("INSERT INTO episodes (tenant, agent, run_id, task_type, outcome, created_at, expires_at, model, "
                     "vector, record) VALUES ('default', 'contract-reviewer', 'half-written', 't', 'FAILED', 0, 0, 'm', "
                     "?, '{}')", (as_blob(np.ones(4)),))
    bootstrap.grow(home, 12, 0, capacity=12, log=lambda _: None)
    with SqliteMemory(home / "memory.sqlite") as memory:
        assert memory.episodes.get(OWN_NS, "half-written") is None
        assert len(memory.episodes.list(OWN_NS, limit=100)) == 12
