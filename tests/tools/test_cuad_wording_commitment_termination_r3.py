"""Round-3 wordings of termination for convenience and minimum commitments the detectors must
read, and the look-alikes they must leave alone. All sentences are synthetic."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    # an enumerated alternative that is only a notice period outweighs the grounds of the other alternative
    "Either party may terminate this Agreement before the end of the Term: (i) upon sixty (60) days prior written "
    "notice, or (ii) immediately upon written notice if the other party becomes insolvent.",
    "The Buyer may terminate this Agreement upon written notice (a) in the event the Seller misses a delivery date, "
    "or (b) at any other time upon thirty (30) days' prior written notice of termination.",
    "This Agreement shall be terminated earlier (1) by written agreement of both parties, or (2) at any time upon "
    "ninety (90) days written notice to the other party.",
])
def test_termination_convenience_wordings(sentence):
    assert fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    # the notice period belongs to a ground: the alternative does not end at the notice
    "Either party may terminate this Agreement (i) upon thirty (30) days written notice, if the other party "
    "materially breaches this Agreement, or (ii) immediately if the other party becomes insolvent.",
    # a notice period that is no alternative of a termination right
    "Either party may terminate this Agreement if the other party fails to cure a breach (a) within thirty (30) "
    "days after notice of the breach.",
])
def test_termination_convenience_look_alikes(sentence):
    assert not fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    # a minimum named by its period
    "The Publisher shall use reasonable efforts to keep the traffic to the Site at a monthly minimum of [*] visits.",
    "The Licensee shall pay the Licensor a quarterly minimum against royalties as set out in Schedule B.",
])
def test_minimum_commitment_wordings(sentence):
    assert fires("minimum_commitment", sentence)


@pytest.mark.parametrize("sentence", [
    # a period and a minimum that are not one phrase
    "The annual report shall state the minimum of the readings taken.",
    "The annual meeting requires a minimum quorum of members.",
])
def test_minimum_commitment_look_alikes(sentence):
    assert not fires("minimum_commitment", sentence)
