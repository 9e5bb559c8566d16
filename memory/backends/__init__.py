"""Backend selection: `open_memory(url)` opens the four durable stores a URL names.

"sqlite:///relative/or/absolute/path.sqlite" is the embedded default (no network, one file).
"aws://..." loads `memory.backends.aws` lazily, so cloud SDKs are only needed when asked for;
"chroma:///path" (or "chroma://host:port?state=...") loads `memory.backends.chroma` the same way.
"postgresql://user:pass@host/db" keeps memory in LangGraph's PostgresStore through
`memory.backends.store` (any other LangGraph `BaseStore`: `memory.backends.store.StoreMemory`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from urllib.parse import parse_qsl

from memory.errors import MemoryConfigError
from memory.stores import MemoryBackend


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite://` memory URL, or None for any other backend."""
    scheme, sep, rest = url.strip().partition("://")
    if scheme != "sqlite" or not sep:
        return None
    rest = rest.partition("?")[0]
    path = rest[1:] if rest.startswith("/") else rest
    return Path(path) if path else None


def open_memory(url: str) -> MemoryBackend:
    """Open the backend named by `url`; raises MemoryConfigError with what to fix."""
    scheme, sep, rest = url.strip().partition("://")
    if not url.strip():
        raise MemoryConfigError("no memory URL given: use 'sqlite:///path/to/memory.sqlite' or 'aws://...'")
    if not sep:
        raise MemoryConfigError(f"memory URL {url!r} has no scheme: use 'sqlite:///path' or 'aws://...'")
    if scheme == "sqlite":
        # sqlite:///data/m.sqlite -> "/data/m.sqlite" is relative ("data/m.sqlite"), as in SQLAlchemy;
        # sqlite:////abs/m.sqlite -> absolute. A bare sqlite://relative also works.
        # ?vector_index=exact scans every vector instead of the nearest-neighbour index (benchmarks).
        rest, _, options = rest.partition("?")
        path = rest[1:] if rest.startswith("/") else rest
        if not path:
            raise MemoryConfigError(f"memory URL {url!r} names no file: use 'sqlite:///path/to/memory.sqlite'")
        params = dict(parse_qsl(options))
        unknown = sorted(set(params) - {"vector_index"})
        if unknown:
            raise MemoryConfigError(f"unknown sqlite memory URL parameter(s) {', '.join(unknown)}; known: vector_index")
        from memory.backends.sqlite import SqliteMemory

        return SqliteMemory(Path(path), vector_index=params.get("vector_index", "ann"))
    if scheme == "aws":
        try:
            aws = importlib.import_module("memory.backends.aws")
        except ImportError as exc:
            raise MemoryConfigError(
                f"the AWS memory backend is unavailable ({exc}); install the extra: pip install 'contract-memory-agent[aws]'"
            ) from exc
        return aws.open_aws_memory(url)
    if scheme == "chroma":  # chromadb is an optional extra: memory.backends.chroma says how to install it
        from memory.backends.chroma import open_chroma_memory

        return open_chroma_memory(url)
    if scheme in ("postgresql", "postgres"):  # LangGraph's PostgresStore: the `postgres` extra
        from memory.backends.store import open_postgres_memory

        return open_postgres_memory(url.strip())
    raise MemoryConfigError(
        f"unknown memory URL scheme {scheme!r} in {url!r}: use 'sqlite:///path', 'chroma:///path', "
        "'postgresql://...' or 'aws://...'"
    )
