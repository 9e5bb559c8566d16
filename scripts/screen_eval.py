"""Measure the instruction screen (memory.screen; docs/SECURITY.md "The instruction screen").

    python scripts/screen_eval.py

Prints how many of the hostile texts of tests/security/test_security_injection.py (written for
the test: paraphrases, other languages, split lines, zero-width and full-width letters) are cut,
and every span the screen marks in the CUAD contracts (../shared/cuad) and sample_contracts: on
real contracts each is a false positive, except the orders planted in hostile_01.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from memory.screen import _spans, has_instruction
    from tests.security.test_security_injection import PARAPHRASES

    missed = [text for text in PARAPHRASES if not has_instruction(text)]
    print(f"hostile texts cut: {len(PARAPHRASES) - len(missed)}/{len(PARAPHRASES)}")
    for text in missed:
        print(f"  missed: {text!r}")
    files = sorted((ROOT.parent / "shared" / "cuad" / "contracts").glob("*.txt"))
    files += sorted((ROOT / "sample_contracts").glob("*.txt"))
    marked, chars = 0, 0
    for path in files:
        text = path.read_text(errors="replace")
        chars += len(text)
        for start, end in _spans(text):
            marked += 1
            print(f"  {path.stem[:32]:32} | {' '.join(text[max(0, start - 30):end].split())[:160]}")
    print(f"{len(files)} contracts, {chars:,} characters: {marked} spans marked")


if __name__ == "__main__":
    main()
