"""Cold start probe: `python -m bench.cold <parent start epoch> <home> <contract>`.

Runs `contract-review review <contract> --home <home>` in this fresh process and stops it at the
first model call, printing one JSON line with the milliseconds since the parent started the
process (and since this interpreter began importing the CLI), and the top-level packages loaded
by then (`loaded`: what a test checks to keep the PII scrubber, BM25 and plotting off this path).
"""

from __future__ import annotations

import json
import os
import sys
import time

from bench.common import console_script


def main() -> None:
    parent_start, home, contract = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    import_start = time.time()
    from agent.offline.model import OfflineReviewerModel
    cli_main = console_script()

    imported = time.time()
    original = OfflineReviewerModel._generate

    def first_call(self, messages, *args, **kwargs):  # noqa: ANN001 - same signature as the model's
        now = time.time()
        print(json.dumps({
            "first_model_call_ms": round((now - parent_start) * 1000, 1),
            "interpreter_start_ms": round((import_start - parent_start) * 1000, 1),
            "cli_import_ms": round((imported - import_start) * 1000, 1),
            "cli_to_first_call_ms": round((now - imported) * 1000, 1),
            "loaded": sorted({name.partition(".")[0] for name in sys.modules if not name.startswith("_")}),
        }), flush=True)
        os._exit(0)  # stop here: the rest of the review is not part of the cold start
        return original(self, messages, *args, **kwargs)

    OfflineReviewerModel._generate = first_call
    code = cli_main(["review", contract, "--home", home, "--format", "json"])
    sys.exit(f"the review ended (exit {code}) without a model call")


if __name__ == "__main__":
    main()
