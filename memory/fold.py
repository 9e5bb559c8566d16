"""Text as memory keeps a heading: folded to the letters it shows, with nothing hidden in it.

A heading is the one piece of a contract's own wording memory keeps (where a clause sat, as the
sectioner read it). Before it is stored it is folded: NFKC, every invisible character (zero-width
characters, bidi controls and isolates, variation selectors, tags: `memory.lookalikes.INVISIBLE`)
removed, and, where the text is Latin or passes for Latin, every non-ASCII look-alike of a Latin
letter or digit written as that letter or digit (the UTS #39 skeleton of the characters outside
ASCII: `memory.lookalikes.LATIN`), word by word. It is the one fold: the instruction screen
(`memory.screen.screen_text`) folds what it keeps with it, and reads its look-alike view
through the same table. So "Lіmіtаtіоn" with Cyrillic і and а is stored as "Limitation", a
right-to-left override cannot reorder what a reader sees, and the instruction screen
(`memory.screen`), which runs on the folded text, reads an order written in look-alike letters as
the order it is.

"Passes for Latin" follows UTS #39's confusable detection: the text mixes Latin letters with
others (mixed-script), or every letter of it has a Latin look-alike (whole-script confusable:
"Сар" in Cyrillic). A heading in another script ("Περιορισμός Ευθύνης", "責任の制限") keeps
its letters: folding it would only garble it.
"""

from __future__ import annotations

import re
import unicodedata

from memory import lookalikes

_HIDDEN: dict[int, str | None] = {code: None for lo, hi in lookalikes.INVISIBLE for code in range(lo, hi + 1)}
_WORD = re.compile(r"[^\W_]+")
MOSTLY_LATIN = 0.6  # a text this much in Latin letters reads its all-look-alike words as Latin too ("Сар")


def _lookalikes_only(word: str) -> bool:
    foreign = [c for c in word if not c.isascii()]
    return bool(foreign) and all(ord(c) in lookalikes.LATIN for c in foreign)


def _latin(word: str) -> str:
    return "".join(lookalikes.LATIN.get(ord(c), c) for c in word)


def passes_for_latin(text: str) -> bool:
    """True when `text` shows Latin letters: it has some, or all its letters look like Latin ones."""
    letters = [c for c in text if c.isalpha()]
    return any(c.isascii() for c in letters) or bool(letters) and all(ord(c) in lookalikes.LATIN for c in letters)


def fold_letters(text: str) -> str:
    """`text` NFKC-normalised, without invisible or bidi characters, its blanks and lines as they
    are; its look-alike letters written as the Latin ones they show where the text passes for
    Latin: in a word mixing Latin letters and look-alikes ("Маrk"), in a text every letter of
    which is a look-alike ("Сар Аѕ"), and in a word of look-alikes only within a text mostly in
    Latin ("the Сар"). Another script's word keeps its letters ("ООО Ромашка", "Περιορισμός")."""
    if not text or text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text).translate(_HIDDEN)
    if text.isascii() or not passes_for_latin(text):
        return text
    letters = [c for c in text if c.isalpha()]
    latin_share = sum(c.isascii() for c in letters) / len(letters)
    every = all(ord(c) in lookalikes.LATIN for c in letters if not c.isascii())
    return _WORD.sub(lambda m: _latin(m.group()) if _lookalikes_only(m.group()) and (
        every or latin_share >= MOSTLY_LATIN or any(c.isascii() and c.isalpha() for c in m.group()))
        else m.group(), text)


def fold(text: str) -> str:
    """`fold_letters(text)` on one line, its blanks collapsed: what a stored heading is."""
    return " ".join(fold_letters(text).split()) if text else ""
