"""When the parties cannot be read, the review says so and `--we` settles it (issue 30): a role
word (buyer, customer, distributor, licensee, licensor ...) or a party's name, matched without
regard to case, punctuation or legal form. Texts are written for these tests."""

from __future__ import annotations

from tools.detection import stance
from tools.detection.parties import identify_parties, reading_for

# a scanned preamble: no defined terms, no names; the clauses use role words only
SCANNED = ("TH1S L1CENCE AGR EEMENT is rnade as of the date be1ow by and betvveen the parties signing it.\n\n"
           "1. LICENCE\n\n1.1 The Licensor grants the Licensee a licence to use the Software. The Licensee shall pay "
           "the Fees within thirty days. The Licensor may change the Fees on thirty days' notice.\n\n"
           "2. SUPPORT\n\n2.1 Licensee shall notify Licensor of defects.\n")
# the same with the parties' names in the body but not in a readable preamble
NAMED_IN_BODY = SCANNED + ("\n3. NOTICES\n\n3.1 Notices to ACME WIDGETS, INC. go to its head office; notices to "
                           "Borealis Software Ltd. go to its registered office. Borealis Software Ltd. shall answer.\n")


def test_unreadable_parties_are_said_to_be_unknown_and_ask_for_we():
    parties = identify_parties(SCANNED)
    assert parties.status == "unknown"
    assert "--we" in parties.note and "could not be identified" in parties.note
    assert parties.as_dict()["status"] == "unknown"


def test_we_with_a_role_word_reads_the_contracts_own_role_words_that_way_round():
    # we act for the licensor: "Licensor" is our side and "Licensee" the other
    parties = identify_parties(SCANNED, we="licensor")
    assert parties.status == "assumed" and "--we licensor" in parties.note
    assert parties.buyer.terms == ("Licensor",) and parties.supplier.terms == ("Licensee",)
    with reading_for(parties):
        assert stance.read_stance("price_increase_pct", "The Licensor may change the Fees.") == ("supplier", "buyer")
        assert stance.read_stance("payment_days", "The Licensee shall pay the Fees within thirty days.")[0] == "supplier"
    # and for the licensee, the other way round
    parties = identify_parties(SCANNED, we="Licensee")
    assert (parties.buyer.terms, parties.supplier.terms) == (("Licensee",), ("Licensor",))
    with reading_for(parties):
        assert stance.read_stance("price_increase_pct", "The Licensor may change the Fees.") == ("buyer", "supplier")


def test_we_supplier_swaps_even_when_no_party_is_named():
    text = "AGREEMENT\n\n1. SUPPLY\n\n1.1 The Vendor shall deliver the goods. The Customer shall pay within 30 days.\n"
    parties = identify_parties(text, we="supplier")
    assert parties.buyer.terms == ("Vendor",) and parties.supplier.terms == ("Customer",)
    with reading_for(parties):
        assert stance.read_stance("payment_days", "The Customer shall pay within 30 days.")[0] == "supplier"


def test_we_with_a_party_name_found_only_in_the_body():
    parties = identify_parties(NAMED_IN_BODY, we="acme widgets")
    assert parties.status != "unknown"
    assert parties.buyer.name == "ACME WIDGETS, INC." and parties.supplier.name.startswith("Borealis Software")


def test_we_matches_a_party_name_whatever_its_case_punctuation_or_legal_form():
    text = ('This Distribution Agreement is between Ingram Micro Inc., a Delaware corporation ("Distributor"), and '
            'Sorrel Devices Ltd, an English company ("Sorrel").\n\n1. TERMS\n\n1.1 Text.\n')
    for spelling in ("ingram micro, inc", "INGRAM MICRO", "Ingram Micro Incorporated", "distributor"):
        parties = identify_parties(text, we=spelling)
        assert parties.buyer.name.rstrip(".") == "Ingram Micro Inc" and parties.status == "identified", spelling
    parties = identify_parties(text, we="sorrel devices limited")
    assert parties.buyer.name == "Sorrel Devices Ltd" and parties.supplier.name.rstrip(".") == "Ingram Micro Inc"


def test_we_naming_no_party_is_unknown_and_lists_the_parties_found():
    text = 'Deal between Rook Ltd ("Customer") and Heron Ltd ("Vendor").\n\n1. A\n\n1.1 B.\n'
    parties = identify_parties(text, we="Nobody Holdings plc")
    assert parties.status == "unknown"
    assert "names no party" in parties.note and "Rook Ltd" in parties.note


def test_parties_read_from_the_preamble_are_identified():
    parties = identify_parties('Deal between Rook Ltd ("Customer") and Heron Ltd ("Vendor").\n\n1. A\n\n1.1 B.\n')
    assert parties.status == "identified" and "Rook Ltd" in parties.note
