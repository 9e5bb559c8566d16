"""Cold start probe: `python -m bench.cold <parent start epoch> <home> <contract> [overlapped|sequential]`.

Runs `contract-review review <contract> --home <home>` in this fresh process and stops it at the
first model call, printing one JSON line: the milliseconds since the parent started the process,
and the top-level packages loaded by then (`loaded`: what a test checks to keep the PII
scrubber, BM25 and plotting off this path).

- `overlapped` (the default) is what a user waits for: the command as it runs, its warm-up
  (graphs/warmup.py: the contract read, the embedding model and the memory file's first searches)
  beside the imports of the graph's libraries.
- `sequential` says where the time goes: the libraries and the project's graph modules are
  imported by the probe before the command runs, the warm-up runs in the command's thread, and
  each phase is timed on its own (the interpreter, the CLI, the LangGraph/LangChain libraries,
  this project's modules, reading the contract, the embedding model, opening the memory file,
  its first searches, building the graph, the bootstrap's reads).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import console_script

MODEL_MODULE = "agent.offline.model"  # the stand-in reviewer, whose first call ends the cold start
# Phases timed around a function (first call only), by (module, attribute).
WRAPPED = {
    "contract_read": ("tools.contract", "load_contract"),
    "graph_build": ("graphs.runner", "build_graph"),
    "embeddings_load": ("memory.embeddings", "load_embeddings"),
    "memory_open": ("memory.backends", "open_memory"),
    "memory_warm": ("graphs.warmup", "Warmup._warm_memory"),
    "episode_search": ("memory.episodic", "recall"),
    "fact_search": ("memory.semantic", "recall"),
}
# The bootstrap node's reads run side by side: reported one by one, counted once as a span.
READ_STEP = ("episode_search", "fact_search")


def _timed(spans: dict[str, tuple[float, float]], name: str, function: Callable) -> Callable:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.time()
        try:
            return function(*args, **kwargs)
        finally:
            spans.setdefault(name, (start, time.time()))

    return wrapper


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def _stop_at_first_call(model_class: Any, report: Callable[[float], dict[str, Any]]) -> None:
    """Make the stand-in model's first call print the probe's line and end the process."""
    original = model_class._generate

    def first_call(self, messages, *args, **kwargs):  # noqa: ANN001 - same signature as the model's
        now = time.time()
        rules = sys.modules.get("tools.detection.rules")
        print(json.dumps({
            **report(now),
            "loaded": sorted({name.partition(".")[0] for name in sys.modules if not name.startswith("_")}),
            # clause detectors whose patterns were compiled by then (they compile on first use)
            "detectors_compiled": sum("rules" in vars(d) for d in rules.DETECTORS.values()) if rules else 0,
        }), flush=True)
        os._exit(0)  # stop here: the rest of the review is not part of the cold start
        return original(self, messages, *args, **kwargs)

    model_class._generate = first_call


class _OnImport(importlib.abc.MetaPathFinder):
    """Calls `then(module)` once `name` is imported, whoever imports it (the command imports its
    libraries on demand: the probe imports nothing ahead of it)."""

    def __init__(self, name: str, then: Callable[[Any], None]) -> None:
        self.name, self.then = name, then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        loader, then = spec.loader, self.then
        execute = loader.exec_module

        def exec_module(module: Any) -> None:
            execute(module)
            then(module)

        loader.exec_module = exec_module
        return spec


def overlapped(parent_start: float, home: str, contract: str) -> None:
    import_start = time.time()

    def report(now: float) -> dict[str, Any]:
        return {"first_model_call_ms": _ms(now - parent_start), "mode": "overlapped",
                "interpreter_start_ms": _ms(import_start - parent_start)}

    sys.meta_path.insert(0, _OnImport(MODEL_MODULE, lambda m: _stop_at_first_call(m.OfflineReviewerModel, report)))
    code = console_script()(["review", contract, "--home", home, "--format", "json"])
    sys.exit(f"the review ended (exit {code}) without a model call")


def sequential(parent_start: float, home: str, contract: str) -> None:
    import_start = time.time()
    cli_main = console_script()
    cli_imported = time.time()
    import langchain_core.language_models  # noqa: F401  (the libraries every review needs)
    import langgraph.graph  # noqa: F401
    import langgraph.prebuilt  # noqa: F401

    libraries_imported = time.time()
    import importlib

    for module in ("graphs.runner", "tools.toolset", "agent.models", "memory.backends", "memory.episodic",
                   "memory.semantic", "memory.embeddings", "tools.contract", "graphs.warmup"):
        importlib.import_module(module)
    from agent.offline.model import OfflineReviewerModel
    from graphs.warmup import Warmup

    own_imported = time.time()
    spans: dict[str, tuple[float, float]] = {}
    for name, (module, attribute) in WRAPPED.items():
        owner = sys.modules[module]
        holder, _, attribute = attribute.rpartition(".")
        if holder:
            owner = getattr(owner, holder)
        setattr(owner, attribute, _timed(spans, name, getattr(owner, attribute)))

    Warmup.start = Warmup.inline  # in the command's thread: each phase timed alone

    def report(now: float) -> dict[str, Any]:
        phases = {
            "interpreter_start_ms": _ms(import_start - parent_start),
            "cli_import_ms": _ms(cli_imported - import_start),
            "langgraph_langchain_import_ms": _ms(libraries_imported - cli_imported),
            "project_modules_import_ms": _ms(own_imported - libraries_imported),
            **{f"{name}_ms": _ms(end - start) for name, (start, end) in spans.items()},
        }
        inside_warm = sum(phases.get(f"{name}_ms", 0.0) for name in ("embeddings_load", "memory_open"))
        if "memory_warm_ms" in phases:  # the warm-up's own part: its first searches
            phases["first_searches_ms"] = round(max(0.0, phases.pop("memory_warm_ms") - inside_warm), 1)
        reads = [spans[name] for name in READ_STEP if name in spans]
        phases["bootstrap_reads_span_ms"] = _ms((max(e for _, e in reads) - min(s for s, _ in reads)) if reads else 0.0)
        counted = sum(phases[k] for k in phases if k not in READ_STEP_MS)
        total = now - parent_start
        return {
            "first_model_call_ms": _ms(total), "mode": "sequential",
            "phases_ms": {**phases, "other_ms": _ms(max(0.0, total - counted / 1000))},
        }

    _stop_at_first_call(OfflineReviewerModel, report)
    code = cli_main(["review", contract, "--home", home, "--format", "json"])
    sys.exit(f"the review ended (exit {code}) without a model call")


READ_STEP_MS = tuple(f"{name}_ms" for name in READ_STEP)


def main() -> None:
    parent_start, home, contract = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else "overlapped"
    if mode not in ("overlapped", "sequential"):
        sys.exit(f"unknown mode {mode!r}: overlapped or sequential")
    (overlapped if mode == "overlapped" else sequential)(parent_start, home, contract)


if __name__ == "__main__":
    main()
