"""What the LangGraph-store backend adds beyond the conformance suite: layout, index use, erasure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from langgraph.store.memory import InMemoryStore

from memory import forget
from memory.backends import open_memory
from memory.backends.store import StoreMemory, decode_stored_vectors, tenant_prefix, vector_index
from memory.backends.store.layout import encode_vector, episodes_ns, label, unlabel
from memory.errors import MemoryBackendError
from memory.records import Namespace, ProcedureStatus
from tests.conformance.support import NS, episode, fact, procedure, query, vec


class CountingStore(InMemoryStore):
    """An InMemoryStore that records whether searches asked its index (a query) or scanned."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.queries = 0
        self.scans = 0

    def search(self, namespace_prefix, /, *, query=None, **kwargs):
        if query is None:
            self.scans += 1
        else:
            self.queries += 1
        return super().search(namespace_prefix, query=query, **kwargs)


def test_ids_with_dots_get_namespaces_of_their_own():
    dotted, flat = Namespace(tenant="a.b", agent="x"), Namespace(tenant="a_b", agent="x")
    assert episodes_ns(dotted) != episodes_ns(flat) and "." not in "".join(episodes_ns(dotted))
    assert unlabel(label("a.b.c")) == "a.b.c" and tenant_prefix("a.b") == ("contract_memory", "a%2eb")
    memory = StoreMemory(InMemoryStore())
    memory.episodes.add(dotted, episode("r1"), vec(0.9))
    assert memory.namespaces() == [dotted]
    assert memory.episodes.get(flat, "r1") is None


def test_search_goes_through_the_stores_index_when_it_indexes_these_vectors():
    indexed = CountingStore(index=vector_index(8))
    memory = StoreMemory(indexed)
    for i in range(120):
        memory.episodes.add(NS, episode(f"r{i}", created=datetime(2026, 5, 1, tzinfo=UTC) + timedelta(hours=i)),
                            vec(0.5 + i / 400, 1 + i % 7))
    indexed.queries = indexed.scans = 0
    found = memory.episodes.search(NS, query("clause 7.3", k=3, min_score=0.6))
    assert indexed.queries == 1 and indexed.scans == 1  # nearest neighbours + one identifier lookup
    scanned = StoreMemory(InMemoryStore())
    for i in range(120):
        scanned.episodes.add(NS, episode(f"r{i}", created=datetime(2026, 5, 1, tzinfo=UTC) + timedelta(hours=i)),
                             vec(0.5 + i / 400, 1 + i % 7))
    expected = scanned.episodes.search(NS, query("clause 7.3", k=3, min_score=0.6))
    assert [(s.item.run_id, round(s.score, 5)) for s in found] == [(s.item.run_id, round(s.score, 5)) for s in expected]
    assert found[0].item.run_id == "r119"


def test_the_index_decoder_returns_the_stored_vector():
    [decoded] = decode_stored_vectors([encode_vector([3.0, 4.0])])
    assert decoded == pytest.approx([0.6, 0.8], abs=1e-6)
    with pytest.raises(MemoryBackendError):
        decode_stored_vectors(["not base64!"])
    with pytest.raises(MemoryBackendError):
        encode_vector([float("nan"), 1.0])


def test_a_use_never_rewrites_the_procedure_so_an_approval_is_never_undone():
    memory = StoreMemory(InMemoryStore())
    memory.procedures.propose(NS, procedure("p1"))
    before = memory.store.get(("contract_memory", "acme", "procedures", "reviewer"), "p1").updated_at
    memory.procedures.record_application(NS, "p1", success=True, run_id="run-1")
    assert memory.store.get(("contract_memory", "acme", "procedures", "reviewer"), "p1").updated_at == before
    approved = memory.procedures.set_status(NS, "p1", ProcedureStatus.VALIDATED, by="dana")
    memory.procedures.record_application(NS, "p1", success=False)
    stored = memory.procedures.get(NS, "p1")
    assert (stored.status, stored.validated_by, stored.applications, stored.successes) == (
        ProcedureStatus.VALIDATED, "dana", 2, 1)
    assert stored.updated_at >= approved.updated_at  # the last use counts as an update (decay's staleness)


def test_erasing_a_tenant_removes_every_item_and_leaves_others(tmp_path):
    memory = StoreMemory(InMemoryStore())
    other = Namespace(tenant="globex", agent="reviewer")
    for ns in (NS, other):
        memory.episodes.add(ns, episode("r1"), vec(0.9))
        memory.facts.put(ns, fact("f1"), vec(0.9))
        memory.confirmations.observe(ns, "f1", "r1")
        memory.procedures.propose(ns, procedure("p1", runs=("r2",)))
        memory.procedures.record_application(ns, "p1", success=True, run_id="r3")
    assert forget.tenant_run_ids(memory, "acme") == {"r1", "r2", "r3"}
    removed = forget.forget_tenant(memory, "acme")
    assert removed["episodes"] == removed["facts"] == removed["procedures"] == removed["confirmations"] == 1
    assert list(memory.store.search(tenant_prefix("acme"))) == []
    assert memory.episodes.get(other, "r1") and memory.procedures.get(other, "p1").applications == 1


def test_quarantining_runs_removes_their_observations_and_episodes():
    memory = StoreMemory(InMemoryStore())
    for run in ("r1", "r2", "r3"):
        memory.confirmations.observe(NS, "fkey", run)
    memory.episodes.add(NS, episode("r2"), vec(0.9))
    result = forget.forget_runs(memory, NS, ["r2"])
    assert result["episodes"] == ["r2"] and result["observations"] == 1
    assert memory.confirmations.runs(NS, "fkey") == ["r1", "r3"]


def test_an_unreachable_postgres_url_fails_with_a_backend_error_naming_it_without_the_password():
    with pytest.raises(MemoryBackendError, match=r"cannot connect to PostgreSQL at postgresql://u:\*\*\*@127.0.0.1:1/db"):
        open_memory("postgresql://u:secret@127.0.0.1:1/db?connect_timeout=2")
