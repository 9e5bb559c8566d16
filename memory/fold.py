"""Text as memory keeps a heading: folded to the letters it shows, with nothing hidden in it.

A heading is the one piece of a contract's own wording memory keeps (where a clause sat, as the
sectioner read it). Before it is stored it is folded: NFKC, every invisible character (zero-width
characters, bidi controls and isolates, variation selectors, tags: `memory.lookalikes.INVISIBLE`)
removed, and, where the text is Latin or passes for Latin, every non-ASCII look-alike of a Latin
letter or digit written as that letter or digit (the UTS #39 skeleton of the characters outside
ASCII: `memory.skeleton`). So "Lіmіtаtіоn" with Cyrillic і and а is stored as "Limitation", a
right-to-left override cannot reorder what a reader sees, and the instruction screen
(`memory.screen`), which runs on the folded text, reads an order written in look-alike letters as
the order it is.

"Passes for Latin" follows UTS #39's confusable detection: the text mixes Latin letters with
others (mixed-script), or every letter of it has a Latin look-alike (whole-script confusable:
"Сар" in Cyrillic). A heading in another script ("Περιορισμός Ευθύνης", "責任の制限") keeps
its letters: folding it would only garble it.
"""

from __future__ import annotations

import unicodedata

from memory import lookalikes, skeleton

_TABLE: dict[int, str | None] = {code: None for lo, hi in lookalikes.INVISIBLE for code in range(lo, hi + 1)}
_TABLE.update(skeleton.LATIN)


_HIDDEN: dict[int, str | None] = {code: None for lo, hi in lookalikes.INVISIBLE for code in range(lo, hi + 1)}


def passes_for_latin(text: str) -> bool:
    """True when `text` shows Latin letters: it has some, or all its letters look like Latin ones."""
    letters = [c for c in text if c.isalpha()]
    return any(c.isascii() for c in letters) or bool(letters) and all(ord(c) in skeleton.LATIN for c in letters)


def fold(text: str) -> str:
    """`text` NFKC-normalised, without invisible or bidi characters, on one line; where it passes
    for Latin, its look-alike letters written as the Latin ones they show."""
    if not text:
        return ""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_HIDDEN)
        if not text.isascii() and passes_for_latin(text):
            text = text.translate(_TABLE)
    return " ".join(text.split())
