"""The HTML report opened in a real browser (headless Chromium): what a reviewer's browser
builds from it, and what it paints."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agent.report_html import render_html
from tests.cli.conftest import HOSTILE_MARKUP, HOSTILE_NAME
from tests.cli.htmldom import parse

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
MARK_RGB = (0xFF, 0xE5, 0x8A)  # the highlight colour of report_html's stylesheet


def _browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium binary on PATH (Debian: apt-get install chromium; .ci/run installs it)")


def _chromium(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"  # a new, empty one each run
    proc = subprocess.run(
        [_browser(), *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


@pytest.fixture
def page(report_with_memory, tmp_path) -> Path:
    path = tmp_path / "review.html"
    path.write_text(render_html(report_with_memory), encoding="utf-8")
    return path


def test_browser_dom_has_no_element_from_contract_text(page, report_with_memory, tmp_path):
    dom = parse(_chromium(tmp_path, page, "--dump-dom").stdout)
    assert dom.find("title").text() == f"Contract review: {HOSTILE_NAME}"  # no script changed it
    assert not {n.tag for n in dom.iter()} & {"script", "img", "iframe", "b", "i"}
    assert not [n for n in dom.iter() if n.attrs.get("id") == "forged"]
    assert HOSTILE_MARKUP in dom.text()
    findings = report_with_memory["findings"]
    quoted = [f for f in findings if f["verdict"] != "missing"]
    marks = dom.find_all("mark", "quote")
    assert len(marks) == len(quoted)  # contract text could not add or close a highlight
    assert sorted(m.text() for m in marks) == sorted(f["quote"] for f in quoted)
    assert len(dom.find_all("article", "finding")) == len(findings)
    groups = [n.attrs["id"] for n in dom.find_all("section") if "group" in n.classes]
    assert groups[0] == "r1-high"
    assert "Past episodes (1)" in dom.find("section", "memory").text()


def test_browser_paints_the_highlighted_quotes(page, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    shot = tmp_path / "review.png"
    _chromium(tmp_path, page, "--hide-scrollbars", "--window-size=1000,1600", f"--screenshot={shot}")
    image = Image.open(shot).convert("RGB")
    assert image.size == (1000, 1600)
    colours = image.getcolors(maxcolors=1 << 20)
    highlighted = sum(count for count, rgb in colours if all(abs(a - b) <= 6 for a, b in zip(rgb, MARK_RGB, strict=True)))
    assert highlighted > 5000  # the quotes of the first findings are visibly marked
    top = image.crop((0, 0, 1000, 800)).getcolors(maxcolors=1 << 20)
    assert len(top) > 50  # text and colour, not a blank page (hostile <style> did not hide it)
