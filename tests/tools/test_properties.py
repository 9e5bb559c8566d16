"""Properties that must hold for any text: sections are valid spans, quotes are exact slices."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tools.contract import parse_contract
from tools.detection.review import detect_all, locate_quote
from tools.errors import ContractInputError
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()
PIECES = st.sampled_from([
    "1. LIABILITY", "1.1 Cap.", "ARTICLE IV", "Section 2.3", "(a)", "GOVERNING LAW", "Page 3 of 9", "- 4 -",
    "The Supplier's total liability shall not exceed two times the fees paid.",
    "This Agreement is governed by the laws of the State of Delaware.",
    "The Buyer shall pay within thirty (30) days of re-", "ceipt of the invoice", "[***]", "\r\n", "\n\n", "  ",
    "shall automatically renew for successive one (1) year terms", "ﬁne print", "\u00a0", "Confidential",
])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(PIECES, min_size=1, max_size=30).map(" \n".join))
def test_any_text_parses_into_valid_sections_and_exact_quotes(raw):
    try:
        contract = parse_contract(raw, "random.txt")
    except ContractInputError as error:
        # only text that is blank, or nothing but page furniture, may be refused
        assert not raw.strip() or "no readable text" in str(error)
        return
    ids = [s.id for s in contract.sections]
    assert len(ids) == len(set(ids))
    for section in contract.sections:
        assert 0 <= section.start <= section.end <= len(contract.text)
    for finding in detect_all(contract, PLAYBOOK):
        if finding["verdict"] not in ("missing", "not_applicable"):
            assert contract.text[finding["start"] : finding["end"]] == finding["quote"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_locate_quote_finds_any_slice_even_with_other_whitespace(data):
    contract = parse_contract(
        "1. TERMS\n\nThe Supplier shall deliver the goods.\n\n2. LAW\n\nNew York law governs this Agreement.\n", "q.txt"
    )
    start = data.draw(st.integers(0, len(contract.text) - 5))
    end = data.draw(st.integers(start + 1, len(contract.text)))
    quote = contract.text[start:end].strip()
    if not quote:
        return
    spaced = data.draw(st.sampled_from([quote, "  ".join(quote.split()), quote.replace(" ", "\n")]))
    found = locate_quote(contract, spaced)
    assert found is not None
    assert " ".join(contract.text[found[0] : found[1]].split()) == " ".join(quote.split())
