"""Time (issue 32): clocks behind, ahead, before 1970 or centuries ahead, and the run counter.

The end-to-end damages are `scripts/clock_damages.py` (each takes a data folder; the "damage
everything" script can run them too); the decay rules are checked here on each backend with a
controllable clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.clock import ClockError, checked
from memory.decay import DecayPolicy, decay_namespace
from memory.episodic import remember
from memory.records import Namespace, Outcome, RunArtifacts
from scripts.clock_damages import absurd_clock, clock_ahead, clock_behind
from tests.ops.test_ops_decay import NS, T0, add, episode, stored

POLICY = DecayPolicy()


def test_a_run_with_the_clock_120_days_behind_is_not_written_expired_nor_deleted_by_decay(tmp_path):
    damage = clock_behind(tmp_path / "data")
    assert damage.ok, damage


def test_a_run_with_the_clock_200_days_ahead_is_redated_by_decay_and_expires_on_time(tmp_path):
    damage = clock_ahead(tmp_path / "data")
    assert damage.ok, damage


@pytest.mark.parametrize("when", ["1965-06-01", "1969-12-31 23:59:59", "2400-01-01"])
def test_an_absurd_clock_is_one_line_and_exit_3_and_writes_nothing(tmp_path, when):
    damage = absurd_clock(tmp_path / "data", when)
    assert damage.ok, damage


def test_the_run_counter_grows_with_each_episode_in_its_transaction(tmp_path):
    from memory.backends import open_memory

    memory = open_memory(f"sqlite:///{tmp_path / 'memory.sqlite'}")
    add(memory, episode("a"), episode("b"))
    add(memory, episode("c"), ns=Namespace(tenant="globex", agent="reviewer"))
    assert not memory.episodes.add(NS, episode("a"), [1.0, 0.5, 0.25])  # a repeat takes no number
    add(memory, episode("d"))
    seqs = {e.run_id: e.run_seq for e in memory.episodes.list(NS, limit=10)}
    assert seqs == {"a": 1, "b": 2, "d": 4}
    memory.close()


def test_decay_never_deletes_the_last_runs_episode_whatever_its_clock_said(backend):
    add(backend, episode("older", created=T0 - timedelta(days=10)),
        episode("last", created=T0 - timedelta(days=200), outcome=Outcome.FAILED))  # written by a clock far behind
    counted = backend.episodes.get(NS, "last").run_seq > 0  # a backend with a run counter
    report = decay_namespace(backend, NS, POLICY, T0)
    if counted:
        assert report.kept_last_run == "last" and stored(backend) == {"older", "last"}
    else:
        assert stored(backend) == {"older"}


def test_decay_reads_a_future_timestamp_as_now_and_rewrites_it(backend):
    add(backend, episode("ahead", created=T0 + timedelta(days=200)), episode("last", created=T0))
    dry = decay_namespace(backend, NS, POLICY, T0, dry_run=True)
    assert [(r.run_id, r.was, r.now, r.expires_at) for r in dry.redated] == [
        ("ahead", T0 + timedelta(days=200), T0, T0 + timedelta(days=90))]
    assert backend.episodes.get(NS, "ahead").created_at == T0 + timedelta(days=200)  # dry: unchanged
    done = decay_namespace(backend, NS, POLICY, T0)
    assert done.counts()["episodes_redated"] == 1
    if hasattr(backend.episodes, "retime"):
        moved = backend.episodes.get(NS, "ahead")
        assert (moved.created_at, moved.expires_at) == (T0, T0 + timedelta(days=90))
        assert decay_namespace(backend, NS, POLICY, T0).redated == []  # nothing left in the future
    later = decay_namespace(backend, NS, POLICY, T0 + timedelta(days=91))
    assert "ahead" in later.expired_deleted and "ahead" not in stored(backend)


def test_a_few_minutes_ahead_is_not_a_skew(backend):
    add(backend, episode("ahead", created=T0 + timedelta(minutes=5)), episode("last", created=T0))
    assert decay_namespace(backend, NS, POLICY, T0).redated == []


def test_an_episode_written_behind_the_newest_is_dated_as_the_newest(backend):
    from memory.embeddings import load_embeddings

    add(backend, episode("newest", created=T0))
    behind = T0 - timedelta(days=120)
    written = remember(backend.episodes, load_embeddings("hash:8"), NS, "behind", "supplier_contract_review",
                       RunArtifacts(task_summary="Review of Kestrel", outcome=Outcome.COMPLETED, key_findings=["x"]),
                       ttl_days=90, now=behind)
    assert written.created_at == T0 and written.expires_at == T0 + timedelta(days=90)


@pytest.mark.parametrize("moment", [datetime(1969, 12, 31, tzinfo=UTC), datetime(1999, 12, 31, 23, 59, tzinfo=UTC),
                                    datetime(2200, 1, 1, tzinfo=UTC), datetime(9999, 1, 1)])
def test_clocks_no_record_may_carry_are_refused_in_one_line(backend, moment):
    with pytest.raises(ClockError) as refused:
        checked(moment)
    assert "\n" not in str(refused.value) and "set the clock" in str(refused.value)
    with pytest.raises(ClockError):
        decay_namespace(backend, NS, POLICY, moment)
    assert checked(datetime(2026, 1, 1)) == datetime(2026, 1, 1, tzinfo=UTC)  # naive is UTC


def test_the_langgraph_store_backend_rewrites_a_future_timestamp_too():
    """What the server's memory lives in: decay's redating is written back there as well."""
    from langgraph.store.memory import InMemoryStore

    from memory.backends.store import StoreMemory

    memory = StoreMemory(InMemoryStore())
    add(memory, episode("ahead", created=T0 + timedelta(days=200)), episode("last", created=T0))
    assert [r.run_id for r in decay_namespace(memory, NS, POLICY, T0).redated] == ["ahead"]
    assert memory.episodes.get(NS, "ahead").created_at == T0
    assert "ahead" in decay_namespace(memory, NS, POLICY, T0 + timedelta(days=91)).expired_deleted
