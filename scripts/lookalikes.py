"""Write memory/lookalikes.py: the characters the memory block's neutraliser folds, from Unicode's own data.

    python scripts/lookalikes.py          # rewrite memory/lookalikes.py
    python scripts/lookalikes.py --check  # exit 1 if it is out of date (tests/security runs this)

Nothing is picked by hand. Three sources, each over every code point Python knows:
- invisible characters: Unicode's default-ignorable code points that a reader cannot see
  (format characters, variation selectors, Hangul fillers, the combining grapheme joiner,
  Mongolian free variation selectors, tags), from `unicodedata` categories and the ranges
  DerivedCoreProperties.txt lists;
- look-alikes of `<` and `>`: every symbol or punctuation mark whose name says it is a
  sideways angle bracket, chevron, arrowhead, pointing angle or guillemet, or a less-than /
  greater-than sign (doubled when the name says double or "much"), plus every character
  Unicode's confusables list (UTS #39, via the confusable-homoglyphs package) maps to `<` or `>`;
- look-alikes of the letters of the marker word: every character the confusables list maps
  to one of them (Cyrillic М, Greek Μ, full-width Ｍ ...), so the word is found however it is
  spelled;
- the skeleton (UTS #39) of every Latin letter and digit (LATIN): each non-ASCII character the
  confusables list maps to an ASCII letter or digit (Cyrillic а -> a, Greek Ο -> O, Cherokee
  Ꭼ -> E ...), after NFKC (full-width and mathematical letters are NFKC's already). ASCII letters
  stay as written, so a stored heading still reads as written ("m" is not folded to "rn"); where
  the list gives a lower-case "l" for an upper-case letter (Greek Ι, Cyrillic І), the capital
  "I" is kept. memory/fold.py folds stored headings with it and the instruction screen reads
  "Аlwауѕ" as "always" with it.

The result is a plain module (a few hundred entries) so the neutraliser imports it in a
millisecond instead of parsing the confusables data (a second) in every run.
"""

from __future__ import annotations

import pprint
import re
import sys
import unicodedata
from pathlib import Path

from generated import write_or_check

TARGET = Path(__file__).resolve().parents[1] / "memory" / "lookalikes.py"
MARKER_WORD = "memory"  # memory.block's marker word; its letters' look-alikes are listed
# what a name says when the character is drawn as a sideways angle: brackets, quotation marks,
# chevrons, arrowheads, sideways-pointing triangles and pointers, less-than and greater-than signs
_ANGLE_NAME = re.compile(r"\b(?:LESS-THAN|GREATER-THAN|ANGLE BRACKET|ANGLE QUOTATION|CHEVRON|ARROWHEAD|GUILLEMET"
                         r"|(?:LEFT|RIGHT)-POINTING (?:[A-Z]+ )*?(?:ANGLE|TRIANGLE|POINTER))\b")
# Default_Ignorable_Code_Point beyond category Cf (DerivedCoreProperties.txt)
_IGNORABLE_RANGES = [(0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
                     (0xE0000, 0xE0FFF)]


def _invisible(code: int) -> bool:
    if any(lo <= code <= hi for lo, hi in _IGNORABLE_RANGES):
        return True
    return unicodedata.category(chr(code)) == "Cf"


def _bracket_by_name(char: str) -> str | None:
    """'<' or '>' (doubled for a double one) when the character's name says it points sideways."""
    if unicodedata.category(char)[0] not in "PS":
        return None
    name = unicodedata.name(char, "")
    if not _ANGLE_NAME.search(name) or "EQUAL" in name:
        return None
    left, right = "LEFT" in name or "LESS" in name, "RIGHT" in name or "GREATER" in name
    if left == right:  # up, down, both ways, or no direction: not a bracket look-alike
        return None
    return ("<" if left else ">") * (2 if "DOUBLE" in name or "MUCH" in name else 1)


def _ranges(codes: list[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive (first, last) ranges."""
    out: list[tuple[int, int]] = []
    for code in codes:
        if out and out[-1][1] == code - 1:
            out[-1] = (out[-1][0], code)
        else:
            out.append((code, code))
    return out


def build() -> tuple[list[tuple[int, int]], dict[int, str], dict[int, str]]:
    """(INVISIBLE, BRACKETS, LETTERS): ranges of invisible code points; bracket look-alikes ->
    `<`/`>`; look-alikes of the marker word's letters -> the lower-case ASCII letter."""
    from confusable_homoglyphs.confusables import confusables_data

    invisible: list[int] = []
    fold: dict[int, str] = {}
    for code in range(0x80, sys.maxunicode + 1):
        char = chr(code)
        if _invisible(code):
            invisible.append(code)
        elif (bracket := _bracket_by_name(char)) is not None:
            fold[code] = bracket
    letters: dict[int, str] = {}
    wanted = set(MARKER_WORD) | set(MARKER_WORD.upper())
    for char, lookalikes in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        for entry in lookalikes:
            if entry["c"] in ("<", ">") and not _invisible(ord(char)):
                fold.setdefault(ord(char), entry["c"])
            elif entry["c"] in wanted:
                letters[ord(char)] = entry["c"].lower()
    # NFKC can turn a character into a bracket (full-width ＜, small ﹤): the neutraliser folds
    # after NFKC, so those need no entry, but a compatibility form of a letter does (Ｍ -> M).
    for code in range(0x80, sys.maxunicode + 1):
        folded = unicodedata.normalize("NFKC", chr(code))
        if len(folded) == 1 and folded in wanted:
            letters.setdefault(code, folded.lower())
    return _ranges(invisible), dict(sorted(fold.items())), dict(sorted(letters.items()))


def latin() -> dict[int, str]:
    """LATIN: each non-ASCII look-alike of an ASCII letter or digit -> that letter or digit."""
    from confusable_homoglyphs.confusables import confusables_data

    out: dict[int, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        folded = unicodedata.normalize("NFKC", char)
        if folded != char and folded.isascii():
            continue  # NFKC already writes it in ASCII
        targets = [e["c"] for e in entries if e["c"].isascii() and e["c"].isalnum()]
        if not targets:
            continue
        target = targets[0]
        if target == "l" and unicodedata.category(char) == "Lu":
            target = "I"
        out[ord(char)] = target
    return dict(sorted(out.items()))


def render() -> str:
    invisible, brackets, letters = build()
    return (
        '"""Generated by scripts/lookalikes.py from Unicode data (unicodedata '
        f'{unicodedata.unidata_version} and the UTS #39 confusables list): do not edit.\n\n'
        "INVISIBLE: inclusive ranges of default-ignorable code points. BRACKETS: look-alikes of '<'\n"
        "and '>' -> '<' / '>' (doubled for a double one). LETTERS: look-alikes of the letters of\n"
        f"{MARKER_WORD!r} -> that letter. LATIN: each non-ASCII look-alike of an ASCII letter or digit\n"
        "-> that letter or digit (the skeleton of UTS #39 outside ASCII).\n"
        '"""\n\n'
        f"UNIDATA_VERSION = {unicodedata.unidata_version!r}\n"
        f"MARKER_WORD = {MARKER_WORD!r}\n\n"
        f"INVISIBLE: list[tuple[int, int]] = {pprint.pformat(invisible, width=110, compact=True)}\n\n"
        f"BRACKETS: dict[int, str] = {pprint.pformat(brackets, width=110, compact=True)}\n\n"
        f"LETTERS: dict[int, str] = {pprint.pformat(letters, width=110, compact=True)}\n\n"
        f"LATIN: dict[int, str] = {pprint.pformat(latin(), width=110, compact=True)}\n"
    )


def main(argv: list[str]) -> int:
    return write_or_check(TARGET, render(), argv, script="lookalikes.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
