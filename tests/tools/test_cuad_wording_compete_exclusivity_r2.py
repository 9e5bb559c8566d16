"""Round-two wordings of exclusivity and non-compete clauses the detectors must read, and the
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
    # exclusive dealing: no services for the other side's rivals, services given exclusively
    ("exclusivity_grant", "The Carrier agrees not to provide overnight freight services for any other provider of parcel services."),
    ("exclusivity_grant", "The Contractor shall not sell the Units to any other distributor in the Region."),
    ("exclusivity_grant", "The Studio will provide printing services exclusively, at the Publisher's option, once volumes are met."),
    # a promise not to license third parties
    ("exclusivity_grant", "During the Term, the Owner will not grant any third party any right to advertise on the Portal."),
    ("exclusivity_grant", "The Owner will not grant to any Third Party any rights to the Patents before the Option lapses."),
    # the grant declared exclusive after the fact
    ("exclusivity_grant", "The rights granted to the Sponsor herein are exclusive to the Sponsor within the Beverage Category."),
    ("exclusivity_grant", "Except as stated below, the license granted herein shall be exclusive."),
    # the sole supplier, as before
    ("exclusivity_grant", "The Buyer agrees that the Seller shall be its only supplier of the Components."),
])
def test_detector_reads_the_wording(detector_id: str, sentence: str) -> None:
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", [
    # a role word before a capitalised noun names a defined group, not a sole supplier
    ("exclusivity_grant", "The Contractor will ensure that only Vendor Personnel are allowed to enter the Customer's premises."),
    # "exclusive of" taxes or other remedies
    ("exclusivity_grant", "All license fees are exclusive of sales, use and similar taxes, which the Licensee shall bear."),
    ("exclusivity_grant", "The rights and remedies herein are cumulative and shall not be exclusive of any other remedy."),
    # freedoms worded as "shall not be prevented from" / "deemed not to be preventing"
    ("compete_restriction", "The Consultant's service on other boards shall be deemed not to be preventing the Consultant from "
                            "performing hereunder, so long as those activities are not directly competitive with the Company."),
    ("compete_restriction", "The Distributor shall not be prevented from selling competing products outside the Territory."),
    ("non_compete", "The Distributor shall not be prevented from selling competing products outside the Territory."),
    # a grant conditioned on a covenant that lives in another agreement
    ("compete_restriction", "Subject to the Seller's compliance with the covenant not to compete in Section 6 of the Purchase "
                            "Agreement, the Buyer grants the Seller a non-exclusive license to use the Patents."),
    ("compete_restriction", "The Client grants the Bureau a nonexclusive right to use the Data in accordance with the "
                            "Non-Competition Agreement."),
    # a fee "competitive with" market rates
    ("compete_restriction", "The Manager shall not keep the whole fee but will pass on to the dealers an amount competitive "
                            "with the customary underwriting discounts."),
])
def test_detector_leaves_the_look_alike(detector_id: str, sentence: str) -> None:
    assert not fires(detector_id, sentence)


def test_covenant_still_read_beside_the_new_exclusions() -> None:
    # the exclusions must not swallow a plain covenant
    assert fires("compete_restriction", "During the Term the Distributor shall not sell any products that compete with the Products.")
    assert fires("compete_restriction", "The Reseller shall not market any product which competes with the Products, "
                                        "in accordance with the terms of this Agreement.")


def test_playbook_exclusivity_skips_defined_groups() -> None:
    assert fires("exclusivity", "The Buyer agrees that the Seller shall be its only supplier of the Components.")
    assert not fires("exclusivity", "The Contractor will ensure that only Vendor Personnel are allowed to enter the Customer's premises.")
