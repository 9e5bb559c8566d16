"""Round-3 wordings of post-termination services and liquidated damages the detectors must read,
and the look-alikes they must pass over (synthetic sentences)."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    # a passive sell-off, and the end written as "the date of termination"
    "Any Licensed Articles made before the end of the term may be sold by the Licensee during the sixty (60) day "
    "period following the date of termination.",
    "The Vendor shall continue to supply spare parts for two years after the date of expiration.",
])
def test_post_termination_wordings_r3(sentence):
    assert fires("post_termination_services", sentence)


@pytest.mark.parametrize("sentence", [
    # a sale before the end is no obligation after it
    "Products sold before the date of termination shall be invoiced at the prices then in force.",
    # the end of a force majeure event, not of the contract (read by the contract-end wording itself)
    "Upon the termination of such force majeure event, the affected party shall promptly resume performance and "
    "continue to deliver the Products.",
])
def test_post_termination_lookalikes_r3(sentence):
    assert not fires("post_termination_services", sentence)


def test_termination_fee_is_read_when_it_is_owed():
    assert fires("liquidated_damages_clause", "The Customer shall pay the Termination Fee set out in Schedule B.")


def test_capitalised_termination_fee_alone_is_not_a_damages_clause():
    # a defined term merely named (a heading, a cross-reference) states no sum owed
    assert not fires("liquidated_damages_clause", "The Termination Fee is described in Schedule B.")


@pytest.mark.parametrize("sentence, expected", [
    ("All Products delivered to the Distributor shall have a remaining shelf life of at least twelve (12) months.", True),
    ("Each batch shall have, on delivery, a shelf-life of not less than eighteen (18) months.", True),
    # the shelf life merely mentioned, with no length promised
    ("The shelf life of each Product shall be printed on its label.", False),
])
def test_guaranteed_shelf_life_is_a_warranty_duration(sentence, expected):
    assert fires("warranty_duration", sentence) is expected
