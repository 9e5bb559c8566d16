"""The memory core's graph steps: generic nodes over named state keys, and the interface an agent
implements for them (`MemoryAgent`) and the run scope they read their stores from (`MemoryScope`).

Nothing here imports a domain (tools, prompts, an agent's own code): `pyproject.toml`'s
import-linter contract `memory-core` keeps it so.
"""

from memory.errors import ExtractionNotSupported, MissingStateKey
from memory.graph.agent import (
    MemoryAgent,
    Observed,
    Problem,
    Recalled,
    TaskProfile,
    item_key,
    require,
)
from memory.graph.outcome import Settled, settle
from memory.graph.scope import MemoryLimits, MemoryResources, MemoryScope, keyed_token
from memory.graph.state import USAGE_KEYS, MemoryState, add_usage
from memory.graph.steps import MemorySteps, Task, emit, task_of

__all__ = [
    "USAGE_KEYS", "ExtractionNotSupported", "MemoryAgent", "MemoryLimits", "MemoryResources", "MemoryScope",
    "MemoryState", "MemorySteps", "MissingStateKey", "Observed", "Problem", "Recalled", "Settled", "Task",
    "TaskProfile", "add_usage", "emit", "item_key", "keyed_token", "require", "settle", "task_of",
]
