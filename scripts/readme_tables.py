"""Write README.md's generated tables from the code that prints them, or check that they match.

    python scripts/readme_tables.py           # rewrite every generated table in README.md
    python scripts/readme_tables.py --check   # exit 1, naming the tables that differ

A generated table sits between `<!-- generated: NAME (scripts/readme_tables.py) -->` and
`<!-- end generated: NAME -->`. The tables:

- `demo`: what `contract-review demo --format markdown` prints (the demo run in full, offline
  and deterministic, on a fresh data folder);
- `configuration`: `contract-review config --reference`, built from `agent.settings.Settings`,
  so a new setting appears without anyone listing it.

tests/test_readme_tables.py fails when README.md differs from what this writes.
"""

from __future__ import annotations

import argparse
import io
import logging
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def demo_table() -> str:
    from rich.console import Console

    from cli.demo import run_demo

    buffer = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="readme-demo-") as home:
        run_demo(Console(file=buffer), home=Path(home) / "demo", show_reports=False, fmt="markdown", quiet=True)
    return buffer.getvalue()


def configuration_table() -> str:
    from agent.settings_doc import reference_table

    return reference_table()


TABLES: dict[str, Callable[[], str]] = {"demo": demo_table, "configuration": configuration_table}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- generated: {name} \(scripts/readme_tables\.py\) -->\n)(.*?)(<!-- end generated: {name} -->)", re.S)


def section(text: str, name: str) -> str:
    """The generated table `name` as it stands in `text` (README.md)."""
    match = _block(name).search(text)
    if match is None:
        raise ValueError(f"README.md has no generated block {name!r}")
    return match.group(2)


def replace(text: str, name: str, table: str) -> str:
    section(text, name)  # it must exist
    return _block(name).sub(lambda m: m.group(1) + table + m.group(3), text, count=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table differs")
    parser.add_argument("names", nargs="*", help=f"tables to write or check: {', '.join(TABLES)} (default: all)")
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)  # the libraries' chatter (bm25s, presidio) is not a README's business
    unknown = sorted(set(args.names) - set(TABLES))
    if unknown:
        parser.error(f"unknown table(s) {', '.join(unknown)}: use {', '.join(TABLES)}")
    text = README.read_text(encoding="utf-8")
    differ = []
    for name in args.names or TABLES:
        table = TABLES[name]()
        if section(text, name) != table:
            differ.append(name)
            text = replace(text, name, table)
    if args.check:
        if differ:
            print(f"README.md tables out of date: {', '.join(differ)} (run python scripts/readme_tables.py)")
        return 1 if differ else 0
    README.write_text(text, encoding="utf-8")
    print(f"README.md: rewrote {', '.join(differ) or 'nothing (up to date)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
