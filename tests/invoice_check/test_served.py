"""The example agent served by `langgraph dev` (examples/invoice_check/langgraph.json) and driven
through `langgraph_sdk`: the same auth as the contract reviewer (an API key is a tenant), memory in
the server's store, progress as custom events, the check (not the whole state) as the output."""

from __future__ import annotations

from langgraph_sdk import get_sync_client

from agent.api_keys import add_key
from examples.invoice_check.records import load_invoice, sample_books, sample_invoices
from tests.conftest import ROOT
from tests.server.harness import langgraph_dev


def test_the_example_agent_is_served_with_memory_in_the_servers_store(tmp_path):
    keys = tmp_path / "operator" / "api-keys"
    acme = add_key(keys, "acme", "ci")
    folder = tmp_path / "server"
    folder.mkdir()
    env = {"CONTRACT_AGENT_HOME": str(folder / "home"), "CONTRACT_AGENT_API_KEYS_FILE": str(keys)}
    books = sample_books().model_dump()
    kestrel = [load_invoice(p).model_dump() for p in sample_invoices() if "kestrel" in p.name][:2]
    with langgraph_dev(folder, env, ROOT / "examples" / "invoice_check" / "langgraph.json") as server:
        client = get_sync_client(url=server.url, api_key=acme, timeout=60)
        outputs, events = [], []
        for invoice in kestrel:
            thread = client.threads.create()
            for part in client.runs.stream(thread["thread_id"], "invoice_check", input={"invoice": invoice, "books": books},
                                           stream_mode=["custom", "values"]):
                if part.event.startswith("custom"):
                    events.append(part.data)
                elif part.event == "values":
                    last = part.data
            outputs.append(last)
        first, second = outputs
        assert set(first) <= {"run_id", "decision", "checks", "outcome", "final", "stop_reason", "memory_writes",
                              "usage", "warnings"}  # the output schema, not the state (no invoice, no messages)
        assert first["decision"] == "approve" and second["decision"] == "hold"
        assert second["usage"]["tool_calls"] < first["usage"]["tool_calls"]  # memory from the server's store
        assert {"progress": "invoice", "lines": 3} in events and any(e.get("progress") == "memory_write" for e in events)
        items = client.store.search_items(("contract_memory", "acme", "episodes", "invoice-checker"), limit=10)["items"]
        assert len(items) == 2
