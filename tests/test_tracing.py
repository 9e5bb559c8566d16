"""What a LangSmith trace of a review holds with `graphs.tracing.redact` as the client's anonymizer:
the runs, their names, tool calls and token counts, and none of the contract's text or names.
The client is LangSmith's own, stopped at the point where it would send a run."""

from __future__ import annotations

import json
import re

from langsmith import Client, tracing_context

from graphs.runner import Reviewer, open_checkpointer
from graphs.tracing import redact
from tests.conftest import SAMPLES

CONTRACT = SAMPLES / "northwind_msa_01.txt"


class Captured(Client):
    """LangSmith's client, keeping what it would send (after its anonymizer) instead of sending it."""

    def __init__(self, **kwargs):
        super().__init__(api_key="test", api_url="http://127.0.0.1:9", auto_batch_tracing=False, **kwargs)
        self.sent: list[dict] = []

    def _create_run(self, run_create, **kwargs):
        self.sent.append(run_create)

    def _update_run(self, run_update, **kwargs):
        self.sent.append(run_update)


def _trace(settings, client) -> str:
    with tracing_context(enabled=True, client=client, project_name="contract-review-test"), \
            open_checkpointer(settings) as saver:
        Reviewer(settings, saver, use_memory=False).review_path(CONTRACT)
    return json.dumps(client.sent, default=str)


def test_a_redacted_trace_keeps_the_runs_and_drops_the_contract(settings):
    plain = _trace(settings, Captured())
    text = CONTRACT.read_text()
    sentences = [s.strip() for s in re.split(r"(?<=[.;])\s+", text) if len(s.strip()) > 60][:40]
    assert any(s in plain for s in sentences) and "Northwind" in plain  # a trace carries the contract

    redacted = _trace(settings, Captured(anonymizer=redact))
    assert not [s for s in sentences if s in redacted] and "northwind" not in redacted.casefold()
    for kept in ('"assess_clause"', '"record_finding"', '"liability_cap"', '"input_tokens"', "OfflineReviewerModel"):
        assert kept in redacted, kept
    assert "[redacted: " in redacted


def test_redact_keeps_structure_and_numbers():
    data = {"messages": [{"type": "ai", "content": "Section 9.2 caps liability at the fees paid.",
                          "tool_calls": [{"name": "assess_clause", "args": {"clause_type": "liability_cap",
                                                                           "section": "9.2"}, "id": "c1"}],
                          "usage_metadata": {"input_tokens": 812, "output_tokens": 40}}],
            "contract": {"name": "acme_supply_agreement", "parties": {"supplier": "Acme Ltd"}}}
    out = redact(data)
    assert out["messages"][0]["tool_calls"][0] == data["messages"][0]["tool_calls"][0]
    assert out["messages"][0]["usage_metadata"] == {"input_tokens": 812, "output_tokens": 40}
    assert out["messages"][0]["content"] == "[redacted: 44 characters]"
    assert out["contract"] == {"name": "[redacted: 21 characters]", "parties": {"supplier": "[redacted: 8 characters]"}}
