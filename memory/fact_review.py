"""The fact review queue: facts that passed the confirmation gate but contradict the playbook.

A claim such as "liability caps of 0.1x are usually standard", observed in enough contracts,
counterparties and templates, is still never promoted on its own: it waits here, stored as
QUEUED and never served, with the position it contradicts and the runs that observed it. A
person approves it (served from the next run, recorded as decided by them) or rejects it (kept
for the record, never served, and later observations do not bring it back).
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings
from pydantic import BaseModel

from memory.embeddings import model_name_of
from memory.errors import MemoryRequestError
from memory.records import Fact, FactStatus, Namespace
from memory.stores import ConfirmationLog, FactStore

_ALL = 1_000_000


class FactReviewItem(BaseModel):
    fact: Fact
    reason: str  # the playbook position it contradicts
    runs: list[str]  # the runs that observed it


def fact_queue(store: FactStore, log: ConfirmationLog, ns: Namespace) -> list[FactReviewItem]:
    """Queued facts of the tenant, oldest first."""
    queued = sorted((f for f in store.list(ns, limit=_ALL) if f.status == FactStatus.QUEUED),
                    key=lambda f: (f.created_at, f.fact_id))
    return [FactReviewItem(fact=f, reason=f.review_reason or "contradicts the playbook",
                           runs=log.runs(ns, f.fact_id) or f.source_runs) for f in queued]


def decide_fact(store: FactStore, embeddings: Embeddings, ns: Namespace, fact_id: str, decision: str, *,
                by: str) -> Fact:
    """Apply a person's decision on a queued fact: "approve" (served from now on) or "reject"
    (kept, never served). The fact is written again, embedded by `embeddings`."""
    if decision not in ("approve", "reject"):
        raise MemoryRequestError(f"unknown review decision {decision!r}: use approve or reject")
    if not by.strip():
        raise MemoryRequestError("a decision on a fact needs the name of the person deciding (--by)")
    fact = store.get(ns, fact_id)
    if fact is None:
        raise MemoryRequestError(f"no fact {fact_id!r} for tenant {ns.tenant!r}")
    if fact.status != FactStatus.QUEUED:
        raise MemoryRequestError(f"fact {fact_id!r} is {fact.status.value}, not waiting for review")
    status = FactStatus.CONFIRMED if decision == "approve" else FactStatus.REJECTED
    decided = fact.model_copy(update={"status": status, "decided_by": by.strip(), "embedding_model": model_name_of(embeddings)})
    store.put(ns, decided, embeddings.embed_documents([decided.text])[0])
    return decided
