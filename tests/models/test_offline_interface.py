"""The offline models behave as real LangChain chat models: streaming, async, structured output, usage."""

from __future__ import annotations

import asyncio
import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from agent.errors import ModelOutputError
from agent.offline import OfflineReviewerModel, ScriptedChatModel
from tests.models.review_sim import TOOL_SCHEMAS, start_messages
from tests.models.test_offline_reviewer import TYPES


class Person(BaseModel):
    """A person."""

    name: str = Field(description="The name")
    age: int
    nickname: str | None = None
    tags: list[str] = Field(default_factory=list)


def _aggregate(chunks):
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def test_stream_yields_the_same_tool_calls_and_usage_as_invoke():
    model = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS)
    messages = start_messages(TYPES)
    invoked = model.invoke(messages)
    chunks = list(model.stream(messages))
    streamed = _aggregate(chunks)
    assert [(c["name"], c["args"]) for c in streamed.tool_calls] == [(c["name"], c["args"]) for c in invoked.tool_calls]
    assert streamed.usage_metadata == invoked.usage_metadata
    assert invoked.usage_metadata["input_tokens"] > 20 and invoked.usage_metadata["output_tokens"] > 0


def test_stream_of_text_comes_in_several_chunks_that_join_to_the_answer():
    model = OfflineReviewerModel()
    chunks = list(model.stream("hello there"))
    assert len([c for c in chunks if c.content]) > 5
    assert _aggregate(chunks).content == model.invoke("hello there").content


def test_async_invoke_and_stream_match_sync():
    model = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS)
    messages = start_messages(TYPES)

    async def run():
        answer = await model.ainvoke(messages)
        chunks = [c async for c in model.astream(messages)]
        return answer, _aggregate(chunks)

    answer, streamed = asyncio.run(run())
    sync = model.invoke(messages)
    assert answer.tool_calls == sync.tool_calls
    assert [c["id"] for c in streamed.tool_calls] == [c["id"] for c in sync.tool_calls]


@pytest.mark.parametrize("method", ["function_calling", "json_schema", "json_mode"])
def test_structured_output_conforms_to_the_schema(method):
    person = OfflineReviewerModel().with_structured_output(Person, method=method).invoke("Tell me about Ada.")
    assert isinstance(person, Person)
    assert person.age == 0 and person.nickname is None


def test_structured_output_from_a_json_schema_and_include_raw():
    schema = Person.model_json_schema()
    out = OfflineReviewerModel().with_structured_output(schema, include_raw=True).invoke("x")
    assert out["parsing_error"] is None
    assert out["parsed"] == {"name": "", "age": 0}
    assert isinstance(out["raw"], AIMessage) and out["raw"].tool_calls[0]["name"] == "Person"


def test_forced_tool_choice_calls_that_tool_with_schema_arguments():
    answer = OfflineReviewerModel().bind_tools([Person], tool_choice="Person").invoke("x")
    assert answer.tool_calls[0]["name"] == "Person"
    assert answer.tool_calls[0]["args"] == {"name": "", "age": 0}
    with pytest.raises(ValueError, match="names no bound tool"):
        OfflineReviewerModel().bind_tools([Person], tool_choice="Nobody")


def test_reviewer_keeps_planning_even_when_a_tool_choice_forces_a_call():
    forced = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS, tool_choice="any").invoke(start_messages(TYPES))
    assert [c["name"] for c in forced.tool_calls] == ["list_sections"]


def test_binds_the_real_contract_tools():
    tools = pytest.importorskip("tools")
    answer = OfflineReviewerModel().bind_tools(tools.TOOLS).invoke(start_messages(TYPES))
    assert [c["name"] for c in answer.tool_calls] == ["list_sections"]


def test_stop_sequence_cuts_text_answers():
    assert OfflineReviewerModel().invoke("hi", stop=["stand-in"]).content == "Offline reviewer: a deterministic "


def test_plain_chat_says_honestly_what_it_is():
    content = OfflineReviewerModel().invoke([SystemMessage("Be nice."), HumanMessage("What is 2+2?")]).content
    assert "not a language model" in content


def test_reviewer_answers_are_serialisable_tool_calls():
    answer = OfflineReviewerModel().bind_tools(TOOL_SCHEMAS).invoke(start_messages(TYPES))
    assert answer.tool_calls and all(json.dumps(c["args"]) for c in answer.tool_calls)
    assert len({c["id"] for c in answer.tool_calls}) == len(answer.tool_calls)
    assert answer.response_metadata["finish_reason"] == "tool_calls"


# ---------------------------------------------------------------- scripted model


def test_scripted_model_replays_answers_and_records_inputs():
    call = AIMessage("", tool_calls=[{"name": "list_sections", "args": {}, "id": "c1"}])
    model = ScriptedChatModel(responses=[call, "not json {"])
    bound = model.bind_tools(TOOL_SCHEMAS)
    assert bound.invoke("first").tool_calls[0]["name"] == "list_sections"
    second = bound.invoke([HumanMessage("second")])
    assert second.content == "not json {" and second.usage_metadata["output_tokens"] > 0
    assert [m[-1].content for m in model.received] == ["first", "second"]
    with pytest.raises(ModelOutputError, match="ran out of its 2 responses"):
        model.invoke("third")


def test_scripted_model_can_repeat_its_last_answer():
    model = ScriptedChatModel(responses=["same"], repeat_last=True)
    assert [model.invoke("x").content for _ in range(3)] == ["same"] * 3
