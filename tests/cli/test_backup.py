"""`contract-review memory backup|restore|check` (issue 32): a backup taken while the store is in
use restores every tier; a damaged backup is refused and the store kept; check names each problem
in one line and exits 4."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from cli.main import main
from memory.backends.sqlite import SqliteMemory
from memory.records import Namespace
from tests.memory.test_vector_index import episode, fill, unit

NS = Namespace(tenant="acme", agent="reviewer")


def _store(home, count: int = 3, start: int = 0):
    with SqliteMemory(home / "memory.sqlite", min_delta=5) as memory:
        fill(memory, count, ns=NS, start=start)


def _episodes(home) -> list[str]:
    with SqliteMemory(home / "memory.sqlite") as memory:
        return sorted(e.run_id for e in memory.episodes.list(NS, limit=1000))


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_backup_restores_what_was_stored_when_it_was_taken(home, tmp_path, capsys):
    _store(home, 12)
    dest = tmp_path / "backups" / "memory.sqlite"
    with SqliteMemory(home / "memory.sqlite") as live:  # in use while the backup is taken
        live.episodes.add(NS, episode("live"), unit(99))
        code, out, err = _run(capsys, "memory", "backup", str(dest))
        assert code == 0, err
    assert "13 episodes" in out
    assert oct(dest.stat().st_mode & 0o777) == "0o600"
    assert not dest.with_name(dest.name + "-wal").exists()  # one self-contained file
    _store(home, 2, start=100)  # later memory, then lost to a bad deploy
    code, out, err = _run(capsys, "memory", "restore", str(dest))
    assert code == 0, err
    assert _episodes(home) == sorted([*(f"r{i}" for i in range(12)), "live"])
    with SqliteMemory(home / "memory.sqlite", min_delta=5) as memory:  # the index is rebuilt from the table
        assert memory.episodes.search(NS, _query(7))[0].item.run_id == "r7"
    code, out, _ = _run(capsys, "memory", "check")
    assert code == 0 and "healthy" in out


def _query(seed: int):
    from tests.memory.test_vector_index import query

    return query(unit(seed))


def test_backup_refuses_to_overwrite_without_force(home, tmp_path, capsys):
    _store(home)
    dest = tmp_path / "b.sqlite"
    dest.write_text("keep me")
    code, _, err = _run(capsys, "memory", "backup", str(dest))
    assert code == 2 and "--force" in err and dest.read_text() == "keep me"
    code, _, err = _run(capsys, "memory", "backup", str(dest), "--force")
    assert code == 0, err
    assert sqlite3.connect(dest).execute("SELECT count(*) FROM episodes").fetchone()[0] == 3


@pytest.mark.parametrize("damage", ["truncated", "garbled", "not-a-store", "missing"])
def test_a_damaged_backup_is_refused_and_the_store_kept(home, tmp_path, capsys, damage):
    _store(home, 40)
    dest = tmp_path / "b.sqlite"
    assert _run(capsys, "memory", "backup", str(dest))[0] == 0
    _store(home, 1, start=500)
    data = bytearray(dest.read_bytes())
    if damage == "truncated":
        dest.write_bytes(bytes(data[: len(data) // 3]))
    elif damage == "garbled":
        rng = random.Random(7)
        for offset in rng.sample(range(4096, len(data)), 400):  # pages after the header
            data[offset] ^= 0xA5
        dest.write_bytes(bytes(data))
    elif damage == "not-a-store":
        sqlite3.connect(dest.with_name("other.sqlite")).execute("CREATE TABLE t (x)").connection.commit()
        dest = dest.with_name("other.sqlite")
    else:
        dest.unlink()
    code, _, err = _run(capsys, "memory", "restore", str(dest))
    assert code == 2, err
    assert err.count("\n") == 1 and "left as it was" in err
    assert len(_episodes(home)) == 41


def test_check_names_each_problem_in_one_line_and_exits_4(home, capsys):
    _store(home, 30)
    folder = home / "memory.sqlite.vectors"
    [index] = folder.glob("*.usearch")
    data = bytearray(index.read_bytes())
    data[20] ^= 0xFF
    index.write_bytes(bytes(data))
    code, out, _ = _run(capsys, "memory", "check")
    problems = [line for line in out.splitlines() if line.startswith("problem:")]
    assert code == 4 and len(problems) == 1 and "checksum" in problems[0]
    code, out, _ = _run(capsys, "memory", "check", "--format", "json")
    report = json.loads(out)
    assert code == 4 and report["counts"]["episodes"] == 30 and not report["healthy"]


def test_check_reports_a_lost_store_and_accept_takes_it_as_it_is(home, capsys):
    _store(home, 3)
    (home / "memory.sqlite").unlink()
    code, out, _ = _run(capsys, "memory", "list", "--tier", "episodes")
    assert code == 4
    code, out, _ = _run(capsys, "memory", "check")
    assert code == 4 and "missing or empty" in out
    code, out, _ = _run(capsys, "memory", "check", "--accept")
    assert code == 0 and "healthy" in out
    assert _run(capsys, "memory", "list", "--tier", "episodes")[0] == 0
