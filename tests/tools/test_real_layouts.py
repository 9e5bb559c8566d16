"""Layouts seen in real EDGAR filings (CUAD): flattened pages, spaced-out clause numbers,
numbers glued to words, "1.0 Title" articles, and the sectioning that must survive them."""

from __future__ import annotations

from tools.contract import parse_contract
from tools.normalize import normalise_text


def test_flattened_page_lines_become_headed_sections_again():
    # Each page is one line; the layout's line breaks survive only as runs of spaces, and
    # every page starts with a page number and a running header.
    raw = (
        "- 1 -      ACME CONTRACT No. 076C/01   SUPPLY AGREEMENT   entered into by and between   ACME and BETA\n\n"
        "- 2 -      ACME CONTRACT No. 076C/01   1.     RECORDAL   It is recorded that:   1. 1.     ACME wishes to supply "
        "goods to BETA on the terms below.   1. 2.     The parties record their agreement here.\n\n"
        "- 3 -      ACME CONTRACT No. 076C/01   2.     TERMINATION   2. 1.     BETA may terminate this Agreement "
        "for convenience on   thirty (30) days written notice.   2. 2.     ACME may terminate on breach.\n\n"
        "- 1 1 -    ACME CONTRACT No. 076C/01   3.     GOVERNING LAW   3. 1.     This Agreement is governed by the "
        "laws of the Republic of South Africa.\n"
    )
    contract = parse_contract(raw, "t.txt")
    assert [s.id for s in contract.sections] == ["preamble", "1", "1.1", "1.2", "2", "2.1", "2.2", "3", "3.1"]
    assert contract.section("2").title == "TERMINATION"
    assert contract.section("3").title == "GOVERNING LAW"
    text = contract.text
    assert "ACME CONTRACT No." not in text  # the running header is furniture
    assert "- 2 -" not in text and "1 1 -" not in text
    # a sentence broken by the layout is one sentence again
    assert "BETA may terminate this Agreement for convenience on thirty (30) days written notice." in text


def test_clause_numbers_after_a_number_keep_their_title():
    text = normalise_text("7.     WARRANTY   7. 1.     Seller warrants the goods for twelve (12) months.\n")
    assert text.splitlines() == ["7. WARRANTY", "7.1. Seller warrants the goods for twelve (12) months."]


def test_all_caps_paragraph_broken_by_layout_stays_one_paragraph():
    raw = (
        "9. LIMITATION\n\nEXCEPT FOR LIABILITY ARISING UNDER SECTION 8 OF THIS AGREEMENT, IN NO         "
        "EVENT SHALL EITHER PARTY'S LIABILITY ARISING OUT OF THIS AGREEMENT         EXCEED THE FEES PAID.\n"
    )
    contract = parse_contract(raw, "t.txt")
    assert ("EXCEPT FOR LIABILITY ARISING UNDER SECTION 8 OF THIS AGREEMENT, IN NO EVENT SHALL EITHER PARTY'S "
            "LIABILITY ARISING OUT OF THIS AGREEMENT EXCEED THE FEES PAID.") in contract.text
    assert [s.id for s in contract.sections] == ["9"]


def test_numbers_glued_to_the_first_word_open_sections():
    raw = (
        "PHOTO EDITING AGREEMENT\n\nThe parties agree as follows:\n\n"
        "1.DGT shall pay Dolphin USD 10 per photo.\n\n2.Dolphin shall deliver within two days.\n"
    )
    contract = parse_contract(raw, "t.txt")
    assert [s.id for s in contract.sections if s.id[0].isdigit()] == ["1", "2"]
    assert "2. Dolphin shall deliver within two days." in contract.text


def test_n_dot_zero_articles_nest_their_clauses_even_inline():
    raw = (
        "Master Service Agreement between CRO and Client. 1.0 Services 1.1. Client requires services. "
        "1.2. This Agreement forms the basis of the work. 2.0 Payment 2.1 Client will pay CRO monthly. "
        "2.2 Calls are included in the rate.\n"
    )
    contract = parse_contract(raw, "t.txt")
    assert [s.id for s in contract.sections] == ["preamble", "1", "1.1", "1.2", "2", "2.1", "2.2"]
    assert contract.section("2").title == "Payment"
    assert "Calls are included" in contract.section_text(contract.section("2"))


def test_section_references_are_not_split_into_headings():
    text = normalise_text("ARTICLE VII. WARRANTY\n\nSection 7.1 Product Warranty. Seller warrants the goods.\n")
    assert "Section 7.1 Product Warranty." in text
    contract = parse_contract("ARTICLE VII. WARRANTY\n\nSection 7.1 Product Warranty. Seller warrants the goods.\n", "t.txt")
    assert "Seller warrants" in contract.section_text(contract.section("7"))


def test_page_numbers_with_a_trailing_period_are_dropped():
    raw = "1. TERM\n\nThe term is one year and renews\n\n2.\n\nautomatically each year.\n"
    text = normalise_text(raw)
    assert "The term is one year and renews automatically each year." in text


def test_a_page_break_inside_a_sentence_left_open_by_a_function_word_is_joined():
    raw = ("(a) If the Buyer terminates this Agreement under Section 8.2, or the Seller elects not to enter into a new agreement with\n"
           "\n\n   - 7 -\n\n\n"
           "Buyer pursuant to Section 8.1, all open orders shall be transferred to the Buyer.\n"
           "(b) If the Seller terminates this Agreement in accordance with the provisions of\n\n\n"
           "Section 8.3, the Seller shall retain all customer agreements.\n"
           "Section 9. Governing Law\n")
    lines = normalise_text(raw).splitlines()
    assert lines[0].endswith("all open orders shall be transferred to the Buyer.")
    assert lines[1] == ("(b) If the Seller terminates this Agreement in accordance with the provisions of Section 8.3, "
                        "the Seller shall retain all customer agreements.")
    assert lines[2] == "Section 9. Governing Law"  # a real heading still starts its own line


def test_a_finished_line_or_a_short_heading_is_not_joined_across_a_page_break():
    text = normalise_text("The Seller shall deliver the goods.\n\n\nBuyer Obligations\n\nDEFINITIONS OF\n\nTerms used here.\n")
    assert text.splitlines() == ["The Seller shall deliver the goods.", "Buyer Obligations", "DEFINITIONS OF", "Terms used here."]
