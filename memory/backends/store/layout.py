"""Where each record lives in a LangGraph `BaseStore`: namespaces, item values, vectors, times.

Every namespace starts with `ROOT` and the tenant, so isolation is in the key design: no call
of this backend builds a namespace without its caller's tenant, and a tenant's whole memory is
the prefix `tenant_prefix(tenant)` (what the server's store authorization allows a client to
read). Ids are `[a-z0-9][a-z0-9_.-]*` (`memory.records.Namespace`); store labels may not hold
'.', so a label writes '.' as '%2e' ('%' cannot occur in an id, so the mapping is one-to-one).

```
(ROOT, tenant, "episodes", agent)                      key run_id
(ROOT, tenant, "facts")                                key fact_id
(ROOT, tenant, "confirmations", fact_key)              key run_id       one item per (fact, run)
(ROOT, tenant, "procedures", agent)                    key procedure_id
(ROOT, tenant, "procedure_runs", agent, procedure_id)  key run_id       source runs
(ROOT, tenant, "procedure_uses", agent, procedure_id)  key run_id | u-  one item per use
```
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory.errors import MemoryBackendError
from memory.records import Namespace

ROOT = "contract_memory"
PAGE = 1000  # items per store.search page when a whole namespace is read
IDENT_PREFIX = "idt_"  # identifier tokens are top-level boolean keys, so a store filter finds them


def label(identifier: str) -> str:
    return identifier.replace(".", "%2e")


def unlabel(text: str) -> str:
    return text.replace("%2e", ".")


def tenant_prefix(tenant: str) -> tuple[str, str]:
    """Every namespace of one tenant starts with this."""
    return ROOT, label(tenant)


def episodes_ns(ns: Namespace) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "episodes", label(ns.agent))


def facts_ns(ns: Namespace) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "facts")


def confirmations_ns(ns: Namespace, fact_key: str) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "confirmations", label(fact_key))


def procedures_ns(ns: Namespace) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "procedures", label(ns.agent))


def procedure_runs_ns(ns: Namespace, procedure_id: str) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "procedure_runs", label(ns.agent), label(procedure_id))


def procedure_uses_ns(ns: Namespace, procedure_id: str) -> tuple[str, ...]:
    return (*tenant_prefix(ns.tenant), "procedure_uses", label(ns.agent), label(procedure_id))


def moment(value: datetime) -> str:
    """Milliseconds since the epoch as 15 zero-padded digits: ordered the same as text (how
    PostgresStore's `$gt` compares) and as numbers (how InMemoryStore's does)."""
    return f"{max(0, int(value.timestamp() * 1000)):015d}"


def encode_vector(vector: Sequence[float]) -> str:
    """A unit-length float32 vector as base64 text (what the item's `vector` field holds)."""
    array = np.asarray(vector, dtype=np.float32)
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise MemoryBackendError("an embedding must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    return base64.b64encode((array / norm if norm else array).tobytes()).decode("ascii")


def decode_vector(text: str) -> np.ndarray:
    try:
        return np.frombuffer(base64.b64decode(text, validate=True), dtype=np.float32)
    except (ValueError, TypeError) as exc:
        raise MemoryBackendError(f"a stored vector is not base64 float32 data: {exc}") from exc


def ident_keys(tokens: set[str]) -> dict[str, bool]:
    return {IDENT_PREFIX + token: True for token in tokens}


def idents_of(value: dict[str, Any]) -> set[str]:
    return {key[len(IDENT_PREFIX):] for key in value if key.startswith(IDENT_PREFIX)}


def every_item(store: Any, namespace: tuple[str, ...], *, filter: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every item of exactly `namespace` (deeper namespaces excluded), page by page.

    A store orders pages its own way; writes between pages may show an item twice (dropped
    here by key), never hide one that was there before the first page.
    """
    seen: set[str] = set()
    offset = 0
    while True:
        page = store.search(namespace, filter=filter, limit=PAGE, offset=offset)
        for item in page:
            if tuple(item.namespace) == namespace and item.key not in seen:
                seen.add(item.key)
                yield item
        if len(page) < PAGE:
            return
        offset += len(page)
