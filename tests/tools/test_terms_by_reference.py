"""A payment obligation whose terms sit in a schedule, a statement of work or an order is a
present payment term (its period to be checked there), never a missing one.

The contracts are written for these tests; party names change from case to case."""

from __future__ import annotations

import pytest

from tools.contract import parse_contract
from tools.detection.review import review_clause
from tools.playbook import load_playbook

PLAYBOOK = load_playbook()


def reviewed(sentence: str, clause_type: str = "payment_terms") -> dict:
    text = ('Services agreement between Marlow Fisheries Ltd ("Client") and Teasel Analytics LLC ("Consultant").\n\n'
            "1. SERVICES\n\n1.1 The Consultant shall perform the Services described in each statement of work.\n\n"
            f"2. FEES\n\n2.1 {sentence}\n\n3. GENERAL\n\n3.1 This Agreement is governed by the laws of Ontario.\n")
    return review_clause(parse_contract(text, "t.txt"), PLAYBOOK.entry(clause_type))


@pytest.mark.parametrize("sentence", [
    "The Client shall pay the fees as set out in the Fee Schedule in accordance with the terms of this Agreement.",
    "The Client agrees to compensate the Consultant as set forth in each Statement of Work.",
    "Fees for each engagement are payable in accordance with the payment terms specified in the applicable Order Form.",
    "The Client will reimburse the Consultant's approved expenses as described in Exhibit C.",
    "Each invoice submitted by the Consultant shall show the hours worked at the rates in Appendix 2.",
])
def test_a_payment_term_by_reference_is_present_and_checked_there(sentence):
    finding = reviewed(sentence)
    assert finding["verdict"] not in ("missing", "not_applicable"), finding
    assert finding["section"] == "2.1"


@pytest.mark.parametrize("sentence", [
    "The Consultant shall deliver the reports as set out in Schedule 2.",
    "The Client may audit the Consultant's records as described in Exhibit C.",
    "Each party shall bear its own costs of negotiating this Agreement.",
])
def test_other_obligations_by_reference_are_not_payment_terms(sentence):
    assert reviewed(sentence)["verdict"] in ("missing", "not_applicable")
