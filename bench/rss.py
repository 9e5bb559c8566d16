"""Peak-memory probe: `python -m bench.rss <home> <contract>` runs one memory-on review
through the CLI in this fresh process and prints one JSON line with its peak RSS."""

from __future__ import annotations

import json
import sys

from bench.common import console_script, peak_rss_mb


def main() -> None:
    home, contract = sys.argv[1], sys.argv[2]
    cli_main = console_script()

    after_imports = peak_rss_mb()
    code = cli_main(["review", contract, "--home", home, "--format", "json", "--out", f"{home}/report.json"])
    if code:
        sys.exit(f"the review failed (exit {code})")
    print(json.dumps({"peak_rss_mb": peak_rss_mb(), "after_imports_mb": after_imports}), flush=True)


if __name__ == "__main__":
    main()
