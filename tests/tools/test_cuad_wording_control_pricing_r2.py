"""Change of control, most-favoured-nation and price restriction wordings (round 2): the clauses
the detectors must still read, and the securities and employment look-alikes they now leave alone.
The sentences are written for these tests, in the shapes contracts use."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("detector_id, sentence", [
    # a party's takeover that lets the other end the contract
    ("change_of_control", "In the event of a change of control of the Distributor, the Supplier may terminate this Agreement "
                          "on thirty (30) days written notice."),
    # a change in who holds a party's shares, said of its "shareholding structure"
    ("change_of_control", "Either Party may terminate this Agreement by written notice if the shareholding structure of the "
                          "other Party changes."),
    ("change_of_control", "The Licensor may end this Agreement if there is a change in the equity structure of the Licensee."),
    # a merger the party does not survive
    ("change_of_control", "If a Party enters into a merger in which it is not the surviving entity and the survivor acquires "
                          "all or substantially all of its assets, the survivor shall assume this Agreement."),
    # "warrants" the verb is not a warrant to buy shares
    ("most_favored_nation", "The Supplier warrants that the prices charged to the Buyer shall be no less favourable than the "
                            "prices charged to any other customer for like quantities."),
    ("most_favored_nation", "The Reseller shall receive the benefit of any more favourable prices the Vendor offers to other resellers."),
    # a grant to others barred on better terms than this party was offered
    ("most_favored_nation", "Licensor shall not grant any licence to a third party at terms more favourable to that third "
                            "party than those offered to Licensee."),
    ("price_restrictions", "The Supplier warrants that the prices for the Products shall not be increased during the first year."),
    ("price_restrictions", "Any annual adjustment of the Fees shall not exceed five percent (5%) of the Fees then in effect."),
])
def test_detector_reads(detector_id: str, sentence: str) -> None:
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", [
    # an executive's severance when the employer changes hands
    ("change_of_control", "If the Executive terminates employment for Good Reason within twelve months after a Change in "
                          "Control, the Company shall pay the severance set out in Section 5."),
    # terms of a sale of shares, a lock-up or a warrant, not the price of goods or services
    ("most_favored_nation", "The Seller may then sell the shares to a third party on terms no more favourable than those "
                            "offered to the other shareholders, including the price."),
    ("most_favored_nation", "Holder will sign a lock-up agreement with the underwriters, on terms not less favourable to Holder "
                            "than the terms agreed with any other holder."),
    ("price_restrictions", "The exercise price of the warrants shall be one dollar per share and shall not be increased for any reason."),
    ("price_restrictions", "The Company shall issue to the Consultant a warrant to purchase common stock, and its price "
                           "shall not be changed."),
])
def test_detector_leaves_alone(detector_id: str, sentence: str) -> None:
    assert not fires(detector_id, sentence)
