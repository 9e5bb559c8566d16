"""Who a clause binds and protects is read from its grammar (issue 30): the subject of the verb
that carries the duty, right or limit, with subjects joined by "and"/"nor", passive "by X",
"each/neither/either party", and the contract's own defined terms wherever they are defined;
never the first party named in a window. Texts are written for these tests."""

from __future__ import annotations

import pytest

from tools.detection import directions, remedies, stance
from tools.detection.parties import identify_parties, reading_for
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
LICENCE = ('This Licence Agreement is made between Fenwick Analytics Ltd, a company incorporated in Scotland '
           '("Licensee"), and Brightwater Data Inc., a Delaware corporation ("Licensor").\n\n1. TERMS\n\n1.1 Text.\n')
DISTRIBUTION = ('This Distribution Agreement is made between Halvard Pumps GmbH, a German company ("Company"), and '
                'Ostrava Trading s.r.o., a Czech company ("Distributor").\n\n1. TERMS\n\n1.1 Text.\n')


def metric(clause_type: str):
    return PLAYBOOK.entry(clause_type).metric


def stance_in(preamble: str, metric_name: str, clause: str):
    with reading_for(identify_parties(preamble)):
        return stance.read_stance(metric_name, clause)


@pytest.mark.parametrize("clause", [
    "Licensor and Licensee each hereby disclaim all implied warranties of merchantability and fitness for a particular purpose.",
    "Brightwater and Fenwick hereby disclaim any implied warranty of fitness for a particular purpose.",
    "Neither Licensor nor Licensee shall be liable for any indirect or consequential damages.",
    "Each of Licensee and Licensor excludes all liability for loss of profits.",
])
def test_joint_subjects_limit_both_parties(clause):
    assert stance_in(LICENCE, "disclaimer_scope", clause) == ("both", "both")


def test_a_disclaimer_by_both_parties_is_not_read_as_the_buyers_alone():
    clause = "Licensor and Licensee each hereby disclaim all implied warranties of merchantability and fitness for a particular purpose."
    with reading_for(identify_parties(LICENCE)):
        judgement = remedies.disclaimer_scope(metric("warranty_disclaimer"), clause)
    assert judgement.level == "fallback" and judgement.value == "mutual"


@pytest.mark.parametrize(("clause", "holder"), [
    ("The prices set out in Schedule 2 may be changed by Company on thirty (30) days' written notice.", "supplier"),
    ("The prices may be increased by Halvard once a year.", "supplier"),
    ("This Agreement may be terminated by Distributor on ninety (90) days' notice.", "buyer"),
    ("This Agreement may be terminated by either party on ninety (90) days' notice.", "both"),
    ("Company may change the prices at any time.", "supplier"),
])
def test_a_right_is_held_by_the_agent_of_a_passive_verb_or_the_subject(clause, holder):
    binds, protects = stance_in(DISTRIBUTION, "price_increase_pct", clause)
    assert protects == holder


@pytest.mark.parametrize(("clause", "bound"), [
    ("All invoices submitted by Company shall be paid by Distributor within thirty (30) days.", "buyer"),
    ("Each of Company and Distributor shall maintain product liability insurance of USD 1,000,000.", "both"),
    ("Company and Distributor shall each maintain product liability insurance of USD 1,000,000.", "both"),
    ("Customer shall be indemnified and held harmless by Company against third-party claims.", "supplier"),
])
def test_an_obligation_binds_the_subject_or_the_passive_agent(clause, bound):
    binds, _ = stance_in(DISTRIBUTION, "insurance_amount", clause)
    assert binds == bound


def test_a_passive_indemnity_is_given_by_its_agent():
    clause = "Distributor shall be defended, indemnified and held harmless by Company against all third-party claims."
    with reading_for(identify_parties(DISTRIBUTION)):
        judgement = directions.indemnity_direction(metric("uncapped_liability"), clause)
    assert judgement.value == "supplier", judgement


def test_the_buyers_own_exclusive_appointment_restricts_the_supplier_not_the_buyer():
    clause = "Company hereby appoints Distributor as its exclusive distributor of the Products in the Territory."
    with reading_for(identify_parties(DISTRIBUTION)):
        judgement = directions.restriction_on_buyer(metric("exclusivity"), clause)
    assert judgement.value == "supplier" and judgement.level == "standard", judgement
    # the mirror still binds the buyer
    clause = "Distributor hereby grants Company the exclusive right to supply Distributor's requirements of pumps."
    with reading_for(identify_parties(DISTRIBUTION)):
        judgement = directions.restriction_on_buyer(metric("exclusivity"), clause)
    assert judgement.value == "buyer" and judgement.level == "deviation", judgement


@pytest.mark.parametrize("clause", [
    "The sole and exclusive remedy for any breach of Licensee's warranties in Section 7 shall be termination of this Agreement.",
    "Licensor's sole remedy for a breach of the warranties given by Licensee is termination.",
    "As the exclusive remedy for breach of the representations and warranties made by Licensee, Licensor may terminate.",
])
def test_a_sole_remedy_for_the_buyers_own_warranties_narrows_the_suppliers_remedies(clause):
    with reading_for(identify_parties(LICENCE)):
        judgement = remedies.exclusive_remedy(metric("sole_remedy"), clause)
    assert judgement.level == "standard" and judgement.value == "supplier", judgement


def test_a_sole_remedy_for_the_suppliers_warranties_is_still_the_buyers():
    clause = "The sole and exclusive remedy for any breach of Licensor's warranties in Section 7 shall be re-performance of the services."
    with reading_for(identify_parties(LICENCE)):
        judgement = remedies.exclusive_remedy(metric("sole_remedy"), clause)
    assert judgement.level == "deviation", judgement


# ---------------------------------------------------------------- defined terms anywhere
UNREADABLE_PREAMBLE = (
    "TH1S AGR EEMENT is rnade this 4th day of Ju1y by and betvveen the parties identified below.\n\n"
    "1. DEFINITIONS\n\n"
    '1.1 "Company" means Halvard Pumps GmbH, a company organised under the laws of Germany, and its successors.\n'
    '1.2 "Distributor" shall mean Ostrava Trading s.r.o. of Brno.\n'
    '1.3 "Products" means the pumps listed in Schedule 1.\n\n'
    "2. PRICES\n\n2.1 Company may change the prices at any time on thirty days' notice.\n"
)


def test_defined_terms_in_a_definitions_article_name_the_parties():
    parties = identify_parties(UNREADABLE_PREAMBLE)
    assert parties.buyer is not None and parties.supplier is not None
    assert parties.buyer.name.startswith("Ostrava Trading") and "Distributor" in parties.buyer.terms
    assert parties.supplier.name.startswith("Halvard Pumps") and "Company" in parties.supplier.terms
    with reading_for(parties):
        assert stance.read_stance("price_increase_pct", "Company may change the prices at any time.") == ("buyer", "supplier")


def test_parties_named_only_in_the_signature_blocks_take_the_terms_they_sign_as():
    text = ("AGREEMENT\n\n1. SUPPLY\n\n1.1 Vendor shall deliver the goods and Customer shall pay within 30 days.\n\n"
            "IN WITNESS WHEREOF the parties have signed.\n\nVENDOR: Marlow Castings Ltd\nBy: ______\nName: A. Smith\n\n"
            "CUSTOMER: Pell Instruments Inc.\nBy: ______\nName: B. Jones\n")
    parties = identify_parties(text)
    assert parties.buyer is not None and parties.buyer.name.startswith("Pell Instruments")
    assert parties.supplier is not None and parties.supplier.name.startswith("Marlow Castings")


def test_a_party_after_a_preposition_is_not_joined_to_the_subject():
    clause = ("Licensor makes no other warranty in any communication with Licensee, and Licensor disclaims any "
              "implied warranty of merchantability.")
    assert stance_in(LICENCE, "disclaimer_scope", clause) == ("buyer", "supplier")
    clause = "Licensee shall receive replacements from Licensor and Licensor's sole obligation is to issue a credit."
    with reading_for(identify_parties(LICENCE)):
        judgement = remedies.exclusive_remedy(metric("sole_remedy"), clause)
    assert judgement.level == "deviation", judgement  # the buyer's remedy is narrowed, not both parties'


def test_an_assignment_denied_at_the_start_of_the_sentence_is_not_a_free_one():
    clause = ("Neither this Agreement nor any of the rights or obligations hereunder may be assigned by Company, by "
              "operation of law or otherwise, without the prior written consent of Distributor.")
    with reading_for(identify_parties(DISTRIBUTION)):
        judgement = directions.assignment_freedom(metric("assignment"), clause)
    assert judgement.level == "standard" and judgement.value == "supplier", judgement


def test_the_preamble_after_a_table_of_contents_is_read():
    contents = "".join(f"ARTICLE {n} : HEADING {n} .......... {n}\n" for n in ("I", "II", "III", "IV"))
    text = ("SERVICES AGREEMENT\n\nTABLE OF CONTENTS\n\n" + contents + "\n" + "Page filler. " * 30 + "\n\n"
            'This Services Agreement is made and entered into by and between Tarn Valley Water, LLC, a Delaware limited '
            'liability company ("Owner"), and Pellbrook Services, Inc., a Texas corporation ("Operator").\n\n'
            "ARTICLE I\n\n1.1 Operator shall operate the plant.\n")
    parties = identify_parties(text)
    assert parties.buyer.name.startswith("Tarn Valley Water") and parties.supplier.name.startswith("Pellbrook Services")
    assert parties.status == "identified"


def test_hereafter_defines_a_party():
    text = ('OUTSOURCING AGREEMENT BETWEEN:\nKELDA MEDIA B.V.\nAMSTERDAM\n(HEREINAFTER "KELDA")\nAND\nORRIN SOFTWARE, INC.\n'
            'BOSTON\n(HEREAFTER "ORRIN")\n\n1. SERVICES\n\n1.1 KELDA shall manufacture and deliver the kits. ORRIN shall '
            "purchase the kits and ORRIN shall pay the invoices within 30 days.\n")
    parties = identify_parties(text)
    assert parties.buyer is not None and parties.buyer.terms == ("ORRIN",)


def test_the_buyer_as_licensor_is_read_as_the_buyer():
    # our client licenses its design to the maker it buys from: "Licensor" is the buyer here
    text = ('This Manufacturing and Licence Agreement is made between Corvane Medical Inc., a Delaware corporation '
            '("Licensor"), and Dunmore Contract Manufacturing LLC, an Ohio limited liability company ("Manufacturer").'
            "\n\n1. SUPPLY\n\n1.1 Manufacturer shall manufacture and supply the Devices to Licensor. Licensor shall "
            "purchase the Devices and Licensor shall pay the invoices.\n")
    parties = identify_parties(text)
    assert parties.buyer.terms == ("Licensor",) and parties.status == "assumed"  # guessed from what each does: said so
    with reading_for(parties):
        assert stance.read_stance("price_increase_pct", "Manufacturer may increase the prices once a year.") == ("buyer", "supplier")
        judgement = remedies.disclaimer_scope(metric("warranty_disclaimer"),
                                              "Licensor hereby disclaims all warranties regarding the Licensed Technology.")
    assert judgement.level == "standard" and judgement.value == "buyer"


# ---------------------------------------------------------------- parties set out without a legal form, signature labels


def test_a_party_block_without_a_legal_form_is_defined_by_hereinafter():
    text = ('SERVICES AGREEMENT\nBETWEEN:\nHARBOUR PRINT SERVICES\n14 QUAY ROAD\nCORK\nIRELAND\n(HEREINAFTER "HPS")\nAND\n'
            'LANTERN GAMES, INC.\n9 ELM STREET\nAUSTIN, TX 78701\n(HEREAFTER "LANTERN")\n\n1. SERVICES\n\n1.1 HPS shall '
            "print and ship the boxes. LANTERN shall pay the invoices within 30 days.\n")
    parties = identify_parties(text, "Lantern")
    assert parties.supplier is not None and parties.supplier.terms == ("HPS",)
    assert parties.supplier.name == "HARBOUR PRINT SERVICES"
    with reading_for(parties):
        assert stance.read_stance("insurance_amount", "HPS shall maintain adequate insurance for the stock.") == ("supplier", "buyer")


def test_a_role_word_above_the_other_partys_signature_does_not_become_its_term():
    text = ('This Maintenance Agreement is made by and between Quillon Systems, Inc., a Delaware corporation ("Quillon") '
            'and ____________, a ________ corporation ("Licensee").\n\n1. FEES\n\n1.1 Fees are due within 30 days.\n\n'
            "IN WITNESS WHEREOF the parties have signed:\nLICENSEE\nQUILLON SYSTEMS, INC.\nBy:\nBy:\nName:\nName:\n")
    parties = identify_parties(text, "Licensee")
    assert parties.supplier is not None and parties.supplier.terms == ("Quillon",)
    with reading_for(parties):
        assert stance.read_stance("cap_multiple", "QUILLON'S SOLE LIABILITY SHALL BE LIMITED TO THE FEES PAID.")[1] == "supplier"


# ---------------------------------------------------------------- who pays, who holds a right given, duties named by nouns

SUPPLY = ('This Supply Agreement is made between Tessaro Components S.p.A., an Italian company ("Seller"), and '
          'Moravec Tools s.r.o., a Czech company ("Purchaser").\n\n1. TERMS\n\n1.1 Text.\n')


@pytest.mark.parametrize(("clause", "payer"), [
    ("Payment of Tessaro invoices shall be due within sixty (60) days of the invoice date.", "buyer"),
    ("Seller invoices will be payable within forty-five (45) days after the end of the month.", "buyer"),
    ("All payments to Seller shall be made within thirty (30) days after receipt by Purchaser of the invoice.", "buyer"),
    ("Seller and Purchaser agree to terms of payment of net thirty (30) days from the date of invoice.", "buyer"),
    ("Fees shall be payable within thirty (30) days of invoice.", "buyer"),
    ("Seller shall pay any credit owed within thirty (30) days.", "supplier"),
    ("Amounts invoiced shall be paid by Moravec within fifteen (15) days.", "buyer"),
])
def test_a_payment_term_binds_the_party_that_pays(clause, payer):
    binds, protects = stance_in(SUPPLY, "payment_days", clause)
    assert binds == payer and protects != payer


@pytest.mark.parametrize(("clause", "holder"), [
    ("Seller shall permit Purchaser to audit its quality procedures on three days' notice.", "buyer"),
    ("Seller shall maintain, and provide Purchaser reasonable access to, all batch records.", "buyer"),
    ("Purchaser shall have the right at any time to inspect the plant of Seller.", "buyer"),
    ("Tessaro grants Moravec the right to examine its books once a year.", "buyer"),
    ("Seller shall give Purchaser at least sixty (60) days' written notice of any increase in the prices.", "supplier"),
])
def test_a_right_given_to_a_party_is_held_by_it(clause, holder):
    metric_name = "price_increase_pct" if "prices" in clause else "audit_scope"
    _, protects = stance_in(SUPPLY, metric_name, clause)
    assert protects == holder


@pytest.mark.parametrize("clause", [
    "The first three months of each forecast shall constitute a binding commitment of Purchaser to buy the quantities in it.",
    "In the event that Moravec does not order the Minimum Quantity in a year, Tessaro may ship the balance.",
    "Purchaser's obligation to take the Minimum Quantity survives a change of the forecast.",
])
def test_a_duty_named_by_a_noun_or_a_condition_binds_its_party(clause):
    assert stance_in(SUPPLY, "restriction_on_buyer", clause)[0] == "buyer"


# ---------------------------------------------------------------- audit rights are rights to inspect books, records or facilities


def _reviewed(clause_type: str, *clauses: str) -> dict:
    from tools.contract import parse_contract
    from tools.detection.review import review_clause

    body = "\n\n".join(f"{i}. CLAUSE {i}\n\n{i}.1 {text}" for i, text in enumerate(clauses, start=1))
    return review_clause(parse_contract(f"{SUPPLY}\n\n{body}\n", "x.txt"), PLAYBOOK.entry(clause_type))


def test_a_reverse_engineering_ban_is_no_audit_right():
    ban = ("Purchaser shall not decompile, disassemble or reverse engineer the Firmware, save that the examination of the "
           "Firmware needed to facilitate interoperability is allowed where the law requires it.")
    assert _reviewed("audit_rights", ban)["verdict"] == "missing"
    supplier_only = ("Purchaser will keep records of its resales. Seller or its agent, at Seller's cost, may review these "
                     "records during business hours to check Purchaser's compliance.")
    finding = _reviewed("audit_rights", ban, supplier_only)
    assert finding["section"].startswith("2") and finding["verdict"] == "deviation", finding
