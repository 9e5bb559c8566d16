"""Memory's confirmed places are assessed by the graph before the model's first turn (issue 29).

A model that assesses and then records with a separate `record_finding` (a common habit) could
save only its searches with memory: it still assessed every place memory named. The graph owns
the facts and the tools are deterministic, so at the start of analyze the graph itself runs the
agent's own `assess_clause` on every remembered place that THIS contract bears out (and
`find_clauses` for a remembered absence that holds here), and puts the answers into the
conversation as real tool results of a turn marked as the graph's, and into `examined`. Any model
then sees the assessment done and only has to record, or look elsewhere if it disagrees. A place
the current contract does not bear out is not assessed; a place whose assessment names another
section (`other_side`, `elsewhere`) is not recordable until that section is assessed, as for the
model's own assessments. The usage counts the model's calls and the graph's apart.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage, ToolMessage

from agent.memory_agent import ContractMemoryAgent
from agent.memory_view import made_by_graph
from agent.offline import ScriptedChatModel
from agent.settings import Settings
from graphs.analyze import graph_first_calls
from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES
from tests.test_memory_served import CAP_BY_REFERENCE, LAW, PARTIES, SCHEDULE, _contract, _episode
from tools.toolset import record_finding

KESTREL_1, KESTREL_2 = SAMPLES / "kestrel_supply_01.txt", SAMPLES / "kestrel_supply_02.txt"


def _record(clause_type: str, section: str, n: int) -> dict:
    return {"name": "record_finding", "id": f"model-{n}", "type": "tool_call",
            "args": {"clause_type": clause_type, "verdict": "standard", "severity": "none", "section": section}}


def test_a_similar_contract_starts_with_memorys_confirmed_places_assessed_by_the_graph(tmp_path: Path):
    """Kestrel 02 renumbers Kestrel 01 (the cap 8.2 -> 9.2 under the same heading). The model's
    first request already holds the graph's assessments of the places memory keeps and this
    contract bears out, each answered by a tool result; a record without an assessment of its own
    is accepted and confirmed; the model's one call and the graph's calls are counted apart."""
    settings = Settings(home=tmp_path / "home", max_nudges=0)
    model = ScriptedChatModel(responses=[AIMessage("", tool_calls=[_record("liability_cap", "9.2", 1),
                                                                   _record("governing_law", "15.1", 2)]), "Done."],
                              repeat_last=True)
    with open_checkpointer(settings) as saver:
        Reviewer(settings, saver).review_path(KESTREL_1)  # the offline reviewer: memory learns the template
        report = Reviewer(settings, saver, reviewer_model=model).review_path(KESTREL_2)
    first = model.received[0]
    graph_turns = [m for m in first if isinstance(m, AIMessage) and made_by_graph(m)]
    assert len(graph_turns) == 1, "the graph's own turn comes before the model's first"
    assessed = {(c["args"]["clause_type"], c["args"]["section"]) for c in graph_turns[0].tool_calls
                if c["name"] == "assess_clause"}
    assert {("liability_cap", "9.2"), ("governing_law", "15.1"), ("audit_rights", "11.2")} <= assessed
    assert ("liability_cap", "8.2") not in assessed  # the remembered number; here it is 9.2
    answers = {m.tool_call_id: json.loads(m.content) for m in first if isinstance(m, ToolMessage)}
    for call in graph_turns[0].tool_calls:  # every graph call answered, in the same conversation
        assert call["id"] in answers and "error" not in answers[call["id"]]
    by_type = {f["clause_type"]: f for f in report["findings"]}
    assert by_type["liability_cap"]["section"] == "9.2" and by_type["governing_law"]["section"] == "15.1"
    assert by_type["liability_cap"]["memory"]["confirmed"] is True  # the run assessed it (the graph did)
    assert report["usage"]["tool_calls"] == 2  # the model's own calls
    assert report["usage"]["graph_calls"] == len(graph_turns[0].tool_calls) >= 15


def test_the_first_run_has_no_graph_turn(tmp_path: Path):
    settings = Settings(home=tmp_path / "home", max_nudges=0)
    model = ScriptedChatModel(responses=["Done."], repeat_last=True)
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings, saver, reviewer_model=model).review_path(KESTREL_1)
    assert not [m for m in model.received[0] if isinstance(m, AIMessage)]
    assert report["usage"].get("graph_calls", 0) == 0


def test_places_the_current_contract_does_not_bear_out_are_not_assessed():
    contract = _contract(PARTIES + "1. MONEY\n\n1.4 Invoices: Supplier shall invoice monthly. Buyer shall pay each "
                         "undisputed invoice within thirty (30) days of receipt.\n\n" + CAP_BY_REFERENCE + LAW + SCHEDULE)
    episodes = [_episode('payment_terms in section 1.1 "Invoices": standard (none)',  # renumbered: 1.4 here
                         'liability_cap in section 2.1 "Limitation of Liability": fallback (medium)',  # a schedule
                         'governing_law in section 3.1 "Governing Law": fallback (low)',
                         'audit_rights in section 7.2 "Audit": standard (none)',  # no such section here
                         "confidentiality in section 3.1: standard (none)",  # 3.1 holds another clause
                         ).model_dump(mode="json")]
    calls = ContractMemoryAgent().first_calls({"contract": contract, "episodes": episodes})
    assert [(c["name"], c["args"]) for c in calls] == [
        ("assess_clause", {"clause_type": "payment_terms", "section": "1.4"}),
        ("assess_clause", {"clause_type": "governing_law", "section": "3.1"}),
    ]
    assert ContractMemoryAgent().first_calls({"contract": contract, "episodes": []}) == []


def _kestrel() -> dict:
    return _contract(KESTREL_1.read_text())


def test_a_place_the_assessment_points_away_from_is_not_pre_accepted():
    """Kestrel 01's audit clause at 1.2 is the supplier's; the assessment names 11.2 (`other_side`).
    The graph assesses 1.2 because memory keeps it there, but recording 1.2 still needs 11.2
    assessed first; the cap, assessed by the graph with nothing pointing away, is recorded
    without another assessment."""
    state = {"contract": _kestrel(), "messages": [],
             "episodes": [_episode('audit_rights in section 1.2: standard (none)',
                                   'liability_cap in section 8.2 "Limitation of Liability": deviation (high)'
                                   ).model_dump(mode="json")]}
    update = graph_first_calls(state)
    audit = next(e for e in update["examined"] if e["clause_type"] == "audit_rights")
    assert audit["section"] == "1.2" and ["other_side", "11.2"] in audit["points_to"]
    assert all(e.get("by") == "graph" for e in update["examined"])
    after = {**state, "messages": update["messages"], "examined": update["examined"]}

    def record(clause_type: str, section: str, verdict: str) -> dict:
        command = record_finding.func(clause_type=clause_type, verdict=verdict, severity="none", section=section,
                                      state=after, tool_call_id="model-1")
        return json.loads(command.update["messages"][0].content)

    refused = record("audit_rights", "1.2", "standard")
    assert "error" in refused and "11.2" in json.dumps(refused)
    cap = next(e for e in update["examined"] if e["clause_type"] == "liability_cap")
    assert "error" not in record("liability_cap", "8.2", cap["verdict"])


def test_the_graph_turn_is_marked_and_pairs_are_whole():
    state = {"contract": _kestrel(), "messages": [],
             "episodes": [_episode('governing_law in section 15.1 "Governing Law": deviation (medium)',
                                   "sole_remedy: missing (medium)").model_dump(mode="json")]}
    update = graph_first_calls(state)
    turn, *results = update["messages"]
    assert made_by_graph(turn) and all(made_by_graph(m) for m in results)
    assert [c["id"] for c in turn.tool_calls] == [m.tool_call_id for m in results]
    assert [(c["name"], c["args"]["clause_type"]) for c in turn.tool_calls] == [
        ("assess_clause", "governing_law"), ("find_clauses", "sole_remedy")]
    assert update["usage"]["graph_calls"] == 2 and update["usage"]["tool_calls"] == 0
    assert graph_first_calls({**state, "episodes": []}) == {}


def test_the_graphs_results_of_recorded_clause_types_are_sent_shortened():
    """Once a clause type has a finding, the model is sent the graph's assessment of it shortened
    (where and what it read), so a model does not pay for it again on every turn; the graph's own
    history keeps the whole answer, and the model's own results are never shortened."""
    from agent.memory_view import recorded_graph_results

    state = {"contract": _kestrel(), "messages": [],
             "episodes": [_episode('governing_law in section 15.1 "Governing Law": deviation (medium)',
                                   'liability_cap in section 8.2 "Limitation of Liability": deviation (high)'
                                   ).model_dump(mode="json")]}
    messages = graph_first_calls(state)["messages"]
    own = ToolMessage(messages[1].content, tool_call_id="model-7", name="assess_clause")
    sent = recorded_graph_results([*messages, own], {"governing_law"})
    shortened = {json.loads(m.content)["clause_type"]: json.loads(m.content) for m in sent[1:3]}
    assert set(shortened["governing_law"]) == {"clause_type", "section", "found", "verdict", "severity", "note"}
    assert "quote" in shortened["liability_cap"]  # not recorded yet: the whole answer
    assert sent[3].content == own.content and sent[0] is messages[0]
    assert "quote" in json.loads(messages[1].content)  # the history is unchanged
    assert recorded_graph_results(messages, set()) == messages


def test_a_model_that_redoes_the_graphs_assessments_is_sent_them_shortened():
    from agent.memory_view import graph_results_redone

    graph = [{"tool": "assess_clause", "clause_type": "warranty", "section": "5.2", "asked": "5.2", "by": "graph"}]
    elsewhere = [{"tool": "assess_clause", "clause_type": "warranty", "section": "6.1", "asked": "6.1"}]
    again = [{"tool": "assess_clause", "clause_type": "warranty", "section": "5.2", "asked": "5.2"}]
    assert not graph_results_redone(graph) and not graph_results_redone(graph + elsewhere)
    assert graph_results_redone(graph + again)
