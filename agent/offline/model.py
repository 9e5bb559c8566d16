"""`OfflineReviewerModel`: a deterministic stand-in for a chat LLM, so the agent runs with no network.

It is not a language model and does not understand text. It is a small rule-based program behind
the `BaseChatModel` interface, chosen by what the messages ask (see docs/ARCHITECTURE.md):

- system prompt starting `TASK: summarize-conversation`: working-memory summary lines;
- system prompt starting `TASK: extract-run-artifacts`: one JSON object of `RunArtifacts`;
- contract tools bound: the next tool calls of a fixed review policy (agent.offline.planner),
  or the final review once every clause type has a finding;
- other tools bound: a call of the tool the request names or is about, with the values the request
  states literally (agent.offline.arguments), then, after its result, that result reported back;
- anything else: a short note saying what it is (structured output: a schema-conforming object).

Same messages, same answer. Token counts in `usage_metadata` are approximations
(`count_tokens_approximately`) of its inputs and outputs, so cost comparisons between runs are
meaningful relative to each other, not in any provider's currency.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import Any, ClassVar, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_json_schema, convert_to_openai_tool
from langchain_core.utils.pydantic import is_basemodel_subclass

from agent.offline.arguments import arguments_from_request, pick_tool
from agent.offline.extractor import extract_artifacts
from agent.offline.planner import STEP_BUDGET, call_id, plan_next
from agent.offline.schema import fill_schema
from agent.offline.summarizer import summarize
from agent.offline.transcript import REVIEW_TOOLS, read_transcript, text_of
from agent.prompts import EXTRACT_HEADER, SUMMARIZE_HEADER

_WORDS_RE = re.compile(r"\S+\s*|\s+")


def _forced_tool(tools: list[dict[str, Any]], tool_choice: Any) -> dict[str, Any] | None:
    """The tool a `tool_choice` forces, if any (`"any"`/`"required"`/`True` force the first)."""
    if not tools or tool_choice in (None, False, "auto", "none"):
        return None
    if tool_choice in ("any", "required", True):
        return tools[0]
    name = tool_choice.get("function", {}).get("name") if isinstance(tool_choice, dict) else tool_choice
    return next((t for t in tools if t["function"]["name"] == name), None)


def _tool_results(messages: Sequence[BaseMessage]) -> str:
    """The answer after generic tool calls: what each tool of the last step returned, verbatim."""
    results = []
    for message in reversed(messages):
        if not isinstance(message, ToolMessage):
            break
        results.append(f"{message.name or 'tool'} returned: {' '.join(text_of(message).split())[:500]}")
    return "\n".join(reversed(results))


class OfflineReviewerModel(BaseChatModel):
    """A deterministic, rule-based stand-in for an LLM (no language model inside; see module doc).

    `temperature`, `max_tokens`, `timeout` and `max_retries` are accepted for interface
    compatibility and have no effect; `stop` cuts text answers at the first stop sequence.
    """

    # Usage accounting reports its calls as stand-in calls, never as language-model calls.
    is_stand_in: ClassVar[bool] = True
    # its extraction distils contract reviews only: the memory steps refuse it for another agent
    extracts_only: ClassVar[tuple[str, ...]] = ("contract_review",)
    model: str = "offline-reviewer"
    temperature: float | None = None
    max_tokens: int | None = None
    timeout: float | None = None
    stop: list[str] | None = None
    max_retries: int | None = None
    streaming: bool = False
    domain: str = "supplier_contracts"  # domain of the facts the extraction mode proposes
    max_turns: int = STEP_BUDGET  # its own limit on assistant turns (the graph has its own step budget)

    @property
    def _llm_type(self) -> str:
        return "offline-reviewer"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model, "domain": self.domain}

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        params = LangSmithParams(ls_provider="offline", ls_model_name=kwargs.get("model") or self.model,
                                 ls_model_type="chat")
        if self.temperature is not None:
            params["ls_temperature"] = self.temperature
        if self.max_tokens is not None:
            params["ls_max_tokens"] = self.max_tokens
        if stop or self.stop:
            params["ls_stop"] = stop or self.stop
        return params

    # ------------------------------------------------------------------ binding

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: dict | str | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind LangChain tools, functions, pydantic models or OpenAI tool dicts."""
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        if isinstance(tool_choice, str) and tool_choice not in ("auto", "none", "any", "required"):
            if tool_choice not in {t["function"]["name"] for t in formatted}:
                raise ValueError(f"tool_choice {tool_choice!r} names no bound tool")
        return super().bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    def with_structured_output(
        self,
        schema: dict[str, Any] | type | None = None,
        *,
        method: Literal["function_calling", "json_schema", "json_mode"] = "function_calling",
        include_raw: bool = False,
        strict: bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, dict[str, Any] | Any]:
        """Structured output by tool calling (default) or as JSON text (`json_schema`, `json_mode`)."""
        if method == "function_calling":
            if schema is None:
                raise ValueError("method='function_calling' needs a schema")
            return super().with_structured_output(schema, include_raw=include_raw, **kwargs)
        if method not in ("json_schema", "json_mode"):
            raise ValueError(f"unknown structured output method {method!r}")
        if kwargs:
            raise ValueError(f"Received unsupported arguments {kwargs}")
        if schema is None and method == "json_schema":
            raise ValueError("method='json_schema' needs a schema")
        json_schema = convert_to_json_schema(schema) if schema is not None else None
        llm = self.bind(
            response_format={"type": "json_object", "schema": json_schema},
            ls_structured_output_format={"kwargs": {"method": method}, "schema": json_schema},
        )
        is_pydantic = isinstance(schema, type) and is_basemodel_subclass(schema)
        parser = PydanticOutputParser(pydantic_object=schema) if is_pydantic else JsonOutputParser()
        if not include_raw:
            return llm | parser
        with_parsed = RunnablePassthrough.assign(parsed=itemgetter("raw") | parser, parsing_error=lambda _: None)
        with_none = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=llm) | with_parsed.with_fallbacks([with_none], exception_key="parsing_error")

    # ------------------------------------------------------------------ answering

    def respond(self, messages: Sequence[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        """The answer to `messages` (what `invoke` returns, before usage metadata)."""
        system = next((text_of(m).lstrip() for m in messages if isinstance(m, SystemMessage)), "")
        tools: list[dict[str, Any]] = kwargs.get("tools") or []
        forced = _forced_tool(tools, kwargs.get("tool_choice"))
        response_format = kwargs.get("response_format")
        source: Any = {}
        if system.startswith(SUMMARIZE_HEADER):
            return AIMessage(self._cut(summarize([m for m in messages if not isinstance(m, SystemMessage)]), stop))
        if system.startswith(EXTRACT_HEADER):
            source = extract_artifacts(messages, domain=self.domain)
            if forced is None and response_format is None:
                return AIMessage(json.dumps(source, ensure_ascii=False))
        elif {t["function"]["name"] for t in tools} & set(REVIEW_TOOLS):  # the planner decides, whatever tool_choice says
            transcript = read_transcript(messages)
            plan = plan_next(transcript, budget=self.max_turns)
            if not plan.calls:
                return AIMessage(self._cut(plan.text, stop))
            step = transcript.model_steps
            calls = [{"name": c.name, "args": c.args, "id": call_id(step, i, c), "type": "tool_call"}
                     for i, c in enumerate(plan.calls)]
            return AIMessage("", tool_calls=calls)
        request = next((text_of(m) for m in reversed(messages) if isinstance(m, HumanMessage)), "")
        if forced is None and tools and response_format is None and kwargs.get("tool_choice") != "none":
            if messages and isinstance(messages[-1], ToolMessage):  # a generic agent loop: report the results
                return AIMessage(self._cut(_tool_results(messages), stop))
            forced = pick_tool(tools, request)
        if forced is not None:
            if not source:  # a generic tool: the values the request states, the schema fills the rest
                source = arguments_from_request(forced, request)
            args = fill_schema(forced["function"].get("parameters") or {}, source)
            name = forced["function"]["name"]
            return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"offline_{name}_{len(messages)}",
                                              "type": "tool_call"}])
        if response_format is not None:
            schema = response_format.get("schema") if isinstance(response_format, dict) else None
            data = fill_schema(schema, source) if schema else (source or {"answer": ""})
            return AIMessage(json.dumps(data, ensure_ascii=False))
        last = text_of(messages[-1]) if messages else ""
        note = ("Offline reviewer: a deterministic stand-in, not a language model. It reviews contracts "
                "through the contract tools and writes working-memory summaries and run artifacts; "
                f"it cannot answer free text. Received: {' '.join(last.split())[:200]}")
        return AIMessage(self._cut(note, stop))

    def _cut(self, text: str, stop: list[str] | None) -> str:
        for token in stop or self.stop or []:
            if token and token in text:
                text = text[: text.index(token)]
        return text

    def _with_usage(self, messages: Sequence[BaseMessage], answer: AIMessage, model: str | None = None) -> AIMessage:
        """Usage and response metadata; `model` is the name a caller passed at call time, if any."""
        input_tokens = count_tokens_approximately(list(messages))
        output_tokens = count_tokens_approximately([answer])
        answer.usage_metadata = {"input_tokens": input_tokens, "output_tokens": output_tokens,
                                 "total_tokens": input_tokens + output_tokens}
        answer.response_metadata = {"model_name": model or self.model, "model_provider": "offline", "finish_reason":
                                    "tool_calls" if answer.tool_calls else "stop"}
        return answer

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        answer = self._with_usage(messages, self.respond(messages, stop, **kwargs), kwargs.get("model"))
        return ChatResult(generations=[ChatGeneration(message=answer)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The same answer as `invoke`, as word chunks, then one chunk per tool call, then usage."""
        answer = self._with_usage(messages, self.respond(messages, stop, **kwargs), kwargs.get("model"))
        for piece in _WORDS_RE.findall(answer.text):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
        for index, call in enumerate(answer.tool_calls):
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[{
                "name": call["name"], "args": json.dumps(call["args"]), "id": call["id"],
                "index": index, "type": "tool_call_chunk"}]))
        yield ChatGenerationChunk(message=AIMessageChunk(
            content="", usage_metadata=answer.usage_metadata, response_metadata=answer.response_metadata,
            chunk_position="last"))
