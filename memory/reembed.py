"""Re-embedding: move every episode and fact of a tenant to a new embedding model, resumably.

Changing the embedding model is a planned operation, never a mix: vectors of different models
are not comparable, so a search only ever looks at vectors of its query's model. The backend
keeps the new vectors *aside* (staged) while the old ones keep serving retrieval; once every
record of the tenant has a staged vector, `switch` makes them the live ones (one transaction on
SQLite; an item-by-item sweep on DynamoDB, see `memory.backends.aws.reembed`). An interrupted run
loses at most one batch: staged vectors are durable, and the next run embeds only what has none.
Records written with the old model while it ran are picked up before the switch.

After the switch, point the agent at the new model (`CONTRACT_AGENT_EMBEDDINGS`); a record
written by a process still on the old model is found by the next `reembed` (it is idempotent).
Backends that can do this expose a `reembedding` attribute (`Reembeddable`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from pydantic import BaseModel

from memory.errors import MemoryBackendError, MemoryConfigError

if TYPE_CHECKING:  # the decay Lambda imports this module without LangChain installed
    from langchain_core.embeddings import Embeddings

log = logging.getLogger(__name__)

Kind = Literal["episodes", "facts"]
SWITCH_ATTEMPTS = 5  # rounds of "embed the latecomers, try to switch" before giving up


class PendingVector(BaseModel):
    """A record still without a vector of the target model: where it is and what to embed."""

    kind: Kind
    key: str  # backend-specific address of the record
    text: str


class ReembedProgress(BaseModel):
    tenant: str
    model: str
    total: int  # episodes + facts of the tenant
    on_model: int  # live vectors already of the target model
    staged: int  # new vectors waiting for the switch

    @property
    def missing(self) -> int:
        return self.total - self.on_model - self.staged


class SwitchResult(BaseModel):
    switched: int  # records whose live vector is now the new model's
    missing: int  # records still without a vector of the new model (0 = complete)


@runtime_checkable
class Reembeddable(Protocol):
    def tenants(self) -> list[str]: ...

    def pending(self, tenant: str, model: str) -> Iterator[PendingVector]:
        """Records of the tenant with neither a live nor a staged vector of `model`."""
        ...

    def stage(self, tenant: str, model: str, vectors: list[tuple[PendingVector, list[float]]]) -> int:
        """Keep new vectors aside (durably); returns how many records were staged. A record
        deleted or rewritten meanwhile is skipped (it will be pending again if it still exists)."""
        ...

    def progress(self, tenant: str, model: str) -> ReembedProgress: ...

    def switch(self, tenant: str, model: str) -> SwitchResult:
        """Make the staged vectors live once every record of the tenant has one. SQLite switches
        all or nothing; DynamoDB sweeps item by item and reports records written meanwhile as
        `missing` (the caller embeds them and switches again)."""
        ...


class ReembedResult(BaseModel):
    tenant: str
    model: str
    embedded: int  # vectors computed by this run
    switched: int  # records whose live vector became the new model's at the end


def reembeddable(memory: object) -> Reembeddable:
    store = getattr(memory, "reembedding", None)
    if store is None:
        raise MemoryConfigError(f"the {type(memory).__name__} memory backend cannot re-embed its records")
    return store


def _batches(items: Iterator[PendingVector], size: int) -> Iterator[list[PendingVector]]:
    while batch := list(islice(items, size)):
        yield batch


def _embed_pending(
    store: Reembeddable, embeddings: Embeddings, tenant: str, model: str, batch_size: int,
    on_batch: Callable[[int], None] | None,
) -> int:
    done = 0
    for batch in _batches(store.pending(tenant, model), batch_size):
        vectors = embeddings.embed_documents([p.text for p in batch])
        if len(vectors) != len(batch):
            raise MemoryBackendError(f"embedding model {model!r} returned {len(vectors)} vectors for {len(batch)} texts")
        store.stage(tenant, model, list(zip(batch, vectors, strict=True)))
        done += len(batch)
        if on_batch is not None:
            on_batch(len(batch))
    return done


def reembed_tenant(
    memory: object, embeddings: Embeddings, tenant: str, *, batch_size: int = 64,
    on_batch: Callable[[int], None] | None = None,
) -> ReembedResult:
    """Re-embed every episode and fact of `tenant` with `embeddings`, then switch to them."""
    from memory.embeddings import model_name_of

    if batch_size < 1:
        raise MemoryConfigError(f"the re-embedding batch size must be at least 1, got {batch_size}")
    store = reembeddable(memory)
    model = model_name_of(embeddings)
    embedded = switched = 0
    for _ in range(SWITCH_ATTEMPTS):
        embedded += _embed_pending(store, embeddings, tenant, model, batch_size, on_batch)
        result = store.switch(tenant, model)
        switched += result.switched
        if result.missing == 0:
            log.info("re-embedded tenant %s with %s: %d embedded, %d switched", tenant, model, embedded, switched)
            return ReembedResult(tenant=tenant, model=model, embedded=embedded, switched=switched)
    raise MemoryBackendError(
        f"tenant {tenant!r} kept receiving records with another embedding model while re-embedding to "
        f"{model!r}; switch the agents to it first, then run reembed again"
    )


def reembed(
    memory: object, embeddings: Embeddings, *, tenant: str | None = None, batch_size: int = 64,
    on_batch: Callable[[int], None] | None = None,
) -> list[ReembedResult]:
    """Re-embed one tenant, or every tenant of the backend when `tenant` is None."""
    tenants = [tenant] if tenant is not None else reembeddable(memory).tenants()
    return [reembed_tenant(memory, embeddings, t, batch_size=batch_size, on_batch=on_batch) for t in tenants]
