"""Auth of the served graph (`langgraph.json` "auth"): an API key binds each caller to a tenant.

Authentication: `Authorization: Bearer <key>` or `X-Api-Key: <key>`, looked up in the operator's
keys (`agent.api_keys`, from `CONTRACT_AGENT_API_KEYS_FILE` / `CONTRACT_AGENT_API_KEYS`). The
user it yields carries the key's tenant; the graph reads the tenant from there
(`graphs.context.run_scope`), never from what a client sends. With no key configured the server
is in local mode: it says so when it starts, serves loopback callers only, all as the default
tenant (`CONTRACT_AGENT_TENANT`), and refuses everyone else.

Authorization, per resource:
- threads, runs, crons: created with the caller's tenant in their metadata; every read, search,
  update and delete is filtered to that tenant, so one tenant never sees another's. Creating a
  thread with an id another tenant holds answers 404 "not found", as reading it does, not the
  platform's 409 "already exists", which would confirm that it exists.
- a run's context may hold only `ReviewContext` fields: naming anything else (`tenant`,
  `memory`, `settings`, a model ...) is refused with 422 and the list of what may be set.
- assistants: readable by every caller; created, changed and deleted by the operator only.
- the store: read-only, and only under the caller's tenant's memory prefix; memory is written by
  review runs alone, through the confirmation gate and the PII scrubber.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from dataclasses import fields
from typing import Any

from langgraph_sdk import Auth

from agent.api_keys import KeyRing, keys_file_state, load_key_ring
from agent.errors import ConfigurationError
from agent.settings import get_settings
from graphs.context import ReviewContext, tenant_of_user
from memory.backends.store import tenant_prefix

log = logging.getLogger(__name__)
auth = Auth()

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
CLIENT_CONTEXT = frozenset(f.name for f in fields(ReviewContext))
_ring: tuple[tuple, KeyRing] | None = None
_ring_lock = threading.Lock()


def key_ring() -> KeyRing:
    """The configured keys, re-read when the keys file changes (keys are added without a restart)."""
    global _ring
    settings = get_settings()
    state = (keys_file_state(settings), settings.api_keys)
    with _ring_lock:
        if _ring is None or _ring[0] != state:
            _ring = (state, load_key_ring(settings))
        return _ring[1]


def _announce() -> None:
    ring = key_ring()  # a broken keys file stops the server here, with the line at fault
    if ring.empty:
        log.warning(
            "contract_review: no API keys configured (CONTRACT_AGENT_API_KEYS_FILE / CONTRACT_AGENT_API_KEYS): "
            "LOCAL MODE, for development only: loopback callers only, all as tenant %r; every other caller is "
            "refused. Add keys with `contract-review keys add --tenant <tenant> --name <name>`.",
            get_settings().tenant,
        )
    else:
        tenants = sorted({key.tenant for key in ring.keys})
        log.warning("contract_review: API keys required: %d key(s) for tenant(s) %s", len(ring.keys), ", ".join(tenants))


def _denied(status: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


def _presented_key(authorization: str | None, headers: dict[bytes, bytes]) -> str | None:
    if authorization:
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
    header = headers.get(b"x-api-key")
    return header.decode("latin-1").strip() if header else None


@auth.authenticate
async def authenticate(authorization: str | None, headers: dict[bytes, bytes], scope: dict) -> dict[str, Any]:
    try:
        ring = key_ring()
    except ConfigurationError as exc:
        log.error("API keys unreadable: %s", exc)
        raise _denied(401, "the server's API keys are misconfigured; ask its operator") from exc
    if ring.empty:
        client = (scope.get("client") or ("",))[0]
        if client not in LOOPBACK:
            raise _denied(403, "this server has no API keys configured and serves local callers only")
        tenant = get_settings().tenant
        return {"identity": "local", "display_name": "local (no API keys configured)", "tenant": tenant,
                "permissions": [f"tenant:{tenant}"]}
    presented = _presented_key(authorization, headers or {})
    if not presented:
        raise _denied(401, "send your API key as 'Authorization: Bearer <key>' or 'X-Api-Key: <key>'")
    key = ring.find(presented)
    if key is None:
        raise _denied(401, "unknown API key")
    return {"identity": key.identity, "display_name": key.identity, "tenant": key.tenant,
            "permissions": [f"tenant:{key.tenant}"]}


def _tenant(ctx: Auth.types.AuthContext) -> str:
    try:
        tenant = tenant_of_user(ctx.user)
    except ConfigurationError as exc:
        raise _denied(403, str(exc)) from exc
    if tenant is None:
        raise _denied(403, "no tenant: requests must be authenticated")
    return tenant


def _mark(ctx: Auth.types.AuthContext, value: dict[str, Any], tenant: str) -> None:
    """Stamp the tenant on a resource being created or changed, whatever metadata the client sent.

    In place: the server keeps using the metadata object it handed over. A resource left without
    the stamp matches no tenant's filter, so it is lost to everyone, never exposed."""
    metadata = value.get("metadata")
    if metadata is None and ctx.action in ("create", "create_run"):
        metadata = value["metadata"] = {}
    if not isinstance(metadata, dict):
        return
    if ctx.action in ("create", "create_run"):
        metadata["owner"] = ctx.user.identity
    metadata["tenant"] = tenant


@auth.on
async def tenant_only(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Auth.types.FilterType:
    """Threads, runs and crons: the caller's tenant's only."""
    tenant = _tenant(ctx)
    _mark(ctx, value, tenant)
    return {"tenant": tenant}


async def _lookup_tenant(thread_id: Any) -> str | None:
    from langgraph_runtime.database import connect
    from langgraph_runtime.ops import Threads

    async with connect() as conn:
        try:
            found = await Threads.get(conn, thread_id)
        except Auth.exceptions.HTTPException:
            return None
        except Exception as exc:  # the runtime's own HTTPException (404): no such thread
            if getattr(exc, "status_code", None) == 404:
                return None
            raise
        async for thread in found:
            return str((thread.get("metadata") or {}).get("tenant") or "")
    return None


async def _thread_tenant(thread_id: Any) -> str | None:
    """The tenant stamped on the thread `thread_id` if it exists, else None (also when the server's
    runtime cannot be asked: the platform's own answer then stands). The lookup runs without the
    caller's auth context, which would filter the thread out: it only learns who holds the id."""
    if not thread_id:
        return None
    try:
        from langgraph_api.utils import AuthContext

        unfiltered = contextvars.copy_context()
        unfiltered.run(AuthContext.set, None)
        return await asyncio.create_task(_lookup_tenant(thread_id), context=unfiltered)
    except Exception as exc:  # noqa: BLE001 - a runtime without these internals: the platform answers
        log.warning("cannot check who holds thread %s (%s): the platform answers for itself", thread_id, exc)
        return None


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create.value) -> Auth.types.FilterType:
    """A new thread of the caller's tenant. An id another tenant holds is 'not found', as it is
    for every other action: the platform's 409 would confirm that the thread exists."""
    tenant = _tenant(ctx)
    thread_id = value.get("thread_id")
    holder = await _thread_tenant(thread_id)
    if holder is not None and holder != tenant:
        raise _denied(404, f"Thread with ID {thread_id} not found")
    _mark(ctx, value, tenant)
    return {"tenant": tenant}


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create_run.value) -> Auth.types.FilterType:
    """A run on the caller's thread, with a context of client fields only."""
    tenant = _tenant(ctx)
    context = (value.get("kwargs") or {}).get("context") or {}
    foreign = sorted(set(context) - CLIENT_CONTEXT) if isinstance(context, dict) else ["<not an object>"]
    if foreign:
        raise _denied(422, (
            f"context field(s) {', '.join(foreign)} cannot be set by a client: the tenant comes from your API key; "
            f"memory, models and settings are the server's. A client may set: {', '.join(sorted(CLIENT_CONTEXT))}"
        ))
    _mark(ctx, value, tenant)
    return {"tenant": tenant}


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> bool:
    """Assistants are the operator's: every caller may read them, none may change them."""
    _tenant(ctx)
    if ctx.action in ("read", "search"):
        return True
    raise _denied(403, "assistants are configured by the server's operator")


@auth.on.store
async def store(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> bool:
    """The store holds memory: a caller reads its own tenant's, and writes nothing."""
    prefix = tenant_prefix(_tenant(ctx))
    if ctx.action in ("put", "delete"):
        raise _denied(403, "memory is written by review runs only (through the confirmation gate and PII scrubbing)")
    namespace = tuple(value.get("namespace") or ())
    if ctx.action in ("search", "list_namespaces") and prefix[: len(namespace)] == namespace:
        value["namespace"] = prefix  # a broader search is narrowed to the caller's own memory
        return True
    if namespace[: len(prefix)] != prefix:
        raise _denied(403, f"outside your memory: namespaces of your tenant start with {list(prefix)}")
    return True


_announce()
