"""What a failing model call means for the user: setup mistakes become one-line configuration errors.

A model call can fail because of how the model was set up (no credentials, no access to the
model, a model id that needs an inference profile, a model not pulled into Ollama, a model that
cannot call tools) or because of a passing fault (a network blip, an outage). The first kind is
the user's to fix and ends the run with exit 3 and a line that says what to do; the second keeps
its own type. `setup_error` tells them apart from the exception alone (its class, its provider's
error code and message), for Bedrock (botocore), Ollama, and the common provider SDKs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from agent.errors import ConfigurationError

BEDROCK_DOCS = "docs/BEDROCK.md"
_CREDENTIAL_ERRORS = frozenset({
    "NoCredentialsError", "PartialCredentialsError", "ProfileNotFound", "CredentialRetrievalError",
    "UnauthorizedSSOTokenError", "SSOTokenLoadError", "TokenRetrievalError", "NoAuthTokenError",
})
_BAD_CREDENTIAL_CODES = frozenset({
    "UnrecognizedClientException", "InvalidSignatureException", "ExpiredTokenException", "ExpiredToken",
    "InvalidClientTokenId", "IncompleteSignature", "MissingAuthenticationToken",
})
_PROFILE_PREFIXES = ("us.", "eu.", "apac.", "us-gov.", "global.", "jp.", "au.", "ca.")
_REFUSED = frozenset({"AuthenticationError", "PermissionDeniedError"})
# connection refused, unknown host, no route: botocore, httpx (Ollama, OpenAI ...), requests, aiohttp
_UNREACHABLE = frozenset({"EndpointConnectionError", "ConnectTimeoutError", "ConnectError", "ConnectTimeout",
                          "APIConnectionError", "ClientConnectorError", "NewConnectionError", "ProxyConnectionError"})
_PROFILE = re.compile(r"profile \((?P<name>[^)]*)\) could not be found")


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception, its causes, and what a pydantic validation error wraps (a model class
    whose validator failed: ChatBedrockConverse with a missing AWS profile raises that way)."""
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending:
        current: BaseException | None = pending.pop(0)
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            yield current
            errors = getattr(current, "errors", None)
            if type(current).__name__ == "ValidationError" and callable(errors):
                try:
                    wrapped = [e.get("ctx", {}).get("error") for e in errors()]
                except Exception:  # an errors() that cannot be read: nothing wrapped to follow
                    wrapped = []
                pending += [w for w in wrapped if isinstance(w, BaseException)]
            current = current.__cause__ or current.__context__


def _is_unreachable(error: BaseException) -> bool:
    kind = type(error).__name__
    return isinstance(error, ConnectionError) or kind in _UNREACHABLE


def unreachable(exc: BaseException) -> BaseException | None:
    """The error in `exc`'s chain that says the model's server could not be reached, if any."""
    return next((e for e in _chain(exc) if _is_unreachable(e)), None)


def _botocore_error(exc: BaseException) -> tuple[str, str] | None:
    response = getattr(exc, "response", None)
    if not type(exc).__module__.startswith("botocore") or not isinstance(response, dict):
        return None
    error = response.get("Error") or {}
    return str(error.get("Code") or ""), str(error.get("Message") or "")


def cannot_call_tools(role: str, name: str) -> ConfigurationError:
    return ConfigurationError(
        f"the {role} model {name} cannot call tools: choose a model with tool calling "
        "(Bedrock: Claude, Nova, Llama 3.1+, Mistral Large; Ollama: llama3.1, qwen2.5, mistral-nemo)"
    )


def _bedrock(code: str, message: str, role: str, name: str) -> ConfigurationError | None:
    lowered = message.lower()
    if code in _BAD_CREDENTIAL_CODES:
        return ConfigurationError(
            f"Bedrock refused the AWS credentials for the {role} model {name} ({code}: {message}): refresh or "
            f"replace them (aws sso login, or new keys); see {BEDROCK_DOCS}"
        )
    if code == "AccessDeniedException":
        return ConfigurationError(
            f"no access to Bedrock model {name} for the {role} role ({message}): request access to it in the "
            f"Bedrock console (Model access) in this region and allow bedrock:InvokeModel on it; see {BEDROCK_DOCS}"
        )
    if code == "ValidationException" and ("inference profile" in lowered or "on-demand throughput" in lowered):
        example = "" if name.startswith(_PROFILE_PREFIXES) else f", e.g. bedrock:us.{name} or bedrock:eu.{name}"
        return ConfigurationError(
            f"Bedrock model {name} cannot be called on demand by its model id ({message}): use an inference "
            f"profile id{example} ('aws bedrock list-inference-profiles' lists them); see {BEDROCK_DOCS}"
        )
    if code == "ValidationException" and "tool" in lowered and ("support" in lowered or "not allowed" in lowered):
        return cannot_call_tools(role, name)
    if code == "ValidationException" and ("model identifier is invalid" in lowered or "invalid model" in lowered):
        return ConfigurationError(
            f"Bedrock does not know the model id {name} in this region ({message}): check the id with "
            f"'aws bedrock list-foundation-models' and CONTRACT_AGENT_BEDROCK_REGION; see {BEDROCK_DOCS}"
        )
    if code == "ResourceNotFoundException":
        return ConfigurationError(
            f"Bedrock model {name} is not available ({message}): it may be retired or not offered in this "
            f"region; see {BEDROCK_DOCS}"
        )
    return None


def _ollama(exc: BaseException, role: str, name: str) -> ConfigurationError | None:
    if type(exc).__name__ != "ResponseError" or not type(exc).__module__.startswith("ollama"):
        return None
    message = str(getattr(exc, "error", "") or exc)
    status = getattr(exc, "status_code", None)
    if "does not support tools" in message:
        return cannot_call_tools(role, name)
    if status == 404 or "not found" in message:
        return ConfigurationError(
            f"Ollama has no model {name} ({message}): pull it first with 'ollama pull {name}'"
        )
    return None


def setup_error(exc: BaseException, *, role: str, name: str) -> ConfigurationError | None:
    """The configuration error a failed call of the `role` model `name` stands for, or None
    when the failure is not a setup mistake (it then keeps its own type)."""
    for error in _chain(exc):
        if isinstance(error, ConfigurationError):
            return error
        kind = type(error).__name__
        if kind == "ProfileNotFound":
            match = _PROFILE.search(str(error))
            profile = f" {match['name']!r}" if match else ""
            return ConfigurationError(
                f"the {role} model {name} needs AWS credentials, and AWS_PROFILE names the profile{profile}, which the "
                "AWS config files do not have: set AWS_PROFILE to one of 'aws configure list-profiles', or unset it; "
                f"see {BEDROCK_DOCS}"
            )
        if kind in _CREDENTIAL_ERRORS:
            return ConfigurationError(
                f"the {role} model {name} needs AWS credentials and none were found ({error}): set AWS_PROFILE, "
                f"or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or run 'aws configure'; see {BEDROCK_DOCS}"
            )
        if kind == "NoRegionError":
            return ConfigurationError(f"no AWS region for the {role} model {name}: set CONTRACT_AGENT_BEDROCK_REGION")
        coded = _botocore_error(error)
        if coded is not None:
            found = _bedrock(*coded, role, name)
            if found is not None:
                return found
        found = _ollama(error, role, name)
        if found is not None:
            return found
        if kind in _REFUSED:  # openai, anthropic, groq ... SDKs share these names
            return ConfigurationError(f"the {role} model {name} refused the credentials or access ({error}): "
                                      "check its API key and that your account may use it")
        if kind == "NotFoundError" and "model" in str(error).lower():
            return ConfigurationError(f"the {role} model {name} was not found by its provider ({error})")
    return None


def model_name(model: Any) -> str:
    """A model's name for messages: its id, model or class name."""
    for attribute in ("model_id", "model", "model_name"):
        value = getattr(model, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def raise_for_setup(exc: BaseException, *, role: str, model: Any) -> None:
    """Re-raise `exc` as a configuration error if it is a setup mistake; otherwise do nothing."""
    error = setup_error(exc, role=role, name=model_name(model))
    if error is not None and error is not exc:
        raise error from exc
