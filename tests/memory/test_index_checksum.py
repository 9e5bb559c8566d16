"""The vector index carries a checksum (issue 32): random bytes flipped inside a snapshot file
were not detected, and search silently returned fewer results. Now the file's CRC-32, taken when
it was saved, is checked when a process maps it; a mismatch rebuilds it from the table and says
so in one warning line."""

from __future__ import annotations

import json
import logging
import random

import pytest

from memory.backends.sqlite import SqliteMemory
from tests.memory.test_vector_index import fill, registry, top


def _flip(path, seed: int, count: int = 64, *, span: tuple[int, int] | None = None) -> None:
    """Random bytes flipped, by default among the stored vectors (the file starts with them, after
    their 8-byte shape): the header's own checks never see those."""
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    start, end = span or (8, 8 + 30 * 16 * 2)  # the first 30 vectors of 16 float16 values
    for offset in rng.sample(range(start, end), count):
        data[offset] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(data))


def _built(tmp_path, size: int = 40):
    path = tmp_path / "m.sqlite"
    with SqliteMemory(path, min_delta=10) as memory:
        fill(memory, size)
        [(*_, file, _, _)] = registry(memory)
    return path, path.with_name(path.name + ".vectors") / file


@pytest.mark.parametrize(("seed", "where"), [(1, "vectors"), (2, "vectors"), (3, "anywhere")])
def test_random_bytes_flipped_inside_the_index_are_detected_and_rebuilt(tmp_path, caplog, seed, where):
    path, index = _built(tmp_path)
    _flip(index, seed, span=(0, index.stat().st_size) if where == "anywhere" else None)
    with caplog.at_level(logging.WARNING), SqliteMemory(path, min_delta=10) as memory:
        assert [top(memory, i) for i in range(40)] == [f"r{i}" for i in range(40)]
        [(*_, rebuilt, _, count)] = registry(memory)
    assert count == 40
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "damaged" in warnings[0] and "rebuilding" in warnings[0]


def test_an_index_saved_without_a_checksum_is_rebuilt_once(tmp_path, caplog):
    path, index = _built(tmp_path)
    sidecar = index.with_suffix(".json")
    sidecar.write_text(json.dumps({k: v for k, v in json.loads(sidecar.read_text()).items() if k != "crc32"}))
    with caplog.at_level(logging.WARNING), SqliteMemory(path, min_delta=10) as memory:
        assert top(memory, 5) == "r5"
    assert any("no checksum" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING), SqliteMemory(path, min_delta=10) as memory:
        assert top(memory, 6) == "r6"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_intact_index_is_not_rebuilt(tmp_path, caplog):
    path, index = _built(tmp_path)
    with caplog.at_level(logging.WARNING), SqliteMemory(path, min_delta=10) as memory:
        assert top(memory, 9) == "r9"
        [(*_, file, _, _)] = registry(memory)
    assert file == index.name and not caplog.records
