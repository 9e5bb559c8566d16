"""The tools package's own errors; `agent.errors.user_error` maps them onto the agent's hierarchy.

`tools/` sits below `agent/`, so it cannot raise the agent's errors. Both subclass ValueError, so
code that does not know this module still catches them sensibly.
"""

from __future__ import annotations


class ContractInputError(ValueError):
    """The contract given cannot be read: missing, empty, corrupt, binary or too large."""


class PlaybookError(ValueError):
    """A playbook (the default one or the user's YAML) is missing or invalid."""
