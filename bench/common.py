"""What every benchmark shares: result files, machine description, percentiles, peak memory."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.errors import ConfigurationError

REPO = Path(__file__).resolve().parents[1]
DEFAULT_RESULTS = REPO / "bench_results"


def machine() -> dict[str, Any]:
    """Where the figures came from (CPU model, cores, memory, Python, platform)."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        memory_gb = round(pages * page_size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gb": memory_gb, "load_average_1_5_15": load,
        "python": platform.python_version(), "platform": platform.platform(),
    }


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def write_result(out_dir: Path, name: str, figures: dict[str, Any], *, command: str, seconds: float) -> Path:
    """`<out_dir>/<name>.json`: the figures plus when, where and how they were made."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(f"cannot create the results folder {out_dir}: {exc}") from exc
    document = {
        "benchmark": name,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "seconds": round(seconds, 2),
        "commit": git_commit(),
        "machine": machine(),
        **figures,
    }
    path = out_dir / f"{name}.json"
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return path


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    """p50, p95, max and mean of a list of millisecond timings (nearest-rank percentiles)."""
    if not samples_ms:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "max": 0.0, "mean": 0.0}
    ordered = sorted(samples_ms)

    def rank(p: float) -> float:
        index = max(0, min(len(ordered) - 1, -(-len(ordered) * p // 100) - 1))
        return ordered[int(index)]

    return {"n": len(ordered), "p50": round(rank(50), 3), "p95": round(rank(95), 3),
            "max": round(ordered[-1], 3), "mean": round(statistics.fmean(ordered), 3)}


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB. On Linux from VmHWM (getrusage's
    ru_maxrss survives exec, so a child started by a large parent would report the parent's peak)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 1024), 1)


class Stopwatch:
    """`with Stopwatch() as sw: ...` then `sw.ms` (milliseconds, perf_counter)."""

    def __enter__(self) -> Stopwatch:
        self._start = time.perf_counter()
        self.ms = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.ms = (time.perf_counter() - self._start) * 1000


def verdict(value: float, target: float, *, higher_is_better: bool = False) -> str:
    ok = value >= target if higher_is_better else value <= target
    return "met" if ok else "MISSED"


def console_script(name: str = "contract-review"):
    """The installed console script's entry point (what a user runs), loaded by name: the probes
    that time a fresh CLI process start it this way, so the benchmarks never import the CLI."""
    from importlib.metadata import entry_points

    found = entry_points(group="console_scripts", name=name)
    if not found:
        raise RuntimeError(f"the {name!r} console script is not installed: pip install -e .")
    return next(iter(found)).load()
