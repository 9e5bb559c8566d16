"""Episode store rules every backend must keep."""

from __future__ import annotations

from datetime import timedelta

from memory.records import Namespace, Outcome
from tests.conformance.support import MODEL, NOW, NS, episode, query, query_vec, vec


def test_add_is_idempotent_by_run_id(backend):
    assert backend.episodes.add(NS, episode("run-1", "first summary"), vec(0.9)) is True
    assert backend.episodes.add(NS, episode("run-1", "second summary"), vec(0.2)) is False
    assert backend.episodes.get(NS, "run-1").task_summary == "first summary"
    assert len(backend.episodes.list(NS)) == 1
    assert [s.item.run_id for s in backend.episodes.search(NS, query())] == ["run-1"]


def test_search_keeps_only_scores_at_or_above_the_threshold(backend):
    backend.episodes.add(NS, episode("close"), vec(0.9, 1))
    backend.episodes.add(NS, episode("far"), vec(0.5, 2))
    results = backend.episodes.search(NS, query(min_score=0.7))
    assert [s.item.run_id for s in results] == ["close"]
    assert abs(results[0].score - 0.9) < 1e-4
    assert {s.item.run_id for s in backend.episodes.search(NS, query(min_score=0.4))} == {"close", "far"}


def test_search_returns_top_k_most_similar_first(backend):
    for i, cosine in enumerate([0.80, 0.95, 0.85, 0.99, 0.90, 0.75]):
        backend.episodes.add(NS, episode(f"r{i}"), vec(cosine, 1 + i % 7))
    results = backend.episodes.search(NS, query(k=3, min_score=0.7))
    assert [s.item.run_id for s in results] == ["r3", "r1", "r4"]
    assert [round(s.score, 2) for s in results] == [0.99, 0.95, 0.90]


def test_ties_prefer_completed_episodes(backend):
    # the FAILED twin is newer, so only the outcome can put COMPLETED first
    backend.episodes.add(NS, episode("done", created=NOW - timedelta(days=5)), vec(0.8))
    backend.episodes.add(NS, episode("failed", outcome=Outcome.FAILED, created=NOW - timedelta(days=1)), vec(0.8))
    backend.episodes.add(NS, episode("partial", outcome=Outcome.PARTIAL, created=NOW - timedelta(days=1)), vec(0.8))
    assert backend.episodes.search(NS, query(k=3))[0].item.run_id == "done"
    assert backend.episodes.search(NS, query(k=1))[0].item.run_id == "done"


def test_expired_episodes_are_never_returned(backend):
    old = episode("expired clause 7.3 Globex", "Globex clause 7.3", created=NOW - timedelta(days=100), ttl_days=90)
    backend.episodes.add(NS, old, query_vec())
    backend.episodes.add(NS, episode("fresh"), vec(0.8))
    assert [s.item.run_id for s in backend.episodes.search(NS, query("Globex clause 7.3", min_score=0.0))] == ["fresh"]
    # still in the file until decay deletes it, just never retrieved
    assert backend.episodes.get(NS, "expired clause 7.3 Globex") is not None


def test_search_covers_the_whole_history_not_the_newest_rows(backend):
    oldest = episode("oldest", created=NOW - timedelta(days=80))
    backend.episodes.add(NS, oldest, vec(0.97))
    for i in range(150):
        backend.episodes.add(NS, episode(f"new-{i}", created=NOW - timedelta(hours=i)), vec(0.72, 1 + i % 7))
    results = backend.episodes.search(NS, query(k=3))
    assert results[0].item.run_id == "oldest"


def test_vectors_of_another_model_are_never_compared(backend):
    backend.episodes.add(NS, episode("other-model", model="other-model"), query_vec())
    backend.episodes.add(NS, episode("other-dim", model="small-model"), [1.0, 0.0, 0.0])
    backend.episodes.add(NS, episode("same-model"), vec(0.75))
    results = backend.episodes.search(NS, query(min_score=0.0, k=5))
    assert [s.item.run_id for s in results] == ["same-model"]
    assert [s.item.run_id for s in backend.episodes.search(NS, query(model="other-model", k=5))] == ["other-model"]


def test_episodes_are_isolated_by_tenant_and_agent(backend):
    other_agent = Namespace(tenant=NS.tenant, agent="drafter")
    other_tenant = Namespace(tenant="globex", agent=NS.agent)
    backend.episodes.add(NS, episode("mine", "Acme clause 7.3"), query_vec())
    for ns in (other_agent, other_tenant):
        assert backend.episodes.search(ns, query("Acme clause 7.3", min_score=0.0)) == []
        assert backend.episodes.get(ns, "mine") is None
        assert backend.episodes.list(ns) == []
        assert backend.episodes.delete(ns, ["mine"]) == 0
        # the same run id may exist independently in another namespace
        assert backend.episodes.add(ns, episode("mine", "theirs"), query_vec()) is True
    assert backend.episodes.get(NS, "mine").task_summary == "Acme clause 7.3"


def test_identifier_match_passes_the_threshold_but_plain_words_do_not(backend):
    backend.episodes.add(NS, episode("clause", "liability cap in clause 14.2 of the Initech deal"), vec(0.2, 1))
    backend.episodes.add(NS, episode("words", "liability cap discussion for a deal"), vec(0.2, 2))
    results = backend.episodes.search(NS, query("where is the cap, clause 14.2?", min_score=0.7))
    assert [s.item.run_id for s in results] == ["clause"]
    assert abs(results[0].score - 0.2) < 1e-4  # the score stays the cosine
    by_name = backend.episodes.search(NS, query("check the deal with Initech", min_score=0.7))
    assert [s.item.run_id for s in by_name] == ["clause"]


def test_delete_removes_from_search_and_list(backend):
    backend.episodes.add(NS, episode("a"), vec(0.9))
    backend.episodes.add(NS, episode("b"), vec(0.8))
    assert len(backend.episodes.search(NS, query())) == 2  # warm any cache first
    assert backend.episodes.delete(NS, ["a", "missing"]) == 1
    assert [s.item.run_id for s in backend.episodes.search(NS, query())] == ["b"]
    assert [e.run_id for e in backend.episodes.list(NS)] == ["b"]


def test_list_filters_by_outcome_newest_first(backend):
    backend.episodes.add(NS, episode("old-fail", outcome=Outcome.FAILED, created=NOW - timedelta(days=9)), vec(0.9))
    backend.episodes.add(NS, episode("new-fail", outcome=Outcome.FAILED, created=NOW - timedelta(days=1)), vec(0.9))
    backend.episodes.add(NS, episode("done"), vec(0.9))
    assert [e.run_id for e in backend.episodes.list(NS, outcome=Outcome.FAILED)] == ["new-fail", "old-fail"]
    assert len(backend.episodes.list(NS, limit=2)) == 2


def test_new_episode_is_searchable_after_an_earlier_search(backend):
    backend.episodes.add(NS, episode("first"), vec(0.8))
    assert len(backend.episodes.search(NS, query())) == 1
    backend.episodes.add(NS, episode("second"), vec(0.9, 2))
    assert [s.item.run_id for s in backend.episodes.search(NS, query())] == ["second", "first"]
    assert MODEL == backend.episodes.get(NS, "second").embedding_model


def _history(backend, count: int = 12) -> None:
    """A namespace large enough that a backend with an index has built it before the checks."""
    for i in range(count):
        backend.episodes.add(NS, episode(f"h{i}", f"review number {i}"), vec(0.72 + 0.01 * (i % 5), 1 + i % 7))


def test_a_deleted_episode_is_never_returned_even_when_nearest_or_named(backend):
    _history(backend)
    backend.episodes.add(NS, episode("doomed", "Globex clause 7.3 review"), query_vec())
    assert backend.episodes.search(NS, query())[0].item.run_id == "doomed"  # in the index now
    assert backend.episodes.delete(NS, ["doomed"]) == 1
    for search in (query(), query("Globex clause 7.3", min_score=0.0), query(k=20, min_score=-1.0)):
        assert "doomed" not in [s.item.run_id for s in backend.episodes.search(NS, search)]
    backend.episodes.add(NS, episode("doomed", "written again after the delete"), query_vec())
    assert backend.episodes.search(NS, query())[0].item.task_summary == "written again after the delete"


def test_an_expired_episode_is_never_returned_from_a_large_history(backend):
    _history(backend)
    backend.episodes.add(NS, episode("expired", "Globex clause 7.3", created=NOW - timedelta(days=100),
                                     ttl_days=90), query_vec())
    for search in (query(), query("Globex clause 7.3", min_score=0.0), query(k=20, min_score=-1.0)):
        found = [s.item.run_id for s in backend.episodes.search(NS, search)]
        assert "expired" not in found and found  # the next nearest take its place


def test_many_deletes_then_adds_keep_search_exact(backend):
    _history(backend, 20)
    backend.episodes.search(NS, query())
    assert backend.episodes.delete(NS, [f"h{i}" for i in range(0, 20, 2)]) == 10
    backend.episodes.add(NS, episode("late", "added after the deletes"), vec(0.95, 3))
    results = backend.episodes.search(NS, query(k=20, min_score=-1.0))
    assert [s.item.run_id for s in results][0] == "late"
    assert {s.item.run_id for s in results} == {"late", *(f"h{i}" for i in range(1, 20, 2))}
