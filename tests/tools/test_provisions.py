"""Every provision of a clause type is a candidate; the finding is the one worst for the buyer,
the others are listed under it (`also`), `favourable` when every provision favours the buyer, and
a clause type is missing only when no provision exists (issue 30).

The contracts are written for these tests in the shapes supply, hosting and distribution
contracts use; names and figures change between tests so no rule leans on one wording.
"""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.review import VERDICTS, provisions, review_clause, stronger_elsewhere
from tools.operations import assess_clause_data, build_finding, find_clauses_data
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
HOSTING = 'This Hosting Agreement is made between Harlow Dental Group LLC ("Customer") and Quarrystone Systems Inc. ("Provider").'
SUPPLY = 'This Supply Agreement is made between Pemberton Foods plc ("Buyer") and Ostrava Packaging s.r.o. ("Seller").'
DISTRIBUTION = ('This Distribution Agreement is made between Kaldera Medical GmbH ("Supplier") and Nilsson Hospital Supplies AB '
                '("Distributor").')


def contract_of(preamble: str, *articles: str):
    return parse_contract(preamble + "\n\n" + "\n\n".join(articles) + "\n", "x.txt")


def finding(contract, clause_type: str) -> dict:
    return review_clause(contract, PLAYBOOK.entry(clause_type))


MUTUAL_CAP = ("9. LIMITATION OF LIABILITY\n\n9.1 Each party's aggregate liability under this Agreement shall not exceed two "
              "times (2x) the fees paid in the twelve (12) months preceding the claim.\n\n9.2 Neither party shall be liable "
              "for indirect or consequential damages.")


# ---------------------------------------------------------------- the worst cap, not the first one
@pytest.mark.parametrize(("preamble", "overriding"), [
    (HOSTING, "15.6 Notwithstanding any other term of this Agreement, the Provider's total liability arising out of or in "
              "connection with this Agreement shall not exceed the fees paid by the Customer in the three (3) months "
              "preceding the event giving rise to the claim."),
    # another wording: "anything to the contrary", a fixed sum
    (SUPPLY, "15.6 Despite anything to the contrary in this Agreement, in no event shall the Seller's liability to the Buyer "
             "exceed twenty thousand dollars ($20,000) in aggregate."),
])
def test_a_notwithstanding_supplier_cap_beside_a_mutual_cap_is_the_finding(preamble, overriding):
    contract = contract_of(preamble, "1. SERVICES\n\n1.1 The supply of the goods and services described in Schedule 1.",
                           MUTUAL_CAP, "15. GENERAL\n\n15.1 This Agreement is the entire agreement of the parties.\n\n" + overriding)
    cap = finding(contract, "liability_cap")
    assert (cap["section"], cap["verdict"], cap["protects"]) == ("15.6", "deviation", "supplier")
    also = {a["section"]: a for a in cap["also"]}
    assert also["9.1"]["verdict"] == "standard" and "mutual" in also["9.1"]["reading"]
    for entry in cap["also"]:
        assert set(entry) == {"section", "citation", "verdict", "binds", "protects", "reading", "start", "end"}
        assert contract.text[entry["start"]:entry["end"]].strip() and entry["reading"]


@pytest.mark.parametrize("limit", [
    "8.3 Provider's total liability under this Clause 8 shall not exceed fifty thousand dollars ($50,000) in aggregate.",
    "8.3 The indemnity in this Section 8 is subject to a maximum aggregate amount of two hundred fifty thousand dollars ($250,000).",
])
def test_a_cap_inside_the_indemnity_clause_means_the_indemnity_is_capped(limit):
    contract = contract_of(
        HOSTING,
        "8. INDEMNITIES\n\n8.1 Provider shall indemnify, defend and hold harmless Customer against all third-party claims alleging "
        "that the Services infringe any intellectual property right.\n\n" + limit, MUTUAL_CAP)
    indemnity = finding(contract, "uncapped_liability")
    assert indemnity["verdict"] == "deviation"
    assert "without cap" not in indemnity["rationale"] and "capped" in indemnity["rationale"]


def test_a_cap_at_the_price_of_the_affected_delivery_in_a_schedule_outranks_the_mutual_cap():
    contract = contract_of(
        SUPPLY, "10. LIABILITY\n\n10.1 The total liability of either party under this Agreement shall not exceed two times (2x) "
                "the Fees paid in the preceding twelve (12) months.",
        "SCHEDULE 3 - SPECIAL CONDITIONS\n\n1. Regardless of anything else in this Agreement, the Seller's aggregate liability "
        "for all claims shall be limited to the price of the affected delivery.")
    cap = finding(contract, "liability_cap")
    assert cap["verdict"] == "deviation" and "affected delivery" in cap["quote"]
    assert [(a["section"], a["verdict"]) for a in cap["also"]] == [("10.1", "standard")]


def test_a_general_cap_that_spares_the_indemnities_leaves_them_uncapped():
    contract = contract_of(
        SUPPLY,
        "8. INDEMNITY\n\n8.1 Seller shall indemnify and hold harmless Buyer from all third-party claims for bodily injury or "
        "property damage caused by the goods.",
        "9. LIABILITY\n\n9.1 Except for Seller's indemnification obligations under Clause 8, each party's aggregate liability "
        "shall not exceed two times (2x) the fees paid in the twelve (12) months preceding the claim.")
    assert finding(contract, "uncapped_liability")["verdict"] == "standard"


@pytest.mark.parametrize("wording", [
    "9.1 The Provider shall be liable to the Customer only for loss caused by its gross negligence or wilful misconduct, and in "
    "no event shall the Provider's aggregate liability exceed twenty-four (24) times the monthly fee.",
    "9.1 The Provider shall not be liable for any loss or damage unless caused by its gross negligence, and its total liability "
    "shall not exceed three (3) times the annual fees.",
    "9.1 The Provider's liability is limited to cases of gross negligence and intentional misconduct and shall in no event "
    "exceed the fees paid in the preceding twelve (12) months.",
])
def test_liability_only_for_gross_negligence_is_not_standard(wording):
    contract = contract_of(HOSTING, "9. LIABILITY\n\n" + wording)
    cap = finding(contract, "liability_cap")
    assert cap["verdict"] == "deviation" and "gross negligence" in cap["rationale"]
    assert "check it by hand" not in cap["rationale"]


def test_a_multiple_of_the_monthly_fee_is_read_as_an_annual_multiple():
    contract = contract_of(HOSTING, "9. LIABILITY\n\n9.1 The Provider's aggregate liability shall not exceed six (6) times the "
                                    "monthly fee.")
    cap = finding(contract, "liability_cap")
    assert cap["verdict"] == "deviation" and "annual-fee multiple 0.5" in cap["rationale"]


# ---------------------------------------------------------------- present clauses are never missing
@pytest.mark.parametrize("article", [
    "4. PAYMENT\n\n4.1 The Customer shall pay each invoice within thirty (30) days of the invoice date. Overdue amounts shall "
    "bear interest at one percent (1%) per month until paid.",
    "SCHEDULE 2 - CHARGES\n\nInvoices are payable within thirty (30) days after receipt; late amounts accrue interest of 1% per "
    "month.",
    # the payment named far from its period, the interest in the next sentence (missed before)
    "5. FEES\n\n5.2 Customer shall pay the Fees and any other charges set out in the applicable Order Form, together with all "
    "applicable taxes and reimbursable expenses, within thirty (30) days of the end of the month in which the Services were "
    "provided. Overdue amounts bear interest at one percent (1%) per month.",
    "EXHIBIT B - PRICING\n\nThe Customer shall remit the full amount stated in each of the Provider's monthly statements, "
    "without set-off or deduction of any kind, within thirty (30) days after the end of the month of delivery.",
])
def test_payment_terms_with_interest_are_present(article):
    contract = contract_of(HOSTING, "1. SERVICES\n\n1.1 Provider shall host the Customer's website.", article)
    payment = finding(contract, "payment_terms")
    assert payment["verdict"] not in ("missing", "not_applicable") and "30" in payment["rationale"]


@pytest.mark.parametrize("wording", [
    "3.1 The Buyer hereby places a firm and non-cancellable order for three hundred (300) Units, to be delivered in equal "
    "monthly instalments during the first Contract Year.",
    "3.1 The Buyer commits to purchase two thousand five hundred (2,500) cartons of the Products in each Contract Year.",
    "3.1 The Buyer shall purchase no fewer than five hundred (500) pallets of the Products in each calendar quarter.",
])
def test_a_firm_purchase_commitment_is_a_commitment(wording):
    contract = contract_of(SUPPLY, "3. PURCHASE COMMITMENT\n\n" + wording)
    commitment = finding(contract, "minimum_commitment")
    assert commitment["verdict"] == "deviation" and commitment["section"] == "3.1"
    assert commitment["recommendation"] != "No change needed."


@pytest.mark.parametrize("wording", [
    "12.5 Upon expiry or termination of this Agreement for any reason, the Distributor shall not be entitled to any "
    "compensation, indemnity or damages for loss of goodwill or clientele.",
    "12.7 The Distributor waives the benefit of any law of the Territory that would otherwise require just cause, a minimum "
    "notice period or the payment of compensation for the termination or non-renewal of this Agreement.",
    "12.4 On termination or expiry, the Distributor shall not claim any goodwill indemnity or compensation for its investments "
    "in the distribution network.",
])
def test_a_waiver_of_termination_compensation_or_of_distributor_protection_law_is_a_deviation(wording):
    contract = contract_of(DISTRIBUTION, "2. APPOINTMENT\n\n2.1 Supplier appoints Distributor to resell the Products.",
                           "12. TERMINATION\n\n" + wording)
    waiver = finding(contract, "termination_rights")
    assert waiver["verdict"] == "deviation" and waiver["binds"] == "buyer"


def test_an_article_inserted_into_a_known_template_is_read():
    contract = contract_of(
        HOSTING, "1. SERVICES\n\n1.1 Provider shall provide the hosting services described in Schedule 1.",
        "2. TERM\n\n2.1 This Agreement starts on the Effective Date and continues for an initial term of one (1) year.",
        "7. INDEMNITIES\n\n7.1 Provider shall indemnify Customer against third-party claims that the Services infringe any patent.",
        MUTUAL_CAP,
        "ARTICLE 14A ADDITIONAL TERMS\n\n14A.1 The Customer shall indemnify, defend and hold harmless the Provider and its "
        "affiliates from and against any and all losses, claims and expenses of any kind arising out of the Customer's use of "
        "the Services, without limit as to amount.\n\n14A.2 This Agreement shall renew automatically for successive periods of "
        "one (1) year unless either party gives written notice of non-renewal at least one hundred twenty (120) days before the "
        "end of the then-current term.")
    assert {"14A", "14A.1", "14A.2"} <= {s.id for s in contract.sections}
    indemnity = finding(contract, "uncapped_liability")
    assert (indemnity["section"], indemnity["verdict"], indemnity["binds"]) == ("14A.1", "deviation", "buyer")
    assert [a["section"] for a in indemnity["also"]] == ["7.1"]
    renewal = finding(contract, "auto_renewal")
    assert (renewal["section"], renewal["verdict"]) == ("14A.2", "deviation") and "120" in renewal["rationale"]


# ---------------------------------------------------------------- favourable
def test_a_clause_type_whose_every_provision_favours_the_buyer_is_favourable():
    assert "favourable" in VERDICTS
    contract = contract_of(SUPPLY, "9. LIABILITY\n\n9.1 The Buyer's aggregate liability under this Agreement shall not exceed "
                                   "the fees paid in the twelve (12) months preceding the claim.")
    cap = finding(contract, "liability_cap")
    assert (cap["verdict"], cap["severity"], cap["protects"]) == ("favourable", "none", "buyer")
    assert cap["recommendation"].startswith("No change needed") and "favours the buyer" in cap["rationale"]
    # beside a cap for the supplier, the supplier's is the finding and the buyer's is listed as favourable
    both = contract_of(SUPPLY, "9. LIABILITY\n\n9.1 The Buyer's aggregate liability under this Agreement shall not exceed the "
                               "fees paid in the twelve (12) months preceding the claim.\n\n9.2 The Seller's aggregate "
                               "liability under this Agreement shall not exceed fifty percent (50%) of the fees paid in the "
                               "twelve (12) months preceding the claim.")
    cap = finding(both, "liability_cap")
    assert (cap["section"], cap["verdict"]) == ("9.2", "deviation")
    assert [(a["section"], a["verdict"]) for a in cap["also"]] == [("9.1", "favourable")]


@pytest.mark.parametrize(("clause_type", "wording"), [
    ("exclusivity", "6.1 During the Term, the Seller shall sell the Products exclusively to the Buyer and shall not appoint any "
                    "other distributor in the Territory."),
    ("non_compete", "6.1 The Seller shall not, directly or indirectly, engage in any business that competes with the Buyer's "
                    "business in the Territory during the Term."),
])
def test_a_restraint_binding_only_the_supplier_is_favourable(clause_type, wording):
    contract = contract_of(SUPPLY, "6. RESTRICTIONS\n\n" + wording)
    restraint = finding(contract, clause_type)
    assert restraint["verdict"] == "favourable" and restraint["binds"] == "supplier"


# ---------------------------------------------------------------- the tools show the same candidates
def test_the_tools_list_every_provision_with_its_reading_in_the_finding_order():
    contract = contract_of(HOSTING, "1. SERVICES\n\n1.1 Provider shall host the Customer's website.", MUTUAL_CAP,
                           "15. GENERAL\n\n15.1 This Agreement is the entire agreement.\n\n15.6 Notwithstanding any other "
                           "term of this Agreement, the Provider's total liability shall not exceed the fees paid by the "
                           "Customer in the three (3) months preceding the claim.")
    listed = find_clauses_data(contract, PLAYBOOK, "liability_cap")["provisions"]
    assert [p["section"] for p in listed][:2] == ["15.6", "9.1"]
    assert all(p["reading"] and p["verdict"] in VERDICTS for p in listed)
    assert listed == [{k: p[k] for k in listed[0]} for p in provisions(contract, PLAYBOOK.entry("liability_cap"))]
    # assessing the mutual cap (where memory may point) names the worse provision: the contract chooses
    looked = assess_clause_data(contract, PLAYBOOK, "liability_cap", "9")
    assert looked["elsewhere"]["section"] == "15.6"
    assert [p["section"] for p in looked["provisions"]][:2] == ["15.6", "9.1"]
    at_worst = assess_clause_data(contract, PLAYBOOK, "liability_cap", "15")
    assert at_worst["section"] == "15.6" and "elsewhere" not in at_worst
    # a model that records the mutual cap still records the other provisions under it
    recorded = build_finding(contract, PLAYBOOK, "liability_cap", "standard", "none", section="9.1")
    assert [a["section"] for a in recorded["also"]][0] == "15.6"
    assert stronger_elsewhere(contract, PLAYBOOK.entry("liability_cap"), recorded)["section"] == "15.6"


# ---------------------------------------------------------------- price and payment provisions that exist are never missing
@pytest.mark.parametrize(("preamble", "articles", "verdicts"), [
    # a price defined as the supplier's own cost plus a margin moves with its costs, with no cap
    (SUPPLY, ("1. DEFINITIONS\n\n\"Unit Cost\" means the cost to Seller of the raw materials used in the Goods, as recorded in "
              "Seller's books.\n\n\"Unit Price\" means, for each unit of Goods, the Unit Cost plus the Margin.",
              "4. PRICE\n\n4.1 Buyer shall pay the Unit Price for each unit of Goods delivered."), {"deviation", "fallback"}),
    (DISTRIBUTION, ("5. PRICES\n\n5.1 Products shall be sold to Distributor on a cost-plus basis, at Supplier's manufacturing "
                    "cost plus a mark-up of twelve percent (12%).",), {"deviation", "fallback"}),
    # fee adjustments on renewal, and extra fees at the supplier's discretion
    (HOSTING, ("5. TERM\n\n5.1 This Agreement renews for successive one-year terms, subject to applicable fee adjustments.",),
     {"deviation"}),
    (HOSTING, ("3. SUPPORT\n\n3.1 Provider may in its sole discretion charge additional fees for work outside the scope of "
               "support.",), {"deviation"}),
    (SUPPLY, ("6. CHARGES\n\n6.3 Seller reserves the right to impose extra charges for handling orders below the usual size.",),
     {"deviation"}),
    # prices reviewed periodically and changed only by agreement
    (SUPPLY, ("13. PRICE REVIEWS\n\n13.1 The parties will meet every six (6) months to review pricing. New prices agreed at "
              "such review apply to later orders.",), {"standard", "fallback"}),
    # prices fixed for the term favour the buyer: present, never missing
    (SUPPLY, ("6. PRICE\n\n6.2 The prices for the Goods are set out in Schedule 1. Prices are firm and fixed for the Term.",),
     {"standard", "favourable"}),
    (HOSTING, ("4. FEES\n\n4.1 The Fees shall remain fixed during the Initial Term.",), {"standard", "favourable"}),
])
def test_a_price_provision_that_exists_is_found(preamble, articles, verdicts):
    price = finding(contract_of(preamble, *articles), "price_changes")
    assert price["verdict"] in verdicts, price["rationale"]


@pytest.mark.parametrize(("preamble", "article", "verdicts"), [
    # nothing to pay is a payment term that favours the buyer
    (HOSTING, "SCHEDULE A\n\nThe hosting and support services will be provided at no charge.", {"standard", "favourable"}),
    (SUPPLY, "3. SAMPLES\n\n3.1 The Goods ordered during the pilot phase shall be supplied free of charge.", {"standard", "favourable"}),
    # a prepayment or deposit with the balance on completion is payment in advance
    (HOSTING, "2. Payment Terms. Customer agrees to pay a total of $8,000. Customer shall make a deposit of $2,000 and pay the "
              "remaining $6,000 on completion of the Services.", {"deviation"}),
    (SUPPLY, "7. PAYMENT\n\n7.1 Buyer shall make a down payment of forty percent (40%) of the Price, with the balance due upon "
             "delivery.", {"deviation"}),
    # a redacted period is still a payment term: check it by hand
    (SUPPLY, "6. PAYMENT\n\n6.4 Seller's invoices will be payable within [Redacted - Commercially Sensitive] following the "
             "end of the month of the date of invoice.", {"fallback"}),
])
def test_a_payment_provision_that_exists_is_found(preamble, article, verdicts):
    payment = finding(contract_of(preamble, article), "payment_terms")
    assert payment["verdict"] in verdicts, payment["rationale"]


def test_a_repair_at_no_charge_is_no_payment_term():
    contract = contract_of(SUPPLY, "9. WARRANTY\n\n9.1 Seller shall repair or replace defective Goods at no charge to Buyer.")
    assert finding(contract, "payment_terms")["verdict"] == "missing"


@pytest.mark.parametrize("wording", [
    "7.2 Spare parts used in call-out repairs are charged at the Provider's net cost plus a handling margin of eight percent (8%).",
    "7.2 Service credits are a price adjustment for the reduced value of the Services.",
])
def test_a_cost_passed_through_or_a_credit_is_no_price_change(wording):
    contract = contract_of(HOSTING, "7. CHARGES\n\n7.1 The Charges are set out in Schedule 2.\n\n" + wording)
    assert finding(contract, "price_changes")["verdict"] in {"missing", "standard"}


@pytest.mark.parametrize(("wording", "verdict"), [
    # a right to pass on price rises beyond the agreed prices, within limits the buyer approves
    ("13.2 Seller may buy components for Buyer's Goods at prices higher than those agreed, subject to the following limitations: rises "
     "above five hundred dollars ($500) per quarter require Buyer's prior written approval.", "fallback"),
    # without any limit
    ("13.2 Seller may invoice the Goods at prices above the agreed prices whenever its own costs rise.", "deviation"),
])
def test_a_right_to_charge_more_than_the_agreed_prices_is_the_price_finding(wording, verdict):
    contract = contract_of(SUPPLY, "13. PRICES\n\n13.1 The parties will meet every three (3) months to review pricing; new prices "
                                   "apply only once agreed in writing.\n\n" + wording)
    price = finding(contract, "price_changes")
    assert (price["section"], price["verdict"]) == ("13.2", verdict), price["rationale"]


@pytest.mark.parametrize("wording", [
    "7.1 Seller may not charge additional fees beyond the Prices in Schedule 1.",
    "7.1 Buyer may charge Seller additional handling fees for goods delivered late.",
])
def test_extra_fees_the_supplier_may_not_charge_or_the_buyer_charges_are_no_price_increase(wording):
    price = finding(contract_of(SUPPLY, "7. CHARGES\n\n" + wording), "price_changes")
    assert price["verdict"] != "deviation", price["rationale"]
