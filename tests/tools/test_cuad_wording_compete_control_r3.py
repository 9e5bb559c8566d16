"""Round-three wordings of non-compete and exclusivity clauses the detectors must read, and the
look-alikes they must leave alone. The sentences are written for these tests, in the shapes
contracts use."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("detector_id, sentence", [
    # a ban on a whole line of business for a time, with no competitor named
    ("compete_restriction", "During the Term, neither Party shall, directly or indirectly, develop or commercialize any "
                            "other product for the treatment of migraine."),
    ("compete_restriction", "Throughout the Term and for a period of one year thereafter, the Distributor shall not, either "
                            "by itself or through a third party, sell or promote any sleep aid products other than the Products."),
    ("compete_restriction", "During the Term, the Developer will not, independently or with third parties, research or "
                            "manufacture any antibody products outside this Agreement."),
    # exclusivity granted in the operative clauses, as before
    ("exclusivity_grant", "The Owner hereby appoints the Reseller as its exclusive distributor in the Territory."),
])
def test_detector_reads_the_clause(detector_id: str, sentence: str) -> None:
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", [
    # with no time limit, a limit on what may be done with the licensed products is no non-compete
    ("compete_restriction", "The Licensee shall not, directly or indirectly, sell any Licensed Products to any person "
                            "except Approved Customers."),
    # a promise not to disclose, however long it runs, is no restraint on trade
    ("compete_restriction", "During the Term, the Recipient shall not, directly or indirectly, disclose any Confidential "
                            "Information to any third party."),
    # a recital tells the background; it grants no exclusive right
    ("exclusivity_grant", "WHEREAS, the Sponsor desires to acquire the exclusive right to be the lead sponsor of the Event;"),
    ("exclusivity_grant", "W I T N E S S E T H: WHEREAS, the Supplier has appointed the Agent as its exclusive agent under a prior agreement;"),
])
def test_detector_leaves_the_look_alike(detector_id: str, sentence: str) -> None:
    assert not fires(detector_id, sentence)
