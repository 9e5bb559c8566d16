"""Wordings of exclusivity, non-compete, change of control, most-favoured-nation and price
restriction clauses the detectors must read, and the look-alikes they must leave alone.
The sentences are written for these tests, in the shapes contracts use."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("detector_id, sentence", [
    # exclusivity: a role given to one party alone, an exclusive licence, a promise not to deal with others
    ("exclusivity_grant", "During the Term, Acme shall be the exclusive online travel booking provider on the Portal."),
    ("exclusivity_grant", "The Company appoints the Agent as its exclusive financial advisor for the Offering."),
    ("exclusivity_grant", "Licensor hereby grants Licensee an exclusive, worldwide, royalty-free license to use the Software."),
    ("exclusivity_grant", "Owner grants Operator a perpetual, irrevocable, exclusive and sublicensable right to operate the Marks."),
    ("exclusivity_grant", "Licensor grants Licensee an exclusive (save for the rights reserved to Licensor), non-transferable "
                          "(except as provided in Section 9) and non-sublicensable license to distribute the Content."),
    ("exclusivity_grant", "During the Term the Athlete will not enter into any other endorsement agreement for sports drinks."),
    ("exclusivity_grant", "The Athlete agrees not to grant the right to use his likeness to anyone other than the Sponsor."),
    ("exclusivity_grant", "The Station shall not enter into the same or substantially similar arrangements with any other network."),
    ("exclusivity_grant", "The Distributor shall have an exclusive license under the patents and other intellectual property to sell the Product."),
    ("exclusivity", "During the Term, Acme shall be the exclusive online travel booking provider on the Portal."),
    # non-compete
    ("compete_restriction", "The Publisher shall not run banner advertisements on the Site for any of the Retailer's competitors."),
    ("compete_restriction", "The Agent agrees not to sell any competing insurance products in the Territory."),
    ("compete_restriction", "The Consultant will not endorse any other product which is directly competitive to the Company's products."),
    ("compete_restriction", "You shall not, without the prior written consent of the Company, either alone or jointly, directly or "
                            "indirectly, carry on or be engaged in any other trade or business."),
    ("compete_restriction", "After such termination the defaulting party shall not enter into an agreement with any other party "
                            "to provide services similar to those provided herein for twelve (12) months."),
    ("non_compete", "The Publisher shall not run banner advertisements on the Site for any of the Retailer's competitors."),
    # change of control
    ("change_of_control", "In the event of the merger or consolidation of the Company with any other entity, the Artist shall "
                          "have the right to terminate this Agreement by written notice."),
    ("change_of_control", "This Agreement shall terminate within thirty (30) days after the Licensee is acquired by a third party."),
    ("change_of_control", "This Agreement shall terminate in the event of a significant change in the management or ownership of the Reseller."),
    ("change_of_control", "Any merger, consolidation or reorganization involving the Licensee will be deemed to be a transfer "
                          "requiring the Licensor's consent."),
    ("change_of_control", "A \"transfer\" shall be deemed to include a merger of a party with another entity or an acquisition "
                          "of the power to control its management."),
    # most favoured nation
    ("most_favored_nation", "The terms offered to the Reseller shall be no less favourable than the terms in effect with any other reseller."),
    ("most_favored_nation", "The Client will not be charged a higher fee than the Vendor makes available to its other clients."),
    ("most_favored_nation", "The Investor shall have the full benefit of any more favourable terms granted to a later investor."),
    # price restrictions
    ("price_restrictions", "The parties may renew for another year with fees that do not exceed a five percent increase over the current fees."),
    ("price_restrictions", "Services performed for the Owner on such projects shall be charged at cost without markup."),
    ("price_restrictions", "The Supplier shall not increase the prices set out in Schedule A during the first year."),
])
def test_general_wording_is_found(detector_id, sentence):
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", [
    # ownership of intellectual property and decision rights are not exclusivity
    ("exclusivity_grant", "All trademarks used by the Distributor shall remain the sole and exclusive property of the Manufacturer."),
    ("exclusivity_grant", "The Licensee acknowledges the Licensor's exclusive right, title and interest in and to the Marks."),
    ("exclusivity_grant", "The Licensor shall have the exclusive right, but not the obligation, to prosecute any infringement of the Marks."),
    ("exclusivity_grant", "Each party shall have the exclusive right to remove and replace its own representatives on the committee."),
    ("exclusivity_grant", "The Developer owns the sole and exclusive right of the intellectual property in all improvements."),
    ("exclusivity", "All trademarks used by the Distributor shall remain the sole and exclusive property of the Manufacturer."),
    # non-exclusive grants, disclaimed exclusivity
    ("exclusivity_grant", "The Supplier grants the Reseller a non- exclusive, worldwide, royalty-free license to use the Software."),
    ("exclusivity_grant", "The Company appoints the Dealer as its non-exclusive authorized dealer for the Products."),
    ("exclusivity_grant", "The Sponsor acknowledges that it does not and will not have exclusive rights at the Event."),
    ("exclusivity_grant", "The parties will not enter into any other agreement with respect to the Bank Accounts."),
    # freedoms, representations and definitions that merely mention competition
    ("compete_restriction", "Nothing in this Agreement shall preclude the Licensor from licensing the Mark to other entities, "
                            "whether or not such entity competes with the Licensee."),
    ("compete_restriction", "The Consultant is not under any obligation, including any obligation of non-competition, "
                            "which prevents the Consultant from performing this Agreement."),
    ("compete_restriction", "The Supplier may place two non-competitive third party logos on the packaging."),
    ("compete_restriction", "\"Competing Product\" means any product that competes with the Product in the Territory."),
    ("compete_restriction", "The support services include, but are not limited to, supporting products sold to any of the "
                            "Customer's competitors."),
    # change of control needs a change of owner, not any termination
    ("change_of_control", "Either party may terminate this Agreement if the other party fails to cure a material breach."),
    # an arm's-length standard for dealings with affiliates is not most-favoured pricing
    ("most_favored_nation", "The Servicer may deal with its Affiliates, provided that the terms are no less favourable to the Owner "
                            "than would be available from unaffiliated parties."),
    # a cap on fees or expenses is not a restriction on raising a price
    ("price_restrictions", "The Company will reimburse the Agent's legal fees and expenses, which shall not exceed $50,000."),
    ("price_restrictions", "The Supplier may adjust its prices from time to time, including but not limited to raising or lowering them."),
])
def test_look_alikes_are_not_found(detector_id, sentence):
    assert not fires(detector_id, sentence)
