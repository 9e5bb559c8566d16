"""Findings a buyer's lawyer can act on: the parties and their roles, whom each clause binds and
protects, verdicts read from the buyer's side, citations as printed, applicability, and the three
clause types a buyer's lawyer always raises (sole remedy, warranty disclaimers, waivers of the
buyer's termination rights).

Every contract here is written for these tests, in the shapes contracts use; the parties' names
are invented and change from test to test, so no rule can lean on one of them.
"""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.parties import identify_parties
from tools.detection.review import detect_all, review_clause
from tools.operations import build_finding, find_clauses_data
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()


def contract_of(preamble: str, *clauses: str, name: str = "x.txt"):
    body = "\n\n".join(f"{i}. CLAUSE {i}\n\n{i}.1 {text}" for i, text in enumerate(clauses, start=1))
    return parse_contract(f"{preamble}\n\n{body}\n", name)


# ---------------------------------------------------------------- who the parties are
@pytest.mark.parametrize(("preamble", "buyer", "supplier"), [
    # role words in the defined terms
    ('This Agreement is made between Tamsin Holdings Ltd, a company incorporated in England ("Customer"), and '
     'Orrery Widgets Inc., a Delaware corporation ("Supplier").', "Tamsin Holdings Ltd", "Orrery Widgets Inc."),
    # the distributor buys; the other party is named by its own short name
    ('Quillon Trading Corp., a Texas corporation ("Distributor") and Marrowby Devices, Inc. ("Marrowby") agree that '
     'the following terms govern the purchase and sale of the Products.', "Quillon Trading Corp.", "Marrowby Devices, Inc."),
    # "hereinafter referred to as", the supplier's short name first
    ('THIS AGREEMENT is made BETWEEN: PELLUCID LABS B.V., a company incorporated under the laws of the Netherlands '
     '(hereinafter referred to as "Pellucid") - and - HARROW CLINICS LIMITED, a company incorporated in Ireland '
     '(hereinafter referred to as "Purchaser").', "HARROW CLINICS LIMITED", "PELLUCID LABS B.V."),
    # "Company" leans to the buyer, but gives way when the other party is plainly the buyer
    ('This Reseller Agreement is entered into by Vantablue Software Co. ("Company") and Gristle Networks LLC '
     '("Reseller").', "Gristle Networks LLC", "Vantablue Software Co."),
])
def test_parties_and_roles_come_from_the_preamble(preamble, buyer, supplier):
    parties = identify_parties(preamble + "\n\n1. SCOPE\n\n1.1 The parties agree as follows.\n")
    assert parties.buyer is not None and parties.supplier is not None
    assert parties.buyer.name.rstrip(".") == buyer.rstrip(".")
    assert parties.supplier.name.rstrip(".") == supplier.rstrip(".")


def test_roles_from_what_each_party_does_when_the_terms_say_nothing():
    text = ('This Agreement is between Alder Foods Inc. ("Alder") and Brisk Packaging LLC ("Brisk").\n\n'
            "1. SUPPLY\n\n1.1 Brisk shall manufacture and deliver the Packaging. Alder shall purchase the Packaging "
            "and Alder shall pay the invoices within 30 days. Brisk warrants that the Packaging conforms.\n")
    parties = identify_parties(text)
    assert (parties.buyer.terms, parties.supplier.terms) == (("Alder",), ("Brisk",))
    assert "what each party does" in parties.how


def test_we_settles_which_side_we_review_for():
    text = 'Agreement between Osprey Ltd ("Osprey") and Kestrel Ltd ("Kestrel").\n\n1. TERMS\n\n1.1 Text.\n'
    open_question = identify_parties(text)
    assert open_question.ambiguous and open_question.buyer is None
    ours = identify_parties(text, we="Kestrel")
    assert (ours.buyer.name, ours.supplier.name) == ("Kestrel Ltd", "Osprey Ltd")
    swapped = identify_parties('Deal between Rook Ltd ("Customer") and Heron Ltd ("Vendor").\n\n1. A\n\n1.1 B.\n', we="supplier")
    assert (swapped.buyer.name, swapped.supplier.name) == ("Heron Ltd", "Rook Ltd")


# ---------------------------------------------------------------- caps and insurance that mirror each other
PREAMBLE = 'Supply agreement between Corvid Retail plc ("Buyer") and Lanyard Metals Ltd ("Supplier").'
MIRRORS = [
    # a mutual cap of 1x: the fallback
    ("liability_cap", "Each party's aggregate liability under this Agreement shall not exceed one times (1x) the fees paid in the preceding twelve (12) months.",
     "fallback", "both", "both"),
    # the same cap for the supplier alone: not the buyer's fallback
    ("liability_cap", "The Supplier's aggregate liability under this Agreement shall not exceed one times (1x) the fees paid in the preceding twelve (12) months.",
     "deviation", "buyer", "supplier"),
    # the mirror: a cap for the buyer alone costs the buyer nothing (issue 30: present and favourable)
    ("liability_cap", "The Buyer's aggregate liability under this Agreement shall not exceed one times (1x) the fees paid in the preceding twelve (12) months.",
     "favourable", "supplier", "buyer"),
    # insurance the supplier owes, and the mirror the buyer owes
    ("insurance", "The Supplier shall maintain commercial general liability insurance of not less than USD 2,000,000 per occurrence.",
     "standard", "supplier", "buyer"),
    ("insurance", "The Buyer shall maintain commercial general liability insurance of not less than USD 2,000,000 per occurrence.",
     "deviation", "buyer", "supplier"),
]


@pytest.mark.parametrize(("clause_type", "body", "verdict", "binds", "protects"), MIRRORS)
def test_mirrored_duties_are_read_from_the_buyers_side(clause_type, body, verdict, binds, protects):
    finding = review_clause(contract_of(PREAMBLE, body), PLAYBOOK.entry(clause_type))
    assert (finding["verdict"], finding["binds"], finding["protects"]) == (verdict, binds, protects), finding


def test_of_two_caps_the_one_on_the_suppliers_liability_is_judged():
    contract = contract_of(
        PREAMBLE,
        "The Buyer's aggregate liability shall not exceed USD 50,000.",
        "The Supplier's aggregate liability shall not exceed one half (0.5x) of the fees paid in the preceding twelve (12) months.",
    )
    finding = review_clause(contract, PLAYBOOK.entry("liability_cap"))
    assert finding["section"].startswith("2") and finding["protects"] == "supplier"
    assert finding["verdict"] == "deviation" and "0.5" in finding["rationale"]


def test_of_two_insurance_duties_the_suppliers_is_judged():
    contract = contract_of(
        PREAMBLE,
        "The Buyer shall maintain property insurance of not less than USD 5,000,000 per occurrence.",
        "The Supplier shall maintain general liability insurance of not less than USD 500,000 per occurrence.",
    )
    finding = review_clause(contract, PLAYBOOK.entry("insurance"))
    assert (finding["section"].split(".")[0], finding["binds"], finding["verdict"]) == ("2", "supplier", "deviation")
    assert "500,000" in finding["recommendation"] and "Ask for supplier general liability cover of at least USD 2,000,000" in finding["recommendation"]


def test_a_supplier_friendly_assignment_exception_is_not_standard():
    body = ("Neither party may assign this Agreement without the prior written consent of the other party, except that "
            "the Supplier may assign it to an affiliate or to a successor to its business without consent.")
    finding = review_clause(contract_of(PREAMBLE, body), PLAYBOOK.entry("assignment"))
    assert finding["verdict"] != "standard", finding
    mirrored = body.replace("the Supplier may", "the Buyer may")
    assert review_clause(contract_of(PREAMBLE, mirrored), PLAYBOOK.entry("assignment"))["verdict"] == "standard"


# ---------------------------------------------------------------- the three new clause types
NEW_TYPES = [
    ("sole_remedy", "If a Product is defective, the Supplier shall repair or replace it, which shall be the Buyer's sole and exclusive remedy.", "deviation", "buyer"),
    ("sole_remedy", "The Supplier shall repair or replace a defective Product as the Buyer's sole remedy; if the Supplier is unable to do so within thirty (30) days, the Buyer may terminate and recover its damages.", "fallback", "buyer"),
    ("sole_remedy", "Payment of service credits is without prejudice to the Buyer's other rights and remedies and is not the Buyer's sole remedy for any failure.", "standard", None),
    ("warranty_disclaimer", "THE PRODUCTS ARE PROVIDED \"AS IS\" AND THE SUPPLIER DISCLAIMS ALL WARRANTIES, EXPRESS OR IMPLIED, "
                            "INCLUDING ANY WARRANTY OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE OR CONFORMITY WITH ANY SPECIFICATION.", "deviation", "buyer"),
    ("warranty_disclaimer", "Except as expressly set out in clause 1, the Supplier makes no other warranty, express or implied, including any implied warranty of merchantability or fitness for a particular purpose.", "fallback", "buyer"),
    ("termination_rights", "The Buyer waives any right to compensation, indemnity or damages for loss of goodwill or investments on the expiry or termination of this Agreement.", "deviation", "buyer"),
    ("termination_rights", "Neither party shall be liable to the other for any compensation, indemnity or damages by reason of the termination or non-renewal of this Agreement in accordance with its terms.", "fallback", "both"),
    ("termination_rights", "The Buyer may only terminate this Agreement in the cases listed in clause 12 and waives any other right to terminate or rescind it.", "deviation", "buyer"),
]


@pytest.mark.parametrize(("clause_type", "body", "verdict", "binds"), NEW_TYPES)
def test_the_new_clause_types_are_raised(clause_type, body, verdict, binds):
    contract = contract_of(PREAMBLE, body)
    finding = review_clause(contract, PLAYBOOK.entry(clause_type))
    if verdict == "standard":  # remedies kept: no sole-remedy clause to flag (absence is the standard)
        assert finding["verdict"] in ("standard", "missing") and finding["severity"] == "none", finding
        return
    assert finding["verdict"] == verdict, finding
    if binds:
        assert finding["binds"] == binds, finding
    if verdict != "standard":
        assert finding["recommendation"].startswith("Section 1.1 (CLAUSE 1)") and "ask for" in finding["recommendation"].lower()


def test_a_supplier_only_sole_remedy_or_disclaimer_by_the_buyer_costs_the_buyer_nothing():
    remedy = "The Buyer's sole obligation, and the Supplier's sole remedy, for a late payment is interest at 1% per month."
    finding = review_clause(contract_of(PREAMBLE, remedy), PLAYBOOK.entry("sole_remedy"))
    assert finding["verdict"] == "favourable" and finding["severity"] == "none", finding  # issue 30
    disclaimer = "The Buyer disclaims all warranties, express or implied, as to the forecasts it gives."
    assert review_clause(contract_of(PREAMBLE, disclaimer), PLAYBOOK.entry("warranty_disclaimer"))["verdict"] == "favourable"


# ---------------------------------------------------------------- applicability, citations, recommendations
def test_data_protection_does_not_apply_to_a_deal_without_personal_data():
    goods = contract_of(PREAMBLE, "The Supplier shall deliver steel coils to the Buyer's plant.")
    finding = review_clause(goods, PLAYBOOK.entry("data_protection"))
    assert (finding["verdict"], finding["severity"]) == ("not_applicable", "none")
    assert "no personal data" in finding["rationale"]
    found = find_clauses_data(goods, PLAYBOOK, "data_protection")
    assert found["if_missing"]["verdict"] == "not_applicable"
    # a reviewer that records it as missing anyway gets the fact-based verdict
    recorded = build_finding(goods, PLAYBOOK, "data_protection", "missing", "high")
    assert recorded["verdict"] == "not_applicable" and recorded["severity"] == "none"
    hosting = contract_of(PREAMBLE, "The Supplier shall host the Buyer's customer data, including personal data of its employees.")
    assert review_clause(hosting, PLAYBOOK.entry("data_protection"))["verdict"] == "missing"


def test_citations_are_the_printed_numbers_and_headings_never_internal_ids():
    text = ("SERVICES AGREEMENT\n\nParties: Ardent Co. (\"Customer\") and Belfry Ltd (\"Provider\").\n\n"
            "ARTICLE IX - WARRANTY\n\nSection 9.2 Defects. The Provider warrants that the Services will be free from "
            "defects for twelve (12) months from acceptance.\n\nINSURANCE\n\nThe Provider shall maintain general "
            "liability insurance of USD 1,000,000 per occurrence.\n")
    contract = parse_contract(text, "c.txt", pages=[text[:150], text[150:]])
    findings = {f["clause_type"]: f for f in detect_all(contract, PLAYBOOK)}
    assert findings["warranty"]["citation"] == "Section 9.2 (Defects)"
    insurance = findings["insurance"]["citation"]
    assert insurance.startswith("Section 9.2 (Defects), under \"INSURANCE\"") or "INSURANCE" in insurance
    for finding in findings.values():
        assert not (finding["citation"] or "").startswith(("h", "section h")), finding


def test_recommendations_quote_this_contracts_figure_and_the_change_to_ask_for():
    contract = contract_of(PREAMBLE, "The Buyer shall pay each invoice within thirty (30) days of the invoice date.")
    finding = review_clause(contract, PLAYBOOK.entry("payment_terms"))
    assert finding["verdict"] == "deviation"
    assert finding["recommendation"] != PLAYBOOK.entry("payment_terms").recommendation
    assert "30" in finding["recommendation"] and "within 60 days of receipt" in finding["recommendation"]
    assert finding["rationale"].startswith("Section 1.1 (CLAUSE 1): payment term (days) 30")
    assert "binds the buyer, Corvid Retail plc (\"Buyer\")" in finding["rationale"]


def test_a_clause_number_run_into_the_text_is_cited_by_that_number():
    text = ('Agreement between Ardent Co. ("Customer") and Belfry Ltd ("Supplier").\n\n'
            "17. GENERAL\n\n17.1 Notices are given in writing. 18. Limitation of Liability 18.1 The Supplier's aggregate "
            "liability shall not exceed two times (2x) the fees paid in the preceding twelve (12) months.\n")
    finding = review_clause(parse_contract(text, "x.txt"), PLAYBOOK.entry("liability_cap"))
    assert finding["citation"] == "Section 18.1 (Limitation of Liability)", finding


def test_a_filings_redaction_note_is_not_personal_data():
    goods = contract_of(PREAMBLE, "The Supplier shall deliver the pumps. Notices go to [Redacted - Personal Information], Operations.")
    assert review_clause(goods, PLAYBOOK.entry("data_protection"))["verdict"] == "not_applicable"


def test_a_mutual_promise_not_to_employ_each_others_staff_is_a_non_solicitation():
    body = "The Supplier and the Buyer will not be allowed to employ employees of the other party, directly or indirectly, for one (1) year."
    assert review_clause(contract_of(PREAMBLE, body), PLAYBOOK.entry("non_compete"))["verdict"] == "standard"


def test_assess_clause_points_from_the_other_sides_clause_to_the_buyers_side():
    from tools.operations import assess_clause_data

    contract = contract_of(
        PREAMBLE,
        "The Buyer shall maintain property insurance of not less than USD 5,000,000 per occurrence.",
        "The Supplier shall maintain general liability insurance of not less than USD 500,000 per occurrence.",
    )
    assessed = assess_clause_data(contract, PLAYBOOK, "insurance", "1")
    assert assessed["binds"] == "buyer" and assessed["other_side"]["section"].startswith("2")


def test_passive_mutual_consent_to_assign_is_the_fallback():
    body = ("This Agreement may not be assigned by either party without prior written permission from the other party, "
            "which permission shall not be unreasonably withheld.")
    assert review_clause(contract_of(PREAMBLE, body), PLAYBOOK.entry("assignment"))["verdict"] == "fallback"


def test_a_run_in_non_competition_heading_over_a_staff_clause_is_a_non_solicitation():
    text = (PREAMBLE + "\n\n19. GENERAL\n\n19.1 Notices are in writing. 20. Non-Competition 20.1 The Supplier and the Buyer "
            "will not be allowed to employ employees of the other party, directly or indirectly, for one (1) year.\n")
    finding = review_clause(parse_contract(text, "x.txt"), PLAYBOOK.entry("non_compete"))
    assert finding["verdict"] == "standard" and finding["citation"] == "Section 20.1 (Non-Competition)", finding


def test_a_service_through_which_people_order_or_sign_up_processes_their_personal_data():
    # no "personal data" words at all: the deal itself has individuals giving the supplier their
    # details (consumers ordering on a site the supplier runs, patients enrolled, members signing up)
    for sentence in (
        "The Provider shall operate the online store through which consumers place orders for the Buyer's goods.",
        "Visitors to the portal may register an account and submit enquiries, which the Provider shall forward daily.",
        "The Provider shall enrol patients in the programme and keep the enrolment records for five years.",
        "Subscribers who sign up through the Provider's call centre shall be transferred to the Buyer's billing system.",
    ):
        deal = contract_of(PREAMBLE, sentence)
        assert review_clause(deal, PLAYBOOK.entry("data_protection"))["verdict"] == "missing", sentence
    for sentence in (
        "The Supplier shall deliver consumer products to the Buyer's warehouse in pallets.",
        "The Buyer's customers may place orders with the Buyer, who shall pass them on to the Supplier by EDI.",
        "The Supplier shall register the Buyer's trade marks in the territory at the Buyer's cost.",
    ):
        deal = contract_of(PREAMBLE, sentence)
        assert review_clause(deal, PLAYBOOK.entry("data_protection"))["verdict"] == "not_applicable", sentence
