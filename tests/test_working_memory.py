"""Working-memory compression: the design's rule, and tool calls never split from results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from memory.working import SUMMARY_PREFIX, RunState, compress, is_summary, tool_pairs_intact


def summarizer(text: str = "kept: decisions and findings"):
    return GenericFakeChatModel(messages=iter([AIMessage(text)] * 1000))


def tool_round(i: int, calls: int) -> list:
    ids = [f"call-{i}-{j}" for j in range(calls)]
    ai = AIMessage("", tool_calls=[{"name": "read_section", "args": {"section": str(j)}, "id": c} for j, c in enumerate(ids)])
    return [ai, *[ToolMessage(f"result {c}", tool_call_id=c) for c in ids]]


def history(rounds: list[int]) -> list:
    messages = [SystemMessage("system"), HumanMessage("task")]
    for i, calls in enumerate(rounds):
        messages += tool_round(i, calls)
    return messages


def test_below_threshold_nothing_changes():
    messages = history([1] * 14)  # 2 + 28 = 30 messages: not past the threshold
    assert len(messages) == 30
    assert compress(messages, summarizer(), threshold=30, keep_recent=15) is None


def test_past_threshold_keeps_system_and_recent_and_one_summary():
    messages = history([1] * 20)  # 42 messages
    result = compress(messages, summarizer("SUMMARY BODY"), threshold=30, keep_recent=15)
    assert result is not None
    kept = result.messages
    assert isinstance(kept[0], SystemMessage) and kept[0].content == "system"
    assert is_summary(kept[1]) and "SUMMARY BODY" in kept[1].content
    assert kept[1].content.startswith(SUMMARY_PREFIX)
    others = [m for m in kept if not isinstance(m, SystemMessage)][1:]
    assert others == messages[-len(others):]
    assert 14 <= len(others) <= 15  # moved later only to keep a tool call with its result
    assert tool_pairs_intact(kept)


def test_cut_moves_to_keep_parallel_tool_calls_together():
    messages = history([5, 5, 5, 5, 5, 5])  # rounds of one call message + 5 results
    result = compress(messages, summarizer(), threshold=30, keep_recent=15)
    assert result is not None
    assert tool_pairs_intact(result.messages)
    first_kept = result.messages[2]
    assert isinstance(first_kept, AIMessage) and first_kept.tool_calls


def test_a_large_turn_of_parallel_calls_is_summarised_not_kept_whole_past_the_limit():
    """Issue 19: a turn of 24 parallel calls followed by a small one: the cut falls inside the
    large turn and moves after it (the large turn is summarised), so the verbatim tail stays
    within keep_recent instead of growing to 28 messages re-sent with every later call."""
    messages = history([1, 24, 2])
    result = compress(messages, summarizer(), threshold=30, keep_recent=15)
    assert result is not None and tool_pairs_intact(result.messages)
    others = [m for m in result.messages if not isinstance(m, SystemMessage)][1:]
    assert others == messages[-3:]  # the small last turn: its call and two results
    # the latest turn is never summarised before the model has seen it
    latest = history([1, 24])
    kept = compress(latest, summarizer(), threshold=20, keep_recent=15)
    assert kept is not None and [m for m in kept.messages if not isinstance(m, SystemMessage)][1:] == latest[-25:]


def test_failed_summary_keeps_full_history():
    class Broken(GenericFakeChatModel):
        def _generate(self, *args, **kwargs):
            raise RuntimeError("model down")

    messages = history([1] * 20)
    assert compress(messages, Broken(messages=iter([])), threshold=30, keep_recent=15) is None


def test_tool_pairs_intact_detects_orphans():
    messages = history([2, 1])
    assert tool_pairs_intact(messages)
    assert not tool_pairs_intact(messages[:2] + messages[3:])  # a call's result removed
    assert not tool_pairs_intact([messages[0], messages[3]])  # a result without its call


@settings(max_examples=150, deadline=None)
@given(
    rounds=st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=40),
    threshold=st.integers(min_value=4, max_value=40),
    keep=st.integers(min_value=1, max_value=20),
)
def test_compression_never_separates_a_tool_call_from_its_result(rounds, threshold, keep):
    messages = history(rounds)
    result = compress(messages, summarizer(), threshold=threshold, keep_recent=keep)
    if result is None:
        return
    assert tool_pairs_intact(result.messages)
    assert sum(is_summary(m) for m in result.messages) == 1
    assert len(result.messages) < len(messages)


# ---------------------------------------------------------------- a summary cannot lose the run

RUN = RunState(digest="Recorded finding: liability_cap in section 9.2: deviation (high)\nNo finding yet for: warranty.",
               restated="Run state: 1 of 2 recorded. No finding yet for: warranty.", must_mention=("liability_cap",))


def _summary(compressed) -> str:
    return next(m.content for m in compressed.messages if is_summary(m))


def test_a_one_line_summary_is_rejected_and_the_run_state_digest_stands_in():
    compressed = compress(history([1] * 20), summarizer("Checking liability cap next."), threshold=30, keep_recent=15,
                          run_state=RUN)
    assert compressed.rejected.startswith("the summary has 28 characters, under the floor")
    assert "Checking" not in _summary(compressed) and RUN.digest in _summary(compressed)


@pytest.mark.parametrize("text", ["", "   \n"])
def test_an_empty_summary_is_rejected(text):
    compressed = compress(history([1] * 20), summarizer(text), threshold=30, keep_recent=15, run_state=RUN)
    assert compressed.rejected == "the summary was empty" and RUN.digest in _summary(compressed)


def test_a_summary_that_drops_a_recorded_finding_is_rejected_unless_the_kept_messages_name_it():
    long_enough = "Read sections 0 to 12 and listed the contract's outline; nothing was recorded yet. " * 3
    dropped = compress(history([1] * 20), summarizer(long_enough), threshold=30, keep_recent=15, run_state=RUN)
    assert dropped.rejected == "the summary drops what the run recorded: liability_cap"
    named = compress(history([1] * 20), summarizer(long_enough + " Liability Cap: recorded in 9.2."), threshold=30,
                     keep_recent=15, run_state=RUN)
    assert not named.rejected and _summary(named).endswith(RUN.restated)  # accepted, then the state restated
    kept = history([1] * 20) + [HumanMessage("liability_cap was recorded")] * 2
    assert not compress(kept, summarizer(long_enough), threshold=30, keep_recent=15, run_state=RUN).rejected


def test_a_failed_or_absent_summariser_leaves_the_digest_when_the_run_state_is_known():
    class Down(GenericFakeChatModel):
        def invoke(self, *args, **kwargs):
            raise ConnectionRefusedError(111, "Connection refused")

    failed = compress(history([1] * 20), Down(messages=iter([])), threshold=30, keep_recent=15, run_state=RUN)
    assert failed.failed.startswith("ConnectionRefusedError") and RUN.digest in _summary(failed)
    assert tool_pairs_intact(failed.messages)
    skipped = compress(history([1] * 20), None, threshold=30, keep_recent=15, run_state=RUN)
    assert skipped.rejected == "no summary model" and RUN.digest in _summary(skipped)
