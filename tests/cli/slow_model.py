"""A reviewer that thinks slowly (the offline reviewer, 0.3 s a step), for stopping a review
half-way from another process: `--model tests.cli.slow_model:make`."""

from __future__ import annotations

import time

from agent.offline import OfflineReviewerModel


class SlowReviewer(OfflineReviewerModel):
    def respond(self, messages, stop=None, **kwargs):
        time.sleep(0.3)
        return super().respond(messages, stop, **kwargs)


def make(role: str = "reviewer") -> SlowReviewer:
    return SlowReviewer(model=f"slow-{role}")
