"""Working memory: compress a run's message history before a model step, never splitting a tool call.

Rule (configurable): once the history holds more than `threshold` messages, keep every system
message and the `keep_recent` most recent other messages verbatim, and replace the older ones with
one summary message written by a small model. The cut is moved earlier when it would leave a
tool result without the assistant message that called it (chat APIs reject such histories).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

log = logging.getLogger(__name__)

SUMMARY_PREFIX = "Summary of earlier steps (working memory compressed):"
SUMMARIZE_HEADER = "TASK: summarize-conversation"
SUMMARIZE_INSTRUCTIONS = f"""{SUMMARIZE_HEADER}
You compress the working memory of an agent run. Summarise the conversation you are given.
Keep: the task, decisions taken, every tool call with its essential result, findings recorded so
far, and whatever is needed to continue the work. Drop: failed attempts, repeated reasoning and
tool errors that were later resolved. Write compact lines; do not invent anything."""


@dataclass(frozen=True)
class Compression:
    """The history to use from now on, and what the summarising model spent."""

    messages: list[BaseMessage]
    summarized: int
    input_tokens: int
    output_tokens: int


def is_summary(message: BaseMessage) -> bool:
    return isinstance(message, HumanMessage) and str(message.content).startswith(SUMMARY_PREFIX)


def find_cut(others: Sequence[BaseMessage], keep_recent: int) -> int:
    """Index into `others` where the verbatim tail starts: at most `keep_recent` messages from the
    end, moved earlier while the tail would start with an orphaned tool result."""
    cut = max(0, len(others) - keep_recent)
    while cut > 0 and isinstance(others[cut], ToolMessage):
        cut -= 1
    return cut


def tool_pairs_intact(messages: Sequence[BaseMessage]) -> bool:
    """True when every tool result follows the assistant message that requested it, and every
    requested call has its result before the next assistant turn (what chat APIs demand)."""
    pending: set[str] = set()
    for message in messages:
        if isinstance(message, ToolMessage):
            if message.tool_call_id not in pending:
                return False
            pending.discard(message.tool_call_id)
            continue
        if pending:
            return False
        if isinstance(message, AIMessage):
            pending = {call["id"] for call in message.tool_calls}
    return True


def compress(
    messages: Sequence[BaseMessage],
    summarizer: BaseChatModel,
    *,
    threshold: int = 30,
    keep_recent: int = 15,
) -> Compression | None:
    """Return the compressed history, or None when no compression is due or possible."""
    if len(messages) <= threshold:
        return None
    system = [m for m in messages if isinstance(m, SystemMessage)]
    others = [m for m in messages if not isinstance(m, SystemMessage)]
    cut = find_cut(others, keep_recent)
    if cut < 2:  # summarising a single message would not shorten anything
        return None
    older, recent = others[:cut], others[cut:]
    request = [
        SystemMessage(SUMMARIZE_INSTRUCTIONS),
        *older,
        HumanMessage("Write the summary of the conversation above now."),
    ]
    try:
        answer = summarizer.invoke(request)
    except Exception:  # a failed summary must not kill the run: keep the history as it is
        log.warning("working-memory compression failed; keeping the full history", exc_info=True)
        return None
    text = str(answer.content).strip()
    if not text:
        return None
    usage = getattr(answer, "usage_metadata", None) or {}
    summary = HumanMessage(f"{SUMMARY_PREFIX}\n{text}")
    return Compression(
        messages=[*system, summary, *recent],
        summarized=len(older),
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
    )
