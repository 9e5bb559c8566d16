"""The project's error hierarchy; the CLI turns these into one-line messages and exit codes."""

from __future__ import annotations


class ContractAgentError(Exception):
    """Base class: every error a user can cause or fix. `exit_code` is what the CLI returns."""

    exit_code = 1


class InputError(ContractAgentError):
    """The contract given cannot be read: missing, empty, corrupt, binary or too large."""

    exit_code = 2


class ConfigurationError(ContractAgentError):
    """A setting, model spec or memory URL is invalid or needs an extra that is not installed."""

    exit_code = 3


class MemoryStoreError(ContractAgentError):
    """A memory backend failed; nothing of the current write was kept."""

    exit_code = 4


class ModelOutputError(ContractAgentError):
    """A model answered with something that cannot be used."""

    exit_code = 5
