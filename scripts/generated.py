"""Files the scripts here write from a source of record: write them, or check them (`--check`).

    from generated import write_or_check      # scripts run as `python scripts/NAME.py`
"""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(target: Path, text: str, argv: list[str], *, script: str, done: str = "") -> int:
    """With `--check` in argv: exit status 1 (and a line saying how to refresh it) when `target`
    differs from `text`; otherwise write `text` to `target`, printing `done` if given."""
    if "--check" in argv:
        if target.read_text(encoding="utf-8") != text:
            print(f"{target} is out of date: run python scripts/{script}", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    if done:
        print(done)
    return 0
