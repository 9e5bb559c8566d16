"""`ScriptedChatModel`: a chat model that answers from a fixed script, for tests of odd model output."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import PrivateAttr

from agent.errors import ModelOutputError


def approximate_usage(messages: Sequence[BaseMessage], answer: AIMessage) -> dict[str, int]:
    """Usage metadata from approximate token counts (no tokenizer download): what the scripted
    stand-ins report, comparable between runs, not any provider's bill."""
    inputs, outputs = count_tokens_approximately(list(messages)), count_tokens_approximately([answer])
    return {"input_tokens": inputs, "output_tokens": outputs, "total_tokens": inputs + outputs}


class ScriptedChatModel(BaseChatModel):
    """Answers with `responses` in order (str -> text answer, AIMessage -> as given).

    Tools can be bound (and are ignored), so it stands in for the reviewer too; `received` keeps
    the messages of every call for assertions. Running past the script raises `ModelOutputError`,
    unless `repeat_last` is set. Use it to feed the graph malformed JSON, bad tool calls, etc.
    """

    responses: list[str | AIMessage]
    repeat_last: bool = False
    model: str = "scripted"
    _index: int = PrivateAttr(default=0)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _received: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def received(self) -> list[list[BaseMessage]]:
        return self._received

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Callable | BaseTool], *, tool_choice: Any = None, **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(**kwargs)

    def _next(self) -> str | AIMessage:
        with self._lock:
            if self._index >= len(self.responses):
                if not (self.repeat_last and self.responses):
                    raise ModelOutputError(f"scripted model ran out of its {len(self.responses)} responses")
                return self.responses[-1]
            self._index += 1
            return self.responses[self._index - 1]

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._received.append(list(messages))
        scripted = self._next()
        answer = AIMessage(scripted) if isinstance(scripted, str) else scripted.model_copy(deep=True)
        if answer.usage_metadata is None:
            answer.usage_metadata = approximate_usage(messages, answer)
        return ChatResult(generations=[ChatGeneration(message=answer)])
