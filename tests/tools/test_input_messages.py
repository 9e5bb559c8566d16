"""Each unreadable input is named for what it is (issue 32): a UTF-16 text is read, not called
binary; a file of spaces is "only whitespace" whatever the spaces; a FIFO, a device, a symbolic
link loop or a dangling link are said to be so, never "empty" or "no such file", and reading a
FIFO never blocks."""

from __future__ import annotations

import os
import threading

import pytest

from tools.contract import load_contract
from tools.errors import ContractInputError

LIMIT = 1_000_000
TEXT = ("SUPPLY AGREEMENT\n\n1. PAYMENT\n\n1.1 The Buyer shall pay each invoice within sixty (60) days.\n\n"
        "2. GOVERNING LAW\n\n2.1 This Agreement is governed by the laws of Ontario, Canada. Prix: 100 \u20ac.\n")


def _refused(path) -> str:
    with pytest.raises(ContractInputError) as info:
        load_contract(path, max_bytes=LIMIT)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_utf16_or_utf32_text_is_read_as_text(tmp_path, encoding):
    path = tmp_path / "contract.txt"
    path.write_bytes(TEXT.encode(encoding))  # "utf-16"/"utf-32" write a BOM, -le/-be none
    contract = load_contract(path, max_bytes=LIMIT)
    assert "sixty (60) days" in contract.text and "\u20ac" in contract.text
    assert contract.section("2.1") is not None


@pytest.mark.parametrize("spaces", ["\u00a0\u00a0\n", "\u3000\u2003\u2009\r\n\t", "\u200b\u2060\ufeff \n", "\u2028\u2029\x85"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_file_of_spaces_is_only_whitespace(tmp_path, spaces, encoding):
    path = tmp_path / "blank.txt"
    path.write_bytes((spaces * 40).encode(encoding))
    message = _refused(path)
    assert "only whitespace" in message, message


def test_a_binary_file_is_still_called_binary(tmp_path):
    path = tmp_path / "image.txt"
    path.write_bytes(bytes(range(256)) * 8)
    assert "binary" in _refused(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_named_and_never_read(tmp_path):
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    found: list[str] = []
    reader = threading.Thread(target=lambda: found.append(_refused(path)), daemon=True)
    reader.start()
    reader.join(10)
    assert found, "loading a FIFO blocked"
    assert "named pipe" in found[0] and "empty" not in found[0], found[0]


def test_a_device_is_not_a_regular_file(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / "zeros.txt"
    link.symlink_to("/dev/zero")
    message = _refused(link)
    assert "device" in message and "empty" not in message, message


def test_a_symlink_loop_is_named(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.symlink_to(second)
    second.symlink_to(first)
    message = _refused(first)
    assert "symbolic link" in message and "loop" in message, message
    assert "no such file" not in message


def test_a_dangling_symlink_names_its_target(tmp_path):
    link = tmp_path / "contract.txt"
    link.symlink_to(tmp_path / "moved-away.txt")
    message = _refused(link)
    assert "symbolic link" in message and "moved-away.txt" in message, message


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_says_permission(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text(TEXT)
    path.chmod(0)
    assert "permission" in _refused(path).lower()
