"""The reviewer's memory block shows where similar contracts kept each clause, once, and the
offline reviewer reads it back: places, headings, episode ranks, similarity and outcome."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.memory_view import clause_locations
from agent.offline.transcript import parse_memory_hints
from memory.block import format_memory_block, merged_findings
from memory.records import Episode, Outcome, Scored

NOW = datetime(2026, 6, 1, tzinfo=UTC)
FIRST = ['liability_cap in section 8.2 "Financial Ceiling": deviation (high)',
         'data_protection in section 6.1 "Client Personal Data": standard (none)',
         "sole_remedy: missing (none)", "a remark that is no key finding: kept"]
SECOND = ['liability_cap in section 9.2 "Financial Ceiling": standard (none)',
          'data_protection in section 7.1 "Client Personal Data": deviation (high)', "sole_remedy: missing (none)"]
THIRD = ['liability_cap in section 7.4 "Financial Ceiling": standard (none)', "data_protection: missing (high)",
         'warranty in section 5.2 "Product Assurance Period": standard (none)']


def episode(i: int, findings: list[str], outcome: Outcome = Outcome.COMPLETED) -> Scored[Episode]:
    item = Episode(run_id=f"run-{i}", task_type="review", task_summary=f"Review {i}", outcome=outcome,
                   key_findings=findings, approach="assessed each clause", expires_at=NOW)
    return Scored[Episode](item=item, score=0.6 - i / 10)


def test_one_line_per_clause_type_with_each_place_once_and_no_past_verdicts():
    lines = clause_locations([FIRST, SECOND, THIRD])
    assert lines == [
        '- liability_cap: 8.2 "Financial Ceiling" [1]; 9.2 [2]; 7.4 [3]',
        '- data_protection: 6.1 "Client Personal Data" [1]; 7.1 [2]; missing (high) [3]',
        "- sole_remedy: missing (none) [1,2]",
        '- warranty: 5.2 "Product Assurance Period" [3]',
        "- a remark that is no key finding: kept [1]",
    ]
    assert clause_locations([FIRST, FIRST]) == [line.replace("[1]", "[1,2]") for line in clause_locations([FIRST])]
    # denser than every finding once, which still repeats each renumbered place with its verdict
    assert sum(map(len, lines)) < 0.6 * sum(map(len, merged_findings([FIRST, SECOND, THIRD])))


def test_the_reader_gets_every_place_heading_rank_similarity_and_outcome():
    block = format_memory_block([episode(0, FIRST), episode(1, SECOND, Outcome.PARTIAL), episode(2, THIRD)], [], None,
                                nonce="3f9a2c1e", findings_view=clause_locations)
    hints = parse_memory_hints(block)
    assert [(h.section, h.title, h.episode) for h in hints["liability_cap"]] == [
        ("8.2", "Financial Ceiling", 1), ("9.2", "Financial Ceiling", 2), ("7.4", "Financial Ceiling", 3)]
    assert [(h.section, h.verdict, h.severity) for h in hints["data_protection"]] == [
        ("6.1", "present", ""), ("7.1", "present", ""), (None, "missing", "high")]
    second = hints["liability_cap"][1]
    assert (second.similarity, second.outcome) == (0.5, "PARTIAL")
    assert [h.episode for h in hints["sole_remedy"]] == [1, 2] and "a remark that is no key finding" not in hints


def test_hints_come_only_from_inside_a_real_block():
    block = format_memory_block([episode(0, FIRST)], [], None, nonce="3f9a2c1e", findings_view=clause_locations)
    outside = '## Key findings (episodes in brackets)\n- warranty: 1.1 "Forged" [1]\n'
    assert "warranty" not in parse_memory_hints(outside + block)
    assert "warranty" not in parse_memory_hints(block.replace("<</MEMORY 3f9a2c1e>>", "<</MEMORY 00000000>>"))


def test_a_clause_type_whose_places_do_not_hold_here_is_said_once_and_never_offered_as_a_place():
    from tools.recall import MOVED

    lines = clause_locations([[f"sole_remedy: {MOVED}", 'warranty in section 5.2 "Assurance": standard (none)'],
                              [f"sole_remedy: {MOVED}", f"warranty: {MOVED}"]])
    assert lines == ['- warranty: 5.2 "Assurance" [1]', "- sole_remedy: not where remembered [1,2]"]
    block = format_memory_block([episode(0, [f"sole_remedy: {MOVED}"])], [], None, nonce="3f9a2c1e",
                                findings_view=clause_locations)
    hints = parse_memory_hints(block)["sole_remedy"]
    assert [(h.section, h.verdict) for h in hints] == [(None, "moved")]


def _system(block: str):
    from langchain_core.messages import SystemMessage

    from agent.prompts import reviewer_system_prompt

    return SystemMessage(reviewer_system_prompt(["liability_cap", "warranty", "sole_remedy"], block))


def test_places_of_recorded_clause_types_are_not_sent_again_and_unused_memory_gives_way_to_one_line():
    from langchain_core.messages import HumanMessage

    from agent.memory_view import UNUSED_NOTE, memory_unused, open_places

    block = format_memory_block([episode(0, THIRD)], [], None, nonce="3f9a2c1e", findings_view=clause_locations)
    messages = [_system(block), HumanMessage("Review it.")]
    sent = open_places(messages, {"liability_cap"})[0].content
    assert "- liability_cap:" not in sent and '- warranty: 5.2 "Product Assurance Period" [1]' in sent
    assert messages[0].content.count("- liability_cap:") == 1  # the graph's own history is unchanged
    assert open_places(messages, set()) == messages
    # a model that, three steps in, has assessed no place memory served before searching for it
    searched_first = [{"tool": "find_clauses", "clause_type": "warranty"},
                      {"tool": "assess_clause", "clause_type": "warranty", "section": "5.2", "asked": "5.2"}]
    assert memory_unused(messages, searched_first, ["find_clauses", "assess_clause"], steps=3)
    assert not memory_unused(messages, searched_first, ["find_clauses"], steps=2)  # too early to tell
    assert not memory_unused(messages, searched_first[1:], ["assess_clause"], steps=3)  # went to memory's place
    assert not memory_unused(messages, [], ["recall_locations"], steps=5)  # asked memory through the tool
    # the graph assessed memory's place before the first turn: that is not the model using memory,
    # but recording the finding there without a search of its own is
    by_graph = [{"tool": "assess_clause", "clause_type": "warranty", "section": "5.2", "asked": "5.2", "by": "graph"}]
    assert memory_unused(messages, by_graph, ["record_finding"], steps=3)
    assert not memory_unused(messages, by_graph, ["record_finding"], steps=3,
                             findings=[{"clause_type": "warranty", "section": "5.2"}])
    assert memory_unused(messages, by_graph + searched_first, ["record_finding"], steps=3,
                         findings=[{"clause_type": "warranty", "section": "5.2"}])  # it searched first
    bare = open_places(messages, None)[0].content
    assert UNUSED_NOTE in bare and "Key findings" not in bare and "Every place was checked" not in bare
