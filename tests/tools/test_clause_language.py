"""General contract language the detectors must read (and look-alikes they must not), taken
from the shapes lawyers write, not from particular filings."""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.clauses import Candidate
from tools.detection.cuad_eval import _value_match, detect_categories
from tools.detection.metrics import extract_jurisdiction, extract_renewal


def found(sentence: str) -> set[str]:
    contract = parse_contract(f"1. GENERAL\n\n{sentence}\n", "t.txt")
    return {category for category, hits in detect_categories(contract).items() if hits}


@pytest.mark.parametrize("sentence, category", [
    ("Neither party may assign this Agreement to another party without the other party's prior, written consent.", "Anti-Assignment"),
    ("Neither Party shall sell, assign, subcontract or transfer this Agreement.", "Anti-Assignment"),
    ("This Agreement will terminate automatically in the event of its assignment.", "Anti-Assignment"),
    ("The laws of the State of New York govern all matters arising out of this Agreement.", "Governing Law"),
    ("This Agreement is made under and subject to the substantive laws of the State of New York.", "Governing Law"),
    ("This Agreement shall renew automatically each year thereafter unless either party objects.", "Renewal Term"),
    ("This contract is for one year; thereafter it shall continue until terminated by either party upon "
     "not less than thirty (30) days prior written notice.", "Renewal Term"),
    ("This contract is for one year; thereafter it shall continue until terminated by either party upon "
     "not less than thirty (30) days prior written notice.", "Notice Period To Terminate Renewal"),
    ("Each party may, in its sole discretion, terminate this Agreement at any time without cause.", "Termination For Convenience"),
    ("The Supplier may terminate this Agreement at any time by 6 (six) months prior notice in writing.", "Termination For Convenience"),
    ("IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INCIDENTAL OR CONSEQUENTIAL DAMAGES.", "Cap On Liability"),
    ("Nothing in this Section shall operate to limit or exclude any liability for fraud or for a breach of Section 8.", "Uncapped Liability"),
    ("If control of either party shall pass to a competitor, the other party may terminate.", "Change Of Control"),
    ("For each Default Month the defaulting Party shall pay a penalty equal to five times the average yield.", "Liquidated Damages"),
    ("Distributor will not carry any competitive products without the Supplier's consent.", "Non-Compete"),
    ("Prices offered to the Buyer shall not be less favorable than those offered to other distributors.", "Most Favored Nation"),
    ("Fees are subject to adjustments proposed by the Supplier not to exceed 5% per year.", "Price Restrictions"),
    ("On termination the Distributor may sell off its remaining stock of the Products.", "Post-Termination Services"),
    ("Upon termination, the Supplier shall co-operate with the Buyer in making an orderly transition.", "Post-Termination Services"),
    ("The Distributor agrees to meet the annual sales targets set out in Schedule 2.", "Minimum Commitment"),
    ("The Supplier grants the Distributor an exclusive distributorship in the Territory.", "Exclusivity"),
    # governing law without the word "governed"
    ("This Agreement shall be interpreted and enforced according to the laws of the State of Oregon.", "Governing Law"),
    ("THIS AGREEMENT SHALL BE GOVERNED IN ALL RESPECTS, INCLUDING VALIDITY, INTERPRETATION AND EFFECT, BY THE LAWS "
     "OF THE STATE OF OHIO.", "Governing Law"),
    ("The law of the Kingdom of Denmark applies to this Agreement and to any dispute under it.", "Governing Law"),
    ("This Agreement is controlled by the laws of the State of Utah.", "Governing Law"),
    # assignment: consent named before the verb, delegation, "cannot", passive and list forms
    ("The Contractor may not, without the written consent of the Buyer, assign or subcontract its obligations.",
     "Anti-Assignment"),
    ("Without prior written consent of the other Parties, none of the Parties may assign its rights to any third party.",
     "Anti-Assignment"),
    ("Neither Party shall delegate the performance of its duties without the prior written consent of the other Party.",
     "Anti-Assignment"),
    ("This Agreement cannot be assigned by a Party, including by way of merger, without the other Party's consent.",
     "Anti-Assignment"),
    ("The rights granted to the Reseller are personal to it and shall not, without the Vendor's prior approval, "
     "be transferred or assigned to any other person.", "Anti-Assignment"),
    ("The licence granted herein is not sublicensable, transferable or assignable.", "Anti-Assignment"),
    ("The Buyer may not assign or delegate its rights or obligations under this Agreement.", "Anti-Assignment"),
    # audit by access to books or by site visits for inspection
    ("The Distributor shall afford the Supplier full access at all reasonable times to its books and records "
     "relating to the Products.", "Audit Rights"),
    ("The Manufacturer shall permit the Buyer's representatives to enter its plant during business hours for the "
     "purpose of inspecting the production.", "Audit Rights"),
])
def test_general_clause_language_is_found(sentence, category):
    assert category in found(sentence)


@pytest.mark.parametrize("sentence, category", [
    ("This Agreement may not be terminated by either Party at any time for its own convenience.", "Termination For Convenience"),
    ("The parties may terminate this Agreement at any time by written agreement.", "Termination For Convenience"),
    ("Either party may terminate this Agreement at any time if the other party fails materially to comply with it.",
     "Termination For Convenience"),
    ("This Agreement shall not prevent either party from selling competing products of other vendors.", "Non-Compete"),
    ("There is no guarantee that any minimum level of revenue will be generated.", "Minimum Commitment"),
    # liability for fraud alone is one the law never lets be limited: a standard, not an uncapped breach
    ("Nothing in this Section shall operate to limit or exclude any liability for fraud.", "Uncapped Liability"),
    ("The parties agree that this Agreement is not evidence of, nor does it create, any exclusive supply relationship.", "Exclusivity"),
    ("The confidentiality obligations shall continue for five years after termination of this Agreement.",
     "Post-Termination Services"),
    ("A writ, warrant or attachment is levied against the Supplier's property for sixty (60) days.", "Warranty Duration"),
    ("The delivery of the software to the Licensee will not act as an assignment of any rights in it.", "Anti-Assignment"),
    ("The Customer shall give the Supplier access to its premises and equipment to perform the Services.",
     "Audit Rights"),
])
def test_look_alikes_are_not_found(sentence, category):
    assert category not in found(sentence)


def test_renewal_periods_named_by_words_are_read():
    assert extract_renewal("This agreement shall renew automatically each year unless notice is given.")[1] == 12
    assert extract_renewal("This Agreement will extend automatically for monthly periods.")[1] == 1
    assert extract_renewal("renews for successive two (2) year terms")[1] == 24


@pytest.mark.parametrize("text, place", [
    ("governed by the laws in the State of Washington.", "Washington"),
    ("governed by the laws, other than choice of law rules, of the state of Florida.", "Florida"),
    ("governed by the laws of the United States of America and of the Commonwealth of Pennsylvania.", "Pennsylvania"),
    ("shall be governed by and construed in accordance with Ohio law.", "Ohio"),
])
def test_jurisdictions_are_read_from_varied_wording(text, place):
    assert extract_jurisdiction(text) == place


def test_several_labelled_jurisdictions_must_all_be_named():
    quote = "This Agreement is governed by the laws of England and Wales."
    candidate = [Candidate("governing_law", "1", quote, 0, len(quote), 4.0)]
    assert _value_match("Governing Law", "England; Wales", candidate) is True
    assert _value_match("Governing Law", "England; Scotland", candidate) is False


@pytest.mark.parametrize("toc_line", [
    "7.1 Change of Control 45 7.2 Assignment 46 7.3 Notices 47",
    "ARTICLE VII RESIGNATION AND SUCCESSION 32 Section 7.1 No Resignation 32 Section 7.2 Termination Events 33 "
    "Section 7.3 Merger, Consolidation or Change of Control of the Servicer 34 Section 7.4 Assignment 35",
])
def test_table_of_contents_lines_state_no_clause(toc_line):
    assert "Change Of Control" not in found(toc_line)
    assert "Anti-Assignment" not in found(toc_line)


def test_a_renewal_notice_without_a_prior_to_cue_is_read():
    text = ("This Agreement renews automatically for consecutive one (1) year periods thereafter unless terminated "
            "upon thirty (30) days' written notice to the other party.")
    assert extract_renewal(text) == (30.0, 12.0)
    # a period that is not followed by the word notice is not a notice period
    assert extract_renewal("This Agreement renews automatically for one (1) year periods unless ended within "
                           "ten (10) days of a price change.")[0] is None
