"""Chat models and embeddings from spec strings, one per role, and what a model's budget is.

Chat model specs (any role: reviewer, compression, extraction):

- `offline`: the deterministic stand-in (agent.offline); `realistic` or `realistic:<seed>`: the
  scripted stand-in that slips like a small real model (agent.offline.realistic);
- `bedrock:<model id>` (also `bedrock_converse:<id>`): ChatBedrockConverse with a read timeout
  sized to the role's output budget and retries with a status line (agent.bedrock);
- `ollama:<name>`: ChatOllama with `num_ctx` set, so long prompts are not silently truncated;
- any other LangChain `init_chat_model` string, `<provider>:<model>` (`openai:gpt-4o`,
  `anthropic:claude-...`, `groq:...`): the provider's package must be installed;
- `package.module:factory`: the factory (called with `role=` if it takes it) returns a
  `BaseChatModel`, so any LangChain chat model plugs in; the current directory is importable.

Cloud and local-server SDKs are imported only when their spec is used. An instance passes through
unchanged, so every caller also accepts a ready-made model.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from agent.errors import ConfigurationError
from agent.model_errors import model_name as model_name  # re-exported: a model's name for messages
from agent.model_errors import setup_error
from agent.settings import Settings, get_settings

ROLES = ("reviewer", "compression", "extraction")
# Output budget per role: the summariser is kept short and cheap, the reviewer has room for calls.
MAX_TOKENS = {"reviewer": 4096, "compression": 1024, "extraction": 2048}
# A model that declares no context window is assumed to have this many tokens (conservative:
# most current chat models have more, and compression only starts earlier than needed).
DEFAULT_CONTEXT_WINDOW = 32_000
# Share of (window - output budget) that the history may fill: token counts are approximate.
CONTEXT_SAFETY = 0.8
# Our own forms; they win over init_chat_model's providers of the same name (its `bedrock` is the
# legacy ChatBedrock, ours the Converse API).
OWN_PROVIDERS = ("offline", "realistic", "bedrock", "bedrock_converse", "ollama")

CHAT_FORMS = (
    "'offline', 'realistic[:seed]', 'bedrock:<model id>' (needs the [aws] extra), 'ollama:<model name>' "
    "(needs the [ollama] extra), a LangChain init_chat_model string '<provider>:<model>' "
    "(e.g. 'openai:gpt-4o', with the provider's package installed) or an import path "
    "'package.module:factory' returning a BaseChatModel"
)
EMBEDDING_FORMS = (
    "'wordllama', 'wordllama:<config>', 'hash', 'hash:<dim>', 'bedrock:amazon.titan-embed-text-v2:0' "
    "(needs the [aws] extra) or 'ollama:<model name>' (needs the [ollama] extra)"
)
_IMPORT_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")


def _split(spec: str, kind: str, forms: str) -> tuple[str, str]:
    provider, _, name = spec.strip().partition(":")
    if provider in ("bedrock", "bedrock_converse", "ollama") and not name.strip():
        raise ConfigurationError(f"{kind} spec {spec!r} names no model: use {forms}")
    return provider, name.strip()


def _missing_extra(extra: str, package: str, exc: ImportError) -> ConfigurationError:
    return ConfigurationError(
        f"{package} is not installed: install the [{extra}] extra, e.g. pip install 'contract-memory-agent[{extra}]' ({exc})"
    )


def langchain_providers() -> frozenset[str]:
    """The provider names LangChain's `init_chat_model` knows (empty without `langchain`)."""
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS
    except ImportError:
        return frozenset()
    return frozenset(_BUILTIN_PROVIDERS)


def load_chat_model(
    spec: str | BaseChatModel,
    *,
    role: str = "reviewer",
    settings: Settings | None = None,
    client: Any = None,
) -> BaseChatModel:
    """The chat model a spec names, set up for `role` (reviewer, compression or extraction).

    `client` injects a ready boto3 `bedrock-runtime` client (tests put a Stubber on it); it keeps
    its own retry configuration. Without one, agent.bedrock builds the client (timeouts sized to
    the role's output budget, retries on throttling and timeouts with a status line).
    """
    if isinstance(spec, BaseChatModel):
        return spec
    if role not in ROLES:
        raise ConfigurationError(f"unknown model role {role!r}: use one of {', '.join(ROLES)}")
    if not isinstance(spec, str):
        raise ConfigurationError(f"a chat model spec must be a string or a chat model, not {type(spec).__name__}")
    settings = settings or get_settings()
    provider, name = _split(spec, "chat model", CHAT_FORMS)
    if provider == "offline":
        if name:
            raise ConfigurationError(f"chat model spec {spec!r}: 'offline' takes no model name; use {CHAT_FORMS}")
        from agent.offline import OfflineReviewerModel

        return OfflineReviewerModel(model=f"offline-{role}", domain=settings.domain)
    if provider == "realistic":
        return _realistic(spec, name, role, settings)
    if provider in ("bedrock", "bedrock_converse"):
        from agent.bedrock import bedrock_chat_model

        try:
            return bedrock_chat_model(name, role=role, settings=settings, max_tokens=MAX_TOKENS[role], client=client)
        except ImportError as exc:
            raise _missing_extra("aws", "langchain-aws", exc) from exc
        except Exception as exc:  # the client could not be built: a missing AWS profile, no region ...
            mapped = setup_error(exc, role=role, name=name)
            if mapped is None:
                raise
            raise mapped from exc
    if provider == "ollama":
        try:
            from langchain_ollama import ChatOllama
        except ImportError as exc:
            raise _missing_extra("ollama", "langchain-ollama", exc) from exc
        return ChatOllama(model=name, temperature=0.0, num_predict=MAX_TOKENS[role], num_ctx=settings.ollama_num_ctx)
    if name and provider in langchain_providers():
        return _from_langchain(spec, role)
    if _IMPORT_PATH.match(spec.strip()):
        return _from_import_path(spec.strip(), role)
    hint = "" if langchain_providers() else " (LangChain provider strings need the 'langchain' package)"
    raise ConfigurationError(f"unknown chat model {spec!r}{hint}: use {CHAT_FORMS}")


def _realistic(spec: str, seed: str, role: str, settings: Settings) -> BaseChatModel:
    from agent.offline.realistic import RealisticChatModel

    if seed and not seed.isdigit():
        raise ConfigurationError(f"chat model spec {spec!r}: the realistic stand-in's seed is a whole number")
    return RealisticChatModel(seed=int(seed or 0), model=f"realistic-{role}", domain=settings.domain)


def _from_langchain(spec: str, role: str) -> BaseChatModel:
    """`init_chat_model` for a `<provider>:<model>` string, with our sampling and output budget."""
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(spec, temperature=0.0, max_tokens=MAX_TOKENS[role])
    except ImportError as exc:
        raise ConfigurationError(f"chat model {spec!r} needs its LangChain integration package: {exc}") from exc
    except Exception as exc:  # the provider's own constructor refused (missing key, bad option ...)
        raise ConfigurationError(f"chat model {spec!r} could not be set up: {type(exc).__name__}: {exc}") from exc


def _from_import_path(spec: str, role: str) -> BaseChatModel:
    """`package.module:factory` -> the chat model the factory returns (or the object itself)."""
    module_name, _, attribute = spec.partition(":")
    if os.getcwd() not in sys.path:  # like uvicorn: a module beside the user is importable
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(f"{exc.name}.")):
            raise ConfigurationError(
                f"chat model {spec!r}: no module {module_name!r} (neither a known provider nor an importable "
                f"module; use {CHAT_FORMS})"
            ) from exc
        raise ConfigurationError(f"chat model {spec!r}: importing {module_name!r} failed: {exc}") from exc
    except Exception as exc:
        raise ConfigurationError(f"chat model {spec!r}: importing {module_name!r} failed: {type(exc).__name__}: {exc}") from exc
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ConfigurationError(f"chat model {spec!r}: {module_name!r} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not isinstance(target, BaseChatModel):
        if not callable(target):
            raise ConfigurationError(f"chat model {spec!r}: {attribute!r} is neither a chat model nor a factory")
        try:
            target = target(**({"role": role} if _takes_role(target) else {}))
        except Exception as exc:
            raise ConfigurationError(f"chat model factory {spec!r} failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(target, BaseChatModel):
        raise ConfigurationError(
            f"chat model factory {spec!r} returned {type(target).__name__}, not a LangChain BaseChatModel"
        )
    return target


def _takes_role(factory: Any) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "role" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def context_window(model: Any, settings: Settings) -> int:
    """The context window to plan for: the setting, else Ollama's num_ctx, else the model's
    LangChain profile (`max_input_tokens`), else DEFAULT_CONTEXT_WINDOW."""
    if settings.context_window:
        return settings.context_window
    num_ctx = getattr(model, "num_ctx", None)
    if isinstance(num_ctx, int) and num_ctx > 0:
        return num_ctx
    profile = getattr(model, "profile", None)
    limit = profile.get("max_input_tokens") if isinstance(profile, dict) else None
    if isinstance(limit, int) and limit > 0:
        return limit
    return DEFAULT_CONTEXT_WINDOW


def output_budget(model: Any) -> int:
    for attribute in ("max_tokens", "num_predict"):
        value = getattr(model, attribute, None)
        if isinstance(value, int) and value > 0:
            return value
    return MAX_TOKENS["reviewer"]


def history_token_budget(model: Any, settings: Settings, *, fixed_tokens: int = 0) -> int:
    """How many tokens the message history may hold before working memory is compressed: the
    setting, else what the model's window leaves after its output budget and `fixed_tokens`
    (tool schemas sent with every call), with a safety margin for approximate counting."""
    if settings.compress_max_tokens:
        return settings.compress_max_tokens
    room = (context_window(model, settings) - output_budget(model)) * CONTEXT_SAFETY - fixed_tokens
    return max(1_000, int(room))


def usage_of(message: Any) -> dict[str, int]:
    """Token usage of one model answer (or its `usage_metadata` dict) that adds up: `input_tokens` includes cached input
    (read and written), so input + output is what the provider bills as the total; cache reads
    and writes are also counted on their own."""
    meta = message if isinstance(message, dict) else (getattr(message, "usage_metadata", None) or {})
    inputs = int(meta.get("input_tokens") or 0)
    outputs = int(meta.get("output_tokens") or 0)
    total = int(meta.get("total_tokens") or 0)
    details = meta.get("input_token_details") or {}
    read = int(details.get("cache_read") or 0)
    written = int(details.get("cache_creation") or 0)
    if total > inputs + outputs:  # a provider that leaves cached input out of input_tokens
        inputs = total - outputs
    elif not total and inputs < read + written:
        inputs += read + written
    return {"input_tokens": inputs, "output_tokens": outputs, "cache_read_tokens": read, "cache_write_tokens": written}


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
        from agent.bedrock import bedrock_embeddings

        try:
            return bedrock_embeddings(name, settings=settings, client=client)
        except ImportError as exc:
            raise _missing_extra("aws", "langchain-aws", exc) from exc
    if provider == "ollama":
        try:
            from langchain_ollama import OllamaEmbeddings
        except ImportError as exc:
            raise _missing_extra("ollama", "langchain-ollama", exc) from exc
        return OllamaEmbeddings(model=name)
    raise ConfigurationError(f"unknown embeddings {spec!r}: use {EMBEDDING_FORMS}")
