"""The graph as a runtime: crash-resume by thread id, parallel bootstrap, idempotent consolidation."""

from __future__ import annotations

import threading
import time

import pytest
from pydantic import PrivateAttr

from agent.offline import OfflineReviewerModel
from agent.settings import Settings
from graphs.runner import Reviewer, open_checkpointer
from memory.backends import open_memory
from memory.records import Namespace
from tests.conftest import SAMPLES

CONTRACT = SAMPLES / "northwind_msa_01.pdf"


class CrashingReviewer(OfflineReviewerModel):
    """The offline reviewer, killed at its third step (as a process crash or an API outage would)."""

    _steps: int = PrivateAttr(default=0)

    def respond(self, messages, stop=None, **kwargs):  # both invoke and stream answer through here
        self._steps += 1
        if self._steps >= 3:
            raise ConnectionError("model endpoint went away")
        return super().respond(messages, stop, **kwargs)


def test_an_interrupted_review_resumes_from_its_sqlite_checkpoint(home):
    settings = Settings(home=home, checkpointer="sqlite")
    with open_checkpointer(settings) as saver:
        crashing = Reviewer(settings, saver, reviewer_model=CrashingReviewer(model="offline-reviewer"))
        with pytest.raises(ConnectionError):
            crashing.review_path(CONTRACT, thread_id="thread-7")
    memory = open_memory(settings.resolved_memory_url())
    ns = Namespace(tenant=settings.tenant, agent=settings.agent)
    assert memory.episodes.get(ns, "thread-7") is None  # a crashed run wrote no memory

    with open_checkpointer(settings) as saver:  # a new process, same data folder
        resumed = Reviewer(settings, saver)
        snapshot = resumed.graph.get_state(resumed.thread_config("thread-7"))
        assert snapshot.next == ("analyze",)  # it stopped inside the tool loop
        report = resumed.resume("thread-7")
        cold = Reviewer(settings, saver, use_memory=False).review_path(CONTRACT)
    assert report["outcome"] == "COMPLETED"
    assert {(f["clause_type"], f["verdict"]) for f in report["findings"]} == {
        (f["clause_type"], f["verdict"]) for f in cold["findings"]
    }
    assert [e.run_id for e in memory.episodes.list(ns, limit=10)] == ["thread-7"]


def test_checkpoints_on_disk_are_encrypted(home):
    settings = Settings(home=home, checkpointer="sqlite")
    with open_checkpointer(settings) as saver:
        Reviewer(settings, saver, use_memory=False).review_path(SAMPLES / "northwind_msa_01.txt")
    raw = settings.checkpoint_path.read_bytes()
    assert len(raw) > 10_000
    for phrase in (b"Northwind", b"Limitation of Liability", b"liability_cap"):
        assert phrase not in raw


class SlowStores:
    """Wraps a backend so each tier read takes a fixed time, to see the reads overlap.
    `concurrent_reads`: whether it says its reads wait on the network (memory.stores.MemoryBackend)."""

    DELAY = 0.4

    def __init__(self, inner, *, concurrent_reads: bool):
        self.inner = inner
        self.concurrent_reads = concurrent_reads
        self.active = 0
        self.max_active = 0
        self.threads: set[int] = set()
        self.lock = threading.Lock()
        self.episodes = self._slow(inner.episodes, "search")
        self.facts = self._slow(inner.facts, "search")
        self.procedures = self._slow(inner.procedures, "best")
        self.confirmations = inner.confirmations

    def _slow(self, store, method):
        outer = self

        class Proxy:
            def __getattr__(self, name):
                attr = getattr(store, name)
                if name != method:
                    return attr

                def slowed(*args, **kwargs):
                    with outer.lock:
                        outer.active += 1
                        outer.max_active = max(outer.max_active, outer.active)
                        outer.threads.add(threading.get_ident())
                    try:
                        time.sleep(outer.DELAY)
                        return attr(*args, **kwargs)
                    finally:
                        with outer.lock:
                            outer.active -= 1

                return slowed

        return Proxy()

    def close(self):
        self.inner.close()


def _bootstrap(settings, memory, run_id: str) -> dict:
    """Run a review's bootstrap (up to the memory block) over `memory`; returns what it read."""
    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver, memory=memory)
        chunks = reviewer.graph.stream(
            {"contract": _contract(), "run_id": run_id},
            {"configurable": {"thread_id": run_id}},
            context=reviewer.context, stream_mode="updates", subgraphs=True,
        )
        read = None
        for _namespace, update in chunks:
            read = update.get("read_memory", read)
            if "build_memory_block" in update:
                assert read is not None
                return read
    raise AssertionError("the bootstrap built no memory block")


def test_bootstrap_reads_the_three_tiers_at_once_where_reads_wait_on_the_network(settings):
    slow = SlowStores(open_memory(settings.resolved_memory_url()), concurrent_reads=True)
    started = time.perf_counter()
    _bootstrap(settings, slow, "p1")
    assert slow.max_active == 3  # all three tier reads were in flight at once
    assert time.perf_counter() - started < 3 * SlowStores.DELAY  # their waits overlapped


def test_bootstrap_reads_an_in_process_backend_one_tier_after_another_in_one_thread(settings):
    """The embedded backends' reads are CPU work under the GIL: threads would only add hand-offs."""
    with open_checkpointer(settings) as saver:  # a past review for the reads to find
        Reviewer(settings, saver).review_path(CONTRACT)
    slow = SlowStores(open_memory(settings.resolved_memory_url()), concurrent_reads=False)
    slow.DELAY = 0.05
    together = SlowStores(open_memory(settings.resolved_memory_url()), concurrent_reads=True)
    together.DELAY = 0.05
    one_by_one = _bootstrap(settings, slow, "s1")
    assert slow.max_active == 1 and len(slow.threads) == 1
    assert one_by_one["episodes"]
    assert _bootstrap(settings, together, "s2") == one_by_one  # the same tiers read, the same results
    assert together.max_active == 3


def _contract():
    from tools.contract import load_contract

    return load_contract(CONTRACT, max_bytes=10_000_000).model_dump()


def test_bootstrap_embeds_the_task_once_for_both_searching_tiers(settings):
    from memory.embeddings import HashEmbeddings

    calls: list[str] = []

    class Counting(HashEmbeddings):
        def embed_query(self, text):
            calls.append(text)
            time.sleep(0.05)  # both tier reads are in flight while the first embeds
            return super().embed_query(text)

    with open_checkpointer(settings) as saver:
        reviewer = Reviewer(settings, saver, embeddings=Counting())
        for _namespace, update in reviewer.graph.stream(
                {"contract": _contract(), "run_id": "e1"}, {"configurable": {"thread_id": "e1"}},
                context=reviewer.context, stream_mode="updates", subgraphs=True):
            if "build_memory_block" in update:
                break
    assert len(calls) == 1  # the episodic and the semantic read share one embedding of the task
