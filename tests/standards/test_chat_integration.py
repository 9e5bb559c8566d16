"""LangChain's standard chat-model integration suite against the offline reviewer model.

It runs offline and passes streaming, tool calling with valid arguments (read from the request:
agent.offline.arguments), tool-message histories, the agent loop, structured output (tool calling,
JSON schema, JSON mode; pydantic, TypedDict, JSON schema), usage metadata, per-call model
override, stop sequences, async and batching. Skipped, by the suite's own capability flags and
with its reasons: image, PDF and audio inputs and image/PDF tool results (the offline reviewer
reads text only), Anthropic-format inputs (not a provider format it speaks), and
`test_stream_time` (a benchmark that needs recorded VCR cassettes, meaningless for a local model).
"""

from __future__ import annotations

from langchain_tests.integration_tests import ChatModelIntegrationTests

from agent.offline import OfflineReviewerModel
from tests.standards.support import ASYNC_SUITE


class TestOfflineReviewerIntegration(ChatModelIntegrationTests):
    pytestmark = ASYNC_SUITE

    @property
    def chat_model_class(self) -> type[OfflineReviewerModel]:
        return OfflineReviewerModel

    @property
    def chat_model_params(self) -> dict:
        return {"model": "offline-reviewer"}

    @property
    def model_override_value(self) -> str:
        return "offline-extraction"  # the `model` a caller may pass at call time

    @property
    def has_tool_choice(self) -> bool:
        return True

    @property
    def supports_json_mode(self) -> bool:
        return True
