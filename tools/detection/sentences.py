"""Sentence spans of contract text, robust to legal abbreviations ("Inc.", "U.S.", "Sec.")."""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+(?=[\"“(\[]?[A-Z0-9])")
_ABBREVIATIONS = {
    "inc", "ltd", "co", "corp", "no", "nos", "sec", "secs", "art", "arts", "para", "u.s", "e.g",
    "i.e", "etc", "mr", "mrs", "ms", "dr", "st", "vs", "v", "n.a", "l.p", "l.l.c", "llc", "s.a",
    "b.v", "n.v", "a.g", "p.c", "p.a", "jr", "sr", "fig", "approx", "dept", "min", "max", "ex",
    "cf", "al", "u.k", "a", "b", "c", "d", "e", "f", "g", "h", "i", "ii", "iii", "iv", "vi",
}
_DECIMAL_PREFIX = re.compile(r"(?:^|\s)(?:\d+\.)+$")
MAX_SENTENCE = 1500


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of text[start:end]; lines never share a sentence,
    and over-long runs are cut at semicolons so a quote stays readable."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    line_start = start
    while line_start < end:
        line_end = text.find("\n", line_start, end)
        if line_end == -1:
            line_end = end
        spans.extend(_split_line(text, line_start, line_end))
        line_start = line_end + 1
    return spans


def _split_line(text: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    cursor = start
    segment = text[start:end]
    for m in _BOUNDARY.finditer(segment):
        cut = start + m.start()
        before = text[cursor:cut].rstrip("\"”’')]")
        last_word = before.rsplit(None, 1)[-1].rstrip(".").lower() if before.strip() else ""
        if last_word in _ABBREVIATIONS or _DECIMAL_PREFIX.search(before) or len(before.strip()) < 4:
            continue
        pieces.append((cursor, start + m.end()))
        cursor = start + m.end()
    pieces.append((cursor, end))
    result = []
    for s, e in pieces:
        result.extend(_cut_long(text, s, e))
    return [(s, e) for s, e in (_strip(text, s, e) for s, e in result) if e > s]


def _cut_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if end - start <= MAX_SENTENCE:
        return [(start, end)]
    out, cursor = [], start
    for m in re.finditer(r";\s+", text[start:end]):
        cut = start + m.end()
        if cut - cursor >= 200:
            out.append((cursor, cut))
            cursor = cut
    out.append((cursor, end))
    return out


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
