"""Text normalisation for contracts: one clean paragraph per line, page furniture removed.

Real filings (EDGAR exhibits, PDF extractions) carry running headers and footers, page
numbers, lines broken at the layout width, words hyphenated across lines, and sentences
split by page breaks. `normalise_text` undoes all of that while keeping the wording
(including `[***]` redactions) exactly as written, so quotes taken from the result are
verbatim contract language.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from tools.sections import caps_title_line, family_heading, numbered_heading, roman_to_int

# "- 3 -", "Page 4 of 9", "iv", "12." and "- 1 1 -" (digits spaced out by the extraction)
_PAGE_NUMBER = re.compile(
    r"^(?:[-–—_]*\s*)?(?:page\s+)?(?:\d(?: ?\d){0,3}|[ivxlc]{1,6})(?:\s+of\s+\d{1,4})?\.?(?:\s*[-–—_]*)?$",
    re.IGNORECASE,
)
# Some filings flatten each page into one line and keep the layout's line breaks as runs of
# spaces: "- 2 -   TELKOM CONTRACT No. 076C/01   1.     RECORDAL   It is recorded that:".
# Such a run becomes a line break again, except right after a clause number ("1.     RECORDAL").
_LAYOUT_BREAK = re.compile(r"(?<![ \t\u00a0])(?<!\d\.)[ \t\u00a0]{3,}(?=\S)")
# Clause numbers spaced out by the extraction: "2. 3. 8." -> "2.3.8."
_SPACED_NUMBER = re.compile(r"^(\d{1,3}\.(?: \d{1,3}\.)+)(?=\s)")
# "1.DGT shall pay ...": a clause number glued to its first word.
_GLUED_NUMBER = re.compile(r"^(\d{1,2}\.)(?=[A-Z][A-Za-z])")
# "3 8. LIABILITY": a page number left in front of the clause heading that follows it on the line
_STRAY_PAGE_NUMBER = re.compile(r"^\d{1,3} (?=\d{1,2}\.\s+[A-Z]{3,}\b)")
_PAGE_LABEL = re.compile(r"^page\s+\d{1,4}(?:\s+of\s+\d{1,4})?\b.{0,60}$", re.IGNORECASE)
# A clause number printed in a column of its own: "4.1     Fees. Buyer shall ..." (the spaces after it
# are no line break), "4.1" alone on its line above "Fees", or an article number without a dot
# ("6       PRICE.", or "9 6       PRICE." after page 9's number) that a page number standing before the
# next page's first line resembles.
_BARE_SUBNUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})+\.?$")
_BARE_ARTICLE = re.compile(r"^(?:\d{1,3} )?(\d{1,3})$")
# A ruled line of a table or a page ("--------", "=====", "|-----+-----|"): it carries no wording, and
# joined to the cells after it, it opened quotes ("------ Annual fee for ...").
_RULE = re.compile(r"^(?=.*[-=–—]{5})[-=–—|+ ]+$")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b\u3000]+")
_HYPHENATED_END = re.compile(r"[A-Za-z]{2}-$")
# A numbered heading run into the previous paragraph, as some filings print them:
# "... payment. 6.1 Payment Terms. JRVS shall ..." or "... hereto. 7. WARRANTY 7.1 ...".
_INLINE_HEADING = re.compile(
    r"(?<=[.;:]) (?=(?:\d{1,2}\.\d{1,2}(?:\.\d{1,2})?\s+[A-Z][A-Za-z]+(?:\s+(?:[A-Z&][A-Za-z]*|of|and|for|the|to|in|on|or)){0,6}\.\s)"
    r"|\d{1,2}\.\s+[A-Z][A-Z,;&/ -]{3,60}\s+\d{1,2}\.\d{1,2}\s)"
    r"|(?<=[A-Z]{3}) (?=\d{1,2}\.\d{1,2}\s+[A-Z][a-z])"  # "TERMS OF PAYMENT 6.1 Payment Terms"
    r"|(?<=[.;:]) (?=\d{1,2}\.\d{1,2}\.?\s+(?:[A-Z][a-z]|[A-Z]{2,}\b))"  # "... Services. 1.2. This Agreement ..."
    r"|(?<=[.;:]) (?=\d{1,2}\.0\s+[A-Z][a-z]+(?:\s+[A-Za-z]+){0,4}\s+\d{1,2}\.1\.?\s)"  # "... Addenda. 2.0 Payment 2.1 ..."
    # an unnumbered heading in capitals with a colon: "... each month. PAYMENT TERMS: The Parties agree ..."
    r"|(?<=[.;]) (?=(?-i:[A-Z][A-Z'’&/-]{2,}(?:[ ,]+[A-Z][A-Z'’&/-]*){0,6}):\s+[A-Z(\"“])"
)
# "2.0 Payment 2.1 Client will pay": the first clause of a "N.0 Title" article, run into its title
_ZERO_HEADING = re.compile(r"(\b\d{1,2}\.0 [A-Z][A-Za-z]+(?: [A-Za-z]+){0,4}?) (?=\d{1,2}\.1\.? [A-Z])")
_TERMINAL = tuple('.:;!?)]"\'”’')
# A line ending in a word no sentence ends with ("... a new agreement with", "... the provisions of")
# is unfinished even when a page break and a capitalised word follow.
_OPEN_END = re.compile(
    r"\b(?:with|of|the|and|or|to|in|by|for|a|an|that|which|between|from|under|upon|on|at|as|than|its|their|such"
    r"|any|all|shall|will|may|is|are|be)$"
)

# A line that opens a new block even without a blank line before it: a numbered heading,
# a list item such as "(a)" or "(iv)", "Section 4", "ARTICLE II", a bullet.
_BLOCK_START = re.compile(
    r"^(?:"
    r"(?:ARTICLE|Article|SECTION|Section|Schedule|SCHEDULE|Exhibit|EXHIBIT|Annex|ANNEX)\s+[\dIVXLC]+"
    r"|\(?[a-zA-Z]\)\s"
    r"|\(?[ivxIVX]{1,5}\)\s"
    r"|\d{1,3}(?:\.\d{1,3})*\.?\s"
    r"|[•\-*·]\s"
    r")"
)


# "Section 8.3, Reseller shall ..." or "Section 4 of the Master Agreement": a cross-reference that
# starts a line because the sentence wrapped there, not a heading
_REFERENCE_START = re.compile(
    r"^(?:Section|Article|Schedule|Exhibit|Annex|Paragraph|Clause)s?\s+[\dIVXLC]+(?:\.\d+)*(?:\([a-z0-9]+\))*"
    r"(?:,|;|\s+(?:of|and|or|to|hereof|above|below|herein)\b|\s+[a-z])"
)


def _furniture_keys(lines: list[str]) -> set[str]:
    """Short lines that recur on many pages (running headers/footers), digits ignored."""
    counts = Counter(_shape(line) for line in lines if 3 <= len(line) <= 100)
    return {
        key
        for key, n in counts.items()
        if n >= 3 and "***" not in key and not _BLOCK_START.match(key) and any(c.isalpha() for c in key)
        and not key.endswith(":") and key.lower() not in {"by:", "name:", "title:", "date:"}
    }


def _shape(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip())


def _is_page_number(line: str) -> bool:
    return bool(_PAGE_NUMBER.match(line) or _PAGE_LABEL.match(line))


def _should_join(previous: str, following: str, *, blank_between: bool, same_line: bool = False) -> bool:
    """Whether `following` continues the sentence that `previous` left open (`same_line`: both
    are pieces of one flattened layout line)."""
    if not previous or not following:
        return False
    if _BLOCK_START.match(following):
        # a wrapped cross-reference continues a sentence left open by a word like "of"
        return bool(_REFERENCE_START.match(following) and _OPEN_END.search(previous) and len(previous) >= 40)
    open_sentence = not previous.endswith(_TERMINAL)
    starts_lower = following[0].islower()
    if blank_between:
        # Across a blank line (usually a page break) only an obviously unfinished
        # sentence continues: no closing punctuation and a lower-case continuation.
        return open_sentence and (starts_lower or (
            len(previous) >= 40 and not previous.isupper() and bool(_OPEN_END.search(previous))))
    if starts_lower:
        return True
    if not open_sentence:
        return False
    # Short all-caps or title lines are headings, not wrapped text.
    if previous.isupper() and len(previous) < 80:
        # ... unless an all-caps paragraph goes on: "IN NO" / "EVENT SHALL EITHER PARTY'S ..."
        return same_line and following.isupper() and len(previous) >= 40
    return len(previous) >= 40


def _clean(line: str) -> str:
    line = _STRAY_PAGE_NUMBER.sub("", _SPACES.sub(" ", line).strip())
    return _GLUED_NUMBER.sub(r"\1 ", _SPACED_NUMBER.sub(lambda m: m.group(1).replace(" ", ""), line))


def _layout_pieces(line: str) -> list[tuple[str, bool, str]]:
    """The pieces of one raw line split at the layout's runs of spaces, each with whether it
    follows another piece of the line and the bare article number set apart before it (kept only
    where a sentence has ended: `normalise_text`)."""
    parts = _LAYOUT_BREAK.split(line.strip())
    if len(parts) >= 2 and _BARE_SUBNUMBER.match(parts[0]):
        parts[:2] = [f"{parts[0]} {parts[1]}"]
    elif len(parts) == 2 and (article := _BARE_ARTICLE.match(parts[0])) and caps_title_line(parts[1]):
        return [(_clean(parts[1]), False, article.group(1))]
    return [(_clean(part), i > 0, "") for i, part in enumerate(parts)]


def normalise_text(raw: str) -> str:
    """Normalise contract text: NFKC, LF newlines, page furniture dropped, paragraphs joined.

    The result has one paragraph (or heading, or list item) per line and single spaces.
    """
    text = unicodedata.normalize("NFKC", raw)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\v", "\n")
    text = text.replace("\u00ad", "")  # soft hyphens only mark where a word may break
    pieces = [piece for line in text.split("\n") for piece in _layout_pieces(line)]
    lines = [line for line, _, _ in pieces]
    furniture = _furniture_keys(lines)
    paragraphs: list[str] = []
    blank_between = True
    for line, same_line, number in pieces:
        if not line:
            blank_between = True
            continue
        if _RULE.match(line):
            blank_between = True  # a table's or a page's rule ends the paragraph above it
            continue
        if _is_page_number(line) or _shape(line) in furniture:
            continue  # a dropped page break counts as a blank line
        if number and (not paragraphs or paragraphs[-1].endswith(_TERMINAL)):
            line = f"{number} {line}"  # an article number, not a page number run into an unfinished sentence
        if paragraphs and _BARE_SUBNUMBER.match(paragraphs[-1]) and line[0].isupper():
            paragraphs[-1] = f"{paragraphs[-1]} {line}"  # "4.1" / "Fees": one heading
        elif paragraphs and _HYPHENATED_END.search(paragraphs[-1]) and line[0].islower():
            paragraphs[-1] = paragraphs[-1][:-1] + line  # a word hyphenated across lines
        elif paragraphs and _should_join(paragraphs[-1], line, blank_between=blank_between, same_line=same_line):
            paragraphs[-1] = f"{paragraphs[-1]} {line}"
        else:
            paragraphs.append(line)
        blank_between = False
    lines = "\n".join(_ZERO_HEADING.sub("\\1\n", _INLINE_HEADING.sub("\n", p)) for p in paragraphs).split("\n")
    return "\n".join(_split_run_in_articles(lines))


# A top-level heading run into the text before it, in any of the usual numberings: "... website.
# 2. Payment Terms. Client shall", "... as follows: 1. Precedence 1.1 The terms", "... hereto.
# ARTICLE IV PAYMENT ...", "... notice. Clause 12 Governing Law. This ...". Such a number is a
# heading only when it is the next one of the contract's own numbering (so a list item "2." inside
# clause 7, or a cross-reference, stays in the text) and a heading's words follow it.
_RUN_IN_ARTICLE = re.compile(
    r"(?<=[.;:]) (?=(?:(?P<label>ARTICLE|Article|SECTION|Section|CLAUSE|Clause)\s+(?P<word>\d{1,3}|[IVXLC]{1,7})\b\.?"
    r"|(?P<num>\d{1,3})\.)\s+(?P<rest>[A-Z][^\n]{0,160}))")
_TITLE_WORD = r"(?:[A-Z][A-Za-z'’&/-]*|of|and|for|the|to|in|on|or|a|an|by|with|&)"
# the heading's words: a title ending in "." or ":", a title before the article's first clause
# ("Precedence 1.1"), an all-capitals title, or a title run into its first sentence ("Term This
# Agreement shall ...", "Warranty For the purpose ..."), up to the first word in lower case
_TITLED = re.compile(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,7}}[.:](?:\s+[A-Z(\"“]|$)")
_CAPS_TITLED = re.compile(r"^[A-Z][A-Z'’&/,;-]{2,}(?:\s+[A-Z][A-Z'’&/,;-]*|\s+(?:OF|AND|FOR|THE|TO|IN|ON|OR))*\.?\s+(?:[A-Z(\"“]|$)")
_RUN_ON_TITLE = re.compile(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,6}}\s+[a-z]")


def _top_number(heading_id: str) -> int | None:
    head = heading_id.split(".")[0].rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return int(head) if head.isdigit() else None


def _split_run_in_articles(lines: list[str]) -> list[str]:
    """Each line with the top-level headings run into it put on lines of their own (see above)."""
    out: list[str] = []
    top = 0
    for line in lines:
        if family_heading(line) is not None:
            top = 0  # a schedule or exhibit numbers its clauses again from 1
        elif (found := numbered_heading(line)) is not None and (number := _top_number(found[0])) is not None:
            top = number
        pieces: list[str] = []
        cursor = 0
        listed: set[int] = set()
        for m in _RUN_IN_ARTICLE.finditer(line):
            raw = m.group("num") or m.group("word")
            number = int(raw) if raw.isdigit() else roman_to_int(raw)
            rest = m.group("rest")
            after_number = line[m.start("rest"):]
            first_clause = re.match(rf"^{_TITLE_WORD}(?:\s+{_TITLE_WORD}){{0,7}}?[.:]?\s+(?={number}\.1\.?\s+[A-Z(])", after_number)
            titled = bool(first_clause or _TITLED.match(rest) or _CAPS_TITLED.match(rest)
                          or (m.group("label") or top > 0) and _RUN_ON_TITLE.match(rest))
            if number != top + 1 or not titled or number - 1 in listed:
                listed.add(number)  # "1. ... 2. ...": a list item; its successor is one too
                continue
            pieces.append(line[cursor:m.start()])
            cursor = m.start() + 1
            top = number
        pieces.append(line[cursor:])
        out.extend(pieces)
    return out
