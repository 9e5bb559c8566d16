"""The `contract-review bench` command group: run one benchmark or all of them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

bench_app = typer.Typer(
    help="Benchmarks: memory-driven improvement, bootstrap latency, retrieval quality, compression, "
    "write path, real filings, start-up, the realistic stand-in, every model double (and, on its own, a first run from a fresh clone). Each prints a table and writes <name>.json into the results folder.\n\n"
    "Example: contract-review bench all --out bench_results",
    no_args_is_help=True,
)
# Piped output (make bench | tee) would wrap the wide tables at 80 columns.
console = Console() if sys.stdout.isatty() else Console(width=150)

Out = Annotated[Path, typer.Option("--out", help="results folder (JSON, PNG)")]
Data = Annotated[Path | None, typer.Option(
    "--data", help="bench data folder, kept between runs (default: <CONTRACT_AGENT_HOME>/bench-data)")]
Size = Annotated[str, typer.Option(
    "--size", help="full (the published figures) | tiny (a smoke run) | 1m (bootstrap only: 100k and 1M episodes)")]
DEFAULT_OUT = Path("bench_results")


def _data(data: Path | None) -> Path:
    if data is not None:
        return data
    from agent.settings import Settings

    return Settings().home / "bench-data"


def _one(name: str, out: Path, data: Path | None, size: str) -> None:
    from bench.suite import run_benchmark

    run_benchmark(name, out=out, data=_data(data), size=size, console=console,
                  command=f"contract-review bench {name}" + (f" --size {size}" if size != "full" else ""))


@bench_app.command("all")
def bench_all(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Run every benchmark side by side (what `make bench` runs; under 10 minutes on 2 cores,
    most of it filling the 100k-episode memory the first time; later runs reuse it).

    Example: contract-review bench all --out bench_results
    """
    from bench.suite import run_all

    run_all(out=out, data=_data(data), size=size, console=console)


@bench_app.command("improvement")
def bench_improvement(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Similar contracts in sequence, memory on vs --no-memory: tool calls, tokens, recall; PNG.

    Example: contract-review bench improvement
    """
    _one("improvement", out, data, size)


@bench_app.command("bootstrap")
def bench_bootstrap(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Bootstrap latency at 1k / 10k / 100k episodes, through the vector index and by exact scan,
    vs the 100-newest reference; ANN recall@10; cold start. `--size 1m` measures 100k and 1M
    episodes (cold start at both) and prints how long building the data and the index took.

    Example: contract-review bench bootstrap --size 1m --data /tmp/bench-data
    """
    _one("bootstrap", out, data, size)


@bench_app.command("retrieval")
def bench_retrieval(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Recall@3 and MRR of vector, BM25 and hybrid search on 128 labelled queries.

    Example: contract-review bench retrieval
    """
    _one("retrieval", out, data, size)


@bench_app.command("compression")
def bench_compression(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """A 220-tool-step run with and without working-memory compression.

    Example: contract-review bench compression
    """
    _one("compression", out, data, size)


@bench_app.command("writepath")
def bench_writepath(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Consolidations per second, bytes per 1,000 episodes, peak RSS of one review.

    Example: contract-review bench writepath
    """
    _one("writepath", out, data, size)


@bench_app.command("cuad")
def bench_cuad(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Whole-graph review time of the longest CUAD contract (target < 10 s) and `eval cuad` time.
    Reads ../shared/cuad, or the folder CONTRACT_AGENT_CUAD_DIR names.

    Example: contract-review bench cuad
    """
    _one("cuad", out, data, size)


@bench_app.command("startup")
def bench_startup(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """`python -c pass`, `contract-review --help`, and a review from process start to its first
    model call with 100k episodes on disk (median of 5 each), with where that time goes.

    Example: contract-review bench startup
    """
    _one("startup", out, data, size)


@bench_app.command("aws")
def bench_aws(out: Out = DEFAULT_OUT, size: Size = "full") -> None:
    """AWS bootstrap cost at 1k / 10k / 100k episodes on moto: requests per operation and bytes
    read per bootstrap (botocore event hooks), S3 Vectors top-k vs the partition read. Not part
    of `bench all` (loading 100k episodes into moto takes minutes).

    Example: contract-review bench aws
    """
    _one("aws", out, None, size)


@bench_app.command("firstrun")
def bench_firstrun(out: Out = DEFAULT_OUT) -> None:
    """A fresh clone of the committed HEAD, then `make demo` in it: install time, time to the
    first report, warnings. Not part of `bench all` (it installs a whole environment).

    Example: contract-review bench firstrun
    """
    _one("firstrun", out, None, "full")


@bench_app.command("realistic")
def bench_realistic(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """The whole graph driven by the realistic stand-in (a scripted model that slips like a small
    real one): completion, planted deviations found, extraction and memory on Northwind.

    Example: contract-review bench realistic
    """
    _one("realistic", out, data, size)


@bench_app.command("models")
def bench_models(out: Out = DEFAULT_OUT, data: Data = None, size: Size = "full") -> None:
    """Every model double (the offline reviewer, the realistic stand-in, the batching and terse test
    doubles of bench/doubles) over the same-template sequences, memory off and on: completion,
    clause types recorded, planted deviations found, tool calls and tokens per contract, on/off
    ratios, what memory stored, and how many remembered places were wrong.

    Example: contract-review bench models
    """
    _one("models", out, data, size)
