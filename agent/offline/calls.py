"""What the offline modes know about a run: its tool calls with results, memory hints, the task.

Plain records with no behaviour of their own: `agent.offline.transcript` fills them from messages,
`agent.offline.summary_format` from working-memory summaries, and the planner, summariser and
extractor read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

SUMMARY_MARKER = "Summary of earlier steps"


def text_of(message: BaseMessage) -> str:
    """The plain text of a message, whatever its content blocks."""
    return message.text if not isinstance(message.content, str) else message.content


@dataclass(frozen=True)
class Hint:
    """What the most similar remembered episode says about one clause type."""

    clause_type: str
    section: str | None  # None when the episode recorded the clause as missing
    verdict: str  # "missing", or "present" (past verdicts are not remembered: they come from the text)
    severity: str  # the severity of a remembered absence
    episode: int  # the episode's rank in the memory block: 1 = the best
    title: str = ""  # the section heading the clause sat under, if remembered
    similarity: float = 0.0  # the episode's similarity to this task
    outcome: str = ""  # the episode's outcome (COMPLETED, PARTIAL ...)


@dataclass
class ToolCall:
    """One tool call of the run and what came back (result None while unanswered)."""

    name: str
    args: dict[str, Any]
    result: dict[str, Any] | None = None
    error: str | None = None

    @property
    def answered(self) -> bool:
        return self.result is not None or self.error is not None

    @property
    def ok(self) -> bool:
        return self.result is not None and self.error is None


@dataclass
class Transcript:
    """Everything the offline modes need to know about a run so far."""

    task: str = ""
    clause_types: list[str] = field(default_factory=list)
    hints: dict[str, list[Hint]] = field(default_factory=dict)  # per type, most similar episode first
    calls: list[ToolCall] = field(default_factory=list)
    model_steps: int = 0  # assistant turns, including those folded into summaries
