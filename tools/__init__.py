"""The contract tools: `tools.toolset` holds the LangChain tools the reviewer model calls
(`TOOLS`); the plain functions behind them live in `tools.operations`, `tools.contract` and
`tools.detection`.

The names of `tools.toolset` are also importable from here (`from tools import TOOLS`), loaded
on first use: importing `tools.contract` alone (reading a contract file, checking a playbook)
does not import LangChain and LangGraph.
"""

from __future__ import annotations

from typing import Any

_TOOLSET_NAMES = frozenset({
    "TOOLS", "Contract", "assess_clause", "detect_all", "find_clauses", "list_sections", "load_contract",
    "locate_quote", "parse_contract", "read_section", "recall_locations", "record_finding", "search_contract",
    "tool_error_message",
})


def __getattr__(name: str) -> Any:
    if name in _TOOLSET_NAMES:
        from tools import toolset

        return getattr(toolset, name)
    raise AttributeError(f"module 'tools' has no attribute {name!r}")
