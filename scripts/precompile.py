"""Byte-compile, once at install time, every module a review imports.

    python scripts/precompile.py      # run by `make install` / `make demo` after pip

The Makefile installs with `pip --no-compile`: compiling every file of every package costs more
than the whole download-and-unpack (most of those files are never imported). Python then compiles
a module when it is first imported and caches the result in `__pycache__`, unless the
environment says not to (`PYTHONDONTWRITEBYTECODE=1`, set on some CI images and containers,
including the machines this project is benchmarked on): there, every process compiled the same
1,400 files again, about 3 seconds of each command's start. This script imports what the CLI,
a review with memory and its write path load (the same modules whatever the contract), then
compiles exactly those source files, on every core; it writes `__pycache__` whatever that
variable says, because it is an explicit, one-off install step.
"""

from __future__ import annotations

import compileall
import importlib
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# What a review loads from process start to its report: the CLI, the graph and its tools, the
# embedded memory backend, the offline reviewer, PDF reading, embeddings, BM25 and the PII
# scrubber of the write path.
REVIEW_PATH = (
    "cli.main", "cli.demo", "graphs.runner", "tools", "agent.models", "agent.offline.model",
    "memory.backends", "memory.backends.sqlite", "memory.episodic", "memory.semantic",
    "memory.procedural", "memory.pii.local", "pypdf", "wordllama", "bm25s",
)


def _compile(path: str) -> bool:
    return bool(compileall.compile_file(path, quiet=2))


def review_sources() -> list[str]:
    """The .py files behind every module loaded by importing the review path."""
    for name in REVIEW_PATH:
        try:
            importlib.import_module(name)
        except ImportError as error:  # a module renamed since: compile the rest, say which
            print(f"precompile: skipped {name} ({error})", file=sys.stderr)
    files = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    return sorted(f for f in files if f and f.endswith(".py") and Path(f).is_file())


def main() -> int:
    start = time.perf_counter()
    sources = review_sources()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        compiled = sum(pool.map(_compile, sources, chunksize=32))
    # a file that does not compile (a module for another Python, say) is compiled by nobody:
    # it costs its importer what it did before, never the install
    print(f"precompiled {compiled} of {len(sources)} modules a review imports "
          f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
