"""The SQLite backend's nearest-neighbour indexes beside the file (memory/backends/sqlite/vectors.py).

Small `min_delta` values make namespaces get a usearch graph after a handful of writes, so the
snapshot, merge, tombstone and rebuild paths run on tiny data; the figures at 100k and 1M
episodes come from `contract-review bench bootstrap`, never from a test.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memory.backends.sqlite import SqliteMemory
from memory.records import Episode, Namespace, Outcome
from memory.stores import VectorQuery

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
MODEL = "test-model"
DIM = 16


def unit(seed: int) -> list[float]:
    v = np.random.default_rng(seed).normal(size=DIM)
    return (v / np.linalg.norm(v)).tolist()


def episode(run_id: str, *, model: str = MODEL, created: datetime = NOW - timedelta(days=1)) -> Episode:
    return Episode(run_id=run_id, task_type="review", task_summary=f"review {run_id}", outcome=Outcome.COMPLETED,
                   created_at=created, expires_at=created + timedelta(days=90), embedding_model=model)


def query(vector: list[float], *, k: int = 3, model: str = MODEL, text: str = "zzz") -> VectorQuery:
    return VectorQuery(text=text, vector=vector, embedding_model=model, k=k, min_score=-1.0, now=NOW, mode="vector")


def fill(memory: SqliteMemory, count: int, ns: Namespace = NS, start: int = 0) -> None:
    for i in range(start, start + count):
        memory.episodes.add(ns, episode(f"r{i}"), unit(i))


def top(memory: SqliteMemory, seed: int, ns: Namespace = NS, **kwargs) -> str:
    return memory.episodes.search(ns, query(unit(seed), **kwargs))[0].item.run_id


def registry(memory: SqliteMemory) -> list[tuple]:
    with memory.db.read() as conn:
        return conn.execute("SELECT kind, tenant, agent, model, file, seq, count FROM vector_indexes ORDER BY 1, 2, 3"
                            ).fetchall()


def journal_size(memory: SqliteMemory) -> int:
    with memory.db.read() as conn:
        return conn.execute("SELECT count(*) FROM vector_log").fetchone()[0]


def test_a_small_namespace_needs_no_graph_and_a_large_one_gets_a_snapshot_file(tmp_path):
    with SqliteMemory(tmp_path / "m.sqlite", min_delta=20) as memory:
        fill(memory, 20)
        assert registry(memory) == []  # 20 vectors: the exact delta is the index
        assert top(memory, 7) == "r7"
        fill(memory, 10, start=20)
        [(kind, tenant, agent, model, file, seq, count)] = registry(memory)
        assert (kind, tenant, agent, model, count) == ("episodes", "acme", "reviewer", MODEL, 21)
        assert (memory.vectors.folder / file).exists()
        sidecar = json.loads((memory.vectors.folder / file).with_suffix(".json").read_text())
        assert sidecar["model"] == MODEL and sidecar["seq"] == seq and sidecar["count"] == 21
        assert journal_size(memory) == 9  # the journal keeps only what the snapshot does not hold
        fill(memory, 20, start=30)
        assert all(top(memory, i) == f"r{i}" for i in range(50))


def test_the_delta_is_merged_into_a_new_snapshot_and_the_old_file_goes(tmp_path):
    with SqliteMemory(tmp_path / "m.sqlite", min_delta=10) as memory:
        fill(memory, 11)
        [(*_, first, _, _)] = registry(memory)
        fill(memory, 11, start=11)
        [(*_, second, _, count)] = registry(memory)
        assert second != first and count == 22
        assert not (memory.vectors.folder / first).exists()
        assert sorted(p.name for p in memory.vectors.folder.iterdir()) == sorted([second, second.replace(
            ".usearch", ".json")])


def test_another_process_sees_writes_deletes_and_merges_at_its_next_search(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path, min_delta=10) as writer, SqliteMemory(path, min_delta=10) as reader:
        fill(writer, 15)
        assert top(reader, 3) == "r3"  # the reader maps the snapshot
        writer.episodes.delete(NS, ["r3"])
        writer.episodes.add(NS, episode("new"), unit(1000))
        assert top(reader, 3) != "r3"
        assert top(reader, 1000) == "new"
        fill(writer, 20, start=15)  # a merge in the writer replaces the snapshot file
        assert top(reader, 30) == "r30"
        assert top(reader, 3) != "r3"


def test_namespaces_and_models_get_separate_indexes(tmp_path):
    other = Namespace(tenant="globex", agent="reviewer")
    with SqliteMemory(tmp_path / "m.sqlite", min_delta=5) as memory:
        fill(memory, 8)
        for i in range(8):
            memory.episodes.add(other, episode(f"g{i}"), unit(i))  # the very same vectors
            memory.episodes.add(NS, episode(f"m{i}", model="model-b"), unit(i))
        assert {(r[1], r[3]) for r in registry(memory)} == {("acme", MODEL), ("globex", MODEL), ("acme", "model-b")}
        assert top(memory, 4, other) == "g4"
        assert top(memory, 4) == "r4"
        assert top(memory, 4, model="model-b") == "m4"


@pytest.mark.parametrize("damage", ["missing", "other-model", "stale"])
def test_a_missing_stale_or_foreign_index_file_is_rebuilt_from_the_table_with_progress(tmp_path, damage):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path, min_delta=10) as memory:
        fill(memory, 30)
        [(*_, file, _, _)] = registry(memory)
    folder = path.with_name(path.name + ".vectors")
    sidecar = (folder / file).with_suffix(".json")
    if damage == "missing":
        (folder / file).unlink()
    elif damage == "other-model":
        sidecar.write_text(json.dumps({**json.loads(sidecar.read_text()), "model": "another-model"}))
    else:  # an index file from an older state of the memory (e.g. a restored backup of the file)
        sidecar.write_text(json.dumps({**json.loads(sidecar.read_text()), "seq": 1}))
    heard: list[tuple[int, int]] = []
    with SqliteMemory(path, min_delta=10, progress=lambda what, done, total: heard.append((done, total))) as memory:
        assert all(top(memory, i) == f"r{i}" for i in range(30))
        [(*_, rebuilt, _, count)] = registry(memory)
        assert count == 30 and (folder / rebuilt).exists()
    assert heard[0] == (0, 30) and heard[-1] == (30, 30)


def test_a_file_journalled_before_the_indexes_existed_is_indexed_at_first_search(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path, min_delta=1000) as memory:  # no graph yet
        fill(memory, 40)
        with memory.db.write() as conn:
            conn.execute("DELETE FROM vector_log")  # as a file written by the previous schema
    with SqliteMemory(path, min_delta=10) as memory:
        assert top(memory, 12) == "r12"
        assert registry(memory)[0][6] == 40


def test_the_first_search_after_opening_maps_the_snapshot_instead_of_reading_vectors(tmp_path):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path, min_delta=50) as memory:
        fill(memory, 400)
        memory.episodes.add(NS, episode("recent"), unit(5000))  # one vector in the delta
    statements: list[str] = []
    with SqliteMemory(path, min_delta=50) as memory:
        connect = memory.db._connect

        def traced():
            conn = connect()
            conn.set_trace_callback(statements.append)
            return conn

        memory.db._connect = traced
        assert top(memory, 77) == "r77"
        assert top(memory, 5000) == "recent"
    whole_namespace = [s for s in statements if "vector FROM episodes WHERE tenant" in s]
    assert whole_namespace == []  # no row-by-row read of the namespace's vectors
    by_id = [s for s in statements if "vector" in s and "id IN" in s]
    assert by_id and all(s.count(",") < 200 for s in by_id)  # only candidates' rows, by id


def test_forgetting_a_tenant_removes_its_index_files(tmp_path):
    from memory.forget import forget_tenant

    other = Namespace(tenant="globex", agent="reviewer")
    with SqliteMemory(tmp_path / "m.sqlite", min_delta=5) as memory:
        fill(memory, 10)
        fill(memory, 10, other)
        files = {r[1]: r[4] for r in registry(memory)}
        forget_tenant(memory, "acme")
        assert not (memory.vectors.folder / files["acme"]).exists()
        assert (memory.vectors.folder / files["globex"]).exists()
        assert memory.episodes.search(NS, query(unit(3))) == []
        assert top(memory, 3, other) == "r3"


def test_a_reembedding_switch_moves_the_namespace_to_the_new_models_index(tmp_path):
    from memory.reembed import PendingVector

    with SqliteMemory(tmp_path / "m.sqlite", min_delta=5) as memory:
        fill(memory, 12)
        assert top(memory, 2) == "r2"
        pending = list(memory.reembedding.pending("acme", "model-b"))
        memory.reembedding.stage("acme", "model-b", [(p, unit(10_000 + int(p.key))) for p in pending
                                                   if isinstance(p, PendingVector)])
        assert memory.reembedding.switch("acme", "model-b").switched == 12
        assert memory.episodes.search(NS, query(unit(2))) == []  # old model: nothing left to compare
        row_of_r2 = next(int(p.key) for p in pending if "r2" in p.text)
        assert top(memory, 10_000 + row_of_r2, model="model-b") == "r2"


def test_the_index_folder_and_files_are_the_owners_alone(tmp_path):
    """Issue 32: the folder was 0755 and its files 0644 (vectors of contracts, readable by all)."""
    with SqliteMemory(tmp_path / "m.sqlite", min_delta=20) as memory:
        fill(memory, 30)
        folder = memory.vectors.folder
        assert registry(memory)
        assert folder.stat().st_mode & 0o777 == 0o700
        files = list(folder.iterdir())
        assert files and all(f.stat().st_mode & 0o777 == 0o600 for f in files), [oct(f.stat().st_mode) for f in files]
