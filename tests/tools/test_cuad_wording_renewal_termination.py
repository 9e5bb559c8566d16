"""Wordings of termination for convenience, renewal terms and renewal notice periods the
detectors must read, and the look-alikes they must leave alone. All sentences are synthetic."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    "Either party may terminate this Agreement by giving the other party sixty (60) days' prior written notice.",
    "The Services may be terminated by either party giving the other at least three months' notice in writing.",
    "The Customer may terminate this Agreement for non-cause with ninety (90) days written notice.",
    "(b) by the Buyer for any reason upon forty-five (45) days' written notice to the Seller;",
    "(c) At any time upon one hundred twenty (120) days prior written notice of termination to the other party.",
    "Either party may terminate this Agreement at any time on prior written notice to the other.",
    "The Reseller may terminate this Agreement upon prior written notice to the Vendor.",
    "A party wishing to terminate this Agreement must give the other party written notice at least sixty (60) days "
    "prior to the termination date.",
    "The Licence shall be terminable by either party upon ninety (90) days' written notice to the other party.",
    "The Sponsor shall have the right at any time before the end of the second season to terminate this Agreement "
    "by giving written notice of termination to the Team.",
    "After the first year this Agreement shall remain in force until terminated by either party upon thirty (30) "
    "days' written notice.",
    "The Agent may terminate its engagement at any time, for any reason, including if it is dissatisfied with the "
    "Services.",
])
def test_termination_for_convenience_wordings(sentence):
    assert fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    # a right that hangs on a breach, an event, a change of control or a cure period
    "If the other party violates this Agreement, either party may terminate it upon thirty (30) days' written notice.",
    "In the event that a force majeure event continues for ninety (90) days, the other party may terminate this "
    "Agreement upon ten (10) days' notice.",
    "Either party may terminate this Agreement upon sixty (60) days notice following a change of control of the "
    "other party.",
    "This Agreement may be terminated by either party upon thirty (30) days written notice and an opportunity to cure.",
    # ending at the end of a term is non-renewal
    "Either party may terminate this Agreement at the end of the initial term by giving the other party ninety (90) "
    "days' written notice.",
    # no right at all
    "The licence granted in this Article shall not be terminable for any reason.",
    "Termination for Convenience - This Agreement may not be terminated by either party for its own convenience.",
    # a lead-in to a list of grounds, a board vote, a cross-reference, an immediate termination
    "The Agent may terminate this Agreement by giving notice at any time before closing on any of the following "
    "grounds:",
    "This Agreement may be terminated at any time, without penalty, by a vote of a majority of the Board on sixty "
    "(60) days' written notice.",
    "This Addendum may be terminated at any time by either party in accordance with the termination provisions of "
    "the Master Agreement.",
    "The Seller may terminate this Agreement immediately upon written notice to the Buyer.",
])
def test_termination_for_convenience_look_alikes(sentence):
    assert not fires("termination_convenience", sentence)


@pytest.mark.parametrize("sentence", [
    "The initial term is two years, with automatic one (1) year term extensions unless either party objects.",
    "Thereafter, this Agreement shall automatically continue for successive one-year periods.",
    "This Agreement shall continue for one year and from year to year thereafter unless terminated.",
    "The term shall be extended for a further two (2) years if the sales targets are met.",
    "The Licensee shall have the right to annually renew this Agreement for one year.",
    "The term is five years, extendable for a further five years unless notice of non-renewal is given one year "
    "before expiry.",
    "The Distributor is appointed on an evergreen basis.",
])
def test_renewal_term_wordings(sentence):
    assert fires("auto_renewal", sentence)


@pytest.mark.parametrize("sentence", [
    "The licence rights do not automatically extend to any affiliate of the Licensee.",
    "WHEREAS, the parties wish to extend the term of the Statement of Work to cover additional services;",
    "If a force majeure event occurs, the time for performance shall be automatically extended for a period equal "
    "to the delay.",
    "The Franchisee acknowledges that this Agreement is non-renewable.",
    "This Agreement is effective from the date of signing and shall continue in effect thereafter until terminated "
    "under Section 9.",
    "Customer payments are settled daily through the Evergreen Gateway.",
])
def test_renewal_term_look_alikes(sentence):
    assert not fires("auto_renewal", sentence)


@pytest.mark.parametrize("sentence", [
    "This Agreement shall renew automatically for successive one-year terms unless either party gives written "
    "notice of termination at least sixty (60) days prior to the date of expiration.",
    "The term renews for one-month periods unless either party provides 30 days advance notice of termination.",
    "This Agreement shall automatically be renewed for one (1) year increments unless either party requests in "
    "writing, at least ninety (90) days prior to the anniversary date, that it not be renewed.",
    "The Agreement shall automatically renew for successive one year terms unless terminated by either party at "
    "least six months prior to the expiration of the then-current term.",
    "This Agreement may be terminated by either party at the expiration of the initial term or any renewal term "
    "upon thirty (30) days written notice.",
    "After the Initial Term this Agreement shall continue on a month to month basis until terminated by either "
    "party upon thirty (30) days prior written notice.",
])
def test_renewal_notice_wordings(sentence):
    assert fires("renewal_notice", sentence)


@pytest.mark.parametrize("sentence", [
    # notice that exercises a renewal option is not notice to end the renewal
    "The Distributor may exercise its renewal option by giving written notice no later than six (6) months prior "
    "to the expiration of the term.",
    "If either party wishes to extend the term, it shall give notice to the other not later than ninety (90) days "
    "before the end of the term.",
    "You shall give us notice in writing of your election to renew at least three (3) months prior to the "
    "expiration of the term.",
    "The Supplier may, by written notice given at least sixty (60) days prior to the end of the term, extend the "
    "term of this Agreement for one further year.",
])
def test_renewal_notice_look_alikes(sentence):
    assert not fires("renewal_notice", sentence)
