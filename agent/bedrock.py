"""Bedrock clients that hold up under real use: timeouts sized to the output, retries you can see.

* Read timeout: a Converse call returns only when the whole answer is generated, so the read
  timeout grows with the role's output budget: `60 s + max_tokens / 20 s` (time to the first
  token on a long prompt, then 20 output tokens per second, a slow model's pace): 265 s for the
  reviewer's 4,096 tokens, 162 s for extraction, 111 s for compression. botocore's default is 60 s.
* Retries: botocore's standard policy (throttling, 429, 5xx, connection errors and read
  timeouts, exponential backoff with jitter capped at 20 s) plus Bedrock's own
  `ModelTimeoutException` (408) and `ModelNotReadyException`, which standard mode leaves alone.
  Each retry prints one status line (stderr, silenced by `--quiet`), so sustained throttling
  shows as it happens instead of a node stalling for a minute in silence.

boto3 and langchain-aws come from the `[aws]` extra and are imported only when a Bedrock spec is
used (an ImportError here means the extra is missing).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from agent.progress import is_quiet
from agent.settings import Settings

CONNECT_TIMEOUT = 10.0
FIRST_TOKEN_SECONDS = 60.0
SLOW_TOKENS_PER_SECOND = 20.0
RETRIED_ERROR_CODES = (
    "RequestTimeout",
    "RequestTimeoutException",
    "PriorRequestNotComplete",
    "ModelTimeoutException",
    "ModelNotReadyException",
    "ServiceUnavailableException",
    "InternalServerException",
)

Notify = Callable[[str], None]


def bedrock_read_timeout(max_tokens: int, settings: Settings | None = None) -> float:
    """Seconds to wait for a Converse answer of up to `max_tokens` tokens (the setting wins)."""
    if settings is not None and settings.bedrock_read_timeout:
        return float(settings.bedrock_read_timeout)
    return FIRST_TOKEN_SECONDS + max_tokens / SLOW_TOKENS_PER_SECOND


def status_line(message: str) -> None:
    """The default retry notice: one line on stderr, unless the CLI was asked to be quiet."""
    if not is_quiet():
        sys.stderr.write(message + "\n")
        sys.stderr.flush()


def client_config(settings: Settings, *, read_timeout: float) -> Any:
    from botocore.config import Config

    return Config(
        region_name=settings.bedrock_region,
        connect_timeout=CONNECT_TIMEOUT,
        read_timeout=read_timeout,
        retries={"mode": "standard", "total_max_attempts": settings.bedrock_max_attempts},
    )


def bedrock_chat_model(name: str, *, role: str, settings: Settings, max_tokens: int, client: Any = None,
                       notify: Notify | None = None) -> Any:
    """ChatBedrockConverse for `role`; with no injected `client`, one built with our timeouts and
    retries (an injected client keeps its own configuration)."""
    from langchain_aws import ChatBedrockConverse

    options: dict[str, Any] = {"model": name, "temperature": 0.0, "max_tokens": max_tokens,
                               "region_name": settings.bedrock_region}
    if settings.bedrock_endpoint_url:
        options["endpoint_url"] = settings.bedrock_endpoint_url
    if client is not None:
        options["client"] = client
    else:
        options["config"] = client_config(settings, read_timeout=bedrock_read_timeout(max_tokens, settings))
    model = ChatBedrockConverse(**options)
    if client is None:
        install_retries(model.client, max_attempts=settings.bedrock_max_attempts,
                        notify=notify or status_line, label=f"bedrock {role} model {name}")
    return model


def bedrock_embeddings(name: str, *, settings: Settings, client: Any = None) -> Any:
    from langchain_aws import BedrockEmbeddings

    options: dict[str, Any] = {"model_id": name, "region_name": settings.bedrock_region}
    if settings.bedrock_endpoint_url:
        options["endpoint_url"] = settings.bedrock_endpoint_url
    if client is not None:
        options["client"] = client
    else:
        options["config"] = client_config(settings, read_timeout=FIRST_TOKEN_SECONDS)
    embeddings = BedrockEmbeddings(**options)
    if client is None:
        install_retries(embeddings.client, max_attempts=settings.bedrock_max_attempts,
                        notify=status_line, label=f"bedrock embeddings {name}")
    return embeddings


def _conditions(max_attempts: int) -> Any:
    from botocore.retries import standard
    from botocore.retries.base import BaseRetryableChecker

    class BedrockRetryConditions(BaseRetryableChecker):
        """botocore's standard conditions, with Bedrock's model timeouts counted as transient."""

        def __init__(self) -> None:
            self._attempts = standard.MaxAttemptsChecker(max_attempts)
            self._retryable = standard.OrRetryChecker([
                standard.TransientRetryableChecker(transient_error_codes=list(RETRIED_ERROR_CODES)),
                standard.ThrottledRetryableChecker(),
                standard.ThrottlingStatusCodeChecker(),
                standard.ModeledRetryableChecker(),
            ])

        def is_retryable(self, context: Any) -> bool:
            return self._attempts.is_retryable(context) and self._retryable.is_retryable(context)

    return BedrockRetryConditions()


def _error_code(kwargs: dict[str, Any]) -> str:
    caught = kwargs.get("caught_exception")
    if caught is not None:
        return type(caught).__name__
    response = kwargs.get("response") or (None, {})
    parsed = response[1] if isinstance(response, tuple) and len(response) > 1 else {}
    code = ((parsed or {}).get("Error") or {}).get("Code")
    status = getattr(response[0], "status_code", None) if isinstance(response, tuple) else None
    return str(code or f"HTTP {status}")


def install_retries(client: Any, *, max_attempts: int, notify: Notify, label: str) -> None:
    """Replace the client's standard retry handler by the same policy plus Bedrock's model
    timeouts, announcing each retry through `notify`."""
    from botocore.retries import quota, standard

    service = client.meta.service_model.service_id.hyphenize()
    events = client.meta.events
    unique_id = f"retry-config-{service}"
    events.unregister(f"needs-retry.{service}", unique_id=unique_id)
    adapter = standard.RetryEventAdapter()
    throttling = standard.ThrottlingErrorDetector(adapter)
    retry_quota = standard.RetryQuotaChecker(quota.RetryQuota(), throttling)
    handler = standard.RetryHandler(
        retry_policy=standard.RetryPolicy(
            retry_checker=_conditions(max_attempts),
            retry_backoff=standard.ExponentialBackoff(service_name=service, throttling_detector=throttling),
        ),
        retry_event_adapter=adapter,
        retry_quota=retry_quota,
        service_name=service,
    )

    def needs_retry(**kwargs: Any) -> Any:
        delay = handler.needs_retry(**kwargs)
        if isinstance(delay, int | float) and not isinstance(delay, bool):
            attempt = int(kwargs.get("attempts") or 1)
            operation = getattr(kwargs.get("operation"), "name", "call")
            notify(f"{label}: {_error_code(kwargs)} on {operation}; retry {attempt} of {max_attempts - 1} "
                   f"in {delay:.1f} s")
        return delay

    events.register(f"needs-retry.{service}", needs_retry, unique_id=unique_id)
    events.register(f"after-call.{service}", retry_quota.release_retry_quota)
