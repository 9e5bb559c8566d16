"""Issue 33, LangGraph items: a review reports its progress as custom stream events, which the CLI
shows, and the served graph returns the review (an output schema of the report's keys), not its
whole state."""

from __future__ import annotations

import contextlib

from graphs.runner import Reviewer, context_from_settings, open_checkpointer, progress_text
from graphs.state import ReviewOutput
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CONTRACT = SAMPLES / "northwind_msa_01.txt"
TYPES = len(load_playbook().clause_types)


def _events(settings, **context) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings, saver, **context).review_path(CONTRACT, on_progress=events.append)
    return report, events


def test_a_review_streams_its_progress_stage_by_stage(settings):
    report, events = _events(settings)
    stages = [e["progress"] for e in events]
    assert stages[:2] == ["contract", "memory_read"]
    assert stages[-4:] == ["extracting", "memory_write", "memory_write", "memory_write"]
    assert [e["tier"] for e in events[-3:]] == ["episodic", "semantic", "procedural"]
    steps = [e for e in events if e["progress"] == "analyze"]
    assert [e["step"] for e in steps] == sorted(e["step"] for e in steps) and steps[0]["step"] == 1
    assert steps[-1]["step"] == report["review_loop"]["model_steps"] and steps[-1]["recorded"] == TYPES
    assert all(e["budget"] == report["review_loop"]["step_budget"] and e["clause_types"] == TYPES for e in steps)
    assert events[-3]["outcome"] == report["outcome"] == "COMPLETED"
    assert progress_text(steps[-1]) == f"step {steps[-1]['step']}/{steps[-1]['budget']}: {TYPES} of {TYPES} clause types recorded"


def test_without_memory_no_memory_stage_is_reported(settings):
    _, events = _events(settings, use_memory=False)
    assert {e["progress"] for e in events} == {"contract", "analyze"}


def test_the_cli_shows_the_graphs_progress_on_its_bar(monkeypatch, capsys):
    import cli.main

    shown: list[str] = []

    class Steps:
        def working_on(self, label: str) -> None:
            shown.append(label)

        def advance(self, n: int = 1, *, label: str = "") -> None:
            shown.append(f"done {label}")

    @contextlib.contextmanager
    def recording(description, total=None, **options):
        assert description == "review" and total == 2
        yield Steps()

    monkeypatch.setattr(cli.main, "progress", recording)
    assert cli.main.main(["review", str(CONTRACT), str(SAMPLES / "northwind_msa_02.txt"), "--format", "json"]) == 0
    capsys.readouterr()
    assert "northwind_msa_01.txt: memory read: 0 episodes, 0 facts" in shown
    assert any(s.startswith("northwind_msa_02.txt: memory read: 1 episodes") for s in shown)
    assert f"northwind_msa_01.txt: step 1/170: 0 of {TYPES} clause types recorded" in shown
    assert "northwind_msa_01.txt: writing episodic memory" in shown
    assert shown.index("done northwind_msa_01.txt") < shown.index("northwind_msa_02.txt")


def test_the_served_graph_returns_the_review_not_its_whole_state(settings):
    from graphs.review import graph

    schema = graph.get_output_jsonschema()
    assert set(schema["properties"]) == set(ReviewOutput.__annotations__)
    assert {"findings", "outcome", "memory_writes", "usage"} <= set(schema["properties"])
    assert not {"messages", "contract", "contract_text", "examined", "task"} & set(schema["properties"])
    out = graph.invoke({"contract_text": CONTRACT.read_text(), "contract_name": "northwind"},
                       context=context_from_settings(settings, use_memory=False))
    assert set(out) <= set(ReviewOutput.__annotations__) and out["outcome"] == "COMPLETED"
    assert len({f["clause_type"] for f in out["findings"]}) == TYPES and "messages" not in out
