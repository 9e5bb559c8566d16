"""Hostile PDFs: unsupported filters, deep nesting and text bombs are bad input (one line, exit 2),
never an internal error, a hang or an aborted batch.

The files are written byte by byte here (objects, xref table, trailer), so each one is exactly the
construct under test and nothing a PDF library would tidy away."""

from __future__ import annotations

import json
import time
import zlib

import pytest

from cli.main import main
from tests.conftest import SAMPLES
from tools.contract import load_contract
from tools.errors import ContractInputError

LIMIT = 20 * 1024 * 1024


def _pdf(page_streams: list[tuple[str, bytes]], extra_objects: list[bytes] = ()) -> bytes:
    """A PDF with one page per (filter, stream data) pair, a Helvetica font, and `extra_objects`
    appended as further numbered objects."""
    n_pages = len(page_streams)
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]  # 1 catalog, 2 pages (filled below)
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")  # 3
    kids = []
    for filter_name, data in page_streams:
        page_no, content_no = len(objects) + 1, len(objects) + 2
        kids.append(f"{page_no} 0 R".encode())
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                       f"/Contents {content_no} 0 R >>".encode())
        head = f"<< /Length {len(data)}" + (f" /Filter /{filter_name}" if filter_name else "") + " >>"
        objects.append(head.encode() + b"\nstream\n" + data + b"\nendstream")
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + f"] /Count {n_pages} >>".encode()
    objects.extend(extra_objects)
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _text(lines: list[str]) -> bytes:
    shown = b" ".join(f"({line}) Tj 0 -14 Td".encode() for line in lines)
    return b"BT /F1 11 Tf 72 720 Td " + shown + b" ET"


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def jbig2(tmp_path):
    """The page's text stream is JBIG2-encoded: pypdf needs an external decoder for it."""
    return _write(tmp_path, "jbig2.pdf", _pdf([("JBIG2Decode", b"\x97JB2\r\n\x1a\n" + b"\x00" * 64)]))


def nested(tmp_path):
    """An array nested 5,000 deep inside the page's content stream."""
    return _write(tmp_path, "nested.pdf", _pdf([("", b"BT /F1 11 Tf 72 720 Td " + b"[" * 5000 + b"]" * 5000
                                                     + b" TJ (1. TERMS) Tj ET")]))


def nested_object(tmp_path):
    """A dictionary nested 5,000 deep as an object of the file's own structure (the page's resources)."""
    data = _pdf([("", _text(["1. TERMS", "The Supplier shall deliver."]))])
    deep = b"<< /A " * 5000 + b"1" + b" >>" * 5000
    return _write(tmp_path, "nested_object.pdf",
                  data.replace(b"/Resources << /Font << /F1 3 0 R >> >>",
                               b"/Resources << /Font << /F1 3 0 R >> /Deep " + deep + b" >>"))


def bomb(tmp_path):
    """About 130 KB on disk that inflates to a page of over 40 million characters of shown text."""
    line = b"(" + b"A" * 200 + b") Tj "
    stream = b"BT /F1 1 Tf 0 0 Td " + line * (40_000_000 // 200) + b" ET"
    return _write(tmp_path, "bomb.pdf", _pdf([("FlateDecode", zlib.compress(stream, 9))]))


def many_pages(tmp_path):
    """Small pages, but more of them than any contract has."""
    page = ("FlateDecode", zlib.compress(_text(["Schedule line"] * 3)))
    return _write(tmp_path, "many_pages.pdf", _pdf([page] * 5000))


@pytest.mark.parametrize(("make", "message"), [
    (jbig2, "unsupported"), (nested, "nested"), (nested_object, "nested"),
    (bomb, "characters"), (many_pages, "pages"),
], ids=["jbig2", "nested-content", "nested-object", "text-bomb", "too-many-pages"])
def test_a_hostile_pdf_is_one_line_of_bad_input_and_quick(tmp_path, make, message):
    path = make(tmp_path)
    assert path.stat().st_size < 2_000_000  # far under the byte limit: the file size alone never catches these
    started = time.monotonic()
    with pytest.raises(ContractInputError) as info:
        load_contract(path, max_bytes=LIMIT)
    assert time.monotonic() - started < 60  # refused on the way, not after extracting 40M characters
    text = str(info.value)
    assert message in text and "\n" not in text and str(path) in text


def test_a_bomb_in_a_batch_is_exit_2_and_the_other_files_are_reviewed(settings, tmp_path, capsys):
    good = SAMPLES / "northwind_msa_01.txt"
    code = main(["review", str(good), str(bomb(tmp_path)), str(nested(tmp_path)), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 2, err
    reports = json.loads(out)
    assert [r["contract"] for r in reports] == ["northwind_msa_01.txt"]
    errors = [line for line in err.splitlines() if line.startswith(("error:", "internal error:", "Traceback"))]
    assert len(errors) == 2 and all(line.startswith("error: ") for line in errors), err
