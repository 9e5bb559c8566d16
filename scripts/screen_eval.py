"""Measure the instruction screen (memory.screen; docs/SECURITY.md "The instruction screen").

    python scripts/screen_eval.py            # recall on the hostile set, false positives on the contracts
    python scripts/screen_eval.py --spans    # also print every span marked in the contracts

Recall: each text of tests/security/data/hostile_orders.jsonl (and, apart, of the held-out set
hostile_orders_heldout.jsonl, written after the screen was finished) (orders in many languages and
scripts, look-alike letters, invisible and bidi characters, encodings, links, page breaks,
status claims, fake report lines; written for this, none a copy of an issue's example) is put
where memory keeps contract words (a heading between two contract lines) and screened; it
passes when none of its own words survive and the contract lines around it do. False
positives: every span the screen marks in the 40 CUAD contracts (../shared/cuad) and the sample
contracts; on real contracts each is a false positive, except the orders planted in
hostile_01. Also the time per contract.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "security" / "data"
HOSTILE = DATA / "hostile_orders.jsonl"
# written after the screen was finished, as a check on what it had not seen (first run: 38/40)
HELD_OUT = DATA / "hostile_orders_heldout.jsonl"
BEFORE = "9.1 The Supplier shall deliver the Goods to the Site."
AFTER = "9.2 The Buyer shall pay each invoice within sixty days."


def hostile_set(path: Path = HOSTILE) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def survivors(screened: str, words: list[str]) -> list[str]:
    """The attacker's `words` still readable in `screened` (compared folded and case-blind)."""
    from memory.fold import fold

    def flat(text: str) -> str:
        return " ".join(fold(text).casefold().split())

    seen = flat(screened)
    return [w for w in words if flat(w) in seen]


def recall(path: Path = HOSTILE) -> tuple[int, int, list[dict]]:
    from memory.screen import screen_text

    entries = hostile_set(path)
    missed = []
    for entry in entries:
        screened = screen_text(f"{BEFORE}\n{entry['text']}\n{AFTER}")
        kept = "deliver the Goods" in screened and "pay each invoice" in screened
        left = survivors(screened, entry["words"])
        if left or not kept:
            missed.append({**entry, "left": left, "context_kept": kept, "screened": screened})
    return len(entries) - len(missed), len(entries), missed


def contracts() -> list[Path]:
    files = sorted((ROOT.parent / "shared" / "cuad" / "contracts").glob("*.txt"))
    return files + sorted((ROOT / "sample_contracts").glob("*.txt"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spans", action="store_true", help="print every span marked in the contracts")
    args = parser.parse_args()
    from memory.screen import _spans

    caught, total, missed = recall()
    entries = hostile_set()
    print(f"hostile texts cut: {caught}/{total} ({len({e['lang'] for e in entries})} languages and encodings, "
          f"{len({e['kind'] for e in entries})} kinds)")
    held, held_total, held_missed = recall(HELD_OUT)
    print(f"held-out hostile texts cut: {held}/{held_total}")
    for entry in [*missed, *held_missed]:
        print(f"  missed [{entry['lang']}/{entry['kind']}] left {entry['left']}"
              f"{'' if entry['context_kept'] else ' (contract lines cut too)'}: {entry['screened']!r}")
    files = contracts()
    marked: Counter[str] = Counter()
    chars = 0
    started = time.perf_counter()
    for path in files:
        text = path.read_text(errors="replace")
        chars += len(text)
        for start, end, label in _spans(text):
            marked[path.stem] += 1
            if args.spans or not path.stem.startswith("hostile"):
                print(f"  {label} {path.stem[:28]:28} | {' '.join(text[max(0, start - 30):end].split())[:170]}")
    seconds = time.perf_counter() - started
    print(f"{len(files)} contracts, {chars:,} characters, {seconds:.1f} s ({1000 * seconds / len(files):.0f} ms a "
          f"contract): {sum(marked.values())} spans marked, {sum(n for s, n in marked.items() if not s.startswith('hostile'))}"
          " outside the hostile samples")


if __name__ == "__main__":
    main()
