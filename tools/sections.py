"""Sectioning: find the headings of normalised contract text and give each a stable id.

Ids follow the contract's own numbering: "7.3" for "7.3", "Section 7.3" or "7.3." headings;
"7" for "7.", "Section 7" and "ARTICLE VII" (roman article numbers become arabic so that
"7.3" nests under "7" however the article is written). Sub-clauses such as "(a)" belong to
their parent. Unnumbered ALL-CAPS or Title Case headings get "h1", "h2", ... in order, and
text before the first heading is the "preamble". A numbered section extends over its
sub-sections ("7" covers "7.1" ... "7.9"), so `text[start:end]` is everything under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

# a number may carry a capital letter: an article or clause inserted into a template ("ARTICLE 14A",
# "14A.1", "Section 9.2B") keeps its own id and nests as its digits do
_PART = r"\d{1,3}[A-Z]?"
_ARTICLE = re.compile(r"^(?:ARTICLE|Article)\s+([IVXLC]{1,7}|\d{1,3}[A-Z]?)\b\.?\s*[:\-–—.]?\s*(.*)$")
_SECTION = re.compile(rf"^(?:SECTION|Section|Clause|CLAUSE)\s+({_PART}(?:\.{_PART})*)\b\.?\s*[:\-–—]?\s*(.*)$")
_NUMBERED = re.compile(rf"^({_PART}(?:\.{_PART})*)(\.?)\s+(.*)$")
_ROMAN_TOP = re.compile(r"^([IVX]{1,5})\.\s+(.*)$")
# a clause's first word, or "[Reserved]" / "[***]" for a clause left empty or redacted
_TITLE_WORD = re.compile(r"^[A-Z0-9(\"'“\[]")
# a heading in sentence case, alone on its line ("7.5 Term and termination"), has no verb of a clause
_CLAUSE_VERB = re.compile(r"\b(?:shall|will|may|must|is|are|has|have|agrees?|means)\b", re.IGNORECASE)
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "&"}
_CAPS_TITLE = re.compile(r"^([A-Z][A-Z'’&/,;-]{2,}(?:\s+[A-Z][A-Z'’&/,;-]*){0,7})\s+(?=[A-Z][a-z])")
_TOC_TAIL = re.compile(r"(?:\.{3,}|\s)\s*\d{1,3}$")


@dataclass
class Heading:
    id: str
    title: str
    start: int
    numbered: bool


def roman_to_int(value: str) -> int:
    total = 0
    for i, ch in enumerate(value):
        current = _ROMAN[ch]
        if i + 1 < len(value) and _ROMAN[value[i + 1]] > current:
            total -= current
        else:
            total += current
    return total


def _title_from(rest: str) -> str:
    """The heading words after a number: a leading title phrase ("Termination. Either ..."),
    or the whole rest when it is itself a title; "" when the section starts with prose."""
    rest = rest.strip()
    if not rest:
        return ""
    lead = re.match(r"^([^.:]{2,80}?)[.:](?:\s|$)", rest)
    if lead and _looks_like_title(lead.group(1)):
        return lead.group(1).strip()
    whole = rest.rstrip(".:").strip()
    if len(whole) <= 80 and _looks_like_title(whole) or rest.isupper() and len(rest) <= 120:
        return whole
    # "WARRANTY The Seller warrants ...": a title in capitals run into the clause's first sentence
    caps = _CAPS_TITLE.match(rest)
    if caps:
        return caps.group(1)
    words = rest.split()
    if len(words) <= 6 and rest[0].isupper() and not rest.endswith(('.', ';', ',', ':')) and not _CLAUSE_VERB.search(rest):
        return rest  # "Term and termination" on a line of its own
    return ""


def _looks_like_title(phrase: str) -> bool:
    words = phrase.split()
    if not words or len(words) > 12:
        return False
    if phrase.isupper():
        return True
    return all(w[0].isupper() or not w[0].isalpha() or w.lower() in _SMALL_WORDS for w in words)


# "PAYMENT TERMS: The Parties agree ...": a heading in capitals that runs into its paragraph
_CAPS_LEAD = re.compile(r"^([A-Z][A-Z'’&/-]{2,}(?:[ ,]+[A-Z][A-Z'’&/-]*){0,6}):\s+[A-Z(\"“]")
_NOT_HEADINGS = {"WHEREAS", "NOW THEREFORE", "NOW, THEREFORE", "WITNESSETH", "NOTE", "NOTES", "BY", "NAME", "TITLE", "DATE",
                 "ATTENTION", "ATTN", "EMAIL", "E-MAIL", "TEL", "FAX", "PHONE", "ADDRESS", "IMPORTANT"}


def lead_heading(line: str) -> str:
    """The capitals heading a paragraph opens with ("PAYMENT TERMS: The Parties ..." -> "PAYMENT TERMS"), or ""."""
    m = _CAPS_LEAD.match(line)
    return m.group(1) if m and m.group(1) not in _NOT_HEADINGS else ""


def _is_unnumbered_heading(line: str) -> bool:
    if len(line) > 80 or len(line) < 3 or line.endswith((",", ";", ":")):
        return False
    letters = [c for c in line if c.isalpha()]
    if len(letters) < 3 or "***" in line or "__" in line or not re.search(r"[^\W\d_]{3}", line):
        return False
    stripped = line.rstrip(".")
    if stripped.isupper():
        return len(stripped.split()) <= 10
    words = stripped.split()
    return 1 <= len(words) <= 8 and not line.endswith(".") and _looks_like_title(stripped)


def caps_title_line(rest: str) -> bool:
    """A whole heading in capitals closed by "." or ":" ("PRICE.", "SUPPORT, MAINTENANCE AND TRAINING."):
    what may follow an article number printed without a dot ("6      PRICE."), where a street
    number ("12 HIGH STREET") or a page number before running capitals ("7 IMPLIED, INCLUDING ...")
    does not qualify."""
    rest = rest.strip()
    return (rest.endswith((".", ":")) and rest.isupper() and len(rest) <= 80 and len(rest.split()) <= 10
            and not re.search(r"[.:]\s", rest))


def numbered_heading(line: str) -> tuple[str, str] | None:
    """(id, title) if the line opens a numbered section."""
    if m := _ARTICLE.match(line):
        raw = m.group(1)
        number = raw if raw[0].isdigit() else str(roman_to_int(raw))
        return number, _title_from(m.group(2))
    if m := _SECTION.match(line):
        rest = m.group(2)
        if rest and not _TITLE_WORD.match(rest):
            return None  # "Section 4 of this Agreement ..." is a cross-reference
        return m.group(1), _title_from(rest)
    if m := _NUMBERED.match(line):
        number, dot, rest = m.groups()
        parts = [int(p.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) for p in number.split(".")]
        if not dot and len(parts) == 1 and not number.isdigit():
            return None  # "2A Technologies Inc. ..." names a company, not a clause
        if (not dot and len(parts) == 1 and not caps_title_line(rest)) or parts[0] == 0 or parts[0] > 100 or any(p > 99 for p in parts[1:]):
            return None
        if not rest or not _TITLE_WORD.match(rest):
            return None
        if len(parts) == 2 and parts[1] == 0 and number.endswith(".0"):
            number = str(parts[0])  # "1.0 Services" opens article 1, whose clauses are 1.1, 1.2 ...
        return number, _title_from(rest)
    if m := _ROMAN_TOP.match(line):
        if m.group(2)[:1].isupper():
            return str(roman_to_int(m.group(1))), _title_from(m.group(2))
    return None


# A schedule, exhibit, annex or appendix after the body, on a line of its own ("SCHEDULE 1", "Exhibit A -
# Pricing", "ANNEX II: SERVICE LEVELS"): its clauses are numbered again from 1 and take its id as a
# prefix ("schedule-1.2"), so they neither clash with the body's clauses nor displace them. (A
# filing's "EXHIBIT 10.16" label above the contract comes before any numbered clause and is no part.)
FAMILY_WORDS = ("schedule", "exhibit", "annex", "appendix", "attachment", "addendum")
_FAMILY = re.compile(
    r"^(?P<word>SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment|ADDENDUM|Addendum)"
    r"\s+(?P<number>\d{1,2}|[A-Z]{1,2}|[IVX]{1,5})(?:-\d{1,2})?\b\s*[.:\-–—]?\s*(?P<title>.{0,70})$")


def family_heading(line: str) -> tuple[str, str] | None:
    """(id, title) of a schedule/exhibit/annex heading line ("Exhibit B - Fees" -> ("exhibit-b", "Fees"))."""
    m = _FAMILY.match(line.strip())
    if not m or m.group("number").lower() in _SMALL_WORDS | {"is", "it", "no", "if", "be"}:
        return None  # "SCHEDULE OF EQUIPMENT", "EXHIBIT TO THE AGREEMENT": a title, not a numbered schedule
    title = m.group("title").strip().strip("\"'“”").strip()
    if title and not (_looks_like_title(title.rstrip(".")) or title.isupper()):
        return None  # "Exhibit A attached hereto sets out ...": a sentence, not a heading
    return f"{m.group('word').lower()}-{m.group('number').lower()}", title.rstrip(".:")


def _number_families(candidates: list[Heading], families: dict[int, str]) -> list[Heading]:
    """Prefix the clauses of each schedule or exhibit with its id. A schedule opens its own numbering
    only when its first numbered clause is 1 or 1.x (a "Schedule 3." wrapped onto a line of its own
    inside clause 2 is followed by clause 3 of the body); one without numbered clauses is an
    unnumbered heading, as any other."""
    out: list[Heading] = []
    family = ""
    for i, h in enumerate(candidates):
        if i in families:
            following = next((c for j, c in enumerate(candidates[i + 1:], start=i + 1) if c.numbered and j not in families), None)
            next_family = next((j for j in families if j > i), len(candidates))
            # a schedule with clauses of its own, numbered again from 1 (one without is an unnumbered heading)
            restarts = following is not None and candidates.index(following) < next_family and following.id.split(".")[0] == "1"
            if restarts:
                family = h.id
                out.append(h)
            elif _is_unnumbered_heading(families[i]) and not _TOC_TAIL.search(families[i]):
                name = families[i].rstrip(".:").strip()
                if h.title and h.title not in name:
                    name = f"{name} - {h.title}"  # "SCHEDULE A" with its title on the next line
                out.append(Heading("", name, h.start, False))
            continue
        if h.numbered and family:
            h = Heading(f"{family}.{h.id}", h.title, h.start, True)
        out.append(h)
    return out


def _is_block_line(line: str) -> bool:
    """A short line that is not a sentence: a line of an address, a signature block, a title."""
    stripped = line.strip()
    return bool(stripped) and len(stripped) <= 60 and len(stripped.split()) <= 8 and not stripped.endswith(".")


def _opens_section(line: str) -> bool:
    return bool(numbered_heading(line) or family_heading(line) or lead_heading(line))


def _unnumbered_titles(lines: list[str]) -> dict[int, str]:
    """Line index -> title of the unnumbered headings. A heading line stands alone and is followed
    by text: the sentences or numbered clauses it heads. A run of three or more short lines
    (a postal address, a signature block, a cover page, a table of contents) heads nothing; two
    short lines before text ("SCHEDULE A" / "PRICING") are one heading of two parts."""
    titles: dict[int, str] = {}
    filled = [i for i, line in enumerate(lines) if line.strip()]
    at = 0
    while at < len(filled):
        run_end = at
        while run_end < len(filled) and _is_block_line(lines[filled[run_end]]) and not _opens_section(lines[filled[run_end]]):
            run_end += 1
        run = filled[at:run_end]
        if not run:
            at += 1
            continue
        heads = [i for i in run if _is_unnumbered_heading(lines[i]) and not _TOC_TAIL.search(lines[i])]
        if len(run) == 1 and heads:
            titles[run[0]] = lines[run[0]].rstrip(".:").strip()
        elif len(run) == 2 and len(heads) == 2:
            titles[run[0]] = " - ".join(lines[i].rstrip(".:").strip() for i in run)
        at = run_end
    return titles


def _top(heading_id: str) -> int | None:
    head = heading_id.split(".")[0].rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return int(head) if head.isdigit() else None


def _without_strays(candidates: list[Heading]) -> list[Heading]:
    """Drop numbers that open no clause of the contract's own order:
    - a sub-clause number standing alone out of order: a "3.6" after article 10 began, with no
      clause of article 3 just before or after it, is a figure at the start of a line ("3.6 MW
      SYSTEM", "2.5 TONNES PER HOUR" in a schedule), not clause 3.6;
    - a list "1. ... 2. ... 3. ..." inside clause 2.2, whose items have no sub-clauses and which
      clause 2.3 follows: its items belong to 2.2 (they are not articles 1, 2 and 3).
    A table of contents or a restarted list keeps its neighbours of the same article and stays."""
    numbered = [h for h in candidates if h.numbered]
    subs = [i for i, h in enumerate(numbered) if "." in h.id and _top(h.id) is not None]
    strays: set[int] = set()
    for k, i in enumerate(subs):
        top = _top(numbered[i].id)
        before = _top(numbered[subs[k - 1]].id) if k else None
        after = _top(numbered[subs[k + 1]].id) if k + 1 < len(subs) else None
        if before is not None and top is not None and top < before and after != top:
            strays.add(id(numbered[i]))
    for i in subs:
        run = []
        j = i + 1
        while j < len(numbered) and "." not in numbered[j].id and numbered[j].id.isdigit() \
                and int(numbered[j].id) == len(run) + 1:
            run.append(numbered[j])
            j += 1
        follows = numbered[j] if j < len(numbered) else None
        if run and (follows is None or "." in follows.id and _top(follows.id) == _top(numbered[i].id)):
            strays.update(id(h) for h in run)
    return [h for h in candidates if id(h) not in strays]


def find_headings(text: str) -> list[Heading]:
    """Every heading of the text in order, with duplicate ids (tables of contents, restarted
    lists) resolved in favour of the occurrence that carries the most text."""
    candidates: list[Heading] = []
    families: dict[int, str] = {}  # candidate index -> its line, for schedule/exhibit headings
    lines = text.split("\n")
    unnumbered = _unnumbered_titles(lines)
    offset = 0
    for index, line in enumerate(lines):
        if line:
            opened = family_heading(line) if any(c.numbered for c in candidates) else None
            numbered = numbered_heading(line) if opened is None else None
            if opened is not None:
                families[len(candidates)] = line
                candidates.append(Heading(opened[0], opened[1], offset, True))
            elif numbered:
                candidates.append(Heading(numbered[0], numbered[1], offset, True))
            elif lead := lead_heading(line):
                candidates.append(Heading("", lead, offset, False))
            elif _is_unnumbered_heading(line) and not _TOC_TAIL.search(line):
                previous = candidates[-1] if candidates else None
                if previous and previous.numbered and not previous.title and text.count("\n", previous.start, offset) == 1:
                    previous.title = line.rstrip(".:").strip()  # "ARTICLE I" with its title on the next line
                elif index in unnumbered:
                    candidates.append(Heading("", unnumbered[index], offset, False))
        offset += len(line) + 1
    candidates = _without_strays(_number_families(candidates, families))
    own_length = [
        (candidates[i + 1].start if i + 1 < len(candidates) else len(text)) - h.start
        for i, h in enumerate(candidates)
    ]
    # the next numbered candidate after each one, in one pass from the end (linear in the headings)
    next_numbered: list[Heading | None] = [None] * len(candidates)
    following: Heading | None = None
    for i in range(len(candidates) - 1, -1, -1):
        next_numbered[i] = following
        if candidates[i].numbered:
            following = candidates[i]

    def weight(i: int) -> tuple[bool, int]:
        # A real section heading is followed by its own sub-sections ("2" then "2.1"); a
        # table-of-contents line or a numbered list item in a schedule usually is not.
        after = next_numbered[i]
        has_children = after is not None and after.id.startswith(candidates[i].id + ".")
        return has_children, own_length[i]

    best: dict[str, int] = {}
    for i, h in enumerate(candidates):
        if h.numbered and (h.id not in best or weight(i) > weight(best[h.id])):
            best[h.id] = i
    kept: list[Heading] = []
    counter = 0
    for i, h in enumerate(candidates):
        if h.numbered and best[h.id] != i:
            continue
        if not h.numbered:
            counter += 1
            h.id = f"h{counter}"
        kept.append(h)
    return kept


def section_spans(text: str, headings: list[Heading]) -> list[tuple[str, str, int, int]]:
    """(id, title, start, end) per section; a numbered section spans its sub-sections."""
    spans: list[tuple[str, str, int, int]] = []
    if headings and text[: headings[0].start].strip() or not headings and text.strip():
        end = headings[0].start if headings else len(text)
        spans.append(("preamble", "Preamble", 0, end))
    # A section ends where the first later heading that is not one of its sub-sections starts.
    # The sections still open form a chain (each a sub-section of the one before it), so a new
    # heading closes the tail of the chain it does not nest under: each heading is closed once.
    ends = [len(text)] * len(headings)
    open_chain: list[int] = []
    for i, later in enumerate(headings):
        while open_chain and not _nests_under(later, headings[open_chain[-1]]):
            ends[open_chain.pop()] = later.start
        open_chain.append(i)
    for h, end in zip(headings, ends, strict=True):
        spans.append((h.id, h.title, h.start, _trim_end(text, h.start, end)))
    return spans


def _nests_under(later: Heading, h: Heading) -> bool:
    return h.numbered and later.numbered and later.id.startswith(h.id + ".")


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in " \n":
        end -= 1
    return end
