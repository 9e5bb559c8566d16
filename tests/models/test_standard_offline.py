"""LangChain's standard unit suite for chat models, run against the offline models."""

from __future__ import annotations

from langchain_tests.unit_tests import ChatModelUnitTests

from agent.offline import OfflineReviewerModel


class TestOfflineReviewerStandard(ChatModelUnitTests):
    @property
    def chat_model_class(self) -> type[OfflineReviewerModel]:
        return OfflineReviewerModel

    @property
    def chat_model_params(self) -> dict:
        return {"model": "offline-reviewer"}

    @property
    def has_tool_choice(self) -> bool:
        return True

    @property
    def supports_json_mode(self) -> bool:
        return True
