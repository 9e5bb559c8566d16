"""Round-2 wordings of post-termination services and liquidated damages the detectors must read,
and the look-alikes they must pass over (synthetic sentences)."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    # an act promised upon the end: performing, completing, delivering
    "Upon termination, the Contractor agrees to perform the handover of all project files then required.",
    "Upon expiry of this Agreement, the Supplier shall complete all purchase orders accepted before that date.",
    "If this Agreement is terminated, the Agent shall promptly deliver to the Principal all customer lists and files.",
    # a right that outlasts the end
    "Upon any expiration or termination of this Agreement, the Reseller shall have a reasonable period of time to "
    "remove the Licensor's logos from its website.",
    "Following the termination of this Agreement, the Distributor shall be entitled to sell its remaining inventory "
    "for sixty (60) days.",
    "Upon termination, each party shall have the right to remove any reference to the other from its materials.",
])
def test_post_termination_wordings_r2(sentence):
    assert fires("post_termination_services", sentence)


@pytest.mark.parametrize("sentence", [
    # a survival term for confidentiality, however many end-of-term wordings it repeats
    "The confidentiality obligations herein shall continue during the Term and for a period of three (3) years after "
    "termination or expiry of this Agreement.",
    # a non-circumvention covenant that runs past the end
    "The Consultant shall not circumvent the Company's relationships with its vendors for a period of two (2) years "
    "following termination of this Agreement.",
    # "provider" and "seller" are no act that continues
    "Either party may appoint a new logistics provider for one (1) year, beginning on the day following termination "
    "of this Agreement.",
    # a right the end takes away
    "Upon termination of this Agreement, the Licensee shall no longer have the right to use the Licensor's marks.",
    "Upon expiry of this Agreement, the Distributor shall not have any right to sell the Products.",
    # an entry of a table of contents
    "Section 12.3 Transition Assistance upon Termination or Expiration ........................................ 41",
])
def test_post_termination_look_alikes_r2(sentence):
    assert not fires("post_termination_services", sentence)


@pytest.mark.parametrize("sentence", [
    "The Company may end the engagement on three months' notice together with a termination payment equal to one "
    "year of retainer.",
    "The exit fee shall be calculated as twelve months of the average monthly charges.",
])
def test_liquidated_damages_wordings_r2(sentence):
    assert fires("liquidated_damages_clause", sentence)


@pytest.mark.parametrize("sentence", [
    "The Distributor shall pay the fees set out in Schedule B within thirty (30) days of each invoice.",
    "Neither party shall be obliged to pay any termination charges upon expiry of the Term.",
])
def test_liquidated_damages_look_alikes_r2(sentence):
    assert not fires("liquidated_damages_clause", sentence)


@pytest.mark.parametrize("sentence", [
    "If the Supplier fails to deliver by the agreed date, the Supplier shall credit the Buyer two per cent (2%) of the "
    "order value for each week of delay.",
    "If the Buyer cancels an accepted order, the Buyer shall pay a cancellation charge of 20% of its price.",
])
def test_playbook_liquidated_damages_wordings(sentence):
    assert fires("liquidated_damages", sentence)


@pytest.mark.parametrize("sentence", [
    # a credit for goods sent back is a refund
    "The Seller shall credit the Distributor's account with the price paid for any returned Products.",
    "If the goods are found defective, the Manufacturer shall credit the Customer with their invoiced value.",
    # freedom from a termination fee
    "The Customer shall not be liable for any termination charges when it ends this Agreement for the Supplier's "
    "breach.",
])
def test_playbook_liquidated_damages_look_alikes(sentence):
    assert not fires("liquidated_damages", sentence)
