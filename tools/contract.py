"""The Contract model and its loading: read a .pdf/.txt/.md file safely, normalise, section it.

Every way a user can hand us an unreadable contract (missing, a directory, empty, binary,
corrupt or image-only PDF, too large, unsupported type) raises `tools.errors.ContractInputError`
with a one-line message saying what is wrong and what to do.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import errno
import hashlib
import io
import logging
import os
import re
import stat
import time
import unicodedata
from pathlib import Path

from pydantic import BaseModel, Field

from tools.errors import ContractInputError
from tools.normalize import normalise_text
from tools.sections import FAMILY_WORDS, find_headings, section_spans

SUPPORTED_SUFFIXES = (".pdf", ".txt", ".md")
# Limits on what a file expands to, beside the byte limit on the file itself (a compressed PDF of
# 130 KB can inflate to 40 million characters). The longest CUAD contract is under 0.4 million
# characters and 100 pages: these leave ten times room and bound the work a hostile file causes.
MAX_TEXT_CHARS = 5_000_000
MAX_PAGES = 2_000
EXTRACT_SECONDS = 60.0  # the whole PDF's text extraction, checked page by page


class Section(BaseModel):
    """A numbered (or headed) part of the contract; `contract.text[start:end]` is its text."""

    id: str
    title: str
    start: int
    end: int


class Contract(BaseModel):
    """A normalised contract split into sections (graph state holds `model_dump()`).

    `pages`: where each printed page starts in `text` (PDFs; empty when unknown). `parties`: who
    the buyer and the supplier are (`tools.detection.parties.Parties.as_dict()`), set when a run
    settles it (with the user's `--we`); None means "read them from the text"."""

    name: str
    text: str
    sections: list[Section] = Field(default_factory=list)
    pages: list[int] = Field(default_factory=list)
    parties: dict | None = None

    def section(self, section_id: str) -> Section | None:
        """The section with this id (exact, then case- and 'Section '-insensitive), or None."""
        wanted = section_id.strip()
        for section in self.sections:
            if section.id == wanted:
                return section
        key = _section_key(wanted)
        for section in self.sections:
            if _section_key(section.id) == key:
                return section
        return None

    def section_text(self, section: Section) -> str:
        return self.text[section.start : section.end]

    def own_spans(self) -> list[tuple[Section, int, int]]:
        """Each section with the span up to the next heading (no sub-section text), so
        scanning these spans reads every character once."""
        ordered = sorted(self.sections, key=lambda s: s.start)
        spans = []
        for i, section in enumerate(ordered):
            end = ordered[i + 1].start if i + 1 < len(ordered) else len(self.text)
            spans.append((section, section.start, min(max(end, section.start), len(self.text))))
        return spans

    def page_at(self, offset: int) -> int | None:
        """The printed page (1-based) holding a character offset, when pages are known."""
        if not self.pages or offset < 0:
            return None
        return bisect.bisect_right(self.pages, offset) or 1

    def cite(self, section_id: str | None, offset: int = -1) -> str:
        """How a lawyer finds a section: its number and heading as printed ("Section 9.2
        (Limitation of Liability)", "Article IX (Warranty)", "Clause 11"), or, for unnumbered
        text, the heading and the page ('page 4, under "Insurance"'); never an internal id."""
        section = self.section(section_id) if section_id else None
        if section is None:
            return "the contract"
        page = self.page_at(offset if offset >= 0 else section.start)
        on_page = f"page {page}, " if page else ""
        title = section.title or self._parent_title(section)
        if section.id == "preamble":
            return f"{on_page}the opening (preamble)".replace("page 1, the opening", "the opening")
        if section.id.startswith("h") and section.id[1:].isdigit():
            numbered = self._numbered_before(section)
            if numbered is not None and self._numbered_after(section):
                # an unnumbered heading between numbered clauses (a sub-heading, or a running
                # header taken for one): the clause before it is what a reader looks up
                where = f'{self.cite(numbered.id)}, under "{title}"' if title else self.cite(numbered.id)
                return f"{where}, {on_page.rstrip(', ')}" if page else where
            return f'{on_page}under the heading "{title}"' if title else f"{on_page}an unnumbered part"
        family, _, clause = section.id.partition(".")
        word, _, number = family.partition("-")
        if word in FAMILY_WORDS and number:
            # a clause of a schedule or exhibit with its own numbering: "Schedule 1, Section 2 (Fees)"
            label = f"{word.capitalize()} {number.upper()}" + (f", Section {clause}" if clause else "")
            return f"{label} ({title})" if title else label
        inline = _inline_number(self.text[offset : offset + 120]) if offset >= section.start else None
        if inline is not None and inline[0] != section.id:
            # a clause whose number the sectioning missed (a heading run into the text): its own number
            return f"Section {inline[0]} ({inline[1]})" if inline[1] else f"Section {inline[0]}"
        label = _printed_label(self.text[section.start : section.start + 40], section.id)
        return f"{label} ({title})" if title else label

    def _numbered_before(self, section: Section) -> Section | None:
        before = [s for s in self.sections if s.start < section.start and not s.id.startswith("h") and s.id != "preamble"]
        return max(before, key=lambda s: s.start) if before else None

    def _numbered_after(self, section: Section) -> bool:
        return any(s.start > section.start and not s.id.startswith("h") for s in self.sections)

    def _parent_title(self, section: Section) -> str:
        """The title of the nearest enclosing section that has one ("1.1.1" under an untitled
        "1.1" takes article 1's "Supply")."""
        section_id = section.id
        while "." in section_id:
            section_id = section_id.rsplit(".", 1)[0]
            parent = self.section(section_id)
            if parent is not None and parent.title:
                return parent.title
        return ""

    def section_at(self, offset: int) -> Section | None:
        """The innermost section containing a character offset."""
        found = None
        for section, start, end in self.own_spans():
            if start <= offset < end:
                found = section
        return found


_LABEL = re.compile(r"^\s*(ARTICLE|Article|SECTION|Section|CLAUSE|Clause|§)\s*([IVXLC]+|\d+(?:\.\d+)*)")


_INLINE = re.compile(r"^(?P<top>\d{1,3})\.\s+(?P<title>[A-Z][^.\n\d]{2,50}?)\s+(?P<sub>(?P=top)\.\d{1,3})\s+[A-Z(]"
                     r"|^(?P<num>\d{1,3}(?:\.\d{1,3})+)\.?\s+[A-Z(]|^(?P<art>\d{1,3})\.\s+[A-Z][^.\n\d]{2,50}?\s+(?=[A-Z][a-z])")


def _inline_number(text: str) -> tuple[str, str] | None:
    """(number, heading) of a numbered clause that opens `text` ("18. Limitation of Liability 18.1 The ..."
    -> ("18.1", "Limitation of Liability"), "10.2 The Supplier ..." -> ("10.2", ""))."""
    m = _INLINE.match(text)
    if not m:
        return None
    if m.group("sub"):
        return m.group("sub"), m.group("title").strip()
    if m.group("num"):
        return m.group("num"), ""
    return m.group("art"), ""  # where a run-in title ends is not knowable ("10. Express Limited Warranty For ...")


def _printed_label(heading: str, section_id: str) -> str:
    """'Section 9.2', 'Article IX', 'Clause 11' as the heading prints it; a bare number is a section."""
    m = _LABEL.match(heading)
    if m:
        return f"{m.group(1).capitalize() if m.group(1) != '§' else '§'} {m.group(2)}"
    return f"Section {section_id}"


def content_id(text: str) -> str:
    """A hash of the contract's wording alone: case, accents' composition, spacing, punctuation,
    line breaks and page furniture do not change it, so one contract read from a PDF or from
    text, or re-spaced, has one id (what makes confirmations independent is distinct contracts)."""
    words = re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())
    return "c" + hashlib.sha256(" ".join(words).encode()).hexdigest()[:32]


def _section_key(value: str) -> str:
    value = value.strip().lower().rstrip(".")
    for prefix in ("section ", "article ", "clause ", "§"):
        if value.startswith(prefix):
            value = value[len(prefix) :].strip()
    return value


def parse_contract(text: str, name: str, *, pages: list[str] | None = None) -> Contract:
    """Normalise raw contract text and split it into sections (`pages`: the raw text of each
    printed page, when known, so findings can cite pages)."""
    if not text or not text.strip():
        raise ContractInputError(f"{name}: the contract is empty; give a file with the contract text")
    normalised = normalise_text(text)
    if not normalised.strip():
        raise ContractInputError(f"{name}: the contract has no readable text after normalisation")
    spans = section_spans(normalised, find_headings(normalised))
    sections = [Section(id=i, title=t, start=s, end=e) for i, t, s, e in spans]
    return Contract(name=name, text=normalised, sections=sections, pages=_page_starts(normalised, pages or []))


def _page_starts(text: str, pages: list[str]) -> list[int]:
    """Where each page's text starts in the normalised contract: the first of a page's lines
    (normalised alone) that is found after the previous page's start. Running headers and page
    numbers are dropped by normalisation, so the first lines may be missing: the next are tried."""
    if len(pages) < 2:
        return []
    starts: list[int] = []
    at = 0
    for page in pages:
        lines = [line for line in normalise_text(page).split("\n") if len(line) >= 12] if page.strip() else []
        found = -1
        for line in lines[:6]:
            found = text.find(line[:40], at)
            if found >= 0:
                break
        if found < 0:
            found = at  # a page with nothing we can place starts where the previous one did
        starts.append(found)
        at = found
    starts[0] = 0
    return starts


def load_contract(path: str | Path, *, max_bytes: int) -> Contract:
    """Read a contract file (.pdf, .txt or .md) and parse it; raises ContractInputError on bad input."""
    p = Path(path).expanduser()
    data = _read_file(p, max_bytes)
    suffix = p.suffix.lower()
    pages = _read_pdf(p, data) if suffix == ".pdf" else _read_text(p, data).split("\f")
    text = "\n\n".join(pages)
    if len(text) > MAX_TEXT_CHARS:
        raise ContractInputError(f"{p}: the text runs to {len(text):,} characters, over the {MAX_TEXT_CHARS:,}-character "
                                 "limit; split the contract")
    if not _visible(text):
        raise ContractInputError(f"{p}: the file holds only whitespace; give a file with the contract text")
    return parse_contract(text, p.name, pages=pages)


def _missing(p: Path) -> ContractInputError:
    """A path that names nothing: a link whose target is gone is said to be one."""
    if p.is_symlink():
        with contextlib.suppress(OSError):
            return ContractInputError(f"{p}: is a symbolic link to {os.readlink(p)}, which does not exist; "
                                      "give the path of the contract file itself")
    return ContractInputError(f"{p}: no such file; check the path to the contract")


def _unopenable(p: Path, exc: OSError) -> ContractInputError:
    if exc.errno == errno.ENOENT:
        return _missing(p)
    if exc.errno == errno.ELOOP:
        return ContractInputError(f"{p}: is a symbolic link loop (the links point back to each other); "
                                  "give the path of the contract file itself")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return ContractInputError(f"{p}: permission denied; make the file readable by this user or copy it")
    if exc.errno == errno.EISDIR:
        return ContractInputError(f"{p}: is a directory; give the path of one contract file")
    return ContractInputError(f"{p}: cannot be read ({exc.strerror or exc}); check the path to the contract")


_NOT_FILES = ((stat.S_ISDIR, "is a directory; give the path of one contract file"),
              (stat.S_ISFIFO, "is a named pipe (FIFO), not a file; save the contract to a file and give that"),
              (stat.S_ISSOCK, "is a socket, not a file; save the contract to a file and give that"),
              (stat.S_ISCHR, "is a device, not a file; give the path of a contract file"),
              (stat.S_ISBLK, "is a device, not a file; give the path of a contract file"))


def _read_file(p: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file of a supported type and size. The file is opened without
    blocking and checked on the open descriptor (what is read is what was checked): a FIFO, a
    device or a socket is refused by name, never read."""
    try:
        info = p.stat()
    except OSError as exc:
        raise _unopenable(p, exc) from None
    for kind, message in _NOT_FILES:
        if kind(info.st_mode):
            raise ContractInputError(f"{p}: {message}")
    suffix = p.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise ContractInputError(
            f"{p}: unsupported file type {suffix or '(none)'!r}; use one of {', '.join(SUPPORTED_SUFFIXES)}"
        )
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _unopenable(p, exc) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        for kind, message in _NOT_FILES:  # replaced since the check above
            if kind(info.st_mode):
                raise ContractInputError(f"{p}: {message}")
        size = info.st_size  # checked before reading, so a huge file is never loaded
        if size > max_bytes:
            raise ContractInputError(f"{p}: file is {size:,} bytes, over the {max_bytes:,}-byte limit; split it or "
                                     "raise max_input_bytes")
        if size == 0:
            raise ContractInputError(f"{p}: the file is empty; give a file with the contract text")
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise _unopenable(p, exc) from None
    if len(data) > max_bytes:  # grew while being read
        raise ContractInputError(f"{p}: file is over the {max_bytes:,}-byte limit; split it or raise max_input_bytes")
    return data


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _utf16_without_bom(data: bytes) -> str | None:
    """'utf-16-le'/'-be' when the NUL bytes sit at odd (even) offsets, as in mostly-Latin UTF-16
    text saved without a byte-order mark; else None."""
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    if odd >= 0.3 * half and even <= 0.02 * half:
        return "utf-16-le"
    if even >= 0.3 * half and odd <= 0.02 * half:
        return "utf-16-be"
    return None


def _invisible(ch: str) -> bool:
    """Whitespace of any script, or a character that shows nothing (zero-width space, joiners,
    a stray byte-order mark: Unicode format characters)."""
    return ch.isspace() or unicodedata.category(ch) == "Cf"


def _visible(text: str) -> bool:
    return any(not _invisible(ch) for ch in text)


def _read_text(p: Path, data: bytes) -> str:
    """The text of a .txt/.md file: UTF-8, UTF-16 or UTF-32 (by byte-order mark, and UTF-16 without
    one), else cp1252."""
    encodings = [name for bom, name in _BOMS if data.startswith(bom)][:1] or \
        [name for name in [_utf16_without_bom(data)] if name]
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            raise ContractInputError(f"{p}: starts as {encoding.upper().removesuffix('-SIG')} text but is not "
                                     "valid in that encoding; save it as UTF-8 text") from None
    if b"\x00" in data:
        raise ContractInputError(f"{p}: looks like a binary file (NUL bytes), not text; convert it to .txt or .pdf")
    for encoding in ("utf-8", "cp1252"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not _visible(text) or _mostly_printable(text):  # a blank file is said to be blank, by the caller
            return text
    raise ContractInputError(f"{p}: not decodable as text; save it as UTF-8 text")


def _page_texts(p: Path, reader) -> list[str]:
    count = len(reader.pages)
    if count > MAX_PAGES:
        raise ContractInputError(f"{p}: the PDF has {count:,} pages, over the {MAX_PAGES:,}-page limit; split it")
    started, total, pages = time.monotonic(), 0, []
    for number, page in enumerate(reader.pages, start=1):
        contents = page.get_contents()
        size = len(contents.get_data()) if contents is not None else 0
        if total + size > MAX_TEXT_CHARS * 2:  # shown text takes about a byte a character, plus operators
            raise ContractInputError(f"{p}: page {number} inflates to {size:,} bytes of page content, more than "
                                     f"{MAX_TEXT_CHARS:,} characters of text can need (a text bomb?); split or re-export it")
        pages.append(page.extract_text() or "")
        total += len(pages[-1])
        if total > MAX_TEXT_CHARS:
            raise ContractInputError(f"{p}: the PDF's text runs past {MAX_TEXT_CHARS:,} characters by page {number} "
                                     f"of {count:,}; split the contract")
        if time.monotonic() - started > EXTRACT_SECONDS:
            raise ContractInputError(f"{p}: extracting the text took over {EXTRACT_SECONDS:.0f} s by page {number} "
                                     f"of {count:,}; re-export the PDF or give a .txt")
    return pages


def _mostly_printable(text: str) -> bool:
    sample = text[:20000]
    if not sample:
        return True
    bad = sum(1 for ch in sample if not (ch.isprintable() or _invisible(ch)))
    return bad / len(sample) < 0.05


def _read_pdf(p: Path, data: bytes) -> list[str]:
    """The text of each page. A file whose parsing fails in any way (pypdf raises many kinds on
    crafted input: unsupported filters such as JBIG2, nesting past Python's recursion limit, ...)
    is bad input; so is one that expands past MAX_PAGES, MAX_TEXT_CHARS or EXTRACT_SECONDS, which
    are checked before each page's text is extracted, so a text bomb is refused, not extracted."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # pypdf warns loudly on odd but readable files
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception as exc:
                raise ContractInputError(f"{p}: the PDF is password-protected; give an unprotected copy") from exc
        pages = _page_texts(p, reader)
    except ContractInputError:
        raise
    except RecursionError as exc:
        raise ContractInputError(f"{p}: the PDF is nested too deeply to read (a crafted file?); re-export it or give a .txt") from exc
    except DependencyError as exc:
        raise ContractInputError(f"{p}: the PDF uses an unsupported encoding ({exc}); re-export it or give a .txt") from exc
    except Exception as exc:  # whatever else the parser meets in a malformed file
        raise ContractInputError(f"{p}: corrupt or unreadable PDF ({type(exc).__name__}); re-export the PDF or give a .txt") from exc
    if not "".join(pages).strip():
        raise ContractInputError(f"{p}: the PDF has no extractable text (scanned image?); run OCR or give a .txt")
    return pages
