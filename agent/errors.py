"""The project's error hierarchy; the CLI turns these into one-line messages and exit codes."""

from __future__ import annotations

import sys


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


def user_error(exc: BaseException) -> ContractAgentError | None:
    """The agent error that an error of a lower layer (tools, memory) stands for, else None.

    `tools/` and `memory/` sit below `agent/` and raise their own errors; the CLI edge calls this
    to give every one of them its exit code and one-line message.
    """
    from memory.errors import MemoryBackendError, MemoryConfigError, MemoryRequestError

    if isinstance(exc, ContractAgentError):
        return exc
    # An error raised by tools/ means tools/ is loaded; importing it otherwise would load the
    # LangChain tools (a second or so) only to learn that a memory error is not one of them.
    tools_errors = sys.modules.get("tools.errors")
    if tools_errors is not None and isinstance(exc, tools_errors.ContractInputError):
        return _wrapped(InputError, exc)
    if tools_errors is not None and isinstance(exc, tools_errors.PlaybookError):
        return _wrapped(ConfigurationError, exc)
    if isinstance(exc, MemoryConfigError | MemoryRequestError):
        return _wrapped(ConfigurationError, exc)
    if isinstance(exc, MemoryBackendError):
        return _wrapped(MemoryStoreError, exc, prefix="memory: ")
    return None


def _wrapped(kind: type[ContractAgentError], exc: BaseException, prefix: str = "") -> ContractAgentError:
    error = kind(f"{prefix}{exc}")
    error.__cause__ = exc
    return error
