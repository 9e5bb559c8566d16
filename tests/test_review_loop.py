"""The reviewer's tool loop with models that behave like real ones: a prose turn does not end the
review, a model making one call per turn fits in the step budget (derived from the playbook), an
incomplete review is PARTIAL with a non-zero exit code, and working memory is compressed by a
token budget as well as by message count."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately
from pydantic import PrivateAttr

from agent.offline import OfflineReviewerModel, ScriptedChatModel
from agent.settings import Settings
from cli.main import main
from graphs.analyze import recursion_limit
from graphs.runner import Reviewer, open_checkpointer
from memory.working import compress, tool_pairs_intact
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CLAUSE_TYPES = len(load_playbook().clause_types)
CONTRACT = SAMPLES / "northwind_msa_01.txt"


class ProseAt(OfflineReviewerModel):
    """The offline reviewer, answering in prose (no tool call) at the given model calls."""

    prose_at: tuple[int, ...] = (3,)
    _calls: int = PrivateAttr(default=0)

    def respond(self, messages, stop=None, **kwargs):
        self._calls += 1
        if kwargs.get("tools") and self._calls in self.prose_at:
            return AIMessage("Let me think about which clause to look at next.")
        return super().respond(messages, stop, **kwargs)


class OneCallPerTurn(OfflineReviewerModel):
    """The offline reviewer's plan, one tool call per turn, as small models send them."""

    max_turns: int = 10_000  # the graph's step budget is what stops it

    def respond(self, messages, stop=None, **kwargs):
        answer = super().respond(messages, stop, **kwargs)
        if len(answer.tool_calls) > 1:
            return AIMessage("", tool_calls=answer.tool_calls[:1])
        return answer


def _review(settings, model, **context):
    with open_checkpointer(settings) as saver:
        return Reviewer(settings, saver, use_memory=False, reviewer_model=model, **context).review_path(CONTRACT)


def test_a_prose_turn_is_nudged_and_the_review_completes(settings):
    report = _review(settings, ProseAt(prose_at=(3, 5)))
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES and report["incomplete"] is None
    assert report["review_loop"]["nudges"] == 2
    assert report["review"].startswith("Review finished")  # the closing text, not the prose turn


def test_a_model_making_one_call_per_turn_completes_within_the_derived_budget(settings):
    report = _review(settings, OneCallPerTurn())
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES
    steps = report["review_loop"]["model_steps"]
    assert steps > 40  # more turns than the old fixed cap allowed
    assert steps <= report["review_loop"]["step_budget"] == Settings().step_budget(CLAUSE_TYPES)


def test_the_step_budget_follows_the_playbook_and_is_configurable():
    assert Settings().step_budget(17) == 8 * 17 + 10
    assert Settings().step_budget(20) > Settings().step_budget(17)
    assert Settings(steps_per_clause_type=4).step_budget(17) == 78
    assert Settings(max_model_steps=12).step_budget(17) == 12
    settings = Settings()
    assert recursion_limit(settings, 17) >= 2 * (settings.step_budget(17) + settings.max_nudges)


def test_an_exhausted_budget_is_partial_with_the_reason_and_exit_code_5(settings, monkeypatch, capsys):
    report = _review(settings.model_copy(update={"max_model_steps": 8}), OneCallPerTurn())
    assert report["outcome"] == "PARTIAL"
    assert report["incomplete"]["reason"] == "step budget of 8 model steps used up"
    assert len(report["incomplete"]["open_clause_types"]) + len(report["findings"]) == CLAUSE_TYPES
    monkeypatch.setenv("CONTRACT_AGENT_MAX_MODEL_STEPS", "2")
    code = main(["review", str(CONTRACT), "--no-memory", "--format", "json"])
    captured = capsys.readouterr()
    assert code == 5 and json.loads(captured.out)["outcome"] in ("PARTIAL", "FAILED")
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "review incomplete" in lines[0] and "step budget of 2 model steps" in lines[0]


def test_a_model_that_keeps_answering_in_prose_stops_after_the_nudges(settings):
    stubborn = ScriptedChatModel(responses=["I would rather summarise the contract in my own words."],
                                 repeat_last=True)
    report = _review(settings, stubborn)
    assert report["outcome"] == "FAILED" and report["findings"] == []
    assert report["review_loop"]["nudges"] == settings.max_nudges
    assert "stopped calling tools" in report["incomplete"]["reason"]
    nudges = [m for m in stubborn.received[-1] if isinstance(m, HumanMessage) and "no finding yet" in m.content]
    assert nudges and "liability_cap" in nudges[-1].content


def test_unreadable_tool_call_arguments_are_answered_with_how_to_fix_them(settings):
    scripted = ScriptedChatModel(responses=[
        AIMessage("", invalid_tool_calls=[{"name": "find_clauses", "args": '{"clause_type": "liability_cap",',
                                           "id": "bad-1", "error": "not JSON", "type": "invalid_tool_call"}]),
        "Done.",
    ])
    _review(settings.model_copy(update={"max_nudges": 1}), scripted)
    nudge = scripted.received[1][-1]
    assert isinstance(nudge, HumanMessage) and "find_clauses could not be read" in nudge.content


def _long_history(turns: int, result_chars: int) -> list:
    messages = [SystemMessage("system prompt"), HumanMessage("the task")]
    for i in range(turns):
        messages.append(AIMessage("", tool_calls=[{"name": "read_section", "args": {"section": str(i)}, "id": f"c{i}"}]))
        messages.append(ToolMessage("x" * result_chars, tool_call_id=f"c{i}", name="read_section"))
    return messages


def test_compression_triggers_on_a_token_budget_before_the_message_count():
    messages = _long_history(turns=6, result_chars=8000)  # 14 messages, about 12k tokens
    summarizer = ScriptedChatModel(responses=["Read sections 0-3."], repeat_last=True)
    assert compress(messages, summarizer, threshold=30, keep_recent=15) is None  # the count alone: never
    compressed = compress(messages, summarizer, threshold=30, keep_recent=15, max_tokens=6000)
    assert compressed is not None and compressed.reason == "tokens"
    assert count_tokens_approximately(compressed.messages) <= 6000
    assert tool_pairs_intact(compressed.messages)


class Measuring(OneCallPerTurn):
    """One call per turn (so no single turn brings more than one result), noting the size of
    every history it is sent."""

    _sizes: list[int] = PrivateAttr(default_factory=list)

    def respond(self, messages, stop=None, **kwargs):
        if kwargs.get("tools"):
            self._sizes.append(count_tokens_approximately(list(messages)))
        return super().respond(messages, stop, **kwargs)


def test_a_small_context_window_keeps_every_call_of_a_review_within_it(settings):
    measuring = Measuring()
    small = settings.model_copy(update={"compress_threshold": 10_000, "compress_max_tokens": 6_000})
    report = _review(small, measuring)
    assert report["outcome"] == "COMPLETED" and report["review_loop"]["compressions"] >= 1
    assert max(measuring._sizes) <= 6_000 + 3_100  # the budget, plus at most one turn's result (12,000 chars)
    unlimited = Measuring()
    _review(settings.model_copy(update={"compress_threshold": 10_000, "compress_max_tokens": 10**9}), unlimited)
    assert max(unlimited._sizes) > max(measuring._sizes)


@pytest.mark.parametrize("window", [8192, 200_000])
def test_the_token_budget_comes_from_the_model_context_window(window):
    from agent.models import history_token_budget

    budget = history_token_budget(OfflineReviewerModel(max_tokens=4096), Settings(context_window=window), fixed_tokens=1000)
    assert budget == int((window - 4096) * 0.8) - 1000
