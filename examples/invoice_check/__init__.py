"""An agent that checks supplier invoices against purchase orders, on the same memory core as the
contract reviewer: the worked example of docs/FORK.md.

It has its own records (`records`: invoices, purchase orders, the books), checks (`checks`), tools
(`tools`), prompts (`prompts`), state (`state`), offline stand-in model (`standin`: a rule-based
program, no language model), extraction (`extraction`) and graph (`graph`); what memory keeps of its
runs is its `MemoryAgent` (`memory_agent`). It imports the memory core (`memory`, `memory.graph`)
and the generic run scope (`graphs.context`), never the contract reviewer (import-linter contract
`example-agent` in pyproject.toml). `python -m examples.invoice_check.demo` shows its memory making
repeated checks cheaper.
"""
