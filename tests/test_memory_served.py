"""Memory is served only where the current contract bears it out (issue 29).

Each remembered place is checked against the current contract before the block is composed
(`agent.memory_agent.ContractMemoryAgent.recalled`, `tools.recall`): a place that does not hold is
left out, a renumbered one is served under its number here, a section that only refers to a
schedule is never served, and nothing is marked "confirmed" that the run did not assess itself.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from agent.memory_agent import ContractMemoryAgent
from agent.provenance import annotate
from memory.graph import Recalled
from memory.records import Episode, Fact, Outcome, Scored
from tools.contract import Contract, parse_contract
from tools.detection.parties import identify_parties
from tools.playbook import load_playbook

PARTIES = ('SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Alder Mills Inc. ("Buyer") and Brightline '
           'Pumps LLC ("Supplier").\n\n')
PAYMENT = ("1. PAYMENT\n\n1.1 Invoices: Supplier shall invoice monthly. Buyer shall pay each undisputed invoice "
           "within thirty (30) days of receipt.\n\n")
CAP = ("2. LIABILITY\n\n2.1 Limitation of Liability: Each party's total aggregate liability under this Agreement "
       "shall not exceed the fees paid in the twelve (12) months preceding the claim.\n\n")
CAP_BY_REFERENCE = ("2. LIABILITY\n\n2.1 Limitation of Liability: Each party's liability under this Agreement is "
                    "limited as set out in Schedule 3.\n\n")
LAW = "3. LAW\n\n3.1 Governing Law: This Agreement is governed by the laws of the State of New York.\n\n"
SCHEDULE = ("SCHEDULE 3 LIABILITY\n\nEach party's total aggregate liability shall not exceed the fees paid in the "
            "preceding twelve (12) months.\n")


def _contract(text: str) -> dict:
    parsed = parse_contract(text, "c")
    return Contract.model_validate({**parsed.model_dump(), "parties": identify_parties(parsed.text).as_dict()}).model_dump()


def _episode(*lines: str) -> Scored[Episode]:
    return Scored[Episode](item=Episode(run_id="r1", task_type="contract_review", task_summary="Contract review",
                                        outcome=Outcome.COMPLETED, key_findings=list(lines),
                                        expires_at=datetime(2100, 1, 1, tzinfo=UTC)), score=0.9)


def test_only_places_the_current_contract_bears_out_are_served():
    contract = _contract(PARTIES + "1. MONEY\n\n1.4 Invoices: Supplier shall invoice monthly. Buyer shall pay each "
                         "undisputed invoice within thirty (30) days of receipt.\n\n" + CAP_BY_REFERENCE + LAW + SCHEDULE)
    served = ContractMemoryAgent().recalled({"contract": contract}, Recalled(episodes=[_episode(
        'payment_terms in section 1.1 "Invoices": standard (none)',     # renumbered: served as 1.4
        'liability_cap in section 2.1 "Limitation of Liability": fallback (medium)',  # only "see Schedule 3"
        'governing_law in section 3.1 "Governing Law": fallback (low)',  # holds as it is
        'audit_rights in section 7.2 "Audit": standard (none)',         # no such section here
        "insurance: missing (medium)",                                   # still absent here
        "confidentiality in section 3.1: standard (none)",               # the section holds another clause
        "Liability cap sits in the usual place",                         # not a key finding: cannot be checked
    )], facts=[Scored[Fact](item=Fact(fact_id="f1", text="Contracts of counterparty CP1 place the liability cap clause in section 2.",
                                     domain="d", confidence=0.7), score=0.8),
               Scored[Fact](item=Fact(fact_id="f2", text="Supplier contracts often deviate on payment terms.", domain="d",
                                      confidence=0.7), score=0.8)]))
    assert served.episodes[0].item.key_findings == [
        'payment_terms in section 1.4 "Invoices": standard (none)',
        "liability_cap: not where remembered",
        'governing_law in section 3.1 "Governing Law": fallback (low)',
        "audit_rights: not where remembered",
        "insurance: missing (medium)",
        "confidentiality: not where remembered",
    ]
    # the fact placing the cap in article 2 does not hold (2.1 only refers to the schedule)
    assert [f.item.text for f in served.facts] == ["Supplier contracts often deviate on payment terms."]


def test_without_a_contract_memory_is_served_as_it_is():
    recalled = Recalled(episodes=[_episode("liability_cap in section 9.2: deviation (high)")])
    assert ContractMemoryAgent().recalled({"task": "supply agreements"}, recalled) is recalled


def test_nothing_is_confirmed_that_the_run_did_not_assess():
    contract = _contract(PARTIES + PAYMENT + CAP + LAW)
    finding = {"clause_type": "payment_terms", "section": "1.1", "verdict": "deviation", "severity": "medium"}
    episodes = [{"key_findings": ['payment_terms in section 1.1 "Invoices": deviation (medium)']}]
    playbook, parsed = load_playbook(), Contract.model_validate(contract)
    assessed = [{"tool": "assess_clause", "clause_type": "payment_terms", "section": "1.1", "asked": "1.1", "found": True}]
    from tools.operations import assess_clause_data

    finding["verdict"] = assess_clause_data(parsed, playbook, "payment_terms", "1.1")["verdict"]
    unseen = annotate([finding], episodes, parsed, playbook, examined=[])[0]["memory"]
    seen = annotate([finding], episodes, parsed, playbook, examined=assessed)[0]["memory"]
    assert unseen["pointed"] is True and unseen["confirmed"] is False
    assert seen["pointed"] is True and seen["confirmed"] is True


def test_a_remembered_section_that_only_refers_to_a_schedule_is_never_confirmed(reviewers, tmp_path: Path):
    """The first contract kept its cap in 2.1; the second's 2.1 only says "as set out in Schedule
    3". Memory served 2.1 and the review cited it, marked "pointed, confirmed". Now 2.1 is not
    served for the cap, the finding is the one memory off records, and no finding is confirmed
    at a place the run did not assess."""
    with_memory, without = reviewers
    first = tmp_path / "alder_01.txt"
    first.write_text(PARTIES + PAYMENT + CAP + LAW)
    with_memory.review_path(first)
    later = tmp_path / "alder_02.txt"
    later.write_text(PARTIES + PAYMENT + CAP_BY_REFERENCE + LAW + SCHEDULE)
    on, off = with_memory.review_path(later), without.review_path(later)
    assert on["memory"]["episodes"], "memory was used"
    cap_on = next(f for f in on["findings"] if f["clause_type"] == "liability_cap")
    cap_off = next(f for f in off["findings"] if f["clause_type"] == "liability_cap")
    assert (cap_on["section"], cap_on["verdict"]) == (cap_off["section"], cap_off["verdict"])
    assert cap_on["section"] != "2.1"
    assert not any(place.startswith("2.1") for place in cap_on["memory"]["remembered"])
    assert not (cap_on["memory"]["pointed"] and cap_on["memory"]["confirmed"] and cap_on["section"] == "2.1")


def _call(tool, state: dict, **args) -> dict:
    import json

    return json.loads(tool.func(state=state, **args))


def test_recall_locations_answers_the_checked_places_to_a_model_that_ignores_the_block():
    from tools.toolset import TOOLS, recall_locations

    assert recall_locations in TOOLS
    contract = _contract(PARTIES + "1. MONEY\n\n1.4 Invoices: Supplier shall invoice monthly. Buyer shall pay each "
                         "undisputed invoice within thirty (30) days of receipt.\n\n" + CAP_BY_REFERENCE + LAW + SCHEDULE)
    episodes = [_episode('payment_terms in section 1.1 "Invoices": standard (none)',
                         'liability_cap in section 2.1 "Limitation of Liability": fallback (medium)').model_dump(mode="json"),
                _episode('payment_terms in section 1.4 "Invoices": deviation (medium)',
                         'governing_law in section 3.1 "Governing Law": fallback (low)').model_dump(mode="json")]
    state = {"contract": contract, "episodes": episodes}
    # any spelling of the clause type; both episodes' places, checked: one section here, both runs
    answer = _call(recall_locations, state, clause_type="Payment Terms")
    assert answer["clause_type"] == "payment_terms"
    assert answer["places"] == [{"section": "1.4", "heading": "Invoices", "episodes": [1, 2]}]
    assert _call(recall_locations, state, clause_type="liability cap")["places"] == []  # 2.1 only cites a schedule
    every = _call(recall_locations, state)["locations"]
    assert set(every) == {"payment_terms", "governing_law"}
    assert "error" in _call(recall_locations, state, clause_type="weather")
    assert _call(recall_locations, {"contract": contract})["locations"] == {}  # memory off: nothing
