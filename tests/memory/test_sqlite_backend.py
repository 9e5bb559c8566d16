"""What only the SQLite backend has: URLs, migrations, processes sharing a file, speed at scale."""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory.backends import open_memory
from memory.backends.sqlite import SqliteMemory
from memory.backends.sqlite.marker import TIER_TABLES
from memory.backends.sqlite.schema import MIGRATIONS, scope_token
from memory.backends.sqlite.search import as_blob, index_rows, name_tokens
from memory.errors import MemoryConfigError
from memory.records import Episode, Namespace, Outcome, Procedure, ProcedureStatus
from memory.retrieval import identifiers
from memory.stores import VectorQuery

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")


@pytest.mark.parametrize("url", ["", "   ", "memory.sqlite", "sqlite://", "sqlite:///", "mongodb://db/x"])
def test_bad_memory_urls_are_refused_with_the_fix(url):
    with pytest.raises(MemoryConfigError, match="sqlite:///"):
        open_memory(url)


def test_aws_urls_need_the_aws_module(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "memory.backends.aws", None)  # as if it failed to import
    with pytest.raises(MemoryConfigError, match=r"contract-memory-agent\[aws\]"):
        open_memory("aws://?region=us-east-1")


def test_relative_and_absolute_sqlite_urls(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    open_memory("sqlite:///data/relative.sqlite").close()
    assert (tmp_path / "data" / "relative.sqlite").exists()
    absolute = tmp_path / "abs" / "m.sqlite"
    open_memory(f"sqlite:///{absolute}").close()
    assert absolute.exists()


def test_migrations_are_applied_once_and_a_newer_file_is_refused(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path) as memory:
        assert memory.db.schema_version == len(MIGRATIONS)
    with SqliteMemory(path) as memory:  # reopening applies nothing twice
        assert memory.db.schema_version == len(MIGRATIONS)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(MemoryConfigError, match="upgrade the package"):
        SqliteMemory(path)


def test_a_file_at_version_one_is_migrated_forward(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
    with SqliteMemory(path) as memory:
        assert memory.db.schema_version == len(MIGRATIONS)
        memory.episodes.add(NS, _episode("r1", "clause 7.3"), [1.0, 0.0])
        hits = memory.episodes.search(NS, _query("clause 7.3", [0.0, 1.0]))
        assert [h.item.run_id for h in hits] == ["r1"]
        indexes = {r[0] for r in memory.db._conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "episodes_by_outcome" in indexes


def _holders(memory: SqliteMemory, tenant: str, ident: str) -> int:
    """Rows of `tenant`'s reviewer namespace holding the identifier, per the name index."""
    (match,) = name_tokens(scope_token("episodes", tenant, "reviewer"), [ident])
    with memory.db.read() as conn:
        return conn.execute("SELECT count(*) FROM episodes_names WHERE episodes_names MATCH ?",
                            (f'"{match}"',)).fetchone()[0]


def test_identifiers_are_indexed_per_namespace_through_migration_writes_and_deletes(tmp_path):
    """Issue 18, profiled at 100k: `scope : S AND idents : X` in the shared FTS table walked every
    posting of X in any column of any tenant (25 ms for "Supplier", in every row's text, on
    every query starting with it). Identifiers now have an index keyed by namespace (migration
    7): built from the FTS table for an older file, kept by every write, emptied by every delete."""
    path = tmp_path / "m.sqlite"
    other = Namespace(tenant="globex", agent="reviewer")
    with SqliteMemory(path) as memory:
        for i in range(3):
            memory.episodes.add(NS, _episode(f"a{i}", f"Review the Acme Robotics supply agreement SC-{i}"), [1.0, 0.0])
        for i in range(5):
            memory.episodes.add(other, _episode(f"g{i}", f"Review the Acme and Globex licence SC-{i}"), [1.0, 0.0])
    with sqlite3.connect(path) as conn:  # back to a version-6 file: no name index
        conn.execute("DROP TABLE episodes_names")
        conn.execute("DROP TABLE facts_names")
        conn.execute("DROP TRIGGER episodes_names_removed")
        conn.execute("DROP TRIGGER facts_names_removed")
        for table in TIER_TABLES:  # and no marker row (migration 8)
            conn.execute(f"DROP TRIGGER {table}_counted_in")
            conn.execute(f"DROP TRIGGER {table}_counted_out")
        conn.execute("DROP TABLE marker")
        conn.execute("PRAGMA user_version = 6")
    (tmp_path / "m.sqlite.marker").unlink()  # as an older version left the folder
    with SqliteMemory(path) as memory:
        assert memory.db.schema_version == len(MIGRATIONS)
        assert (_holders(memory, "acme", "acme"), _holders(memory, "globex", "acme")) == (3, 5)
        assert _holders(memory, "acme", "globex") == 0  # another tenant's name is not this one's
        assert (_holders(memory, "acme", "sc1"), _holders(memory, "acme", "robotics")) == (1, 3)
        memory.episodes.add(NS, _episode("a9", "Review the Acme Robotics licence SC-9"), [1.0, 0.0])
        assert _holders(memory, "acme", "acme") == 4
        memory.episodes.delete(NS, ["a0", "a9"])
        assert (_holders(memory, "acme", "acme"), _holders(memory, "acme", "sc9")) == (2, 0)
        # a query naming the rare reference finds its episode among the namespace's alike ones
        hits = memory.episodes.search(NS, _query("SC-2 of Acme Robotics", [0.0, 1.0]))
        assert hits[0].item.run_id == "a2"


def test_recent_holders_of_a_common_name_are_read_only_when_no_row_holds_every_name(tmp_path):
    """Issue 18, profiled at 100k: the newest 50 holders of each common name of the query (the
    party's industry word, its name) were read, scored and ranked on every search, 160 of the 236
    rows of the pool, though a row holding every name of the query was there. They are now read
    only when no row holds all the names the namespace holds (or the query names one thing)."""
    from memory.backends.sqlite.vectors import IndexKey

    with SqliteMemory(tmp_path / "m.sqlite") as memory:
        for i in range(70):
            memory.episodes.add(NS, _episode(f"a{i}", f"Review the Acme supply agreement SC-{i}"), [1.0, 0.0])
        memory.episodes.add(NS, _episode("g", "Review the Globex licence"), [1.0, 0.0])
        ids = {run_id: row_id for row_id, run_id in memory.db._conn.execute("SELECT id, run_id FROM episodes")}
        index, key = memory.episodes._index, IndexKey("episodes", NS.tenant, NS.agent, "m")
        scope = scope_token("episodes", NS.tenant, NS.agent)
        with memory.db.snapshot() as conn:
            def sharing(*names: str) -> tuple[set[int], set[str]]:
                return index._sharing_identifiers(conn, scope, key, set(names), 50)

            assert sharing("acme", "sc7", "nowhere") == ({ids["a7"]}, {"sc7"})  # one row holds both held names
            assert sharing("acme")[0] == {ids[f"a{i}"] for i in range(20, 70)}  # the only name: its newest 50
            rows, _ = sharing("acme", "globex")  # nobody holds both: the newest of each
            assert rows == {ids[f"a{i}"] for i in range(20, 70)} | {ids["g"]}


def test_remembered_word_holders_follow_writes_and_deletes_of_any_connection(tmp_path):
    """Issue 18, profiled at 100k: deciding which query words are distinctive took eight FTS5
    lookups a search (2 ms), nearly always with the same answer, so the answers are remembered
    (`memory.backends.sqlite.holders`). A row added by another process that holds a rare word,
    and deletes that leave a common word rare, must still be seen by the next search."""
    from memory.backends.sqlite.vectors import IndexKey

    path = tmp_path / "m.sqlite"
    with SqliteMemory(path) as memory, SqliteMemory(path) as writer:
        for i in range(100):
            memory.episodes.add(NS, _episode(f"a{i}", f"Review the supply agreement {i}"), [1.0, 0.0])
        for i in range(12):  # 12 of 112 rows: above the rare limit (a tenth of the namespace)
            memory.episodes.add(NS, _episode(f"z{i}", "Review the zeppelin agreement"), [1.0, 0.0])
        index, key = memory.episodes._index, IndexKey("episodes", NS.tenant, NS.agent, "m")
        scope = scope_token("episodes", NS.tenant, NS.agent)

        def distinctive() -> set[str]:
            with memory.db.snapshot() as conn:
                rows = index._distinctive_rows(conn, scope, key, ["zeppelin", "reagents"])
                return {conn.execute("SELECT run_id FROM episodes WHERE id = ?", (row,)).fetchone()[0] for row in rows}

        assert distinctive() == set()  # "zeppelin" is common here, "reagents" held by nobody
        assert distinctive() == set()  # remembered
        writer.episodes.add(NS, _episode("r", "Review the reagents order"), [1.0, 0.0])
        assert distinctive() == {"r"}
        memory.episodes.delete(NS, [f"z{i}" for i in range(6)])
        assert distinctive() == {"r"} | {f"z{i}" for i in range(6, 12)}  # 6 of 107 rows: rare now


def test_a_write_by_another_connection_is_seen_by_a_warm_cache(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path) as reader, SqliteMemory(path) as writer:
        writer.episodes.add(NS, _episode("a"), [1.0, 0.0])
        assert [h.item.run_id for h in reader.episodes.search(NS, _query())] == ["a"]
        writer.episodes.add(NS, _episode("b"), [0.9, 0.1])
        assert [h.item.run_id for h in reader.episodes.search(NS, _query())] == ["a", "b"]
        writer.episodes.delete(NS, ["a"])
        assert [h.item.run_id for h in reader.episodes.search(NS, _query())] == ["b"]


def _count_in_process(path: str, worker: int) -> None:
    memory = SqliteMemory(path)
    ns = Namespace(tenant="acme", agent="reviewer")
    for i in range(20):
        memory.procedures.record_application(ns, "p1", success=i % 2 == 0)
        memory.confirmations.observe(ns, "fact", f"run-{worker}-{i % 5}")
    memory.close()


def test_several_processes_count_exactly(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path) as memory:
        memory.procedures.propose(NS, Procedure(procedure_id="p1", task_type="review", title="t", steps=["a"]))
        memory.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_count_in_process, args=(str(path), w)) for w in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    with SqliteMemory(path) as memory:
        stored = memory.procedures.get(NS, "p1")
        assert (stored.applications, stored.successes) == (80, 40)
        assert len(memory.confirmations.runs(NS, "fact")) == 20  # 4 workers x 5 distinct runs


def test_search_covers_a_large_namespace_and_finds_its_oldest_match(tmp_path):
    """Scaled down from the 100k + 1M benchmark (tests/memory/bench_search.py, figures in the
    report): 20k episodes of the namespace among 40k of other tenants."""
    memory = SqliteMemory(tmp_path / "m.sqlite")
    rng = np.random.default_rng(3)
    dim = 256
    target = rng.standard_normal(dim).astype(np.float32)
    texts = [f"Review the {p} {c} for {t}; clause {n}.{m}" for p, c, t, n, m in zip(
        random.Random(1).choices(["Acme", "Globex", "Initech", "Hooli"], k=200),
        random.Random(2).choices(["supply agreement", "services contract", "licence"], k=200),
        random.Random(3).choices(["liability cap", "payment terms", "renewal", "warranty"], k=200),
        random.Random(4).choices(range(1, 20), k=200), random.Random(5).choices(range(1, 9), k=200), strict=True)]
    index = [(t, " ".join(sorted(identifiers(t)))) for t in texts]
    record = _episode("template").model_dump_json()
    with memory.db.write() as conn:
        for tenant, count in [("acme", 20_000), ("globex", 20_000), ("initech", 20_000)]:
            vectors = rng.standard_normal((count, dim)).astype(np.float32)
            if tenant == "acme":  # the oldest episode is the one most like the query
                vectors[0] = target
            scope = scope_token("episodes", tenant, "reviewer")
            for i in range(count):
                created = (NOW - timedelta(days=80) + timedelta(seconds=i)).timestamp()
                row = conn.execute(
                    "INSERT INTO episodes (tenant, agent, run_id, task_type, outcome, created_at, expires_at, "
                    "model, vector, record) VALUES (?, 'reviewer', ?, 'review', 'COMPLETED', ?, ?, 'm', ?, ?)",
                    (tenant, f"{tenant}-{i}", created, created + 90 * 86400, as_blob(vectors[i]),
                     record.replace('"template"', f'"{tenant}-{i}"')),
                ).lastrowid
                body, idents = index[i % len(index)]
                index_rows(conn, "episodes", [(row, scope, body, idents)])
    queries = ["Review the Acme supply agreement for the liability cap", "payment terms in clause 7.3",
               "Check the Globex licence renewal", "warranty of the Hooli services contract"]

    def search(text: str, vector: np.ndarray) -> list[str]:
        query = VectorQuery(text=text, vector=vector.tolist(), embedding_model="m", k=3, min_score=0.3, now=NOW)
        return [hit.item.run_id for hit in memory.episodes.search(NS, query)]

    assert search(queries[0], target)[0] == "acme-0"
    # Other tenants' rows never come back, whatever the query (speed is measured by `make bench`).
    for text in queries:
        assert all(run_id.startswith("acme-") for run_id in search(text, rng.standard_normal(dim).astype(np.float32)))
    memory.close()


def _episode(run_id: str, summary: str = "review a supply agreement") -> Episode:
    return Episode(run_id=run_id, task_type="review", task_summary=summary, outcome=Outcome.COMPLETED,
                   created_at=NOW - timedelta(days=1), expires_at=NOW + timedelta(days=30), embedding_model="m")


def _query(text: str = "zzz", vector: list[float] | None = None) -> VectorQuery:
    return VectorQuery(text=text, vector=vector or [1.0, 0.0], embedding_model="m", k=3, min_score=0.5, now=NOW)






class _Recording(sqlite3.Connection):
    """A connection that keeps every statement it runs with its parameters."""

    statements: list[tuple[str, tuple]] = []

    def execute(self, sql, parameters=(), /):
        _Recording.statements.append((sql, tuple(parameters)))
        return super().execute(sql, parameters)


@pytest.mark.parametrize("url_options", ["", "?vector_index=exact"])
def test_rows_found_by_id_are_read_by_id_not_through_the_namespace_index(tmp_path, monkeypatch, url_options):
    """Issue 18, found by profiling `bench bootstrap` at 100k: without statistics SQLite read
    `tenant = ? AND agent = ? AND id IN (...)` through the (tenant, agent, ...) index, i.e.
    every row of the namespace (40 ms of a 50 ms recall), not the few rows by id. Every read by
    id that a search makes must look the rows up by id."""
    import memory.backends.sqlite.schema as schema

    connect = sqlite3.connect
    monkeypatch.setattr(schema.sqlite3, "connect", lambda *a, **k: connect(*a, **k, factory=_Recording))
    memory = open_memory(f"sqlite:///{tmp_path / 'm.sqlite'}{url_options}")
    for i in range(30):
        memory.episodes.add(NS, _episode(f"run-{i}", f"review the Acme supply agreement {i}"), [1.0, i / 30])
    _Recording.statements.clear()
    query = _query("Acme supply agreement", [1.0, 0.5]).model_copy(update={"k": 12, "min_score": 0.0})
    assert len(memory.episodes.search(NS, query)) == 12  # with 9 ids or more the plan used to change
    by_id = [(sql, params) for sql, params in _Recording.statements if " id IN (" in sql and sql.startswith("SELECT")]
    assert by_id
    with sqlite3.connect(tmp_path / "m.sqlite") as conn:
        for sql, params in by_id:
            plan = " ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "INTEGER PRIMARY KEY" in plan or "id=?" in plan, (sql, plan)
    memory.close()


@pytest.mark.parametrize("url_options", ["", "?vector_index=exact"])
def test_a_query_naming_one_contract_gets_that_episode_first_among_many_alike(tmp_path, url_options):
    """Issue 18, found by `bench bootstrap` at 100k: a query naming one contract reference wants
    that episode, even when siblings (same party, same kind) are nearer by cosine and many other
    episodes share the kind or half the party's name. Fusion added up the siblings' votes (each
    near in all three rankings) and served three siblings instead of the named contract."""
    from tests.conformance.support import vec

    memory = open_memory(f"sqlite:///{tmp_path / 'memory.sqlite'}{url_options}")
    rng = random.Random(11)
    clauses = ["liability_cap", "payment_terms", "auto_renewal", "warranty", "governing_law", "insurance"]
    prefixes = ["North", "Blue", "Iron", "Silver", "Harbor", "Summit", "Cedar", "Granite", "Pioneer", "Falcon"]
    suffixes = ["field", "gate", "stone", "bridge", "line", "point", "crest", "ridge", "view", "wood"]

    def add(run_id: str, party: str, ref: str, cosine: float) -> None:
        findings = [f"{c} in section {rng.randint(2, 24)}.{rng.randint(1, 9)}" for c in rng.sample(clauses, 3)]
        memory.episodes.add(NS, Episode(
            run_id=run_id, task_type="review", task_summary=f"Review the {party} SaaS subscription {ref}",
            outcome=Outcome.COMPLETED, key_findings=findings, created_at=NOW - timedelta(hours=len(run_id)),
            expires_at=NOW + timedelta(days=30), embedding_model="m"), vec(cosine, 1 + rng.randrange(7)))

    def ref() -> str:
        return f"SC-{rng.randrange(10**8):08d}"

    for i in range(15):
        add(f"sibling-{i}", "Maplewind Components", ref(), rng.uniform(0.40, 0.52))
    for i, kind in enumerate(["Components"] * 70 + ["Logistics"] * 100):
        add(f"other-{i}", f"{rng.choice(prefixes)}{rng.choice(suffixes)} {kind}", ref(), rng.uniform(0.30, 0.50))
    add("named", "Maplewind Components", "SC-00057741", 0.42)
    text = "SC-00057741: new SaaS subscription sent by Maplewind Components"
    hits = memory.episodes.search(NS, VectorQuery(text=text, vector=vec(1.0), embedding_model="m", k=3,
                                                  min_score=0.25, now=NOW, vector_alone=0.4))
    memory.close()
    assert [h.item.run_id for h in hits][0] == "named"
