"""A whole review through the graph on the AWS backend (moto) leaves the same memory as on SQLite."""

from __future__ import annotations

from graphs.runner import Reviewer, open_checkpointer
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES

TEMPLATE = [SAMPLES / f"northwind_msa_0{i}.pdf" for i in (1, 2, 3)]


def _run_three(settings) -> tuple[list[dict], dict]:
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver)
        reports = [reviewer.review_path(path, thread_id=f"run-{i}") for i, path in enumerate(TEMPLATE)]
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    stored = {
        "episodes": sorted((e.run_id, e.outcome, tuple(e.key_findings)) for e in memory.episodes.list(ns, limit=100)),
        "facts": sorted((f.fact_id, f.text) for f in memory.facts.list(ns, limit=100)),
        "procedures": sorted((p.procedure_id, p.status, tuple(p.source_runs)) for p in memory.procedures.list(ns)),
    }
    return reports, stored


# Each backend ranks episodes with its own lexical scorer (SQLite FTS5, the AWS backend's BM25 in
# memory/backends/aws/hybrid.py): two episodes of one template whose scores tie within a few
# thousandths may come back in either order, and the graph assesses the first-recalled episode's
# places first (up to the first whose answer names no other section), so the graph's own calls and
# the tokens the model reads may move by one assessment. What a review finds, its outcome, the
# model's own tool calls and which episodes it recalls must not.
_ORDER_SENSITIVE = ("graph_calls", "input_tokens", "output_tokens")


def _shape(report: dict) -> dict:
    usage = report["usage"]
    return {
        "outcome": report["outcome"],
        "findings": sorted((f["clause_type"], f["verdict"], f["start"]) for f in report["findings"]),
        "usage": {k: v for k, v in usage.items() if k not in _ORDER_SENSITIVE},
        "recalled": sorted(e.get("run_id") if isinstance(e, dict) else e for e in report["memory"]["episodes"]),
    }


def test_three_reviews_on_aws_match_the_same_reviews_on_sqlite(aws, settings, monkeypatch):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    aws["s3"].create_bucket(Bucket="e2e-memory")
    on_aws = settings.model_copy(update={
        "memory_url": "aws://?region=us-east-1&table_prefix=e2e&bucket=e2e-memory&create_tables=true",
    })
    on_sqlite = settings.model_copy(update={"home": settings.home / "sqlite"})

    aws_reports, aws_memory = _run_three(on_aws)
    sqlite_reports, sqlite_memory = _run_three(on_sqlite)

    assert aws_reports[2]["memory"]["episodes"], "the third run recalls earlier runs"
    for on_aws_shape, on_sqlite_shape in zip([_shape(r) for r in aws_reports], [_shape(r) for r in sqlite_reports], strict=True):
        for key in on_aws_shape:
            assert on_aws_shape[key] == on_sqlite_shape[key], key
    assert aws_memory == sqlite_memory
    assert len(aws_memory["episodes"]) == 3
    # one pending proposal that each similar run joined, in run order
    assert [runs for _, _, runs in aws_memory["procedures"]] == [("run-0", "run-1", "run-2")]
