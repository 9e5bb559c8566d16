"""The time budget of one contract's review (`CONTRACT_AGENT_CONTRACT_TIME_BUDGET_S`).

A contract that makes some pass slow (a text bomb, a model that never finishes) must end with
one line and exit 2, not hold the command for minutes. Every pass over a contract's text is
linear (tests/security/test_linear_time.py); the budget is the backstop for what no test foresaw.

It is a real-time alarm (SIGALRM) in the main thread: its handler raises `OverBudget` wherever
the review is, inside a regular expression's scan too (CPython checks for signals there), and
the stack unwinds as for any error: each memory write is a transaction of its own, so a write
interrupted half-way leaves nothing. Outside the main thread (a server's worker) or where the
platform has no SIGALRM, there is no alarm: the LangGraph server has its own run timeouts.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from agent.errors import InputError


class OverBudget(InputError):
    """The review of one contract ran past its time budget (exit 2: the contract is at fault)."""


def _alarm_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_budget(seconds: float, what: str) -> Iterator[None]:
    """Run the block under a budget of `seconds` (0: none); past it, `OverBudget` naming `what`.
    Budgets nest: an inner one never extends an outer one."""
    if seconds <= 0 or not _alarm_available():
        yield
        return
    started = time.monotonic()
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer_left and outer_left <= seconds:  # an enclosing budget ends first: it stays in charge
        yield
        return

    def over(signum, frame):  # noqa: ARG001 - the signal handler's signature
        raise OverBudget(
            f"{what}: stopped after {time.monotonic() - started:.0f} s, over the budget of {seconds:g} s per "
            "contract (CONTRACT_AGENT_CONTRACT_TIME_BUDGET_S); the contract may be built to slow a reader down")

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
