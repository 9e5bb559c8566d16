"""A store found holding less than its folder last wrote is reported, never silently empty
(issue 32). Before, a deleted main file, a deleted write-ahead log or an older copy of the file put
in place opened as an empty or shorter memory, with no warning."""

from __future__ import annotations

import json
import shutil

import pytest

from memory.backends.sqlite import SqliteMemory
from memory.errors import MemoryLostError
from memory.records import Namespace
from tests.memory.test_vector_index import episode, fill, unit

NS = Namespace(tenant="acme", agent="reviewer")


def _runs(path, count: int, start: int = 0) -> None:
    with SqliteMemory(path) as memory:
        fill(memory, count, start=start)


def _listed(path) -> int:
    with SqliteMemory(path) as memory:
        return len(memory.episodes.list(NS, limit=100))


def test_a_deleted_main_file_is_reported_and_stays_reported(tmp_path):
    path = tmp_path / "memory.sqlite"
    _runs(path, 3)
    path.unlink()
    for _ in range(2):  # the first open made a new empty file: the second must still say so
        with pytest.raises(MemoryLostError, match=r"missing or empty.*3 episodes"):
            SqliteMemory(path)


def test_a_main_file_deleted_with_its_log_left_behind_is_reported(tmp_path):
    path, log = tmp_path / "memory.sqlite", tmp_path / "memory.sqlite-wal"
    _runs(path, 3)
    with SqliteMemory(path) as memory:  # a process killed with its log on disk
        memory.episodes.add(NS, episode("r9"), unit(9))
        kept = log.read_bytes()
    path.unlink()
    log.write_bytes(kept)
    with pytest.raises(MemoryLostError, match=r"missing or empty.*4 episodes"):
        SqliteMemory(path)
    assert (tmp_path / "memory.sqlite-wal.orphaned").read_bytes() == kept  # kept aside, never replayed


def test_an_older_copy_put_in_place_is_reported(tmp_path):
    path = tmp_path / "memory.sqlite"
    _runs(path, 2)
    shutil.copy2(path, tmp_path / "old.sqlite")
    _runs(path, 2, start=2)
    shutil.copy2(tmp_path / "old.sqlite", path)
    with pytest.raises(MemoryLostError, match=r"behind.*4 episodes.*2 episodes"):
        SqliteMemory(path)


def test_a_truncated_main_file_is_reported_in_one_line(tmp_path):
    path = tmp_path / "memory.sqlite"
    _runs(path, 30)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(MemoryLostError, match="truncated") as caught:
        SqliteMemory(path)
    assert "\n" not in str(caught.value)


def test_another_store_copied_in_is_reported(tmp_path):
    path, other = tmp_path / "memory.sqlite", tmp_path / "other" / "memory.sqlite"
    _runs(path, 2)
    _runs(other, 5)
    shutil.copy2(other, path)
    with pytest.raises(MemoryLostError, match="not the store this folder last wrote"):
        SqliteMemory(path)


def test_healthy_stores_open_and_count_every_tier(tmp_path):
    path = tmp_path / "memory.sqlite"
    _runs(path, 3)
    with SqliteMemory(path) as memory:
        memory.episodes.delete(NS, ["r1"])
        marker = memory.db.marker()
    assert marker.counts["episodes"] == 2 and _listed(path) == 2
    witness = json.loads((tmp_path / "memory.sqlite.marker").read_text())
    assert witness["generation"] == marker.generation and witness["counts"]["episodes"] == 2
    assert oct((tmp_path / "memory.sqlite.marker").stat().st_mode & 0o777) == "0o600"
    copy = tmp_path / "copy" / "memory.sqlite"  # a copy alone in a new folder (no witness) opens
    copy.parent.mkdir()
    shutil.copy2(path, copy)
    assert _listed(copy) == 2


def test_a_store_with_nothing_in_it_is_never_reported(tmp_path):
    path = tmp_path / "memory.sqlite"
    with SqliteMemory(path) as memory:
        memory.episodes.add(NS, episode("r0"), unit(0))
        memory.episodes.delete(NS, ["r0"])
    path.unlink()
    assert _listed(path) == 0
