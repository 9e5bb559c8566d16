"""Cold start probe: `python -m bench.cold <parent start epoch> <home> <contract>`.

Runs `contract-review review <contract> --home <home>` in this fresh process and stops it at the
first model call, printing one JSON line: the milliseconds since the parent started the process,
each phase on the way (whose time it is: the interpreter, the CLI, the LangGraph/LangChain
libraries, this project's modules, reading the contract, building the graph, the bootstrap
memory reads), and the top-level packages loaded by then (`loaded`: what a test checks to keep
the PII scrubber, BM25 and plotting off this path).

The libraries and the project's graph modules are imported by the probe before the command runs
(the command finds them imported): the same work as the CLI's own on-demand imports, timed apart.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import console_script

# Phases timed around a function (first call only), by (module, attribute).
WRAPPED = {
    "contract_read": ("tools.contract", "load_contract"),  # graphs.runner imports it when a review starts
    "graph_build": ("graphs.runner", "build_graph"),
    "embeddings_load": ("agent.models", "load_embeddings"),
    "memory_open": ("memory.backends", "open_memory"),
    "episode_search": ("memory.episodic", "recall"),
    "fact_search": ("memory.semantic", "recall"),
}
# These run inside the bootstrap's read step (read_memory): reported one by one, counted once as a span.
READ_STEP = ("embeddings_load", "memory_open", "episode_search", "fact_search")


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


def main() -> None:
    parent_start, home, contract = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    import_start = time.time()
    cli_main = console_script()
    cli_imported = time.time()
    import langchain_core.language_models  # noqa: F401  (the libraries every review needs)
    import langgraph.graph  # noqa: F401
    import langgraph.prebuilt  # noqa: F401

    libraries_imported = time.time()
    import importlib

    for module in ("graphs.runner", "tools", "tools.contract", "agent.models", "memory.backends", "memory.episodic",
                   "memory.semantic"):
        importlib.import_module(module)
    from agent.offline.model import OfflineReviewerModel
    from tools.detection.rules import DETECTORS

    own_imported = time.time()
    spans: dict[str, tuple[float, float]] = {}
    for name, (module, attribute) in WRAPPED.items():
        owner = sys.modules[module]
        setattr(owner, attribute, _timed(spans, name, getattr(owner, attribute)))
    original = OfflineReviewerModel._generate

    def first_call(self, messages, *args, **kwargs):  # noqa: ANN001 - same signature as the model's
        now = time.time()
        phases = {
            "interpreter_start_ms": _ms(import_start - parent_start),
            "cli_import_ms": _ms(cli_imported - import_start),
            "langgraph_langchain_import_ms": _ms(libraries_imported - cli_imported),
            "project_modules_import_ms": _ms(own_imported - libraries_imported),
            **{f"{name}_ms": _ms(end - start) for name, (start, end) in spans.items()},
        }
        reads = [spans[name] for name in READ_STEP if name in spans]
        read_span = (max(end for _, end in reads) - min(start for start, _ in reads)) if reads else 0.0
        phases["bootstrap_reads_span_ms"] = _ms(read_span)
        counted = sum(phases[k] for k in ("interpreter_start_ms", "cli_import_ms", "langgraph_langchain_import_ms",
                                          "project_modules_import_ms")) / 1000
        counted += sum(end - start for name, (start, end) in spans.items() if name not in READ_STEP) + read_span
        total = now - parent_start
        print(json.dumps({
            "first_model_call_ms": _ms(total),
            # kept for earlier readers of this line: the CLI with what its review command imports
            "cli_import_ms": _ms(own_imported - import_start),
            "cli_to_first_call_ms": _ms(now - own_imported),
            "phases_ms": {**phases, "other_ms": _ms(max(0.0, total - counted))},
            "loaded": sorted({name.partition(".")[0] for name in sys.modules if not name.startswith("_")}),
            # clause detectors whose patterns were compiled by then (they compile on first use)
            "detectors_compiled": sum("rules" in vars(d) for d in DETECTORS.values()),
        }), flush=True)
        os._exit(0)  # stop here: the rest of the review is not part of the cold start
        return original(self, messages, *args, **kwargs)

    OfflineReviewerModel._generate = first_call
    code = cli_main(["review", contract, "--home", home, "--format", "json"])
    sys.exit(f"the review ended (exit {code}) without a model call")


if __name__ == "__main__":
    main()
