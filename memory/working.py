"""Working memory: compress a run's message history before a model step, never splitting a tool call.

Rule (configurable): once the history holds more than `threshold` messages, or more than
`max_tokens` tokens (whichever comes first), keep every system message and the `keep_recent` most
recent other messages verbatim (fewer when they alone would fill more than half the token budget),
and replace the older ones with one summary message written by a small model. A cut that would
leave a tool result without the assistant message that called it (chat APIs reject such
histories) moves after that turn, so a turn of many parallel calls is summarised rather than kept
whole past the limit; before it only when nothing would be left verbatim. Tokens are counted
approximately (`count_tokens_approximately`: no tokenizer download), so callers leave a safety
margin in `max_tokens`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.utils import count_tokens_approximately

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
    usage: dict[str, Any] = field(default_factory=dict)  # the summariser's usage_metadata as given
    reason: str = "messages"  # what triggered it: "messages" or "tokens"


def is_summary(message: BaseMessage) -> bool:
    return isinstance(message, HumanMessage) and str(message.content).startswith(SUMMARY_PREFIX)


def find_cut(others: Sequence[BaseMessage], keep_recent: int) -> int:
    """Index into `others` where the verbatim tail starts: at most `keep_recent` messages from the
    end, never starting with an orphaned tool result. A cut inside a turn's tool results moves
    after that turn (its calls and results are summarised with it: a turn of many parallel calls
    is not kept whole past the limit); only when that would leave nothing verbatim does it move
    before the turn."""
    cut = max(0, len(others) - keep_recent)
    later = cut
    while later < len(others) and isinstance(others[later], ToolMessage):
        later += 1
    if later < len(others):
        return later
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


def count_tokens(messages: Sequence[BaseMessage]) -> int:
    """Approximate tokens of a history (about 4 characters a token, tool calls included)."""
    return count_tokens_approximately(list(messages))


def _cut_for_budget(others: Sequence[BaseMessage], keep_recent: int, max_tokens: int | None) -> int:
    """`find_cut`, with fewer recent messages kept while they alone exceed half of `max_tokens`."""
    cut = find_cut(others, keep_recent)
    if max_tokens is None:
        return cut
    keep = keep_recent
    while keep > 1 and count_tokens(others[cut:]) > max_tokens // 2:
        keep -= 1
        cut = max(cut, find_cut(others, keep))
    return cut


def compress(
    messages: Sequence[BaseMessage],
    summarizer: BaseChatModel,
    *,
    threshold: int = 30,
    keep_recent: int = 15,
    max_tokens: int | None = None,
    on_error: Callable[[BaseException], None] | None = None,
) -> Compression | None:
    """Return the compressed history, or None when no compression is due or possible.

    `on_error` sees a failed summary call first (it may raise, e.g. for a model set up wrongly);
    otherwise the history is kept as it is and the run goes on.
    """
    by_count = len(messages) > threshold
    by_tokens = max_tokens is not None and count_tokens(messages) > max_tokens
    if not (by_count or by_tokens):
        return None
    system = [m for m in messages if isinstance(m, SystemMessage)]
    others = [m for m in messages if not isinstance(m, SystemMessage)]
    cut = _cut_for_budget(others, keep_recent, max_tokens)
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
    except Exception as exc:  # a failed summary must not kill the run: keep the history as it is
        if on_error is not None:
            on_error(exc)
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
        usage=dict(usage),
        reason="messages" if by_count else "tokens",
    )
