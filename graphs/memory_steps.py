"""The contract reviewer's memory steps: the generic ones of `memory.graph`, bound to the contract
agent (`agent.memory_agent.ContractMemoryAgent`) and to the run scope of `graphs.context`.

The nodes themselves know nothing about contracts (`memory.graph.steps`); a fork binds them to its
own agent the same way: `MemorySteps(MyAgent(), scope=run_scope)`. `MEMORY_TOOLS` are the memory
tools the reviewer model may call mid-run (`search_memory`, `remember`: memory.graph.tools), scoped
to the run the same way.
"""

from __future__ import annotations

from agent.memory_agent import ContractMemoryAgent
from graphs.context import run_scope
from memory.graph import MemorySteps
from memory.graph.tools import memory_tools

steps = MemorySteps(ContractMemoryAgent(), scope=run_scope)
MEMORY_TOOLS = memory_tools(scope=run_scope)

episodic_read = steps.episodic_read
semantic_read = steps.semantic_read
procedural_read = steps.procedural_read
read_memory = steps.read_memory
build_memory_block = steps.build_memory_block
extract_artifacts = steps.extract_artifacts
episodic_write = steps.episodic_write
semantic_write = steps.semantic_write
procedural_write = steps.procedural_write
