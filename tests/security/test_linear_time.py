"""Every pass that reads a whole contract (the PII scrubber, the instruction screen, the sectioner)
is linear in the text or bounded per line: a text bomb cannot hold a review for minutes.

Two PDFs of a few KB that expand to one 1M-character line once held the PII name scan for more
than 120 s. Each shape below is one a quadratic pattern trips on: a single line of words, of
capitalised words, of capitalised name pairs, no spaces at all (letters, capitals, digits), a
line of blanks, many short lines that each read as a heading. A pass that goes quadratic on any
of them is stopped by the alarm and fails, instead of hanging the suite.
"""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable

import pytest

from memory.pii.local import LocalScrubber, _names
from memory.pii.persons import given_names, surnames
from memory.screen import screen_text
from tools.sections import find_headings, section_spans

MILLION = 1_000_000
LIMIT_S = 30  # a linear pass takes a few seconds even on a loaded 2-core machine


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


SHAPES = {
    "one line of prose": _repeat("Supplier shall deliver the Goods to Buyer at the Site; ", MILLION),
    "one line of capitals": _repeat("ALPHA BRAVO CHARLIE DELTA ", MILLION),
    "one line of name pairs": _repeat("Maria Garcia Chen Wei ", MILLION),
    "one line of name pairs and commas": _repeat("Maria Garcia, ", MILLION),
    "no spaces, capitals": "A" * MILLION,
    "no spaces, mixed case": _repeat("Ab", MILLION),
    "no spaces, digits": "7" * MILLION,
    "digit groups": _repeat("1234 ", MILLION),
    "blanks": " " * MILLION,
    "blanks and tabs between commas": _repeat(" ,\t", MILLION),
    "many short heading lines": _repeat("1. A\n", MILLION),
    "many short numbered lines": _repeat("7.3 Termination\n", MILLION),
    "cues and addresses": _repeat("Attn: Mr. John Smith, 12 High Street, London SW1A 1AA; ", MILLION),
    "encoded-looking run": _repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", MILLION),
    "repeated initials": _repeat("J. R. Smith, ", MILLION),
    "initials, no spaces": _repeat("J.R.", MILLION),
    "a single name described, repeated": _repeat("Suharto, an individual; ", MILLION),
}


def _people(size: int, seed: int = 7) -> str:
    """One line naming ever new people ("Mirela Okafor, an individual, ..."): every one found is
    then looked for everywhere, so a scan per name is quadratic."""
    rng = random.Random(seed)
    given, family = sorted(given_names()), sorted(surnames())
    parts, length = [], 0
    while length < size:
        part = f"{rng.choice(given).capitalize()} {rng.choice(family).capitalize()}, an individual, "
        parts.append(part)
        length += len(part)
    return "".join(parts)[:size]


SHAPES["one line of different people"] = _people(MILLION)


def _within(limit_s: int, work: Callable[[], object]) -> float:
    """Seconds `work` took; fails the test when it runs past `limit_s`."""

    def stop(*_: object) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(limit_s)
    started = time.perf_counter()
    try:
        work()
    except TimeoutError:
        pytest.fail(f"did not finish in {limit_s} s: not linear in the text")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - started


@pytest.fixture(scope="module")
def scrubber() -> LocalScrubber:
    scrubber = LocalScrubber()
    scrubber.scrub("Attention: Jane Doe, +44 20 7946 0233")  # Presidio's import is not the text's cost
    return scrubber


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_pii_scrubber_is_linear(scrubber, shape):
    _within(LIMIT_S, lambda: scrubber.scrub(SHAPES[shape]))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_instruction_screen_is_linear(shape):
    _within(LIMIT_S, lambda: screen_text(SHAPES[shape]))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_sectioner_is_linear(shape):
    text = SHAPES[shape]
    _within(LIMIT_S, lambda: section_spans(text, find_headings(text)))


def test_the_scrubber_still_finds_what_a_long_line_carries(scrubber):
    """Linear, and still right: values far into a 1M-character line are found."""
    filler = "Supplier shall deliver the Goods. " * 18_000  # 600k characters on one line
    text = (filler + "Attention: Marisol Etxeberria, marisol@example.org, IBAN GB82 WEST 1234 5698 7654 32. "
            + filler + " Etxeberria signs.")
    scrubbed = scrubber.scrub(text).text
    for value in ("Marisol", "Etxeberria", "marisol@example.org", "GB82 WEST"):
        assert value not in scrubbed, value


def test_the_name_scan_grows_linearly_with_the_people_named():
    """Issue 32: a few-KB PDF whose text is one line naming people held `_names` past 120 s. Ten
    times the text (and ten times the people) takes about ten times as long, not a hundred."""

    def seconds(size: int) -> float:
        text = _people(size)
        return min(_within(LIMIT_S, lambda: sum(1 for _ in _names(text))) for _ in range(3))

    small, large = seconds(20_000), seconds(200_000)
    assert large < 30 * small, (small, large)
