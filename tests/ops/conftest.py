"""Fixtures of the operations tests: one backend per test, on SQLite and on AWS (moto).

The AWS backend is opened inside its own `mock_aws` (the shared `tests.backends` wrapper
exposes only the four stores; these tests also need `namespaces`, `telemetry` and
`reembedding`). Without boto3/moto installed only the SQLite backend runs.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from memory.backends import open_memory

HAVE_AWS = all(importlib.util.find_spec(name) for name in ("boto3", "moto"))
BACKENDS = ["sqlite", "aws-moto+fake-queryvectors"] if HAVE_AWS else ["sqlite"]


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path) -> Iterator[object]:
    if request.param == "sqlite":
        memory = open_memory(f"sqlite:///{tmp_path / 'memory.sqlite'}")
        yield memory
        memory.close()
        return
    from moto import mock_aws

    from tests.aws.moto_support import clients, open_backend

    with mock_aws():
        memory = open_backend(clients())
        yield memory
        memory.close()


class Clock:
    """A controllable clock: `clock()` is now; `advance(days=...)` moves it."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()
