"""Each role's chat model checked before the first contract, so a set-up mistake costs no review.

`check_models(settings, model_option=...)` loads the model of every role (reviewer, compression,
extraction; one check per distinct spec) and, unless it is a stand-in that runs in-process, makes
one short call. Whatever fails becomes a `ConfigurationError` (exit 3) whose one line names the
role(s), the setting that chose the model and what to do: a spec that names no known model or
package, missing credentials or a missing AWS profile, a server that cannot be reached, a model
its provider does not know or will not serve, or a model that fails its check call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import HumanMessage

from agent.errors import ConfigurationError, ContractAgentError
from agent.model_errors import setup_error, unreachable
from agent.models import ROLES, load_chat_model, model_name
from agent.settings import ENV_PREFIX, Settings

CHECK_PROMPT = "This is a set-up check of the connection. Reply with the single word OK."


def role_setting(settings: Settings, role: str, *, model_option: bool = False) -> str:
    """The setting that chose `role`'s model: its own variable, else the one for every role."""
    if getattr(settings, f"{role}_model", None):
        return f"{ENV_PREFIX}{role.upper()}_MODEL"
    return "--model" if model_option else f"{ENV_PREFIX}MODEL"


def _roles(roles: list[str]) -> str:
    return roles[0] if len(roles) == 1 else f"{', '.join(roles[:-1])} and {roles[-1]}"


def _problem(exc: BaseException, role: str, name: str) -> str:
    mapped = setup_error(exc, role=role, name=name)
    if mapped is not None:
        return str(mapped)
    lost = unreachable(exc)
    if lost is not None:
        return (f"cannot be reached ({type(lost).__name__}: {' '.join(str(lost).split())[:240]}): is its server "
                "running and its URL right?")
    return f"failed its set-up check call ({type(exc).__name__}: {' '.join(str(exc).split())[:240]})"


def check_models(
    settings: Settings,
    *,
    model_option: bool = False,
    load: Callable[[str, str, Settings], Any] | None = None,
) -> None:
    """Raise a `ConfigurationError` naming the role and the setting if any role's model cannot
    be used (see the module doc). `model_option`: the CLI's --model chose the shared model;
    `load(role, spec, settings)` builds a model (default: `load_chat_model`; the CLI passes the
    run's cached loader, so the checked instance is the one the run uses)."""
    load = load or (lambda role, spec, s: load_chat_model(spec, role=role, settings=s))
    by_spec: dict[str, list[str]] = {}
    for role in ROLES:
        by_spec.setdefault(settings.model_spec(role), []).append(role)
    for spec, roles in by_spec.items():
        settings_named = ", ".join(dict.fromkeys(role_setting(settings, r, model_option=model_option) for r in roles))
        who = f"the {_roles(roles)} model ({settings_named}={spec})"
        try:
            model = load(roles[0], spec, settings)
        except ContractAgentError as exc:
            raise ConfigurationError(f"{who}: {exc}") from exc
        except Exception as exc:
            raise ConfigurationError(f"{who} could not be set up: {_problem(exc, roles[0], spec)}") from None
        if getattr(model, "is_stand_in", False):
            continue  # runs in this process: nothing to reach, nothing to authenticate
        try:
            model.invoke([HumanMessage(CHECK_PROMPT)])
        except Exception as exc:
            raise ConfigurationError(f"{who}: {_problem(exc, roles[0], model_name(model))}") from None
