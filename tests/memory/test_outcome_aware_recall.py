"""An episode whose extraction failed never outranks a useful one, and empty ones decay.

The case from the field: extraction failed on many runs and each wrote an episode with no
findings whose summary was the verbatim task prompt. Embedded, such a summary sits very close to
the next task (0.83-0.88) while useful episodes scored 0.27-0.50, so the empty ones filled the
top 3. Recall must put what a later run can use first, and decay must clear the rest.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agent.prompts import task_prompt
from memory import episodic
from memory.decay import DecayPolicy, decay_namespace
from memory.records import Extraction, Namespace, Outcome, RunArtifacts

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")
OPENING = "MASTER SUPPLY AGREEMENT between Northwind Components Ltd (Supplier) and Harbor Retail Inc (Buyer)."


def _task(name: str) -> str:
    return task_prompt(name, "supplier_contract_review", OPENING)


def _remember(memory, embeddings, run_id: str, artifacts: RunArtifacts, *, now=NOW) -> None:
    assert episodic.remember(memory.episodes, embeddings, NS, run_id, "supplier_contract_review", artifacts,
                             ttl_days=90, now=now)


USEFUL = RunArtifacts(
    task_summary='Review of supplier contract "northwind_msa_01.pdf" (MASTER SUPPLY AGREEMENT)',
    outcome=Outcome.COMPLETED, approach="assessed each clause type",
    key_findings=["liability_cap in section 9.2: deviation (high)", "insurance: missing (medium)"],
)


def _empty_prompt_copy(name: str) -> RunArtifacts:
    """What a failed extraction used to store: the task prompt as summary, nothing else."""
    return RunArtifacts(task_summary=_task(name), outcome=Outcome.UNKNOWN, extraction=Extraction.FAILED)


def test_empty_episodes_that_copy_the_prompt_never_crowd_out_a_useful_one(memory, wordllama):
    _remember(memory, wordllama, "useful", USEFUL)
    for i in (2, 3, 4):
        _remember(memory, wordllama, f"empty-{i}", _empty_prompt_copy(f"northwind_msa_0{i}.pdf"))
    query = _task("northwind_msa_05.pdf")
    raw = memory.episodes.search(NS, _query(wordllama, query, k=3))
    assert raw[0].item.run_id.startswith("empty-")  # by similarity alone the empty copies win ...
    found = episodic.recall(memory.episodes, wordllama, NS, query, k=3, min_score=0.0, now=NOW)
    assert [s.item.run_id for s in found] == ["useful"]  # ... recall keeps only what can be used
    assert episodic.recall(memory.episodes, wordllama, NS, query, k=1, min_score=0.0, now=NOW)[0].item.run_id == "useful"


def test_a_self_recorded_episode_ranks_below_a_described_one_however_similar(memory, wordllama):
    _remember(memory, wordllama, "described", USEFUL)
    recorded = USEFUL.model_copy(update={"task_summary": _task("northwind_msa_02.pdf"),
                                         "extraction": Extraction.FAILED})
    _remember(memory, wordllama, "self-recorded", recorded)
    unknown = USEFUL.model_copy(update={"task_summary": _task("northwind_msa_03.pdf"), "outcome": Outcome.UNKNOWN})
    _remember(memory, wordllama, "unknown", unknown)
    found = episodic.recall(memory.episodes, wordllama, NS, _task("northwind_msa_05.pdf"), k=3, min_score=0.0, now=NOW)
    assert [s.item.run_id for s in found][0] == "described"
    assert {s.item.run_id for s in found} == {"described", "self-recorded", "unknown"}  # still there, below


def test_decay_deletes_undistilled_episodes_after_the_failed_episode_days(memory, wordllama):
    old, recent = NOW - timedelta(days=8), NOW - timedelta(days=2)
    _remember(memory, wordllama, "old-empty", _empty_prompt_copy("a.pdf"), now=old)
    _remember(memory, wordllama, "new-empty", _empty_prompt_copy("b.pdf"), now=recent)
    _remember(memory, wordllama, "old-useful", USEFUL, now=old)
    _remember(memory, wordllama, "old-recorded", USEFUL.model_copy(update={"extraction": Extraction.FAILED}), now=old)
    # a later run: decay never deletes nor merges away the last run's episode (issue 32)
    _remember(memory, wordllama, "latest", _empty_prompt_copy("c.pdf"), now=recent)
    report = decay_namespace(memory, NS, DecayPolicy(), NOW)
    assert report.empty_deleted == ["old-empty"] and report.counts()["empty_episodes_deleted"] == 1
    # the described run and its self-recorded twin are near-duplicates: the described one is kept
    assert [(m.kept, m.merged) for m in report.merges] == [("old-useful", ["old-recorded"])]
    assert {e.run_id for e in memory.episodes.list(NS, limit=10)} == {"new-empty", "old-useful", "latest"}


def _query(embeddings, text: str, *, k: int):
    from memory.embeddings import model_name_of
    from memory.stores import VectorQuery

    return VectorQuery(text=text, vector=embeddings.embed_query(text), embedding_model=model_name_of(embeddings),
                       k=k, min_score=0.0, now=NOW)
