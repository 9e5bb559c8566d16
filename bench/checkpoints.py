"""Working memory's footprint (issue 34): N COMPLETED reviews with the SQLite checkpointer.

    python -m bench.checkpoints --reviews 20 [--keep-memory]

Reviews the sample contracts in turn (offline reviewer, memory on, one fresh data folder) with
`CONTRACT_AGENT_CHECKPOINTER=sqlite` and prints: the wall time of each review (median and
total), the size of `checkpoints.sqlite` (with its WAL) after the last one, and the checkpoint
rows left. It only uses `Reviewer` and `open_checkpointer`, so the same file run against an
older checkout measures that checkout side by side (PYTHONPATH=<old tree>).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(reviews: int, home: Path) -> dict[str, float]:
    import sqlite3

    from agent.settings import Settings
    from graphs.runner import Reviewer, open_checkpointer

    contracts = sorted(p for p in (REPO / "sample_contracts").iterdir() if p.suffix in (".txt", ".pdf"))
    settings = Settings(home=home, checkpointer="sqlite")
    walls = []
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver)
        for i in range(reviews):
            start = time.perf_counter()
            reviewer.review_path(contracts[i % len(contracts)], thread_id=f"bench-{i}")
            walls.append(time.perf_counter() - start)
    path = settings.checkpoint_path
    size = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0]
    return {"reviews": reviews, "median_s": statistics.median(walls), "total_s": sum(walls),
            "file_bytes": size, "checkpoint_rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-checkpoints-") as folder:
        figures = run(args.reviews, Path(folder) / "home")
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    print(f"{figures['reviews']} reviews: median {figures['median_s']:.2f} s, total {figures['total_s']:.1f} s; "
          f"checkpoints.sqlite {figures['file_bytes']:,} bytes, {figures['checkpoint_rows']} checkpoint rows "
          f"(load {' '.join(load)})")


if __name__ == "__main__":
    main()
