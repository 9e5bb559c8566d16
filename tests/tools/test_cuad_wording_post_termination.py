"""Wordings of post-termination services, warranty duration and liquidated damages that the
CUAD detectors must read, and the look-alikes they must pass over (synthetic sentences)."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    "The Vendor warrants that the Goods shall be free from defects in materials and workmanship for a period of "
    "eighteen (18) months from delivery.",
    "The Seller warrants the Equipment against defects for a period of [***] from installation.",
    "Any defect notified within ninety (90) days of shipment shall be remedied at the Seller's cost.",
    "The Warranty Term for each unit begins on the date of its acceptance by the Buyer.",
    "The Buyer may reject any Products that fail to conform to the Specifications by written notice within "
    "thirty (30) days after receipt of the shipment.",
    "Products not rejected within [***] days of delivery shall be deemed accepted by the Buyer.",
    "Within ten (10) working days after arrival of the goods, the Buyer shall report any shortage or damaged goods.",
])
def test_warranty_duration_wordings(sentence):
    assert fires("warranty_duration", sentence)


@pytest.mark.parametrize("sentence", [
    # securities warrants
    "The Warrants shall be exercisable for a period of five (5) years from their date of issue.",
    "All options and warrants held by the Consultant may be exercised for one (1) year after his departure.",
    # the parties' general representations, their survival, and a breach cure period
    "Either party may terminate this Agreement if the other materially breaches its representations, warranties or "
    "covenants and fails to cure the breach within thirty (30) days after notice.",
    "All representations and warranties of the parties shall survive for a period of two (2) years from the Closing.",
    # promises for the life of the contract
    "The Agent represents and warrants that it will not grant similar rights to anyone during the Term and for a "
    "period of one (1) year thereafter.",
    "The Licensee warrants to pay the fees within fifteen (15) days of each invoice.",
    # approving marketing material or purchase orders is no rejection of goods
    "The Licensor shall approve or reject any advertising materials within fourteen (14) days of receipt.",
    "The Supplier will accept or reject each purchase order within five (5) days after receipt of the order.",
])
def test_warranty_duration_look_alikes(sentence):
    assert not fires("warranty_duration", sentence)


@pytest.mark.parametrize("sentence", [
    "If this Agreement is terminated by the Customer for the Vendor's default, the Vendor shall continue to "
    "provide support to the Customer's existing users.",
    "In the event that the Company terminates this Agreement, the Reseller shall refer all pending inquiries to "
    "the Company.",
    "Upon expiration of this Agreement, the Supplier shall deliver to the Buyer all tooling held for the Products.",
    "During the Sell-Off Period the Licensee may continue to distribute Products already manufactured.",
    "For twelve (12) months following termination of this Agreement, the Licensee shall state on its website that "
    "it is no longer associated with the Licensor.",
    "Upon expiry of this Agreement, the Provider shall render transition assistance to any successor provider.",
    "Upon termination of this Agreement, the Vendor will (a) provide reasonable assistance in migrating the data.",
    "In the event that the Reseller terminates this Agreement, the Reseller will notify its customers that support "
    "has ended.",
    "The Distributor shall keep complete records of all sales for a three (3) year period following the expiration "
    "of this Agreement.",
])
def test_post_termination_wordings(sentence):
    assert fires("post_termination_services", sentence)


@pytest.mark.parametrize("sentence", [
    # survival clauses keep terms alive but promise no service
    "Upon termination of this Agreement, Sections 4, 7 and 9 shall continue to have binding effect on the parties.",
    "Any rights and obligations which by their nature survive shall survive after termination of this Agreement.",
    # settling what was earned before the end
    "Upon termination of this Agreement, the Buyer shall pay all amounts payable up to the date of termination.",
    # an ending other than the contract's, or a transition that is no wind-down
    "The Auditor's certificate shall be delivered within three (3) months after expiry of each financial year of "
    "the Licensee and the Licensee shall pay any shortfall.",
    "The Licensee may use the marks during the Transition Period set out in the separation agreement.",
    # return or destruction of secrets, and no-hire covenants
    "Upon termination of this Agreement, each party shall return or destroy the other party's trade secrets.",
    "For a period of one (1) year following termination of this Agreement, neither party shall solicit or hire the "
    "other party's employees.",
    # a fee for ending early is liquidated damages, not a service after the end
    "In the event the Customer terminates this Agreement for convenience, the Customer will pay the early "
    "termination charges set out below.",
])
def test_post_termination_look_alikes(sentence):
    assert not fires("post_termination_services", sentence)


@pytest.mark.parametrize("sentence", [
    "If the Buyer ends the contract before the third anniversary, it shall pay the Seller a termination fee equal "
    "to six months of charges.",
    "Should the Customer cancel the order, the Customer agrees to pay a cancellation fee of $2,000 per month remaining.",
    "The Supplier may elect to receive an early termination penalty in lieu of further performance.",
])
def test_liquidated_damages_wordings(sentence):
    assert fires("liquidated_damages_clause", sentence)


@pytest.mark.parametrize("sentence", [
    "The Buyer may terminate this Agreement immediately and without any early termination penalty if the Seller "
    "breaches the anti-bribery laws.",
    "Neither party shall be liable to pay any termination fees upon expiry of the Term.",
])
def test_liquidated_damages_look_alikes(sentence):
    assert not fires("liquidated_damages_clause", sentence)
