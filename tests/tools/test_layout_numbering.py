"""Clause numbers set apart from their headings by the layout, and the citations that follow.

Typed and scanned filings often print a clause number in a column of its own: "4.2" at the left
margin, a run of spaces, then "Delivery. The Vendor ..." (or the heading on the next line). An
article number may carry no dot at all ("6      PRICE."). When the sectioning misses these
numbers, every later clause is cited to the last heading it did find."""

from __future__ import annotations

from tools.contract import parse_contract
from tools.normalize import normalise_text

_COLUMNS = (
    "MAINTENANCE SERVICES AGREEMENT\n\n"
    "This Agreement is made between Harbourline Ltd (\"Vendor\") and Quarry Mills plc (\"Customer\").\n\n"
    "1.      SCOPE.\n\n"
    "1.1     Services. The Vendor shall maintain the milling line described in the         order form.\n\n"
    "2       PRICE.\n\n"
    "2.1     Charges. The Customer shall pay the charges within forty-five (45) days         of each invoice.\n\n"
    "2.2     Review. The Vendor may review the charges once a year on sixty (60)         days notice.\n\n"
    "                                     4\n\n"
    "3       LIABILITY.\n\n"
    "3.1     Cap. The Vendor's total liability shall not exceed the charges paid in         the prior twelve months.\n\n"
    "5 4       GOVERNING LAW.\n\n"  # page 5's number printed before the article's
    "4.1     Law. This Agreement is governed by the laws of Scotland.\n"
)


def _cited(contract, words: str) -> str:
    """How the report cites the sentence holding `words`."""
    offset = contract.text.index(words)
    return contract.cite(contract.section_at(offset).id, offset)


def test_clause_numbers_in_a_column_of_their_own_open_their_sections():
    contract = parse_contract(_COLUMNS, "columns.txt")
    ids = [s.id for s in contract.sections if not s.id.startswith("h") and s.id != "preamble"]
    assert ids == ["1", "1.1", "2", "2.1", "2.2", "3", "3.1", "4", "4.1"]
    assert contract.section("3").title == "LIABILITY"
    assert contract.section("4").title == "GOVERNING LAW"
    assert contract.section("2.2").title == "Review"
    assert contract.text.count("\n2.1 Charges. The Customer shall pay") == 1  # the number stays with its clause


def test_a_quote_in_a_later_clause_is_cited_to_that_clause_not_to_the_last_dotted_article():
    contract = parse_contract(_COLUMNS, "columns.txt")
    assert _cited(contract, "The Vendor's total liability") == "Section 3.1 (Cap)"
    assert _cited(contract, "governed by the laws of Scotland") == "Section 4.1 (Law)"


def test_a_number_alone_on_its_line_takes_the_heading_below_it():
    raw = (
        "PART A - SUPPORT TERMS\n\n"
        "5.1\nResponse Times\nThe Contractor answers each call within two hours.\n\n"
        "5.2\nEscalation\nUnresolved calls go to the duty engineer.\n\n"
        "5.2.1\nOut of Hours\nCalls after 18:00 are charged at the night rate.\n"
    )
    contract = parse_contract(raw, "alone.txt")
    assert contract.section("5.2").title == "Escalation"
    assert _cited(contract, "charged at the night rate") == "Section 5.2.1 (Out of Hours)"


def test_a_page_number_before_a_running_sentence_is_not_a_heading():
    # the page number printed where the next page's first line starts: not clause 7
    raw = (
        "6.      WARRANTY.\n\n"
        "6.1     Goods. The Vendor warrants the goods and DISCLAIMS ALL OTHER WARRANTIES, EXPRESS OR\n\n"
        "                                     6\n\n"
        "7         IMPLIED, INCLUDING FITNESS FOR A PARTICULAR PURPOSE.\n\n"
        "7       TERM.\n\n"
        "7.1     Term. This Agreement lasts three years.\n"
    )
    contract = parse_contract(raw, "pages.txt")
    assert contract.section("7").title == "TERM"
    warranty = contract.section_text(contract.section("6.1"))
    assert "FITNESS FOR A PARTICULAR PURPOSE" in warranty


def test_a_bare_number_before_an_address_line_stays_an_address():
    text = normalise_text("Notices go to:\n\n12      HIGH STREET\nLEEDS\n")
    assert "12 HIGH STREET" not in text


def test_headings_in_sentence_case_are_printed_with_their_number():
    raw = (
        "1. Scope of work\nThe Contractor cleans the depots listed in the order.\n"
        "2. Term and termination\nThis agreement runs for two years.\n"
        "2.1 Notice of termination\nEither party may end this agreement on ninety days notice.\n"
        "2.2 Payment shall follow delivery\n"
    )
    contract = parse_contract(raw, "sentence_case.txt")
    assert _cited(contract, "ninety days notice") == "Section 2.1 (Notice of termination)"
    assert contract.section("2").title == "Term and termination"
    assert contract.section("2.2").title == ""  # a short clause, not a heading


def test_a_reserved_or_redacted_clause_is_a_clause_not_the_title_of_the_one_before():
    raw = (
        "7. DISPUTES\n"
        "7.1 Either party may refer a dispute to the chamber of commerce.\n"
        "7.2 [Reserved]\n"
        "7.3 [***]\n"
        "7.4 The seat of arbitration is Rotterdam.\n"
    )
    contract = parse_contract(raw, "reserved.txt")
    assert [s.id for s in contract.sections] == ["7", "7.1", "7.2", "7.3", "7.4"]
    assert contract.section("7.1").title == ""
    assert contract.cite("7.2") == "Section 7.2 ([Reserved])"


def test_a_numbered_list_inside_a_clause_is_part_of_that_clause():
    raw = (
        "Support Handbook\n\n"
        "4.1 Reporting faults\nThe Operator reports faults as follows:\n"
        "1. Call the service desk within one hour of the fault.\n"
        "2. Send the error log by e-mail.\n"
        "3. Keep the unit switched on until an engineer answers.\n"
        "4.2 Repairs\nThe Supplier repairs the unit within five working days.\n"
    )
    contract = parse_contract(raw, "list.txt")
    assert [s.id for s in contract.sections if s.id[0].isdigit()] == ["4.1", "4.2"]
    assert _cited(contract, "Send the error log") == "Section 4.1 (Reporting faults)"


def test_a_figure_at_the_start_of_a_schedule_line_is_not_a_clause_number():
    raw = (
        "1. SUPPLY\n1.1 The Supplier supplies the turbines.\n1.2 Delivery is to the site.\n"
        "2. PRICE\n2.1 The price is set out in the schedule.\n2.2 Invoices are due in 30 days.\n"
        "SCHEDULE OF EQUIPMENT\n"
        "Two turbines and one transformer for the northern field.\n"
        "1.8 MW TURBINE UNITS\n"
        "Each unit is delivered with its tower and a spare gearbox.\n"
    )
    contract = parse_contract(raw, "figures.txt")
    assert contract.section("1.8") is None
    assert "1.8" not in _cited(contract, "spare gearbox")


def test_a_table_rule_is_not_quoted_with_the_cells_after_it():
    raw = (
        "6.2 Rates\n\n"
        "      ----------------------------------------------------       Service level        Monthly fee\n\n"
        "      Gold (includes the spare parts warranty)       EUR 4,000\n\n"
        "      ====================================================\n"
        "The rates are fixed for the first year.\n"
    )
    text = normalise_text(raw)
    assert not any(line.lstrip().startswith(("--", "==")) for line in text.splitlines())
    assert "Service level" in text and "Gold (includes the spare parts warranty)" in text
    assert "The rates are fixed for the first year." in text.splitlines()


def test_a_contract_in_one_paragraph_keeps_its_titled_articles():
    raw = (
        'SALE TERMS between Orla Ltd ("Seller") and Pim BV ("Buyer"). 1. Supply. 1.1 The Seller supplies '
        "the parts. 1.2 Orders are binding once accepted. 2. Price. "
        "2.1 Prices are fixed for a year. 2.2 The Seller may raise prices on 30 days notice."
    )
    contract = parse_contract(raw, "one_paragraph.txt")
    assert [s.id for s in contract.sections] == ["preamble", "1", "1.1", "1.2", "2", "2.1", "2.2"]
    assert _cited(contract, "binding once accepted") == "Section 1.2 (Supply)"
    assert _cited(contract, "may raise prices") == "Section 2.2 (Price)"
    assert "2. Price." not in contract.section_text(contract.section("1.2"))
