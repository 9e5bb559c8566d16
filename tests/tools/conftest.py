"""The contract tools behind a ToolNode in a graph, as graphs/analyze.py runs them (the `graph` fixture)."""

# No `from __future__ import annotations` here: LangGraph evaluates State's annotations in the module
# named "conftest", and under xdist that name may belong to another directory's conftest.
import operator
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.messages import AnyMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode

from tools import TOOLS, tool_error_message


class State(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    findings: Annotated[list[dict[str, Any]], operator.add]
    contract: dict


@pytest.fixture(scope="module")
def graph():
    builder = StateGraph(State)
    builder.add_node("tools", ToolNode(TOOLS, handle_tool_errors=tool_error_message))  # as graphs/analyze.py
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    return builder.compile()
