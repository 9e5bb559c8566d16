"""The memory package's own errors; `agent/` maps them onto its hierarchy at the edge.

`memory/` must not import `agent/`, so it raises these. Both subclass a builtin too, so code that
does not know this module still catches them sensibly.
"""

from __future__ import annotations


class MemoryConfigError(ValueError):
    """A memory URL, embedding spec or tier setting is invalid, or an extra is not installed."""


class MemoryBackendError(RuntimeError):
    """A memory backend failed or refused an operation; nothing of the failed write was kept."""


class UnknownRecordError(MemoryBackendError, KeyError):
    """An operation named a record (e.g. a procedure id) that does not exist in the namespace."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class MemoryRequestError(ValueError):
    """A request the memory rules forbid, e.g. approving a rejected procedure or an anonymous approval."""


class MissingStateKey(MemoryConfigError, KeyError):
    """A memory step needs a graph-state key the run does not have: the message names the key and
    the `memory.graph.MemoryAgent` method that reads it (set the key, or implement the method)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class ExtractionNotSupported(MemoryConfigError):
    """The extraction model distils runs of other agents only (the offline stand-in knows contract
    reviews): an agent of another kind needs an extraction model of its own."""


class MemoryLostError(MemoryBackendError):
    """The store holds less than this data folder last wrote (a lost main file or write-ahead log,
    an older copy put in place): reported, never served as an empty or shorter memory."""


class DamagedBackupError(MemoryBackendError):
    """A backup file that is not a whole, readable memory store: `memory restore` refuses it."""
