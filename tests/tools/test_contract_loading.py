"""Loading contracts from .txt/.md/.pdf files, and every kind of bad input a user can hand us."""

from __future__ import annotations

import pytest
from fpdf import FPDF

from tools.contract import load_contract, parse_contract
from tools.errors import ContractInputError

CONTRACT_TEXT = (
    "SUPPLY AGREEMENT\n\n"
    "1. DEFINITIONS\n\n"
    "1.1 In this Agreement the Supplier means Acme Ltd and the Buyer means Widget Corp.\n\n"
    "2. GOVERNING LAW\n\n"
    "2.1 This Agreement shall be governed by the laws of the State of New York.\n"
)
LIMIT = 1_000_000


def _pdf(path, lines: list[str]) -> None:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    for line in lines:
        pdf.multi_cell(0, 6, line)
        pdf.ln(2)
    pdf.output(str(path))


def test_txt_and_md_load_with_sections(tmp_path):
    for suffix in (".txt", ".md"):
        path = tmp_path / f"contract{suffix}"
        path.write_text(CONTRACT_TEXT, encoding="utf-8")
        contract = load_contract(path, max_bytes=LIMIT)
        assert contract.name == path.name
        assert [s.id for s in contract.sections] == ["h1", "1", "1.1", "2", "2.1"]
        section = contract.section("2.1")
        assert "State of New York" in contract.text[section.start : section.end]


def test_pdf_loads_text_and_sections(tmp_path):
    path = tmp_path / "contract.pdf"
    _pdf(path, ["1. PAYMENT", "1.1 The Buyer shall pay each invoice within sixty (60) days of receipt.",
                "2. GOVERNING LAW", "2.1 This Agreement is governed by the laws of the State of Delaware."])
    contract = load_contract(path, max_bytes=LIMIT)
    assert contract.section("1.1") is not None and contract.section("2.1") is not None
    assert "sixty (60) days" in contract.text


def test_cp1252_text_is_decoded(tmp_path):
    path = tmp_path / "contract.txt"
    path.write_bytes("1. PRICE\n\nThe price is 100 \u20ac per unit \u2013 fixed.".encode("cp1252"))
    assert "\u20ac" in load_contract(path, max_bytes=LIMIT).text


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "absent.txt", "no such file"),
        (lambda d: d, "directory"),
        (lambda d: _write(d / "empty.txt", b""), "empty"),
        (lambda d: _write(d / "blank.txt", b"   \n\t\n  "), "whitespace"),
        (lambda d: _write(d / "nul.txt", b"1. TERMS\x00\x01\x02 binary"), "binary"),
        (lambda d: _write(d / "noise.txt", bytes(range(128, 256)) * 40 + b"\x81\x8d\x8f\x90\x9d"), "decodable"),
        (lambda d: _write(d / "contract.docx", b"PK\x03\x04 not really"), "unsupported file type"),
        (lambda d: _write(d / "corrupt.pdf", b"%PDF-1.4\nthis is not a real pdf body\n%%EOF"), "corrupt"),
        (lambda d: _write(d / "random.pdf", b"\x00\x01garbage" * 50), "corrupt"),
    ],
    ids=["missing", "directory", "empty", "whitespace", "nul-bytes", "undecodable", "extension", "corrupt-pdf", "garbage-pdf"],
)
def test_bad_input_raises_one_line_input_error(tmp_path, make, message):
    with pytest.raises(ContractInputError) as info:
        load_contract(make(tmp_path), max_bytes=LIMIT)
    text = str(info.value)
    assert message in text
    assert "\n" not in text


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def test_pdf_without_text_is_rejected(tmp_path):
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 50, 50)  # a page with a drawing and no text, like a scan
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    with pytest.raises(ContractInputError, match="no extractable text"):
        load_contract(path, max_bytes=LIMIT)


def test_size_limit_checked_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    path.write_text("x" * 5000)
    from pathlib import Path

    def refuse(*_a, **_k):
        raise AssertionError("file was read although it is over the limit")

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(ContractInputError, match="over the 1,000-byte limit"):
        load_contract(path, max_bytes=1000)


def test_parse_contract_rejects_blank_text():
    with pytest.raises(ContractInputError, match="empty"):
        parse_contract("  \n ", "x.txt")
