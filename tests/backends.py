"""Every memory backend the conformance suite runs against, by name.

A factory opens a fresh backend whose data lives under the given empty folder. Backends that
need services (moto, a local server) add their entries here, e.g. "aws-moto", "aws-server".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memory.backends import open_memory
from memory.stores import MemoryBackend


def _sqlite(folder: Path) -> MemoryBackend:
    return open_memory(f"sqlite:///{folder / 'memory.sqlite'}")


FACTORIES: dict[str, Callable[[Path], MemoryBackend]] = {
    "sqlite": _sqlite,
}

try:  # the AWS backend is an optional extra: its entries appear when boto3 and moto are installed
    from tests.aws.moto_support import moto_backend, server_backend
except ImportError:
    pass
else:
    FACTORIES["aws-moto"] = moto_backend  # moto in-process (mock_aws)
    FACTORIES["aws-server"] = server_backend  # moto over HTTP (ThreadedMotoServer on 127.0.0.1)

try:  # chromadb is an optional extra ([chroma], also in [dev]): the entry appears when it is installed
    import chromadb  # noqa: F401
except ImportError:
    pass
else:
    FACTORIES["chroma"] = lambda folder: open_memory(f"chroma:///{folder / 'chroma'}")  # embedded, persistent
