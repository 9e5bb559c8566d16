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

A summary cannot lose the run. The caller passes what it knows outside the messages
(`RunState`: a deterministic digest, a short restatement, and the terms a summary must keep,
e.g. every item the run has recorded). An accepted summary is followed by the restatement; a
summary that is empty, much shorter than a floor (`min_summary_chars`, less for a short
stretch of history), or that drops a term neither it nor the messages kept verbatim mention is
rejected and replaced by the digest; so is a summary call that fails (after `on_error`, which
may raise for a model set up wrongly). `Compression.rejected` says why, so the run can count it.
The memory core knows nothing of the run's domain: the caller writes the digest.
"""

from __future__ import annotations

import logging
import re
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


MIN_SUMMARY_CHARS = 200


@dataclass(frozen=True)
class RunState:
    """What the caller's graph knows about the run outside the messages (see module doc)."""

    digest: str  # replaces a rejected or failed summary: everything needed to continue
    restated: str = ""  # follows an accepted summary (empty: the digest is restated)
    must_mention: tuple[str, ...] = ()  # terms an accepted summary, or the messages kept, must name


@dataclass(frozen=True)
class Compression:
    """The history to use from now on, and what the summarising model spent."""

    messages: list[BaseMessage]
    summarized: int
    input_tokens: int
    output_tokens: int
    usage: dict[str, Any] = field(default_factory=dict)  # the summariser's usage_metadata as given
    reason: str = "messages"  # what triggered it: "messages" or "tokens"
    rejected: str = ""  # why the model's summary was replaced by the run-state digest ("" = accepted)
    failed: str = ""  # the summary call's error, when it failed and the digest stood in for it


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


def _plain(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def summary_problem(text: str, older: Sequence[BaseMessage], kept: Sequence[BaseMessage], state: RunState,
                    min_chars: int = MIN_SUMMARY_CHARS) -> str:
    """Why `text` cannot stand for `older` ("" when it can): empty, much shorter than the floor
    (`min_chars`, or a twentieth of what it replaces when that is less, never under 40), or
    missing a term of `state.must_mention` that neither it nor the `kept` messages mention."""
    if not text.strip():
        return "the summary was empty"
    replaced = sum(len(str(m.content)) + len(str(getattr(m, "tool_calls", "") or "")) for m in older)
    floor = min(min_chars, max(40, replaced // 20))
    if len(text.strip()) < floor:
        return f"the summary has {len(text.strip())} characters, under the floor of {floor}"
    seen = _plain(text + " " + " ".join(f"{m.content} {getattr(m, 'tool_calls', '') or ''}" for m in kept))
    dropped = [term for term in state.must_mention if _plain(term) not in seen]
    if dropped:
        shown = ", ".join(dropped[:5]) + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
        return f"the summary drops what the run recorded: {shown}"
    return ""


def compress(
    messages: Sequence[BaseMessage],
    summarizer: BaseChatModel | None,
    *,
    threshold: int = 30,
    keep_recent: int = 15,
    max_tokens: int | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    run_state: RunState | None = None,
    min_summary_chars: int = MIN_SUMMARY_CHARS,
) -> Compression | None:
    """Return the compressed history, or None when no compression is due or possible.

    With `run_state`, a summary that fails the checks, a failed summary call, or no `summarizer`
    at all gives the run-state digest in its place (see module doc). Without it, a failed call
    keeps the history as it is. `on_error` sees a failed summary call first (it may raise, e.g.
    for a model set up wrongly).
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
    if summarizer is None and run_state is None:
        return None
    text, usage, failed = "", {}, ""
    if summarizer is not None:
        request = [
            SystemMessage(SUMMARIZE_INSTRUCTIONS),
            *older,
            HumanMessage("Write the summary of the conversation above now."),
        ]
        try:
            answer = summarizer.invoke(request)
        except Exception as exc:  # a failed summary must not kill the run
            if on_error is not None:
                on_error(exc)
            failed = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
            if run_state is None:
                log.warning("working-memory compression failed (%s); keeping the full history", failed)
                return None
            # the caller counts and reports it (the run-state digest stands in for the summary)
            log.info("working-memory compression failed (%s); the run-state digest stands in", failed)
        else:
            text = str(answer.content).strip()
            usage = getattr(answer, "usage_metadata", None) or {}
    if run_state is None:
        if not text:
            return None
        rejected, body = "", text
    else:
        rejected = ("the summary call failed" if failed else "no summary model" if summarizer is None else
                    summary_problem(text, older, recent, run_state, min_summary_chars))
        body = run_state.digest if rejected else f"{text}\n\n{run_state.restated or run_state.digest}"
    summary = HumanMessage(f"{SUMMARY_PREFIX}\n{body}")
    return Compression(
        messages=[*system, summary, *recent],
        summarized=len(older),
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        usage=dict(usage),
        reason="messages" if by_count else "tokens",
        rejected=rejected,
        failed=failed,
    )
