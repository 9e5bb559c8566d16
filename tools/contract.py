"""The Contract model and its loading: read a .pdf/.txt/.md file safely, normalise, section it.

Every way a user can hand us an unreadable contract (missing, a directory, empty, binary,
corrupt or image-only PDF, too large, unsupported type) raises `tools.errors.ContractInputError`
with a one-line message saying what is wrong and what to do.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import BaseModel, Field

from tools.errors import ContractInputError
from tools.normalize import normalise_text
from tools.sections import find_headings, section_spans

SUPPORTED_SUFFIXES = (".pdf", ".txt", ".md")


class Section(BaseModel):
    """A numbered (or headed) part of the contract; `contract.text[start:end]` is its text."""

    id: str
    title: str
    start: int
    end: int


class Contract(BaseModel):
    """A normalised contract split into sections (graph state holds `model_dump()`)."""

    name: str
    text: str
    sections: list[Section] = Field(default_factory=list)

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

    def section_at(self, offset: int) -> Section | None:
        """The innermost section containing a character offset."""
        found = None
        for section, start, end in self.own_spans():
            if start <= offset < end:
                found = section
        return found


def _section_key(value: str) -> str:
    value = value.strip().lower().rstrip(".")
    for prefix in ("section ", "article ", "clause ", "§"):
        if value.startswith(prefix):
            value = value[len(prefix) :].strip()
    return value


def parse_contract(text: str, name: str) -> Contract:
    """Normalise raw contract text and split it into sections."""
    if not text or not text.strip():
        raise ContractInputError(f"{name}: the contract is empty; give a file with the contract text")
    normalised = normalise_text(text)
    if not normalised.strip():
        raise ContractInputError(f"{name}: the contract has no readable text after normalisation")
    spans = section_spans(normalised, find_headings(normalised))
    sections = [Section(id=i, title=t, start=s, end=e) for i, t, s, e in spans]
    return Contract(name=name, text=normalised, sections=sections)


def load_contract(path: str | Path, *, max_bytes: int) -> Contract:
    """Read a contract file (.pdf, .txt or .md) and parse it; raises ContractInputError on bad input."""
    p = Path(path).expanduser()
    if not p.exists():
        raise ContractInputError(f"{p}: no such file; check the path to the contract")
    if p.is_dir():
        raise ContractInputError(f"{p}: is a directory; give the path of one contract file")
    suffix = p.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise ContractInputError(
            f"{p}: unsupported file type {suffix or '(none)'!r}; use one of {', '.join(SUPPORTED_SUFFIXES)}"
        )
    size = p.stat().st_size  # checked before reading, so a huge file is never loaded
    if size > max_bytes:
        raise ContractInputError(f"{p}: file is {size:,} bytes, over the {max_bytes:,}-byte limit; split it or raise max_input_bytes")
    if size == 0:
        raise ContractInputError(f"{p}: the file is empty; give a file with the contract text")
    text = _read_pdf(p) if suffix == ".pdf" else _read_text(p)
    if not text.strip():
        raise ContractInputError(f"{p}: the file holds only whitespace; give a file with the contract text")
    return parse_contract(text, p.name)


def _read_text(p: Path) -> str:
    data = p.read_bytes()
    if b"\x00" in data:
        raise ContractInputError(f"{p}: looks like a binary file (NUL bytes), not text; convert it to .txt or .pdf")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _mostly_printable(text):
            return text
    raise ContractInputError(f"{p}: not decodable as text; save it as UTF-8 text")


def _mostly_printable(text: str) -> bool:
    sample = text[:20000]
    if not sample:
        return True
    bad = sum(1 for ch in sample if not (ch.isprintable() or ch in "\n\r\t\f\v"))
    return bad / len(sample) < 0.05


def _read_pdf(p: Path) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # pypdf warns loudly on odd but readable files
    try:
        reader = PdfReader(p)
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception as exc:
                raise ContractInputError(f"{p}: the PDF is password-protected; give an unprotected copy") from exc
        pages = [page.extract_text() or "" for page in reader.pages]
    except ContractInputError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, AttributeError) as exc:
        raise ContractInputError(f"{p}: corrupt or unreadable PDF ({type(exc).__name__}); re-export the PDF or give a .txt") from exc
    text = "\n\n".join(pages)
    if not text.strip():
        raise ContractInputError(f"{p}: the PDF has no extractable text (scanned image?); run OCR or give a .txt")
    return text
