"""Normalisation and sectioning on layouts real filings use."""

from __future__ import annotations

from tools.contract import parse_contract


def ids(text: str) -> list[str]:
    return [s.id for s in parse_contract(text, "t.txt").sections]


def test_articles_in_roman_numerals_nest_their_sections():
    text = (
        "ARTICLE I\nDEFINITIONS\n\nSection 1.1 Terms. Words have meanings.\n\n"
        "ARTICLE VII - LIABILITY\n\nSection 7.3 Cap. Liability shall not exceed the fees.\n"
    )
    contract = parse_contract(text, "t.txt")
    assert [s.id for s in contract.sections] == ["1", "1.1", "7", "7.3"]
    assert contract.section("1").title == "DEFINITIONS"
    article = contract.section("7")
    assert article.title == "LIABILITY"
    assert "shall not exceed" in contract.section_text(article)  # the article covers 7.3
    assert contract.section("Section 7.3").id == "7.3"
    assert contract.section("article 7").id == "7"


def test_subclauses_belong_to_their_parent_and_titles_are_read():
    text = (
        "1. TERM AND TERMINATION\n\n"
        "1.1 Termination. Either party may terminate:\n(a) on breach; or\n(b) on insolvency.\n\n"
        "1.2 Effect of Termination. Fees become due.\n"
    )
    contract = parse_contract(text, "t.txt")
    assert [s.id for s in contract.sections] == ["1", "1.1", "1.2"]
    first = contract.section("1.1")
    assert first.title == "Termination"
    assert "(b) on insolvency." in contract.section_text(first)


def test_unnumbered_headings_get_ordered_ids_and_preamble_is_kept():
    text = (
        "This agreement is made between A and B.\n\n"
        "DEFINITIONS\n\nWords have the meanings given.\n\n"
        "Governing Law\n\nThe laws of Delaware govern this agreement.\n"
    )
    contract = parse_contract(text, "t.txt")
    assert [(s.id, s.title) for s in contract.sections] == [
        ("preamble", "Preamble"), ("h1", "DEFINITIONS"), ("h2", "Governing Law")
    ]


def test_table_of_contents_does_not_steal_section_ids():
    toc = "TABLE OF CONTENTS\n\n1. Definitions 1\n2. Payment 3\n3. Law 4\n\n"
    body = (
        "1. Definitions. The following terms apply throughout this agreement and its schedules.\n\n"
        "2. Payment. The Buyer pays within sixty days of receipt of a valid invoice.\n\n"
        "3. Law. New York law governs this agreement and any dispute under it.\n"
    )
    contract = parse_contract(toc + body, "t.txt")
    payment = contract.section("2")
    assert "sixty days" in contract.section_text(payment)
    assert len([s for s in contract.sections if s.id == "2"]) == 1


def test_page_furniture_is_dropped_and_broken_sentences_joined():
    raw = (
        "1. PAYMENT\r\n\r\n"
        "The Buyer shall pay each invoice within sixty (60) days of re-\r\n"
        "ceipt, and disputed amounts may be withheld until the dispute is\r\n"
        "\r\n- 3 -\r\n\r\nSource: ACME CORP, 10-K, 1/1/2020\r\n\r\n"
        "resolved by the parties.\r\n\r\n"
        "Page 4 of 9\r\n\r\nSource: ACME CORP, 10-K, 1/1/2020\r\n\r\n"
        "2. CONFIDENTIAL TERMS\r\n\r\nThe fee is [***] per unit.\r\n\r\n"
        "Source: ACME CORP, 10-K, 1/1/2020\r\n"
    )
    contract = parse_contract(raw, "t.txt")
    text = contract.text
    assert "receipt, and disputed amounts may be withheld until the dispute is resolved by the parties." in text
    assert "Source:" not in text and "- 3 -" not in text and "Page 4" not in text
    assert "\r" not in text
    assert "[***]" in text
    assert [s.id for s in contract.sections] == ["1", "2"]


def test_nfkc_and_spacing_are_normalised():
    contract = parse_contract("1. FEES\n\nThe ﬁxed   fee is\u00a0USD\u2002100.", "t.txt")
    assert "The fixed fee is USD 100." in contract.text


def test_sections_cover_the_text_with_valid_offsets():
    text = "Preamble text here.\n\n1. ONE\n\nBody one.\n\n1.1 Sub. Body.\n\n2. TWO\n\nBody two.\n"
    contract = parse_contract(text, "t.txt")
    for section in contract.sections:
        assert 0 <= section.start < section.end <= len(contract.text)
    covered = sorted((s.start, e) for s, _, e in [(s, s.start, s.end) for s in contract.sections])
    assert covered[0][0] == 0


def test_cross_references_are_not_headings():
    text = "1. TERM\n\nSection 4 of this Agreement applies. 2.5 million units are ordered.\n\n2. PRICE\n\nFixed.\n"
    assert ids(text) == ["1", "2"]


def test_headings_run_into_paragraphs_are_split_out():
    text = (
        "6. TERMS OF PAYMENT 6.1 Payment Terms. The Distributor pays within thirty days. "
        "6.2 Late Payments. Interest accrues on late amounts at one percent per month.\n"
    )
    contract = parse_contract(text, "t.txt")
    assert [s.id for s in contract.sections] == ["6", "6.1", "6.2"]
    assert contract.section("6.2").title == "Late Payments"
    assert "one percent per month" in contract.section_text(contract.section("6.2"))


def test_address_and_signature_blocks_inside_a_section_are_not_headings():
    # a notices clause with the parties' addresses laid out one line each, then more of the
    # same section, then signature blocks: none of those lines opens a section, so the
    # sentences after them are still cited to the section they belong to
    text = (
        "14. MISCELLANEOUS\n\n"
        "(a) Notices shall be in writing and sent to the addresses below:\n"
        "Vendor:\nHARBOUR LIGHT TOOLING PLC\nUnit 4, Quayside Park\nAberdeen\nAB11 5BN\n"
        "Purchaser:\nKESTREL ORCHARDS LIMITED\n221 Rue Des Tanneurs\nQuebec City, QC\nG1K 3A9\n"
        "A notice delivered by hand is given on the day it is delivered.\n"
        "(b) Neither party may assign this Agreement without the other's written consent.\n\n"
        "HARBOUR LIGHT TOOLING PLC\nBy: ______________________\nKESTREL ORCHARDS LIMITED\n"
        "By: ______________________\n"
    )
    contract = parse_contract(text, "t.txt")
    assert [s.id for s in contract.sections] == ["14"]
    where = contract.section_text(contract.section("14"))
    assert "Neither party may assign" in where and "given on the day" in where


def test_a_short_unnumbered_heading_before_prose_still_opens_a_section():
    text = (
        "1. Services. The Vendor shall provide the services.\n\n"
        "SCHEDULE A\nPRICING\nThe Purchaser shall pay the fees within 45 days of invoice.\n\n"
        "Governing Law\nThis Agreement is governed by the laws of Ontario.\n"
    )
    contract = parse_contract(text, "t.txt")
    titles = [s.title for s in contract.sections]
    assert "Governing Law" in titles
    schedule = next(s for s in contract.sections if "SCHEDULE A" in s.title)
    assert "PRICING" in schedule.title  # two short lines before text: one heading
    assert "within 45 days" in contract.section_text(schedule)


# ---------------------------------------------------------------- headings run into the text (issue 30)


def _cited(text: str, words: str) -> str:
    contract = parse_contract(text, "t.txt")
    at = contract.text.index(words)
    return contract.cite(contract.section_at(at).id, at)


def test_a_numbered_title_run_into_the_previous_clause_starts_its_own_section():
    text = ("HOSTING AGREEMENT\n\n1. Design Work. The Studio shall design the site. The Studio may show the site in its "
            "portfolio. 2. Fees and Invoicing. The Client shall pay each invoice within fifteen (15) days.\n"
            "3. Support. The Studio answers e-mail on business days.\n")
    assert ids(text)[-3:] == ["1", "2", "3"]
    assert _cited(text, "within fifteen") == "Section 2 (Fees and Invoicing)"


def test_run_in_articles_without_a_full_stop_after_the_title_follow_the_numbering():
    text = ("MANUFACTURING AGREEMENT The parties agree as follows: 1. Scope 1.1 The Maker builds the units. "
            "1.2 The units follow the drawings. 2. Duration This Agreement renews each year unless either party objects. "
            "3. Express Limited Warranty For the purpose of this clause, a defect is a failure to meet the drawings. "
            "The Maker warrants the units for twelve (12) months.\n")
    assert _cited(text, "renews each year") == "Section 2"
    assert _cited(text, "twelve (12) months") == "Section 3"
    assert _cited(text, "follow the drawings") == "Section 1.2"


def test_other_numberings_run_in_article_and_clause_headings():
    articles = ("ARTICLE I DEFINITIONS\n\"Goods\" means the valves. ARTICLE II PRICE The Buyer pays the list price. "
                "ARTICLE III WARRANTY The Seller warrants the valves for two years.\n")
    assert _cited(articles, "for two years") == "Article III (WARRANTY)"
    clauses = ("Clause 11 Notices. Notices are in writing. Clause 12 Governing Law. This Agreement is governed by the "
               "laws of Ontario.\n")
    assert _cited(clauses, "laws of Ontario") == "Clause 12 (Governing Law)"


def test_list_items_and_references_inside_a_clause_are_not_headings():
    text = ("1. Deliverables. The Vendor shall deliver the following: 1. Designs. 2. Source Code. 3. Manuals.\n"
            "2. Acceptance. The Buyer tests each deliverable as set out in Section 1. Testing ends after ten days.\n"
            "3. Fees. The Buyer pays on acceptance.\n")
    assert ids(text) == ["1", "2", "3"]
    assert _cited(text, "Source Code") == "Section 1 (Deliverables)"
    assert _cited(text, "Testing ends") == "Section 2 (Acceptance)"


def test_a_page_number_left_before_a_heading_is_dropped():
    text = ("7. INDEMNITY\n\nThe Vendor holds the Buyer harmless.\n\n         -2-    3 8.       LIABILITY\n\n"
            "The Vendor shall not be liable for indirect damages.\n")
    contract = parse_contract(text, "t.txt")
    assert "3 8." not in contract.text
    assert _cited(text, "indirect damages") == "Section 8 (LIABILITY)"


def test_a_schedule_restarts_the_numbering_of_run_in_headings():
    text = ("1. Services. The Provider hosts the site.\n2. Term. One year.\n3. Fees. See Schedule 1.\n"
            "SCHEDULE 1\nFees: 1. Set-Up Fee. The Customer pays USD 500 on signing. 2. Monthly Fee. The Customer "
            "pays USD 90 a month.\n")
    contract = parse_contract(text, "t.txt")
    assert "\n2. Monthly Fee." in contract.text and "\n1. Set-Up Fee." in contract.text


def test_capital_headings_with_a_colon_run_into_the_text_are_cited_by_their_heading():
    text = ("SCHEDULE B This Schedule is made between Orwell Media LLC (\"Orwell\") and the Gazette (\"Customer\"). "
            "SCOPE: Orwell sells advertising on the Customer's sites. FEES AND INVOICING: Orwell invoices monthly. "
            "Payment shall be made net 45 days from the end of the month. NON-SOLICITATION: Neither party hires the "
            "other's staff. NOTE: The figures are estimates.\n")
    assert _cited(text, "net 45 days") == 'under the heading "FEES AND INVOICING"'
    assert _cited(text, "hires the") == 'under the heading "NON-SOLICITATION"'
    assert _cited(text, "The figures are estimates") == 'under the heading "NON-SOLICITATION"'  # a note, not a heading


def test_a_schedule_with_its_own_numbering_neither_clashes_with_nor_displaces_the_body():
    text = ("EXHIBIT 10.4\nSUPPLY AGREEMENT\nThis Supply Agreement is made between Corvane Ltd (\"Supplier\") and Dunmore Inc "
            "(\"Customer\").\n1. Supply\n1.1 Supplier shall supply the valves listed in Schedule 1.\n"
            "Schedule 1 attached hereto sets out the valves.\n2. Price\n2.1 Prices are in Schedule 1.\n"
            "3. Liability\n3.1 Supplier's liability shall not exceed the fees paid in a year.\n"
            "SCHEDULE 1\nPRICING AND PAYMENT\n1. Prices\nThe prices are fixed for the Term and cover a long list of valves, "
            "fittings, seals and spare parts shipped from the plant.\n2. Payment\nCustomer shall pay each invoice within "
            "sixty (60) days of receipt.\n")
    contract = parse_contract(text, "t.txt")
    assert [s.id for s in contract.sections if s.id[0].isdigit()] == ["1", "1.1", "2", "2.1", "3", "3.1"]
    assert "Prices are in Schedule 1" in contract.section_text(contract.section("2"))
    assert _cited(text, "within sixty") == "Schedule 1, Section 2 (Payment)"
    assert _cited(text, "fixed for the Term") == "Schedule 1, Section 1 (Prices)"
    assert _cited(text, "sets out the valves") == "Section 1.1 (Supply)"  # a sentence naming the schedule opens none


def test_exhibits_lettered_and_annexes_in_roman_numerals_open_their_own_numbering():
    text = ("1. Services. The Provider hosts the portal.\n2. Fees. The Client pays the fees in Exhibit B.\n"
            "Exhibit B - Fees\n1. Set-Up. The Client pays USD 500 on signing.\n2. Monthly. The Client pays USD 90 a month.\n"
            "ANNEX II: SERVICE LEVELS\n1. Availability. The portal is available 99.5% of each month.\n")
    assert _cited(text, "USD 90") == "Exhibit B, Section 2 (Monthly)"
    assert _cited(text, "99.5%") == "Annex II, Section 1 (Availability)"
    assert _cited(text, "in Exhibit B") == "Section 2 (Fees)"
