"""The finding is the provision worst for the buyer, read for whom it binds and protects, and the
others are listed under it (issue 30: "candidates, then the worst for the buyer").

Causes covered, each on texts written for these tests (other parties, numbering and wordings than
any development contract): a section that holds two provisions of a type without numbering them
apart (a mutual exclusion and the supplier's own further limit; the supplier's and the buyer's
indemnity), payment terms the supplier may change at its discretion, a provision that only points
to another one, a right to end the services that only the supplier holds, a confidentiality
undertaking of the supplier alone, and a minimum size per order that commits the buyer to nothing.
"""

from __future__ import annotations

import pytest

from tests.tools.test_present_clauses import contract_of, finding
from tools.detection.review import provisions
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
HOSTING = 'This Hosting Agreement is made between Marlowe Veterinary Clinics Ltd ("Customer") and Tessaract Cloud Inc. ("Provider").'
SUPPLY = 'This Supply Agreement is made between Brennock Bakeries Ltd ("Buyer") and Valdane Milling GmbH ("Seller").'
RESALE = 'This Reseller Agreement is made between Corvina Software Inc. ("Vendor") and Asterfield IT Ltd ("Reseller").'


# ---------------------------------------------------------------- two provisions in one section
@pytest.mark.parametrize("further", [
    "In addition, the Seller's liability is further limited to the price actually paid for the Goods that are the subject "
    "of the claim.",
    "NOTWITHSTANDING THE FOREGOING, SELLER'S LIABILITY SHALL ALSO BE LIMITED IN EVERY CASE, UNDER ANY THEORY, TO THE "
    "AMOUNT SELLER RECEIVED FOR THE DELIVERY CONCERNED.",
])
def test_a_supplier_only_limit_after_a_mutual_exclusion_in_the_same_section_is_the_finding(further):
    contract = contract_of(
        SUPPLY, "1. SUPPLY\n\n1.1 The Seller shall supply the flour described in Schedule 1.",
        "11. LIABILITY\n\n11.1 Neither party shall be liable to the other for any indirect, special or consequential damages "
        "arising out of this Agreement. " + further,
        "12. GENERAL\n\n12.1 This Agreement is the entire agreement of the parties.")
    cap = finding(contract, "liability_cap")
    assert cap["protects"] == "supplier" and cap["verdict"] == "deviation"
    assert "LIMITED" in cap["quote"].upper() and "indirect" not in cap["quote"]
    # the mutual exclusion is listed under it, with its own reading
    mutual = [a for a in cap["also"] if a["protects"] == "both"]
    assert mutual and "indirect" in contract.text[mutual[0]["start"]:mutual[0]["end"]]


@pytest.mark.parametrize(("buyer_side", "supplier_side"), [
    ("Secondly, the Customer shall defend, indemnify and hold harmless the Provider and its officers, employees and agents from "
     "all claims, losses, damages, fines and costs arising from the Customer Content, the Customer's use of the Services, "
     "or any breach of this Agreement by the Customer.",
     "Firstly, the Provider shall defend, indemnify and hold harmless the Customer from all third-party claims that the Services "
     "infringe any patent, copyright or trade secret."),
    ("Second, Customer agrees to indemnify Provider against any loss, liability, fine or expense arising from data that "
     "Customer uploads, from its end users' conduct, or from any breach by Customer of its obligations under this Agreement.",
     "First, Provider agrees to indemnify Customer against any loss arising from an infringement claim about the Services."),
])
def test_a_section_with_both_sides_indemnities_is_quoted_at_the_buyers_own(buyer_side, supplier_side):
    contract = contract_of(HOSTING, "2. SERVICES\n\n2.1 The Provider shall host the Customer's website.",
                           f"9. INDEMNIFICATION\n\n9.1 Indemnities.\n{supplier_side}\n{buyer_side}",
                           "10. GENERAL\n\n10.1 This Agreement is governed by the laws of the State of New York.")
    indemnity = finding(contract, "uncapped_liability")
    assert indemnity["section"] == "9.1" and indemnity["binds"] == "buyer" and indemnity["protects"] == "supplier"
    assert buyer_side[:40] in indemnity["quote"] and "infring" not in indemnity["quote"]
    assert indemnity["verdict"] in ("standard", "fallback", "deviation")
    # the supplier's indemnity beside it is listed, read as binding the supplier
    assert [a for a in indemnity["also"] if a["binds"] == "supplier"]


# ---------------------------------------------------------------- payment terms the supplier may change
@pytest.mark.parametrize("change", [
    "Vendor may, at its sole discretion, revise the Reseller's credit limit and payment terms from time to time on notice.",
    "The Vendor reserves the right to change the terms of payment at any time.",
])
def test_payment_terms_the_supplier_may_change_are_a_deviation_whatever_the_period(change):
    contract = contract_of(
        RESALE, "3. ORDERS\n\n3.1 The Reseller shall place orders in writing.",
        "5. PAYMENT\n\nA. Invoices. The Reseller shall pay each invoice within sixty (60) days of the date of the invoice. "
        "The Reseller may withhold amounts it disputes in good faith if it notifies the Vendor within ten (10) days. " + change)
    pay = finding(contract, "payment_terms")
    assert pay["verdict"] == "deviation" and pay["binds"] == "buyer"
    assert change.split(" ")[3] in pay["quote"] and "change" in pay["rationale"]


@pytest.mark.parametrize("no_change", [
    "The payment terms may be changed from time to time by mutual written agreement of the parties.",
    "The Vendor may not change the payment terms during the Term.",
    "The Vendor reserves the right to change the payment terms with the Reseller's prior written consent.",
])
def test_payment_terms_changed_only_by_agreement_stay_the_stated_period(no_change):
    contract = contract_of(
        RESALE, "5. PAYMENT\n\n5.1 The Reseller shall pay each invoice within sixty (60) days of the date of the invoice. "
                + no_change)
    assert finding(contract, "payment_terms")["verdict"] == "standard"


# ---------------------------------------------------------------- a pointer to another provision
def test_a_provision_that_points_to_the_indemnity_ranks_after_the_indemnity_itself():
    contract = contract_of(
        RESALE,
        "3. MARKETING\n\n3.2 The Reseller shall not alter the Vendor's trademarks. The Reseller agrees to indemnify, defend and "
        "hold the Vendor harmless in accordance with Clause 9.1 to the extent that the Reseller breaches this Clause 3.2.",
        "9. REMEDIES\n\n9.1 The Reseller shall indemnify and hold harmless the Vendor from all losses, damages and costs arising from any breach "
        "of this Agreement by the Reseller.")
    indemnity = finding(contract, "uncapped_liability")
    assert indemnity["section"] == "9.1" and indemnity["verdict"] == "deviation"
    assert [a["section"] for a in indemnity["also"]] == ["3.2"]


# ---------------------------------------------------------------- verdicts that follow from the reading
def test_a_right_to_end_the_services_only_the_supplier_holds_is_a_deviation():
    contract = contract_of(
        HOSTING, "4. SUPPORT\n\n4.1 The Provider may at any time, at its sole discretion, discontinue the support services "
                 "and terminate this Agreement on written notice to the Customer without liability.")
    end = finding(contract, "termination_convenience")
    assert end["verdict"] == "deviation" and end["protects"] == "supplier"
    assert "only the supplier" in end["rationale"].lower()


def test_the_buyers_own_right_to_terminate_stays_the_finding_beside_the_suppliers():
    contract = contract_of(
        HOSTING, "7. TERM AND TERMINATION\n\n7.1 The Customer may terminate this Agreement for convenience on thirty (30) days' "
                 "written notice.\n\n7.2 The Provider may at any time, at its sole discretion, discontinue the Services and "
                 "terminate this Agreement on written notice to the Customer.")
    end = finding(contract, "termination_convenience")
    assert end["section"] == "7.1" and end["verdict"] == "standard"


@pytest.mark.parametrize("undertaking", [
    "The Seller shall keep the Buyer's recipes and technical information in strict confidence and use them only to perform "
    "this Agreement; this obligation survives the termination of this Agreement.",
    "Seller undertakes to hold the Buyer's formulations in confidence and not to disclose them to any third party for five (5) "
    "years after this Agreement ends.",
])
def test_confidentiality_that_binds_only_the_supplier_is_favourable(undertaking):
    contract = contract_of(SUPPLY, "1. SUPPLY\n\n1.1 The Seller shall supply the flour described in Schedule 1.",
                           f"14. CONFIDENTIALITY\n\n14.1 {undertaking}")
    assert finding(contract, "confidentiality")["verdict"] == "favourable"


def test_mutual_confidentiality_is_not_favourable():
    contract = contract_of(SUPPLY, "14. CONFIDENTIALITY\n\n14.1 Each party shall keep in confidence the confidential "
                                   "information of the other party for five (5) years after this Agreement ends.")
    assert finding(contract, "confidentiality")["verdict"] != "favourable"


@pytest.mark.parametrize("order_size", [
    "Each purchase order shall be for at least two hundred (200) cases, in multiples of the standard pallet.",
    "Goods must be ordered in the minimum and/or standard carton quantities shown in Schedule 2.",
])
def test_a_minimum_size_for_each_order_is_no_purchase_commitment(order_size):
    contract = contract_of(SUPPLY, f"4. ORDERS\n\n4.1 The Buyer shall order Goods by written purchase order. {order_size}")
    commitment = finding(contract, "minimum_commitment")
    assert commitment["verdict"] in ("standard", "missing")


def test_a_yearly_minimum_stays_a_commitment():
    contract = contract_of(SUPPLY, "4. ORDERS\n\n4.1 The Buyer shall order Goods by written purchase order. Each purchase "
                                   "order shall be for at least two hundred (200) cases, and the Buyer shall purchase at "
                                   "least ten thousand (10,000) cases in each contract year.")
    assert finding(contract, "minimum_commitment")["verdict"] == "deviation"


def test_every_listed_provision_keeps_the_also_shape():
    contract = contract_of(
        SUPPLY, "11. LIABILITY\n\n11.1 Neither party shall be liable to the other for any indirect or consequential damages. "
                "In addition, the Seller's liability is further limited to the price paid for the Goods concerned.")
    for entry in finding(contract, "liability_cap")["also"]:
        assert set(entry) == {"section", "citation", "verdict", "binds", "protects", "reading", "start", "end"}
        assert entry["reading"] and contract.text[entry["start"]:entry["end"]].strip()
    assert len(provisions(contract, PLAYBOOK.entry("liability_cap"))) == 2


# ---------------------------------------------------------------- the others, listed with their own reading
@pytest.mark.parametrize(("period", "interest"), [
    ("6.1 The Buyer shall pay each undisputed invoice within sixty (60) days of receipt.",
     "6.2 Any sum not paid when due bears interest at one percent (1%) per month."),
    ("6.1 Each invoice of the Seller is payable net 45 from the date the Buyer receives it.",
     "6.3 The Seller may charge late payment interest of 1.5% per month on overdue sums."),
])
def test_each_sub_section_of_a_payment_clause_is_listed(period, interest):
    contract = contract_of(SUPPLY, "1. SUPPLY\n\n1.1 The Seller shall supply the flour described in Schedule 1.",
                           f"6. PRICE AND PAYMENT\n\n{period}\n\n{interest}")
    pay = finding(contract, "payment_terms")
    listed = {pay["section"], *(a["section"] for a in pay["also"])}
    assert listed == {"6.1", interest[:3]}
    assert all(a["reading"] for a in pay["also"])


def test_other_sentences_of_a_cap_section_on_the_same_side_are_listed_not_chosen():
    contract = contract_of(
        HOSTING, "12. LIMITATION OF LIABILITY\n\nThe Provider's total liability under this Agreement shall not exceed the fees "
                 "paid in the twelve (12) months before the claim. Under no circumstances shall the Provider be liable for "
                 "lost profits or consequential damages.")
    cap = finding(contract, "liability_cap")
    assert "shall not exceed" in cap["quote"] and cap["protects"] == "supplier"
    excluded = [a for a in cap["also"] if a["protects"] == "supplier" and "lost profits" in contract.text[a["start"]:a["end"]]]
    # its one line says what it does, not only that no amount was read
    assert excluded and "indirect and consequential" in excluded[0]["reading"]


@pytest.mark.parametrize(("sentence", "kind"), [
    ("No claim under this Agreement may be brought more than one (1) year after the cause of action arose.", "time limit"),
    ("The Seller's total liability shall not exceed [***].", "redacted"),
    ("In no event shall either party be liable for any special, punitive or consequential damages.", "indirect"),
])
def test_a_limitation_without_an_amount_is_read_for_what_it_does(sentence, kind):
    contract = contract_of(SUPPLY, f"10. LIABILITY\n\n10.1 {sentence}")
    assert kind in provisions(contract, PLAYBOOK.entry("liability_cap"))[0]["reading"]


def test_a_further_restraint_in_a_non_solicitation_section_is_the_finding():
    contract = contract_of(
        RESALE, "11. RESTRICTIONS\n\n11.1 For twelve (12) months after this Agreement ends, the Reseller shall not solicit any "
                "employee of the Vendor to leave the Vendor's employment. The Reseller shall not hire any person employed by the "
                "Vendor during the Term. During the Term and for three (3) years after it, the Reseller shall not market, sell "
                "or distribute any product that competes with the Software.")
    restraint = finding(contract, "non_compete")
    assert restraint["verdict"] == "deviation" and "compet" in restraint["quote"]


@pytest.mark.parametrize("extra", [
    "2.2 Change Orders. Any change to the Deliverables that the Customer asks for after signature must be agreed in writing "
    "as a Change Order. The costs of any such changes shall be added to the Project Price.",
    "2.2 Changes to the Scope of the work after signature are quoted by the Provider, and the price of the changes so "
    "agreed is added to the Project Price.",
])
def test_work_the_buyer_adds_is_no_price_increase(extra):
    contract = contract_of(HOSTING, "2. PRICE\n\n2.1 The Customer shall pay the Provider the sum of $8,000 (the \"Project "
                                    "Price\") for the design of the website.\n\n" + extra)
    assert finding(contract, "price_changes")["verdict"] in ("standard", "missing")


def test_a_price_the_supplier_may_raise_for_changes_at_will_stays_a_deviation():
    contract = contract_of(HOSTING, "2. FEES\n\n2.2 Change Orders. The Provider may increase its prices and fees at any time "
                                    "at its sole discretion, for any such changes or for any other reason.")
    assert finding(contract, "price_changes")["verdict"] == "deviation"


# ---------------------------------------------------------------- whom a payment term binds
@pytest.mark.parametrize(("sentence", "payer"), [
    ("Payment of the Seller's invoices shall be due within sixty (60) days of the respective invoice date.", "buyer"),
    ("The Seller and the Buyer agree to terms of payment of net thirty (30) days from the date of invoice.", "buyer"),
    ("Each party shall pay the other its share of the revenue within thirty (30) days after the end of each quarter.", "both"),
    ("The Seller shall pay the Buyer any volume rebate within thirty (30) days after the end of each contract year.", "supplier"),
])
def test_a_payment_term_binds_whoever_pays(sentence, payer):
    contract = contract_of(SUPPLY, "1. SUPPLY\n\n1.1 The Seller shall supply the flour described in Schedule 1.",
                           f"6. PAYMENT\n\n6.1 {sentence}")
    pay = finding(contract, "payment_terms")
    assert (pay["binds"], pay["protects"]) == (payer, {"buyer": "supplier", "supplier": "buyer", "both": "both"}[payer])
