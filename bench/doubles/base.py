"""What the test doubles share: LangChain plumbing, and per clause type what the tool results showed.

A double is a `BaseChatModel` that tells its requests apart by what they ask in plain words (the
contract tools bound: review; a forced tool or "JSON" in the instructions: distil the run;
"summar..." in the instructions: summarise; anything else: a short answer, as to a set-up probe).
It is not a language model and says so (`is_stand_in`: usage counts its calls as stand-in calls,
with approximate token counts).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from agent.offline.scripted import approximate_usage  # token estimates, comparable between models
from bench.doubles.reading import Reading, mentioned, sections_in, snake, text

REVIEW_TOOL_WORDS = ("record", "assess", "clause")  # a review: the bound tools talk about clauses


@dataclass
class Clause:
    """One clause type as the tool results showed it to a double."""

    name: str
    candidates: list[str] | None = None  # sections find_clauses named, best first (None: not asked)
    if_missing: dict[str, Any] | None = None
    assessed: dict[str, dict[str, Any]] = field(default_factory=dict)  # section -> assessment
    pointers: list[str] = field(default_factory=list)  # sections an assessment said to assess first
    asked: list[str] = field(default_factory=list)  # sections an error said to assess first
    errors: list[str] = field(default_factory=list)  # errors of calls about this clause type
    records: int = 0  # record calls made (answered or refused)

    def pending_pointer(self, *, from_assessments: bool = True) -> str | None:
        wanted = [*self.asked, *(self.pointers if from_assessments else [])]
        return next((s for s in wanted if s not in self.assessed), None)

    def latest_found(self) -> tuple[str, dict[str, Any]] | None:
        """The latest assessment that found the clause, whatever it pointed to."""
        for section, data in reversed(list(self.assessed.items())):
            if data.get("found"):
                return section, data
        return None

    def best_found(self) -> tuple[str, dict[str, Any]] | None:
        """The latest assessment that found the clause and names no section left to assess."""
        for section, data in reversed(list(self.assessed.items())):
            if data.get("found") and not _unresolved(data, self.assessed):
                return section, data
        return None


def _pointer_sections(data: dict[str, Any]) -> list[str]:
    out = []
    for value in data.values():
        if isinstance(value, dict) and value.get("section") and re.search(r"assess|before record", str(value), re.I):
            out.append(str(value["section"]))
    return out


def _unresolved(data: dict[str, Any], assessed: dict[str, Any]) -> bool:
    return any(s not in assessed for s in _pointer_sections(data))


def clause_of(args: dict[str, Any], names: Sequence[str]) -> str | None:
    raw = next((v for k, v in args.items() if snake(k) in ("clause_type", "clause", "type")), None)
    if not isinstance(raw, str):
        return None
    wanted = snake(raw)
    if wanted in names:
        return wanted
    hits = mentioned(raw, names)
    return hits[0] if hits else None


def clauses(reading: Reading) -> dict[str, Clause]:
    """Per clause type, what the visible tool results showed."""
    out = {name: Clause(name) for name in reading.clause_types}
    for result in reading.results:
        name = clause_of(result.args, reading.clause_types)
        if name is None:
            continue
        clause = out[name]
        section = str(next((v for k, v in result.args.items() if snake(k) in ("section", "section_id")), "") or "")
        if result.error is not None:
            clause.errors.append(result.error)
            clause.asked += [s for s in sections_in(result.error) if "assess" in result.error.lower()]
            if result.tool.startswith("record"):
                clause.records += 1
            elif result.tool.startswith("assess") and section:  # tried: a model moves on after an error
                clause.assessed.setdefault(section, {"found": False, "error": result.error})
            continue
        data = result.data or {}
        if result.tool.startswith("find"):
            clause.candidates = list(dict.fromkeys(str(c.get("section")) for c in data.get("candidates") or []
                                                   if isinstance(c, dict) and c.get("section")))
            clause.if_missing = data.get("if_missing") if isinstance(data.get("if_missing"), dict) else None
        elif result.tool.startswith("assess"):
            where = str(data.get("section") or section)
            clause.assessed[section or where] = data
            if where != section:
                clause.assessed[where] = data
            clause.pointers += _pointer_sections(data)
        elif result.tool.startswith("record"):
            clause.records += 1
    return out


def rng_for(*parts: Any) -> random.Random:
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).hexdigest()
    return random.Random(int(digest, 16))


class DoubleChatModel(BaseChatModel):
    """The plumbing of a test double: tools, structured output, usage (see module doc)."""

    is_stand_in: ClassVar[bool] = True
    model: str = "double"
    seed: int = 0

    @property
    def _llm_type(self) -> str:
        return "test-double"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "seed": self.seed}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: dict | str | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return super().bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice, **kwargs)

    # the habits: each double writes its own
    def review(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]]) -> AIMessage:
        raise NotImplementedError

    def summarise(self, messages: Sequence[BaseMessage]) -> str:
        raise NotImplementedError

    def distil(self, messages: Sequence[BaseMessage], tool: dict[str, Any] | None) -> AIMessage:
        raise NotImplementedError

    def respond(self, messages: Sequence[BaseMessage], tools: list[dict[str, Any]], tool_choice: Any) -> AIMessage:
        instructions = " ".join(text(m) for m in messages if isinstance(m, SystemMessage)).lower()
        names = " ".join(t["function"]["name"].lower() for t in tools)
        if tools and all(word in names for word in REVIEW_TOOL_WORDS):
            return self.review(messages, tools)
        if tools and tool_choice not in (None, "auto", "none", False):
            return self.distil(messages, tools[0])
        if "json" in instructions or "json" in text(messages[-1]).lower():
            return self.distil(messages, None)
        if "summar" in instructions:
            return AIMessage(self.summarise([m for m in messages if not isinstance(m, SystemMessage)]))
        return AIMessage("OK")

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        answer = self.respond(messages, kwargs.get("tools") or [], kwargs.get("tool_choice"))
        answer.usage_metadata = approximate_usage(messages, answer)
        answer.response_metadata = {"model_name": self.model, "model_provider": "test-double"}
        return ChatResult(generations=[ChatGeneration(message=answer)])


def words(name: str) -> str:
    return snake(name).replace("_", " ")
