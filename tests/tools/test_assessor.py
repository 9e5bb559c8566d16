"""Detection + assessment of short crafted clauses: the value read and the verdict given."""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.review import detect_all, review_clause
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()


def verdict_of(clause_type: str, body: str) -> dict:
    contract = parse_contract(f"1. CLAUSE\n\n1.1 {body}\n", "crafted.txt")
    return review_clause(contract, PLAYBOOK.entry(clause_type))


CASES = [
    # liability cap: multiples in words, digits and percentages; prorated periods
    ("liability_cap", "Each party's aggregate liability shall not exceed two times (2x) the fees paid or payable in the preceding twelve (12) months.", "standard"),
    ("liability_cap", "The Supplier's total liability shall not exceed 200% of the fees paid under this Agreement.", "standard"),
    # a cap that protects only the supplier is not the buyer's fallback; the same cap for each party is
    ("liability_cap", "The Supplier's total liability shall not exceed one times the annual fees paid hereunder.", "deviation"),
    ("liability_cap", "Each party's total liability shall not exceed one times the annual fees paid hereunder.", "fallback"),
    # a cap on the buyer's liability alone costs the buyer nothing: present and favourable (issue 30)
    ("liability_cap", "The Customer's aggregate liability shall not exceed the fees paid in the preceding three (3) months.", "favourable"),
    ("liability_cap", "The Vendor's aggregate liability shall not exceed the fees paid by Customer in the three (3) months preceding the claim.", "deviation"),
    ("liability_cap", "In no event shall the Provider's total liability exceed USD 10,000.", "deviation"),
    # indemnity direction
    ("uncapped_liability", "The Supplier shall indemnify, defend and hold harmless the Buyer against all third-party claims of infringement, without limitation as to amount.", "standard"),
    ("uncapped_liability", "The Customer shall indemnify and hold harmless the Vendor against any and all claims arising from this Agreement.", "deviation"),
    ("uncapped_liability", "Each party shall indemnify and hold harmless the other party against third-party claims caused by its negligence.", "fallback"),
    # termination for convenience (buyer's right, notice days)
    ("termination_convenience", "The Customer may terminate this Agreement for convenience on thirty (30) days' written notice.", "standard"),
    ("termination_convenience", "The Purchaser may terminate this Agreement without cause upon sixty (60) days' prior written notice.", "fallback"),
    ("termination_convenience", "The Client may terminate this Agreement for convenience on one hundred and eighty (180) days' notice.", "deviation"),
    ("termination_convenience", "The Supplier may terminate this Agreement for convenience on thirty (30) days' written notice.", "deviation"),
    ("termination_convenience", "The Customer may terminate this Agreement for convenience on 30 days' notice, provided that it pays the early termination fee set out in Schedule 2.", "deviation"),
    # renewal term and non-renewal notice
    ("auto_renewal", "This Agreement shall automatically renew for successive one (1) year periods unless either party gives notice of non-renewal at least sixty (60) days prior to the end of the then-current term.", "standard"),
    ("auto_renewal", "This Agreement shall automatically renew for successive twelve (12) month periods unless either party gives notice at least ninety (90) days before the expiry of the then-current term.", "fallback"),
    ("auto_renewal", "This Agreement shall automatically renew for successive renewal terms of three (3) years unless either party gives notice thirty (30) days prior to expiration.", "deviation"),
    ("auto_renewal", "This Agreement shall automatically renew for successive one-year terms unless either party gives notice of non-renewal at least six (6) months prior to the end of the term.", "deviation"),
    # payment days
    ("payment_terms", "The Buyer shall pay each undisputed invoice within sixty (60) days of receipt.", "standard"),
    ("payment_terms", "The Customer shall pay each invoice within forty-five (45) days after the invoice date.", "fallback"),
    ("payment_terms", "Payment is due net 15 from the date of the invoice.", "deviation"),
    ("payment_terms", "All fees are payable in advance, and invoices are due upon receipt of the invoice.", "deviation"),
    # price increases
    ("price_changes", "After the first year the Supplier may increase the prices by no more than three percent (3%) per year on ninety (90) days' notice.", "standard"),
    ("price_changes", "The Vendor may increase its prices once per year by up to five per cent (5%) on sixty days' notice.", "fallback"),
    ("price_changes", "The Supplier may increase its prices by up to 8% per year on thirty days' notice.", "deviation"),
    ("price_changes", "The Provider may change its fees at its sole discretion from time to time on notice to the Customer.", "deviation"),
    # governing law
    ("governing_law", "This Agreement shall be governed by the laws of the State of New York.", "standard"),
    ("governing_law", "This Agreement is governed by and construed in accordance with the laws of England and Wales.", "fallback"),
    ("governing_law", "This Agreement shall be governed by the laws of the Commonwealth of Virginia.", "deviation"),
    # assignment
    ("assignment", "Neither party may assign this Agreement without the prior written consent of the other party, except that the Buyer may assign it to an affiliate or successor.", "standard"),
    ("assignment", "Neither party may assign this Agreement without the prior written consent of the other party.", "fallback"),
    ("assignment", "The Supplier may assign or subcontract this Agreement to any person without the Customer's consent.", "deviation"),
    # insurance
    ("insurance", "The Supplier shall maintain commercial general liability insurance of not less than USD 2,000,000 per occurrence.", "standard"),
    ("insurance", "The Contractor shall maintain general liability insurance with coverage of at least one million dollars ($1,000,000) per occurrence.", "fallback"),
    ("insurance", "The Vendor shall maintain general liability insurance with limits of $500,000 per occurrence.", "deviation"),
    # audit
    ("audit_rights", "The Buyer may audit the Supplier's books and records relating to this Agreement once a year on reasonable notice.", "standard"),
    ("audit_rights", "The Customer may have an independent certified public accountant audit the Supplier's records once per year.", "fallback"),
    ("audit_rights", "The Customer may audit the Supplier's records not more than once every three (3) years.", "deviation"),
    # restrictions on the buyer
    ("exclusivity", "The Buyer shall purchase all of its requirements for the Products exclusively from the Supplier.", "deviation"),
    ("exclusivity", "This Agreement is non-exclusive and the Buyer is free to purchase similar products from any third party.", "standard"),
    ("non_compete", "During the term the Customer shall not, directly or indirectly, engage in any business that competes with the Supplier.", "deviation"),
    ("non_compete", "Neither party shall solicit the employees of the other party for twelve (12) months after termination.", "standard"),
    ("minimum_commitment", "The Buyer shall purchase a minimum quantity of 10,000 units per year and shall pay for any shortfall.", "deviation"),
    ("minimum_commitment", "Forecasts are non-binding and the Buyer has no minimum purchase obligation.", "standard"),
    # warranty months
    ("warranty", "The Supplier warrants that the Products will be free from defects for a period of twelve (12) months from acceptance.", "standard"),
    ("warranty", "The Seller warrants that the Products will be free from defects for six (6) months after delivery.", "fallback"),
    ("warranty", "The Vendor warrants the Products against defects for ninety (90) days from delivery.", "deviation"),
    ("warranty", "The Products are provided \"as is\" and the Supplier disclaims all warranties, express or implied.", "deviation"),
    # liquidated damages direction
    ("liquidated_damages", "If the Supplier fails to deliver on time, the Supplier shall pay the Buyer liquidated damages of 1% of the price per week of delay, without prejudice to the Buyer's other remedies.", "standard"),
    ("liquidated_damages", "If the Customer cancels an order, the Customer shall pay the Supplier liquidated damages equal to 50% of the order value.", "deviation"),
    # confidentiality survival
    ("confidentiality", "Each party shall keep the other party's Confidential Information confidential, and these obligations survive for five (5) years after termination.", "standard"),
    ("confidentiality", "Each party shall keep the other party's Confidential Information confidential for two (2) years after termination of this Agreement.", "fallback"),
    ("confidentiality", "The Customer shall keep the Supplier's Confidential Information confidential for one (1) year after termination.", "deviation"),
    # data protection breach notice
    ("data_protection", "The Supplier shall process personal data only on the Buyer's instructions and shall notify the Buyer of any personal data breach within seventy-two (72) hours.", "standard"),
    ("data_protection", "The Processor shall notify the Customer of any security breach affecting personal data within five (5) days.", "fallback"),
    ("data_protection", "The Supplier shall notify the Customer of any personal data breach within ten (10) business days.", "deviation"),
]


@pytest.mark.parametrize(("clause_type", "body", "expected"), CASES, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES)])
def test_crafted_clause_gets_the_playbook_verdict(clause_type, body, expected):
    finding = verdict_of(clause_type, body)
    assert finding["verdict"] == expected, finding


def test_deviation_carries_playbook_severity_and_recommendation():
    finding = verdict_of("liability_cap", "In no event shall the Provider's total liability exceed USD 10,000.")
    entry = PLAYBOOK.entry("liability_cap")
    assert finding["severity"] == entry.severity == "high"
    # written for this contract: where, what it says now (the figure), and the change to ask for
    assert finding["recommendation"] != entry.recommendation
    assert finding["recommendation"].startswith("Section 1.1 (CLAUSE): ")
    assert "USD 10,000" in finding["recommendation"] and "Ask for a cap on the supplier's liability of at least 2x" in finding["recommendation"]
    assert "USD 10,000" in finding["rationale"] and "outside the playbook's fallback" in finding["rationale"]
    assert (finding["binds"], finding["protects"]) == ("buyer", "supplier")


def test_missing_clause_types_get_missing_with_playbook_severity():
    contract = parse_contract("1. SCOPE\n\n1.1 The Supplier shall deliver the goods listed in Schedule 1.\n", "x.txt")
    findings = {f["clause_type"]: f for f in detect_all(contract, PLAYBOOK)}
    assert list(findings) == PLAYBOOK.clause_types
    for clause_type, finding in findings.items():
        entry = PLAYBOOK.entry(clause_type)
        if entry.applies_if is not None:  # a goods contract with no personal data: data protection does not apply
            assert (finding["verdict"], finding["severity"]) == ("not_applicable", "none")
            assert entry.applies_if.otherwise in finding["rationale"]
            continue
        assert finding["verdict"] == "missing"
        assert finding["severity"] == entry.missing.severity
        assert (finding["section"], finding["quote"], finding["start"], finding["end"]) == (None, None, -1, -1)


def test_quotes_are_exact_slices_of_the_contract():
    body = "\n\n".join(f"{i}. CLAUSE {i}\n\n{text}" for i, (_, text, _) in enumerate(CASES[:25], start=1))
    contract = parse_contract(body, "many.txt")
    for finding in detect_all(contract, PLAYBOOK):
        if finding["verdict"] not in ("missing", "not_applicable"):
            assert contract.text[finding["start"] : finding["end"]] == finding["quote"]


def _article(*clauses: str):
    body = "\n\n".join(f"4.{i} {text}" for i, text in enumerate(clauses, start=1))
    return parse_contract(f"4. STAFF AND COMMERCIAL TERMS\n\n{body}\n", "article.txt")


def test_a_burden_added_next_to_a_standard_clause_is_what_the_section_says():
    """Issue 19: an article that kept a mutual non-solicitation gains a restraint on the buyer in
    a new sub-clause. Assessing the article (as detect_all and a memory-guided reviewer do) gives
    the worst for the buyer, quoted where it stands, not the older clause's "standard"."""
    from tools.operations import assess_clause_data

    contract = _article(
        "No Poaching: During the term and for twelve (12) months after, neither party shall solicit for "
        "employment any employee of the other party. Nothing in this Agreement restricts either party from "
        "carrying on any business or from dealing with any customer or supplier.",
        "Competing Products: During the term and for twenty-four (24) months after it ends, the Client shall not "
        "purchase or distribute products manufactured by any competitor of the Vendor.")
    article = assess_clause_data(contract, PLAYBOOK, "non_compete", "4")
    assert (article["verdict"], article["section"]) == ("deviation", "4.2")
    assert article["quote"].startswith("4.2 Competing Products")
    assert assess_clause_data(contract, PLAYBOOK, "non_compete", "4.1")["verdict"] == "standard"
    assert review_clause(contract, PLAYBOOK.entry("non_compete"))["section"] == "4.2"


def test_figures_are_still_read_from_the_provisions_together():
    """A payment period and the dispute procedure beside it are one clause: the procedure's ten
    days are not a second, worse payment term."""
    contract = _article(
        "Invoices and Settlement: The Client shall pay each correct and undisputed invoice within sixty (60) days "
        "of receipt.",
        "Disputed Amounts: The Client may withhold any invoiced amount that it disputes in good faith by notifying "
        "the Vendor within ten (10) Business Days of receipt of the invoice, and shall pay the undisputed balance "
        "when due.")
    finding = review_clause(contract, PLAYBOOK.entry("payment_terms"))
    assert (finding["verdict"], finding["section"]) == ("standard", "4.1")
