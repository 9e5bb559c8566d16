"""Round-2 wordings of minimum commitments, termination for convenience and renewal notice
periods the detectors must read, and the look-alikes they must leave alone. All sentences are
synthetic."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    # a promised delivery or payment, with the figure written out or redacted
    "During the second contract year the Publisher will deliver not less than [*] page views to the Advertiser's site.",
    "For each calendar month of the Term, the Retailer shall pay the Promoter a minimum of [XXX] in cash.",
    "The Franchisee shall pay a monthly support fee of not less than five hundred dollars ($500).",
    # a sales threshold that keeps a right alive
    "The licence becomes non-exclusive if the Reseller fails to achieve annual revenues of $250,000.",
    "The Distributor must reach net sales of at least $1,000,000 in each contract year to keep its territory.",
])
def test_minimum_commitment_wordings(sentence):
    assert fires("minimum_commitment", sentence)


@pytest.mark.parametrize("sentence", [
    # severability and disclosure "minimums" are no commitment
    "Any invalid provision shall be limited to the minimum extent necessary so that the rest of this Agreement "
    "remains in effect, and the parties shall agree a minimum of two replacement terms.",
    "The Recipient may disclose only the minimum amount of the other party's information reasonably necessary to "
    "comply with a court order.",
    # notice days are no quantity
    "The Buyer will pay each invoice and deliver its forecast at least thirty (30) days before the quarter begins.",
])
def test_minimum_commitment_look_alikes(sentence):
    assert not fires("minimum_commitment", sentence)


@pytest.mark.parametrize("sentence", [
    "The Client may terminate this Agreement (including every statement of work issued under it, other than any "
    "statement of work on which another statement of work depends for its delivery) or any single statement of "
    "work for convenience at the end of any calendar month.",
])
def test_termination_for_convenience_wordings(sentence):
    assert fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    # "for convenience of reference" is about headings, however far it stands from a termination right
    "The Client may terminate this Agreement under Section 9 (including every statement of work issued under it, "
    "other than any statement of work on which another statement of work depends for its delivery), and the "
    "headings in that Section are for convenience of reference only.",
    # a right the holder promises not to use but on conditions
    "The Insurer shall have the right to terminate this Agreement upon thirty (30) days' prior written notice, "
    "provided that the Insurer agrees not to terminate this Agreement unless it sells the Company.",
])
def test_termination_for_convenience_look_alikes(sentence):
    assert not fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    # evergreen terms ended on notice
    "This Agreement shall commence on the Effective Date and shall remain in effect until terminated by either "
    "Party upon sixty (60) days' prior written notice.",
    "After the initial period the Agreement shall automatically continue in effect until either party gives the "
    "other at least three (3) months prior written notice of termination.",
    # notice before the expiry of a term or a renewal, the duration after it
    "The Agreement may be cancelled by either party before the expiry of the Agreement or any of its renewals, "
    "upon two months prior written notice.",
    # a renewal ended by a party's word, the notice period stated elsewhere or redacted
    "The Term is two years from the Effective Date with automatic one year extensions unless otherwise advised by "
    "one of the Parties.",
    "The term is five years, with automatic renewal for successive one-year terms unless no later than [***] days "
    "prior to the end of the then-current term either party notifies the other that it wishes to terminate.",
])
def test_renewal_notice_wordings(sentence):
    assert fires("renewal_notice", sentence)


@pytest.mark.parametrize("sentence", [
    # a fixed end date with no renewal and no notice to end one
    "This Agreement shall remain in effect for three (3) years and shall then expire.",
    # notice that exercises an option to extend is not notice to end a renewal
    "The Buyer may extend the term for a further year by giving notice of its election to extend at least sixty "
    "(60) days before the end of the term.",
    # a renewal only by a fresh agreement of the parties
    "The Term shall be extended for further one year periods upon the mutual agreement of the parties, and a party "
    "that wants an extension shall notify the other at least ninety (90) days prior to the end of the Term.",
    "After the Initial Term this Agreement may only be renewed if both parties agree in writing at least thirty (30) "
    "days before the expiration of the Initial Term.",
])
def test_renewal_notice_look_alikes(sentence):
    assert not fires("renewal_notice", sentence)
