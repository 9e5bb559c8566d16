"""Render the sample contracts (sample_contracts/*.txt) to PDF, then check the text extracts.

Each PDF carries what real contract PDFs carry and a loader must strip: a running header with
the agreement title on every page after the first and a "Page N of M" footer. Headings are set
in bold, body text is wrapped to the page. Output is reproducible (fixed creation date).

    .venv/bin/python scripts/make_sample_pdfs.py            # write all PDFs and check them
    .venv/bin/python scripts/make_sample_pdfs.py --check    # only check the existing PDFs
    .venv/bin/python scripts/make_sample_pdfs.py hostile_01 # one contract
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_contracts"
FIXED_DATE = datetime(2025, 1, 1, tzinfo=UTC)

_NUMBERED_HEADING = re.compile(
    r"^(?:(?:ARTICLE|Article|SECTION|Section|Clause|CLAUSE)\s+[\dIVXLC]+|\d{1,3}(?:\.\d{1,3})*\.?)\s+\S"
)


def is_heading(line: str) -> bool:
    """Short all-caps lines and short numbered lines without a sentence are set in bold."""
    stripped = line.strip()
    if not stripped or len(stripped) > 90:
        return False
    letters = [c for c in stripped if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 3:
        return True
    return bool(_NUMBERED_HEADING.match(stripped)) and not stripped.endswith((".", ";", ","))


class ContractPdf(FPDF):
    def __init__(self, running_title: str):
        super().__init__(format="A4")
        self.running_title = running_title
        self.set_margins(22, 20, 22)
        self.set_auto_page_break(auto=True, margin=20)
        self.set_creation_date(FIXED_DATE)
        self.set_title(running_title)
        self.set_creator("scripts/make_sample_pdfs.py")

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font("Helvetica", "I", 8)
        self.cell(
            0,
            6,
            f"{self.running_title} - Confidential",
            align="C",
            new_x=XPos.LMARGIN,
            new_y=YPos.NEXT,
        )
        self.ln(3)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Helvetica", "", 8)
        self.cell(0, 6, f"Page {self.page_no()} of {{nb}}", align="C")


def running_title(text: str, name: str) -> str:
    first = next((line.strip() for line in text.splitlines() if line.strip()), name)
    ref = re.search(r"(?:reference|No\.)\s*:?\s*([A-Z0-9][A-Z0-9/.-]{5,})", text[:1500])
    title = first.title() if first.isupper() else first
    return f"{title} ({ref.group(1)})" if ref else title


def render(txt: Path, pdf_path: Path) -> None:
    text = txt.read_text(encoding="utf-8")
    pdf = ContractPdf(running_title(text, txt.stem))
    pdf.alias_nb_pages()
    pdf.add_page()
    for line in text.splitlines():
        if not line.strip():
            pdf.ln(2.5)
            continue
        pdf.set_font("Helvetica", "B" if is_heading(line) else "", 10)
        pdf.multi_cell(0, 5, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.output(str(pdf_path))


def check(txt: Path, pdf_path: Path) -> list[str]:
    """Every word of the source must come out of the PDF, in order; return what is wrong."""
    reader = PdfReader(pdf_path)
    extracted = "\n".join(page.extract_text() or "" for page in reader.pages)
    problems: list[str] = []
    if len(reader.pages) < 2:
        problems.append("fewer than 2 pages: header and footer stripping cannot be exercised")
    if f"Page 1 of {len(reader.pages)}" not in extracted:
        problems.append("footer 'Page N of M' not found")
    source_words = txt.read_text(encoding="utf-8").split()
    pdf_words = extracted.split()
    position = 0
    for word in source_words:
        try:
            position = pdf_words.index(word, position) + 1
        except ValueError:
            problems.append(f"word {word!r} missing or out of order")
            break
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="contract names (default: all .txt files)")
    parser.add_argument("--check", action="store_true", help="only check existing PDFs")
    args = parser.parse_args(argv)
    sources = [SAMPLES / f"{n}.txt" for n in args.names] or sorted(SAMPLES.glob("*.txt"))
    failed = False
    for txt in sources:
        pdf_path = txt.with_suffix(".pdf")
        if not args.check:
            render(txt, pdf_path)
        problems = check(txt, pdf_path)
        pages = len(PdfReader(pdf_path).pages)
        status = "ok" if not problems else "; ".join(problems)
        print(f"{pdf_path.relative_to(ROOT)}: {pages} pages, {status}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
