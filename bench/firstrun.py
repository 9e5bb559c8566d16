"""Benchmark 8: a new user's first ten minutes, from a fresh clone to the first report.

Clones this repository's committed HEAD into a temporary folder and runs `make demo` there as a
new user would (the package caches of this machine are what they are: warm if anything installed
these packages before), noting when each step starts from the lines make and the demo print:
the virtualenv, the install of the runtime dependencies, the first report, the end of the demo.
Not part of `bench all`: it installs a whole environment (minutes on a loaded machine) and needs
the package index. The folder is removed afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench.common import REPO

# What marks each milestone in `make demo`'s output (make echoes a command as it starts it).
MARKERS = (
    ("install_started", lambda line: " -m pip install" in line),
    ("install_done", lambda line: line.startswith("touch ") and ".installed" in line),
    # the demo's line for its first contract, printed once that contract's reviews are done
    ("first_report", lambda line: re.match(r"\[1/\d+\] ", line) is not None),
    ("demo_table", lambda line: line.startswith("Same-template reviews in sequence")),
)


def milestones(lines: Iterable[tuple[float, str]]) -> dict[str, float]:
    """Seconds from the start to the first line of each milestone, from (seconds, line) pairs."""
    found: dict[str, float] = {}
    for seconds, line in lines:
        for name, matches in MARKERS:
            if name not in found and matches(line.strip()):
                found[name] = round(seconds, 1)
    return found


def _clone(target: Path) -> str:
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(target)], check=True,
                   capture_output=True, text=True, timeout=300)
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=target, capture_output=True, text=True,
                          check=True).stdout.strip()


def run(*, python: str = "python3", keep: bool = False, log=print) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-firstrun-"))
    try:
        commit = _clone(folder / "repo")
        log(f"firstrun: fresh clone of {commit} in {folder / 'repo'}; make demo ...")
        env = {**os.environ, "CONTRACT_AGENT_HOME": str(folder / "home"), "PYTHONUNBUFFERED": "1",
               "CONTRACT_AGENT_ENV_FILE": "", "COLUMNS": "80"}
        env.pop("VIRTUAL_ENV", None)
        start = time.perf_counter()
        lines: list[tuple[float, str]] = []
        with subprocess.Popen(["make", "demo", f"PYTHON={python}"], cwd=folder / "repo", env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append((time.perf_counter() - start, line.rstrip("\n")))
            code = proc.wait()
        total = time.perf_counter() - start
        if code != 0:
            tail = "\n".join(line for _, line in lines[-15:])
            raise RuntimeError(f"make demo failed ({code}):\n{tail}")
        found = milestones(lines)
        return {
            "commit": commit, "python": python, "seconds_total": round(total, 1), "milestones_s": found,
            "install_s": round(found.get("install_done", 0) - found.get("install_started", 0), 1),
            "first_report_s": found.get("first_report"),
            # pip's notices about this machine's own pip.conf (an index folder that does not exist) are
            # not the project's: counted apart from every other warning line
            "warnings": [line for _, line in lines if "warning" in line.lower() and "is ignored: it is neither" not in line],
            "machine_pip_config_notices": sum("is ignored: it is neither" in line for _, line in lines),
            "note": "wall seconds from `make demo` in a fresh clone; venv and pip install included; "
                    "package caches as this machine has them",
        }
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    print(run(python=sys.argv[1] if len(sys.argv) > 1 else "python3"))
