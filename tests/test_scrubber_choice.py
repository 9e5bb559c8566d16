"""The consolidate step scrubs with the configured scrubber (local offline, Comprehend on AWS)."""

from __future__ import annotations

import pytest

from graphs.runner import Reviewer, open_checkpointer
from memory.errors import MemoryConfigError
from memory.pii import ScrubResult, load_scrubber
from memory.pii.local import LocalScrubber
from tests.conftest import SAMPLES


class RecordingScrubber:
    """The local scrubber, counting what it was asked to clean."""

    def __init__(self):
        self.inner = LocalScrubber()
        self.texts: list[str] = []

    def scrub(self, text: str) -> ScrubResult:
        self.texts.append(text)
        return self.inner.scrub(text)


def test_every_durable_write_goes_through_the_configured_scrubber(settings):
    scrubber = RecordingScrubber()
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings, saver, pii_scrubber=scrubber).review_path(SAMPLES / "northwind_msa_01.txt")
    assert report["memory"]["writes"]["episode"]
    assert any("northwind_msa_01" in text for text in scrubber.texts)  # the task summary
    assert sum("liability_cap in section" in text for text in scrubber.texts) == 1  # each finding once


def test_scrubber_specs():
    assert isinstance(load_scrubber("local"), LocalScrubber)
    pytest.importorskip("boto3")
    from memory.pii.comprehend import ComprehendScrubber

    assert isinstance(load_scrubber("comprehend", region="eu-west-1"), ComprehendScrubber)  # no network call
    with pytest.raises(MemoryConfigError, match="local"):
        load_scrubber("regex-only")
