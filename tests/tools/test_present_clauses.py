"""Clauses a contract has are never reported missing (issue 30): the wording families a buyer's
lawyer reads as present, each with cases it must read and look-alikes it must leave.

- a one-way release from compensation, reimbursement or damages on termination ("X shall not be
  liable to Y because of such termination for compensation ...") is a waiver of termination rights;
- indemnities given only by the supplier ("shall indemnify ... in respect of the same", "reimburse
  and hold harmless", "defend ... against a claim") are an indemnity: the type is present;
- a warranty with no stated period is a warranty (the period "not stated" is its reading);
- fixed shares of the price payable for cancelled, rescheduled or untaken orders are cancellation
  charges (liquidated damages payable by the buyer);
- a limitation-of-liability article whose amounts are redacted, or limits referred to as such, is a
  cap to check by hand;
- terms, conditions or warranties implied by law excluded inside another clause (entire agreement,
  general terms) are a warranty disclaimer.

Sentences and contracts are written for these tests (other parties, numbering and wordings than the
development contracts); none is copied from a filing.
"""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.clauses import score_sentence
from tools.detection.cuad_eval import detect_categories
from tools.detection.review import review_clause
from tools.detection.rules import DETECTORS
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()


def fires(detector_id: str, sentence: str) -> bool:
    detector = DETECTORS[detector_id]
    return score_sentence(detector, sentence) >= detector.threshold


READS: list[tuple[str, str]] = [
    # the end named between the party released and the compensation
    ("termination_rights", "Upon expiry or termination of this Agreement for any reason, the Manufacturer shall not be liable to the "
                           "Agent by reason of such termination for any compensation, reimbursement or damages for loss of "
                           "prospective profits or investments."),
    ("termination_rights", "Neither party shall have any liability to the other, on account of the expiration or non-renewal of this "
                           "Agreement, for loss of anticipated sales or goodwill."),
    ("termination_rights", "The Licensor shall have no liability to the Dealer as a result of the termination of this Agreement for "
                           "any damages, including lost profits or the Dealer's investment in its business."),
    # the end as a condition: "if X is terminated ..., X will not be entitled to compensation"
    ("termination_rights", "If the Representative is terminated for failing to meet its targets, the Representative will not be "
                           "entitled to any compensation for the loss of its clientele."),
    # indemnities a party promises, in the shapes short of "indemnify, defend and hold harmless"
    ("uncapped_liability", "The Contractor shall promptly notify the Owner of any loss of the Owner's equipment and shall indemnify "
                           "the Owner for the same."),
    ("uncapped_liability", "Vendor will reimburse Client and hold Client harmless from all fines imposed on Client as a result of "
                           "Vendor's acts."),
    ("uncapped_liability", "Licensor will defend Licensee against any claim that the Software infringes a copyright and will pay the "
                           "costs and damages finally awarded."),
    ("uncapped_liability", "The Printer will defend and indemnity the Publisher against a claim that the printed works infringe a "
                           "trade mark."),
    # the infringement indemnity's usual shape: defend against that claim, pay what a court finally awards
    ("uncapped_liability", "If a third party claims that a Deliverable infringes its patent, the Developer will defend the Owner "
                           "against that claim at its expense and pay all costs, damages and fees that a court finally awards."),
    # a warranty listed item by item, without a period
    ("warranty", "(c) be free from any defect in materials and workmanship;"),
    ("warranty", "Each Unit delivered by the Manufacturer shall be free of defect in design and manufacture."),
    # the base form of the verb, and conformity with what was agreed
    ("warranty", "The Manufacturer shall warrant compliance of every batch with the agreed release criteria and the Certificate "
                 "of Analysis."),
    # cancellation and rescheduling charges: a share of the price for orders cancelled, moved or not taken
    ("liquidated_damages", "If the Purchaser cancels a purchase order less than sixty (60) days before the scheduled shipment date, the "
                           "Purchaser shall pay the Manufacturer fifty percent (50%) of the price of the cancelled units."),
    ("liquidated_damages", "Orders rescheduled by the Customer more than once shall be invoiced a rescheduling charge set out in "
                           "Schedule 4."),
    ("liquidated_damages", "Where the Client has not taken delivery of goods within ninety days of the agreed date, the Client shall "
                           "be liable to pay 100% of the Contract Price of the goods concerned."),
    # limits referred to, or redacted in the filing
    ("liability_cap", "The exclusions and limitations of liability set out in this Clause 12 apply to the maximum extent permitted "
                      "by law."),
    ("liability_cap", "11.3 Limitation of Liability. [* * *] [Confidential treatment requested]"),
    ("liability_cap", "The foregoing limitations shall apply even if the Seller has been advised of the possibility of such damages."),
    # a party's liability for a kind of loss excluded outright
    ("liability_cap", "Save for wilful misconduct, the Agent shall not be liable to the Principal with respect to any loss caused "
                      "by the Principal's products."),
    # payment terms set by a schedule or statement of work, or with a redacted period counted from the invoice
    ("payment_terms", "The Licensee shall pay the licence fees in accordance with the Fee Schedule attached as Appendix C."),
    ("payment_terms", "The Agency will invoice the Advertiser as set out in each Statement of Work."),
    ("payment_terms", "Payment of undisputed amounts shall be due [***] days following the Customer's receipt of the invoice."),
    # personal information held to the contract's purposes
    ("data_protection", "The Processor may not use any customer personal information for any purpose other than performing the "
                        "Services."),
    ("data_protection", "Personal data received from the Client shall be processed solely to provide the Services."),
    # implied terms excluded wherever the clause sits
    ("warranty_disclaimer", "This Agreement sets out the whole agreement between the parties, to the exclusion of any terms implied "
                            "by law which may be excluded by contract."),
    ("warranty_disclaimer", "All conditions, warranties or other terms which might have effect between the parties or be implied "
                            "into this Agreement, whether by statute, common law or otherwise, are hereby excluded."),
    ("warranty_disclaimer", "The Vendor excludes all implied conditions as to quality to the fullest extent the law allows."),
    ("warranty_disclaimer", "15.2 General. No terms implied by trade usage or course of dealing shall apply to this Agreement."),
    # guarantees named before the warranties
    ("warranty_disclaimer", "The Producer makes no express or implied guarantees, warranties or undertakings as to the suitability "
                            "of the Batches for any use."),
]

LEAVES: list[tuple[str, str]] = [
    # sums still owed on termination, and damages for a breach that ended the contract, are no waiver
    ("termination_rights", "Termination of this Agreement shall not relieve either party of its obligation to pay amounts due, and "
                           "the Customer shall be liable for all fees accrued up to the date of termination."),
    ("termination_rights", "Upon termination by the Company for the Distributor's breach, the Distributor shall pay the Company "
                           "damages for the loss suffered."),
    ("termination_rights", "The Supplier shall not be liable for any damages arising from the use of the Products after the "
                           "termination of this Agreement."),
    # indemnity insurance, a denied indemnity and the defence procedure are no indemnity given
    ("uncapped_liability", "The Contractor shall maintain Professional Indemnity Insurance of not less than $1,000,000."),
    ("uncapped_liability", "The Supplier shall not indemnify the Buyer for claims caused by the Buyer's own modifications."),
    ("uncapped_liability", "The indemnifying party shall have the right to defend the claim with counsel of its choice."),
    # a warrant to buy shares, and a warranty of compliance with the law, are no product warranty
    ("warranty", "The Company shall warrant holders the right to purchase shares at the exercise price."),
    ("warranty", "Each party shall warrant compliance with all applicable laws in the performance of this Agreement."),
    # a defect the buyer reports is no promise that there will be none
    ("warranty", "The Buyer shall notify the Seller of any defect in the packaging within five days of delivery."),
    # a cancellation without charge, and a refund of the price of cancelled goods
    ("liquidated_damages", "The Customer may cancel any purchase order without charge at any time before shipment."),
    ("liquidated_damages", "If the Buyer cancels an order, the Seller shall refund 100% of the price paid for the cancelled goods."),
    # force majeure and goods in transit excuse a party; they are no cap
    ("liability_cap", "Neither party shall be liable to the other for any loss caused by an event beyond its reasonable control."),
    # limits on something other than liability
    ("liability_cap", "The limitations on use set out in Section 4 apply to each copy of the Software."),
    ("liability_cap", "Subject to the terms and limitations set forth in this Section 4, the Licensee may make two copies of the "
                      "Software."),
    ("liability_cap", "Subject to the limitations set forth above, the Reseller may appoint sub-distributors in the Territory."),
    # payments that are no terms of paying for the deal
    ("payment_terms", "The Customer shall pay all taxes imposed on the Services under applicable law."),
    ("payment_terms", "Each party shall bear its own legal fees, as provided in Exhibit D."),
    # personal information merely mentioned
    ("data_protection", "Employees' personal information shall be handled by the Employer's human resources department."),
    # implied terms kept, licences not implied, statutory terms applied
    ("warranty_disclaimer", "Nothing in this Agreement excludes the conditions implied by statute as to title and quiet possession."),
    ("warranty_disclaimer", "No licence is granted or implied under any patent of the Licensor except as expressly set out herein."),
    ("warranty_disclaimer", "The terms implied by the Sale of Goods Act shall apply to every delivery under this Agreement."),
]


@pytest.mark.parametrize("detector_id, sentence", READS)
def test_the_detector_reads_the_present_clause(detector_id: str, sentence: str) -> None:
    assert fires(detector_id, sentence)


@pytest.mark.parametrize("detector_id, sentence", LEAVES)
def test_the_detector_leaves_the_look_alike(detector_id: str, sentence: str) -> None:
    assert not fires(detector_id, sentence)


def test_a_reference_to_redacted_limits_is_no_cuad_cap() -> None:
    """CUAD labels a cap only where its terms are shown; the buyer's review reads the reference as a cap to check."""
    contract = parse_contract("1. GENERAL\n\nThe exclusions and limitations of liability set out in this Clause 12 apply to the "
                              "maximum extent permitted by law.\n", "t.txt")
    assert not detect_categories(contract)["Cap On Liability"]
    assert review_clause(contract, PLAYBOOK.entry("liability_cap"))["verdict"] != "missing"


# ---------------------------------------------------------------- whole contracts: present, never missing
DISTRIBUTION = ('This Dealer Agreement is made between Fenwick Audio Ltd ("Supplier") and Ostmark Hifi GmbH ("Dealer").')
SUPPLY = 'This Supply Agreement is made between Carrow Bakeries plc ("Buyer") and Delft Ovens B.V. ("Seller").'
SERVICES = 'This Services Agreement is made between Tollan Logistics Inc. ("Client") and Brightwater Staffing LLC ("Contractor").'


def contract_of(preamble: str, *articles: str):
    return parse_contract(preamble + "\n\n" + "\n\n".join(articles) + "\n", "x.txt")


def finding(contract, clause_type: str) -> dict:
    return review_clause(contract, PLAYBOOK.entry(clause_type))


# (clause type, preamble, articles, what the finding must say: its fields, and words of its rationale)
CONTRACTS = [
    # a one-way release from termination compensation is the buyer's waiver
    ("termination_rights", DISTRIBUTION,
     ["1. APPOINTMENT\n\n1.1 The Supplier appoints the Dealer as its non-exclusive dealer of the Products.",
      "9. TERM\n\n9.1 Either party may terminate this Agreement on ninety (90) days' written notice.\n\n9.4 If this Agreement "
      "ends under clause 9.1, the Supplier shall not be liable to the Dealer by reason of such termination for compensation, "
      "reimbursement or damages for the loss of prospective profits or of investments made in the Dealer's business."],
     {"section": "9.4", "verdict": "deviation", "binds": "buyer"}, ""),
    # a mutual release is the fallback
    ("termination_rights", SUPPLY,
     ["1. SUPPLY\n\n1.1 The Seller shall supply the ovens described in Schedule 1.",
      "14. EXPIRY\n\n14.2 Neither party shall have any liability to the other on account of the expiry of this Agreement for "
      "loss of anticipated sales, goodwill or investments."],
     {"section": "14.2", "verdict": "fallback"}, "mutual"),
    # a warranty listed item by item, with no period: present, the period "not stated"
    ("warranty", SUPPLY,
     ["1. SUPPLY\n\n1.1 The Seller shall supply the ovens described in Schedule 1.",
      "8. WARRANTY\n\nThe Seller warrants to the Buyer that:\n\n(a) each oven shall conform to the Specification;\n\n"
      "(b) each oven shall be free from any defect in design, materials and workmanship; and\n\n(c) it shall pass good title."],
     {"verdict": "fallback"}, "no warranty period is stated"),
    # a share of the price for cancelled orders is a charge the buyer pays
    ("liquidated_damages", SUPPLY,
     ["1. SUPPLY\n\n1.1 The Seller shall supply the ovens described in Schedule 1.",
      "5. ORDERS\n\n5.3 If the Buyer cancels an accepted purchase order less than thirty (30) days before its delivery date, "
      "the Buyer shall pay the Seller forty percent (40%) of the price of the cancelled ovens."],
     {"section": "5.3", "verdict": "deviation", "binds": "buyer"}, "payable by the buyer"),
    # a limitation article whose terms are redacted is a cap to check by hand
    ("liability_cap", SUPPLY,
     ["1. SUPPLY\n\n1.1 The Seller shall supply the ovens described in Schedule 1.",
      "12. LIMITATION OF LIABILITY\n\n12.1 [Redacted - commercially sensitive]\n\n12.2 The exclusions and limitations of "
      "liability set out in this Clause 12 apply to the maximum extent permitted by law."],
     {"section": "12.2", "verdict": "fallback"}, "by hand"),
    # personal information held to the contract's purposes is data protection, without a breach-notice duty: no right
    # to use the data "for its own purposes"
    ("data_protection", SERVICES,
     ["1. SERVICES\n\n1.1 The Contractor shall process payroll records of the Client's personnel as ordered by the Client.",
      "7. RECORDS\n\n7.2 In no case may the Contractor use any personal information of the Client's personnel for any purpose "
      "other than as provided in this Agreement."],
     {"section": "7.2", "verdict": "deviation"}, "no personal-data breach notification deadline"),
    # implied terms excluded in the entire-agreement clause are a disclaimer
    ("warranty_disclaimer", SERVICES,
     ["1. SERVICES\n\n1.1 The Contractor shall provide warehouse staff as ordered by the Client.",
      "20. GENERAL\n\n20.1 This Agreement sets out the whole agreement between the parties, to the exclusion of any terms "
      "implied by law which may be excluded by contract, and supersedes every earlier arrangement between them."],
     {"section": "20.1", "verdict": "fallback"}, "implied"),
]


@pytest.mark.parametrize("clause_type, preamble, articles, expected, because", CONTRACTS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CONTRACTS)])
def test_the_present_clause_is_found_with_its_reading(clause_type, preamble, articles, expected, because) -> None:
    found = finding(contract_of(preamble, *articles), clause_type)
    assert {k: found[k] for k in expected} == expected
    assert because in found["rationale"]


def test_indemnities_given_only_by_the_supplier_are_present_and_standard() -> None:
    contract = contract_of(
        SERVICES, "1. SERVICES\n\n1.1 The Contractor shall provide warehouse staff as ordered by the Client.",
        "6. RESPONSIBILITY\n\n6.1 The Contractor shall reimburse the Client and hold the Client harmless from any fines imposed upon "
        "the Client resulting from the acts of the Contractor's staff.",
        "11. EQUIPMENT\n\n11.2 The Contractor shall promptly notify the Client of any loss of or damage to the Client's equipment and "
        "shall indemnify the Client in respect of the same.")
    indemnity = finding(contract, "uncapped_liability")
    assert indemnity["verdict"] in ("standard", "favourable")
    assert {indemnity["section"], *(a["section"] for a in indemnity["also"])} == {"6.1", "11.2"}
    assert all(a["verdict"] in ("standard", "favourable") for a in indemnity["also"])
