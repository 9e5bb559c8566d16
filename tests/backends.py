"""Every memory backend the conformance suite runs against, by name.

A factory opens a fresh backend whose data lives under the given empty folder. Backends that
need services (moto, a local server) add their entries here, e.g. "aws-moto+fake-queryvectors",
"aws-server+fake-queryvectors" (named for the in-process QueryVectors that moto lacks).
A backend that needs a server a session fixture starts names that fixture in `SERVER_FIXTURES`;
its factory then takes the server too, and tests open backends with `open_backend`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.memory import InMemoryStore

from memory.backends import open_memory
from memory.backends.store import StoreMemory, vector_index
from memory.stores import MemoryBackend

VECTOR_INDEX_DIMS = 8  # the dimension of the conformance suite's vectors (tests/conformance/support.DIM)


def _sqlite(folder: Path) -> MemoryBackend:
    return open_memory(f"sqlite:///{folder / 'memory.sqlite'}")


def _sqlite_graph(folder: Path) -> MemoryBackend:
    """SQLite whose namespaces get a usearch graph past 4 vectors (the default waits for 2,000),
    so every conformance rule is also checked through graph snapshots, merges and tombstones."""
    from memory.backends.sqlite import SqliteMemory

    return SqliteMemory(folder / "memory.sqlite", min_delta=4)


FACTORIES: dict[str, Callable[..., MemoryBackend]] = {
    "sqlite": _sqlite,
    "sqlite-graph": _sqlite_graph,
    "sqlite-exact": lambda folder: open_memory(f"sqlite:///{folder / 'memory.sqlite'}?vector_index=exact"),
    # LangGraph's InMemoryStore: scanned, and with a vector index of this backend's vectors
    "store-inmemory": lambda folder: StoreMemory(InMemoryStore()),
    "store-inmemory-indexed": lambda folder: StoreMemory(InMemoryStore(index=vector_index(VECTOR_INDEX_DIMS))),
    # LangGraph's PostgresStore on a real PostgreSQL server (tests/postgres.py), a schema per backend
    "store-postgres": lambda folder, server: open_memory(server.fresh_url()),
}
SERVER_FIXTURES = {"store-postgres": "postgres_server"}


def open_backend(request: Any, name: str, folder: Path) -> MemoryBackend:
    """Open backend `name` for a test (`request`: pytest's), starting its server if it needs one."""
    fixture = SERVER_FIXTURES.get(name)
    if fixture is None:
        return FACTORIES[name](folder)
    return FACTORIES[name](folder, request.getfixturevalue(fixture))

try:  # the AWS backend is an optional extra: its entries appear when boto3 and moto are installed
    from tests.aws.moto_support import moto_backend, moto_partition_backend, server_backend
except ImportError:
    pass
else:
    # moto in-process (mock_aws); S3 Vectors QueryVectors answered by bench.s3vectors_fake
    FACTORIES["aws-moto+fake-queryvectors"] = moto_backend
    FACTORIES["aws-server+fake-queryvectors"] = server_backend  # moto over HTTP (ThreadedMotoServer)
    FACTORIES["aws-moto-partition-scan"] = moto_partition_backend  # no vector bucket

try:  # chromadb is an optional extra ([chroma], also in [dev]): the entry appears when it is installed
    import chromadb  # noqa: F401
except ImportError:
    pass
else:
    FACTORIES["chroma"] = lambda folder: open_memory(f"chroma:///{folder / 'chroma'}")  # embedded, persistent
