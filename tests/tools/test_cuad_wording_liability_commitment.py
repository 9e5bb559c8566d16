"""Liability caps, uncapped carve-outs and minimum commitments: general wordings the detectors
must read and the look-alikes they must leave alone (synthetic sentences, not from any filing)."""

from __future__ import annotations

import pytest

from tools.clauses import score_sentence
from tools.rules import DETECTORS


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


@pytest.mark.parametrize("sentence", [
    # a carve-out by cross-reference from an exclusion of indirect damages
    "EXCEPT UNDER SECTION 12, IN NO EVENT WILL EITHER PARTY BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES.",
    "Excepting only claims made pursuant to Section 7.2, in no event shall either party be liable for lost profits.",
    "Except for amounts owed under the indemnities in Section 10, neither party will, under any circumstances, "
    "be liable to the other party for lost profits.",
    # the cap itself switched off for named breaches
    "The Liability Cap will not apply to any breach of confidentiality or to indemnification obligations.",
])
def test_uncapped_carveouts_are_found(sentence):
    assert fires("uncapped_carveout", sentence)


@pytest.mark.parametrize("sentence", [
    # claims-procedure boilerplate of an indemnity
    "If the indemnifying party assumes the defense of such claim, the indemnifying party shall not be liable for legal "
    "expenses subsequently incurred by the indemnified party, other than reasonable costs of investigation.",
    # liability the law never lets be limited, and a standard of care
    "Nothing in this Agreement shall limit either party's liability for death or personal injury caused by its negligence.",
    "The Consultant shall not be liable for any act or omission except for its gross negligence or willful misconduct.",
    # "exceed" about fees, not liability
    "Upon termination the Agent shall continue to receive its fee, except on termination under Section 5.2, provided "
    "that no fee is payable for any month in which collections do not exceed $500.",
])
def test_uncapped_look_alikes_are_not_found(sentence):
    assert not fires("uncapped_carveout", sentence)


@pytest.mark.parametrize("sentence", [
    "Under no circumstances will either party be liable to the other for any indirect, special or consequential damages.",
    "Each party waives any claim against the other for punitive or exemplary damages.",
    # a time bar on claims is a cap too
    "No action arising out of this Agreement may be brought by either party more than one (1) year after the cause of "
    "action has accrued.",
    "Claims for damage to goods must be filed within nine (9) months after delivery.",
    "The maximum liability of each party under this Agreement will be the fees paid in the prior year.",
    "The Supplier's sole liability shall be to repair or replace the defective product.",
])
def test_liability_caps_are_found(sentence):
    assert fires("liability_cap", sentence)


@pytest.mark.parametrize("sentence", [
    "Appearing in the proceeding shall not be construed as an admission of liability, including but not limited to "
    "any waiver of the right to counsel.",
    "All permits required for the works shall be the sole responsibility of the Contractor.",
    "Each party waives any right to trial by jury of any claim arising under or incidental to this Agreement.",
    "The Company does not have any liabilities, direct or indirect, that are not disclosed in its financial statements.",
])
def test_liability_cap_look_alikes_are_not_found(sentence):
    assert not fires("liability_cap", sentence)


@pytest.mark.parametrize("sentence", [
    "The Company shall produce not less than twelve (12) original episodes of the program per year.",
    "Distributor commits to purchase a minimum of 5,000 units during the first contract year.",
    "Licensee shall pay the minimum annual royalties set out in Exhibit B.",
    "The Sponsor shall expend not less than $25,000 on local advertising.",
    "The Publisher will deliver a guaranteed minimum of 2,000,000 impressions per month.",
    "If the Distributor fails to achieve its annual quota, the Supplier may terminate this Agreement.",
])
def test_minimum_commitments_are_found(sentence):
    assert fires("minimum_commitment", sentence)


@pytest.mark.parametrize("sentence", [
    "The steering committee shall meet at least four (4) times per calendar year.",
    "The Contractor shall maintain liability insurance with a minimum of $1,000,000 per occurrence.",
    "Purchaser shall place each purchase order at least forty-five (45) days before the requested delivery date.",
    "Service availability shall be a minimum of 99.5 percent in each calendar month.",
])
def test_minimum_commitment_look_alikes_are_not_found(sentence):
    assert not fires("minimum_commitment", sentence)
