"""Chat-model factories for tests that fail the way deployed models fail (given to the CLI as
`--model tests.models.failing_models:<factory>`, as a user gives their own model)."""

from __future__ import annotations

from typing import Any, ClassVar

from langchain_core.messages import AIMessage, SystemMessage
from pydantic import PrivateAttr

from agent.offline import OfflineReviewerModel


class Unreachable(ConnectionRefusedError):
    """What an HTTP client raises when nothing listens on the model server's port."""


class FlakyReviewer(OfflineReviewerModel):
    """The offline reviewer behind a server that stops answering after `works_for` calls.

    Not a stand-in: a real deployment's model, so the set-up check calls it once before the
    first contract (that call counts)."""

    is_stand_in: ClassVar[bool] = False
    works_for: int = 3
    _calls: int = PrivateAttr(default=0)

    def respond(self, messages: Any, stop: Any = None, **kwargs: Any) -> AIMessage:
        self._calls += 1
        if self._calls > self.works_for:
            raise Unreachable(111, "Connection refused")
        return super().respond(messages, stop, **kwargs)


class DownSummariser(OfflineReviewerModel):
    """A compression model whose server went down after the set-up check: every summary fails."""

    is_stand_in: ClassVar[bool] = False

    def respond(self, messages: Any, stop: Any = None, **kwargs: Any) -> AIMessage:
        if any(isinstance(m, SystemMessage) for m in messages):  # a summary request (the check call has none)
            raise Unreachable(111, "Connection refused")
        return super().respond(messages, stop, **kwargs)


def flaky_reviewer(role: str = "reviewer") -> FlakyReviewer:
    return FlakyReviewer(model=f"flaky-{role}", works_for=4)


def down_summariser(role: str = "compression") -> DownSummariser:
    return DownSummariser(model=f"down-{role}")
