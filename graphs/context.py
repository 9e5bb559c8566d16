"""What a caller may choose for a run (the context schema), and what the process provides.

`ReviewContext` is the graph's context schema, the only per-run input a LangGraph server client
can send: typed, validated and described, so Studio renders it and `assistants.get_schemas`
returns it. It holds no tenant, no memory location, no model and no Python object.

`ReviewServices` is everything no client chooses: the settings, the default tenant, the models,
embeddings, PII scrubber and memory backend (spec strings or ready instances), the clock and the
memory-block filter. A served graph builds its services from the server's settings
(`served_services`); in-process callers (the CLI, benchmarks, tests) pass
`InProcessContext(services=..., ...)`, a subclass no JSON payload can produce.

`run_scope(runtime)` is what every node works with: the context, the services and the tenant,
which is the authenticated user's on a server (`runtime.server_info.user["tenant"]`, set by
`graphs/auth.py`) and the services' default otherwise. `RunScope` is also the run scope the
generic memory steps read (`memory.graph.MemoryScope`). Instances built from specs are cached per
process, so a long-lived server opens each model and store once.

`context_from_settings(settings, **options)` builds an in-process run's context. Nothing here
imports the contract reviewer (its tools, prompts, stand-in or graph): a fork runs its own graph
with this module and `memory.graph` (import-linter contract `generic-run`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Annotated, Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from pydantic import ConfigDict, Field, InstanceOf, ValidationError
from pydantic.dataclasses import dataclass as validated_dataclass

from agent.errors import ConfigurationError
from agent.settings import Settings, get_settings
from memory.errors import MemoryRequestError
from memory.graph import MemoryLimits
from memory.records import Namespace, check_id, check_run_id

ID_PATTERN = r"^[a-z0-9][a-z0-9_.-]{0,62}$"
# `CONTRACT_AGENT_MEMORY_URL` naming the store LangGraph gives the graph (`runtime.store`): the
# platform's PostgreSQL store when deployed, the dev server's store under `langgraph dev`.
RUNTIME_STORE_URL = "langgraph-store://"


@validated_dataclass(kw_only=True, config=ConfigDict(extra="forbid"))
class ReviewContext:
    """What the caller of a review may choose. Everything else (tenant, memory, models,
    thresholds) is the server's: the tenant comes from the caller's API key."""

    agent: Annotated[str, Field(
        pattern=ID_PATTERN,
        description="Which of your tenant's agents runs the review: episodes and procedures are kept "
                    "per agent, domain facts are shared by every agent of the tenant. Default: the "
                    "server's CONTRACT_AGENT_AGENT.",
    )] = field(default_factory=lambda: get_settings().agent)
    task_type: Annotated[str, Field(
        pattern=ID_PATTERN,
        description="The kind of task: which validated procedure is served, and under which one a "
                    "new procedure is proposed. Default: the server's CONTRACT_AGENT_TASK_TYPE.",
    )] = field(default_factory=lambda: get_settings().task_type)
    domain: Annotated[str, Field(
        pattern=ID_PATTERN,
        description="The domain whose facts are retrieved, and under which new facts are stored. "
                    "Default: the server's CONTRACT_AGENT_DOMAIN.",
    )] = field(default_factory=lambda: get_settings().domain)
    use_memory: Annotated[bool, Field(
        description="Read and write durable memory. False gives a cold baseline: nothing is read, "
                    "nothing is written.",
    )] = True
    we: Annotated[str, Field(
        max_length=120,
        description="Which side we review for when the contract leaves it open: \"buyer\", "
                    "\"supplier\", or a party's name or defined term as the contract writes it. Empty "
                    "(the default): the contract's own roles decide, and we are the buyer.",
    )] = ""
    approve_procedures: Annotated[bool, Field(
        description="Pause after consolidation for a person to approve or reject the procedure the "
                    "run proposed (a LangGraph interrupt; resume with {\"approve\": true, \"by\": \"name\"}).",
    )] = False


@dataclass(kw_only=True)
class ReviewServices:
    """The in-process parts of a run. None means "the settings' value" for every spec field."""

    settings: Settings = field(default_factory=get_settings)
    tenant: str | None = None  # whose memory when no authenticated user names a tenant
    reviewer_model: str | BaseChatModel | None = None
    compression_model: str | BaseChatModel | None = None
    extraction_model: str | BaseChatModel | None = None
    embeddings: str | Embeddings | None = None
    pii_scrubber: Any = None  # "local" | "comprehend" | a memory.pii.Scrubber
    memory: Any = None  # a memory URL or a MemoryBackend
    # A hook for demos and tests: transforms the memory block before it reaches the prompt
    # (e.g. `lambda block: ""` proves improvement comes from what memory holds).
    memory_block_filter: Callable[[str], str] | None = None
    # The memory steps' "now" (tests and simulations of months of use); None = the real UTC time.
    clock: Callable[[], datetime] | None = None
    # Built by a LangGraph server: without a memory URL, memory lives in the runtime's store.
    served: bool = False

    @property
    def default_tenant(self) -> str:
        return self.tenant or self.settings.tenant

    def memory_spec(self) -> Any:
        if self.memory:
            return self.memory
        if self.settings.memory_url:
            return self.settings.memory_url
        return RUNTIME_STORE_URL if self.served else self.settings.resolved_memory_url()


@validated_dataclass(kw_only=True, config=ConfigDict(extra="forbid", arbitrary_types_allowed=True))
class InProcessContext(ReviewContext):
    """The context of an in-process run: what a caller chooses, plus the services it injects."""

    services: InstanceOf[ReviewServices] = field(default_factory=ReviewServices)  # never built from a dict


def served_services() -> ReviewServices:
    """The services of a graph served by LangGraph: the server process's settings decide."""
    return ReviewServices(settings=get_settings(), served=True)


@dataclass
class Resources:
    reviewer: BaseChatModel
    compressor: BaseChatModel
    extractor: BaseChatModel
    embeddings: Embeddings | None
    memory: Any | None  # MemoryBackend
    scrubber: Any | None = None  # memory.pii.Scrubber, applied before every durable write


def tenant_of_user(user: Any) -> str | None:
    """The tenant an authenticated LangGraph user carries (None for no user); never client input."""
    if user is None:
        return None
    try:
        tenant = user["tenant"]
    except (KeyError, TypeError):
        tenant = None
    if not isinstance(tenant, str) or not tenant:
        raise ConfigurationError(
            f"the authenticated user {getattr(user, 'identity', '?')!r} carries no tenant: the server's auth "
            "handler must return one (graphs/auth.py does, from CONTRACT_AGENT_API_KEYS_FILE)"
        )
    return tenant


@dataclass(frozen=True)
class RunScope:
    """One run as a node sees it: the caller's choices, the process's services, the tenant."""

    context: ReviewContext
    services: ReviewServices
    tenant: str
    store: Any = None  # the LangGraph BaseStore the graph runs with, if any

    @property
    def agent(self) -> str:
        return self.context.agent

    @property
    def task_type(self) -> str:
        return self.context.task_type

    @property
    def domain(self) -> str:
        return self.context.domain

    @property
    def use_memory(self) -> bool:
        return self.context.use_memory

    @property
    def approve_procedures(self) -> bool:
        return self.context.approve_procedures

    @property
    def namespace(self) -> Namespace:
        return Namespace(tenant=self.tenant, agent=self.context.agent)

    @property
    def config(self) -> Settings:
        return self.services.settings

    def now(self) -> datetime:
        """The run's clock (an injected one, else the system's), refused when no record may carry
        its time (memory.clock: before 2000 or after 2200)."""
        from memory.clock import checked

        clock = self.services.clock
        return checked(clock(), "the run's clock") if callable(clock) else checked(datetime.now(UTC))

    def filter_block(self, block: str) -> str:
        hook = self.services.memory_block_filter
        return hook(block) if hook is not None else block

    def resources(self) -> Resources:
        return resources(self)

    # what the generic memory steps read besides the above (memory.graph.MemoryScope)

    @property
    def limits(self) -> MemoryLimits:
        return MemoryLimits.of(self.config)

    @property
    def token_key(self) -> bytes:
        return token_key(self.config)

    def memory_resources(self) -> Resources:
        return self.resources()

    def model_failed(self, exc: BaseException, *, role: str, model: Any) -> None:
        from agent.model_errors import raise_for_setup

        raise_for_setup(exc, role=role, model=model)  # a setup mistake: a configuration error (exit 3)

    def usage(self, model: Any, answer: Any) -> dict[str, int]:
        from graphs.state import call_usage

        return call_usage(model, answer)

    def model_name(self, model: Any) -> str:
        from agent.model_errors import model_name

        return model_name(model)


def token_key(settings: Settings) -> bytes:
    """`CONTRACT_AGENT_MEMORY_TOKEN_KEY` as bytes (b"" when unset)."""
    if not settings.memory_token_key:
        return b""
    try:
        key = bytes.fromhex(settings.memory_token_key)
    except ValueError:
        key = b""
    if not 16 <= len(key) <= 64:
        raise ConfigurationError("CONTRACT_AGENT_MEMORY_TOKEN_KEY must be 32 to 128 hex digits")
    return key


def run_scope(runtime: Any) -> RunScope:
    """The scope of the run a node belongs to (`runtime`: LangGraph's `Runtime[ReviewContext]`)."""
    context = getattr(runtime, "context", None)
    if context is None:
        context = ReviewContext()
    elif isinstance(context, dict):  # a graph invoked without LangGraph's coercion
        context = ReviewContext(**context)
    services = context.services if isinstance(context, InProcessContext) else served_services()
    server_info = getattr(runtime, "server_info", None)
    tenant = tenant_of_user(getattr(server_info, "user", None)) or services.default_tenant
    return RunScope(context=context, services=services, tenant=tenant, store=getattr(runtime, "store", None))


_cache: dict[tuple, Any] = {}
_lock = threading.Lock()


def _cached(kind: str, spec: Any, build) -> Any:
    if not isinstance(spec, str):
        return spec
    key = (kind, spec)
    with _lock:
        if key not in _cache:
            _cache[key] = build(spec)
        return _cache[key]


def cached_chat_model(role: str, spec: str | BaseChatModel, settings: Settings) -> BaseChatModel:
    """The chat model of `spec` for `role`, built once per process (a set-up check before the
    first contract and the run itself use the same instance)."""
    from agent.models import load_chat_model

    return _cached(f"chat:{role}", spec, lambda s: load_chat_model(s, role=role, settings=settings))


def resources(run: RunScope) -> Resources:
    """Build (or reuse) the models, embeddings and memory backend of a run's services."""
    from agent.models import load_embeddings
    from memory.pii import load_scrubber

    services, settings = run.services, run.services.settings

    def chat(role: str, spec: Any) -> BaseChatModel:
        return cached_chat_model(role, spec, settings)

    # each role: the injected model, else the role's own setting, else the one for every role
    reviewer = chat("reviewer", services.reviewer_model or settings.model_spec("reviewer"))
    compressor = chat("compression", services.compression_model or settings.model_spec("compression"))
    extractor = chat("extraction", services.extraction_model or settings.model_spec("extraction"))
    if not run.use_memory:
        return Resources(reviewer, compressor, extractor, None, None)
    embeddings = _memo(_cached("embeddings", services.embeddings or settings.embeddings, load_embeddings))
    memory = open_memory_for(run)
    scrubber = _cached("scrubber", services.pii_scrubber or settings.pii_scrubber,
                       lambda spec: load_scrubber(spec, region=settings.bedrock_region))
    return Resources(reviewer, compressor, extractor, embeddings, memory, scrubber)


_memos: dict[int, Any] = {}


def _memo(embeddings: Embeddings) -> Embeddings:
    """The embeddings behind a `QueryMemo` (one per model instance): the tiers of one bootstrap
    search with the same task text, which is then embedded once."""
    from memory.embeddings import QueryMemo

    if isinstance(embeddings, QueryMemo):
        return embeddings
    with _lock:
        memo = _memos.get(id(embeddings))
        if memo is None or memo.inner is not embeddings:
            memo = _memos[id(embeddings)] = QueryMemo(embeddings)
            while len(_memos) > 16:
                _memos.pop(next(iter(_memos)))
        return memo


def open_memory_for(run: RunScope) -> Any:
    """The run's memory backend: an injected one, the URL the settings name, or LangGraph's store."""
    from memory.backends import open_memory

    spec = run.services.memory_spec()
    if spec == RUNTIME_STORE_URL:
        if run.store is None:
            raise ConfigurationError(
                f"memory {RUNTIME_STORE_URL!r} is LangGraph's store, and this graph runs without one: "
                "compile it with store=... or serve it with LangGraph"
            )
        from memory.backends.store import StoreMemory

        return StoreMemory(run.store)  # a thin view: the store itself is the server's
    return _cached("memory", spec, open_memory)


def forget_cached(kind_prefix: str = "") -> None:
    """Close and drop cached resources (tests and the CLI call it between data folders)."""
    with _lock:
        for key in [k for k in _cache if k[0].startswith(kind_prefix)]:
            value = _cache.pop(key)
            close = getattr(value, "close", None)
            if callable(close) and key[0] == "memory":
                close()


# ---------------------------------------------------------------- an in-process run's context

# What a run keeps in its checkpoints' metadata so that `resume` continues it as it was started:
# who it runs for and what it may write are the run's own; the model specs (one per role) only defaults.
RUN_IDENTITY = ("tenant", "agent", "task_type", "domain", "use_memory")
MODEL_CHOICES = ("reviewer_model", "compression_model", "extraction_model")
RUN_CHOICES = (*RUN_IDENTITY, *MODEL_CHOICES)
_ID_FIELDS = ("tenant", "agent", "task_type", "domain")
_CONTEXT_FIELDS = {f.name for f in fields(ReviewContext)}
_SERVICE_FIELDS = {f.name for f in fields(ReviewServices)} - {"settings", "served"}


def choice(ctx: InProcessContext, name: str) -> Any:
    """A run's choice by name, whether the context or the services hold it (tenant, models)."""
    if name == "tenant":
        return ctx.services.default_tenant
    if name in MODEL_CHOICES:  # a role's own model, else the one for every role
        return getattr(ctx.services, name) or ctx.services.settings.model_spec(name.removesuffix("_model"))
    if name in _SERVICE_FIELDS:
        return getattr(ctx.services, name) or getattr(ctx.services.settings, name, None)
    return getattr(ctx, name)


def valid_run_id(run_id: str) -> str:
    try:
        return check_run_id(run_id)
    except MemoryRequestError as exc:
        raise ConfigurationError(str(exc)) from None


def context_from_settings(settings: Settings, **overrides: Any) -> InProcessContext:
    """An in-process run's context: `settings`' defaults, overridden by any non-None keyword, each
    either a context field (agent, task_type, domain, use_memory, approve_procedures) or a service
    (tenant, models, embeddings, pii_scrubber, memory, memory_block_filter, clock)."""
    chosen = {k: v for k, v in overrides.items() if v is not None}
    unknown = set(chosen) - _CONTEXT_FIELDS - _SERVICE_FIELDS
    if unknown:
        raise TypeError(f"unknown review option(s): {', '.join(sorted(unknown))}")
    services = ReviewServices(settings=settings, **{k: v for k, v in chosen.items() if k in _SERVICE_FIELDS})
    context = {
        "agent": settings.agent, "task_type": settings.task_type, "domain": settings.domain,
        **{k: v for k, v in chosen.items() if k in _CONTEXT_FIELDS},
    }
    try:
        for name in _ID_FIELDS:  # one-line errors for crafted ids, before pydantic's longer ones
            check_id(services.default_tenant if name == "tenant" else context[name], name.replace("_", " "))
        return InProcessContext(services=services, **context)
    except (MemoryRequestError, ValidationError) as exc:
        message = str(exc) if isinstance(exc, MemoryRequestError) else exc.errors()[0]["msg"]
        raise ConfigurationError(message) from None


def run_choices(ctx: InProcessContext) -> dict[str, Any]:
    """The context values a resumed run must keep (model instances are not kept: only specs)."""
    return {name: choice(ctx, name) for name in RUN_CHOICES if isinstance(choice(ctx, name), str | bool)}
