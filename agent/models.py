"""Chat models and embeddings from a spec string: "offline" | "bedrock:<id>" | "ollama:<name>".

Cloud and local-server SDKs are imported only when their spec is used: `bedrock:` needs the
`[aws]` extra (boto3, langchain-aws), `ollama:` the `[ollama]` extra (langchain-ollama). An
instance passes through unchanged, so every caller also accepts a ready-made model.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from agent.errors import ConfigurationError
from agent.settings import Settings, get_settings

ROLES = ("reviewer", "compression", "extraction")
# Output budget per role: the summariser is kept short and cheap, the reviewer has room for calls.
MAX_TOKENS = {"reviewer": 4096, "compression": 1024, "extraction": 2048}
# botocore retries throttling (and other transient errors) with exponential backoff and jitter.
BEDROCK_RETRIES = {"mode": "standard", "max_attempts": 8}

CHAT_FORMS = "'offline', 'bedrock:<model id>' (needs the [aws] extra) or 'ollama:<model name>' (needs the [ollama] extra)"
EMBEDDING_FORMS = (
    "'wordllama', 'wordllama:<config>', 'hash', 'hash:<dim>', 'bedrock:amazon.titan-embed-text-v2:0' "
    "(needs the [aws] extra) or 'ollama:<model name>' (needs the [ollama] extra)"
)


def _split(spec: str, kind: str, forms: str) -> tuple[str, str]:
    provider, _, name = spec.strip().partition(":")
    if provider in ("bedrock", "ollama") and not name.strip():
        raise ConfigurationError(f"{kind} spec {spec!r} names no model: use {forms}")
    return provider, name.strip()


def _missing_extra(extra: str, package: str, exc: ImportError) -> ConfigurationError:
    return ConfigurationError(
        f"{package} is not installed: install the [{extra}] extra, e.g. pip install 'contract-memory-agent[{extra}]' ({exc})"
    )


def _bedrock_config(settings: Settings) -> Any:
    from botocore.config import Config

    return Config(region_name=settings.bedrock_region, retries=dict(BEDROCK_RETRIES))


def load_chat_model(
    spec: str | BaseChatModel,
    *,
    role: str = "reviewer",
    settings: Settings | None = None,
    client: Any = None,
) -> BaseChatModel:
    """The chat model a spec names, set up for `role` (reviewer, compression or extraction).

    `client` injects a ready boto3 `bedrock-runtime` client (tests put a Stubber on it); without
    one, the Bedrock client is built for `settings.bedrock_region` with botocore standard retries
    (throttling retried up to 8 attempts, exponential backoff with jitter); an injected client
    keeps its own retry configuration.
    """
    if isinstance(spec, BaseChatModel):
        return spec
    if role not in ROLES:
        raise ConfigurationError(f"unknown model role {role!r}: use one of {', '.join(ROLES)}")
    if not isinstance(spec, str):
        raise ConfigurationError(f"a chat model spec must be a string or a chat model, not {type(spec).__name__}")
    settings = settings or get_settings()
    provider, name = _split(spec, "chat model", CHAT_FORMS)
    if provider == "offline" and not name:
        from agent.offline import OfflineReviewerModel

        return OfflineReviewerModel(model=f"offline-{role}", domain=settings.domain)
    if provider == "bedrock":
        try:
            from langchain_aws import ChatBedrockConverse
        except ImportError as exc:
            raise _missing_extra("aws", "langchain-aws", exc) from exc
        options: dict[str, Any] = {"model": name, "temperature": 0.0, "max_tokens": MAX_TOKENS[role],
                                   "region_name": settings.bedrock_region}
        if client is not None:
            options["client"] = client
        else:
            options["config"] = _bedrock_config(settings)
        return ChatBedrockConverse(**options)
    if provider == "ollama":
        try:
            from langchain_ollama import ChatOllama
        except ImportError as exc:
            raise _missing_extra("ollama", "langchain-ollama", exc) from exc
        return ChatOllama(model=name, temperature=0.0, num_predict=MAX_TOKENS[role])
    raise ConfigurationError(f"unknown chat model {spec!r}: use {CHAT_FORMS}")


def load_embeddings(
    spec: str | Embeddings,
    *,
    settings: Settings | None = None,
    client: Any = None,
) -> Embeddings:
    """The embedding model a spec names; offline specs are built by `memory.embeddings`."""
    if isinstance(spec, Embeddings):
        return spec
    if not isinstance(spec, str):
        raise ConfigurationError(f"an embeddings spec must be a string or an Embeddings, not {type(spec).__name__}")
    provider, name = _split(spec, "embeddings", EMBEDDING_FORMS)
    if provider in ("wordllama", "hash"):
        from memory import embeddings as local
        from memory.errors import MemoryConfigError

        try:
            return local.load_embeddings(spec)
        except MemoryConfigError as exc:
            raise ConfigurationError(str(exc)) from exc
    settings = settings or get_settings()
    if provider == "bedrock":
        try:
            from langchain_aws import BedrockEmbeddings
        except ImportError as exc:
            raise _missing_extra("aws", "langchain-aws", exc) from exc
        options: dict[str, Any] = {"model_id": name, "region_name": settings.bedrock_region}
        if client is not None:
            options["client"] = client
        else:
            options["config"] = _bedrock_config(settings)
        return BedrockEmbeddings(**options)
    if provider == "ollama":
        try:
            from langchain_ollama import OllamaEmbeddings
        except ImportError as exc:
            raise _missing_extra("ollama", "langchain-ollama", exc) from exc
        return OllamaEmbeddings(model=name)
    raise ConfigurationError(f"unknown embeddings {spec!r}: use {EMBEDDING_FORMS}")
