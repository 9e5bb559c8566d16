"""`InvoiceStandIn`: a deterministic stand-in for a chat model, so the invoice checker runs with no
network. It is not a language model and understands no text: a small rule-based program behind the
`BaseChatModel` interface, chosen by what the messages ask.

- system prompt starting `TASK: extract-invoice-run`: the run's judgement for memory
  (`examples.invoice_check.extraction`), as a forced tool call when structured output is asked
  for, else as JSON text. It distils invoice checks only (`extracts_only`): the memory core
  refuses it as another agent's extraction model.
- tools bound: the next tool calls of the checker's policy (`examples.invoice_check.planner`), or
  the closing text once every check has a result.

Same messages, same answer. `usage_metadata` holds approximate token counts of what a model would
have read (the messages and the bound tools' schemas) and written, so runs compare with each
other, not with any provider's bill. Its calls count as stand-in calls, not model calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from examples.invoice_check.extraction import judge
from examples.invoice_check.memory_agent import KIND
from examples.invoice_check.planner import next_calls
from examples.invoice_check.prompts import EXTRACT_HEADER


class InvoiceStandIn(BaseChatModel):
    """The invoice checker's offline stand-in (see the module docstring)."""

    is_stand_in: ClassVar[bool] = True  # usage counts its calls as stand-in calls
    extracts_only: ClassVar[tuple[str, ...]] = (KIND,)
    model: str = "invoice-stand-in"

    @property
    def _llm_type(self) -> str:
        return "invoice-stand-in"

    def bind_tools(self, tools: Sequence[dict[str, Any] | type | Callable | BaseTool], *,
                   tool_choice: dict | str | bool | None = None, **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        return super().bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice, **kwargs)

    def respond(self, messages: Sequence[BaseMessage], **kwargs: Any) -> AIMessage:
        system = next((str(m.content) for m in messages if isinstance(m, SystemMessage)), "").lstrip()
        tools: list[dict[str, Any]] = kwargs.get("tools") or []
        if system.startswith(EXTRACT_HEADER):
            digest = next((str(m.content) for m in messages if isinstance(m, HumanMessage)), "")
            judgement = judge(digest)
            if tools and kwargs.get("tool_choice") not in (None, "none", "auto"):
                name = tools[0]["function"]["name"]
                return AIMessage("", tool_calls=[{"name": name, "args": judgement, "id": "extract-1",
                                                  "type": "tool_call"}])
            return AIMessage(json.dumps(judgement))
        if tools:
            calls, text = next_calls(list(messages))
            if calls:
                step = sum(isinstance(m, AIMessage) for m in messages)
                return AIMessage("", tool_calls=[{**c, "id": f"call-{step}-{i}", "type": "tool_call"}
                                                 for i, c in enumerate(calls)])
            return AIMessage(text)
        return AIMessage("I am the invoice checker's offline stand-in: I plan tool calls, and write nothing else.")

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        answer = self.respond(messages, **kwargs)
        schema_tokens = len(json.dumps(kwargs.get("tools") or [])) // 4
        inputs = count_tokens_approximately(messages) + schema_tokens
        outputs = count_tokens_approximately([answer])
        answer.usage_metadata = {"input_tokens": inputs, "output_tokens": outputs, "total_tokens": inputs + outputs}
        answer.response_metadata = {"model_name": self.model, "model_provider": "offline"}
        return ChatResult(generations=[ChatGeneration(message=answer)])


def stand_in(role: str = "reviewer") -> InvoiceStandIn:
    """A factory for model specs (`examples.invoice_check.standin:stand_in`)."""
    return InvoiceStandIn(model=f"invoice-stand-in-{role}")
