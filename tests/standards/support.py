"""Helpers for running langchain-tests suites in this project."""

from __future__ import annotations

import pytest

# langchain-tests writes its async tests as bare `async def` and expects asyncio_mode=auto, which
# this project does not set. A suite class carries this mark instead: pytest-asyncio then runs its
# async tests, and the notice it gives for each sync test of a marked class is silenced. (Wrapping
# the tests would trip the suites' own "no overrides" check.)
ASYNC_SUITE = [
    pytest.mark.asyncio,
    pytest.mark.filterwarnings("ignore:The test <Function .*> is marked with '@pytest.mark.asyncio' but it is not an async function"),
]
