"""Re-embedding on SQLite and AWS (moto): interrupted, resumed, never mixing models."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory import episodic, semantic
from memory.embeddings import HashEmbeddings
from memory.errors import MemoryConfigError
from memory.records import Episode, Fact, Namespace, Outcome
from memory.reembed import reembed, reembed_tenant

NOW = datetime.now(UTC)
ACME = Namespace(tenant="acme", agent="reviewer")
ACME_2 = Namespace(tenant="acme", agent="drafter")
GLOBEX = Namespace(tenant="globex", agent="reviewer")
OLD, NEW = HashEmbeddings(64), HashEmbeddings(96)
TASK = "Review the supplier agreement liability cap and termination clauses"


class Interrupting(HashEmbeddings):
    """The new model, failing (like a crash or a throttled API) after `calls` batches."""

    def __init__(self, calls: int) -> None:
        super().__init__(96)
        self.left = calls
        self.texts = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.left == 0:
            raise RuntimeError("embedding service went away")
        self.left -= 1
        self.texts += len(texts)
        return super().embed_documents(texts)


def fill(memory, ns: Namespace, n: int, prefix: str = "r") -> None:
    for i in range(n):
        e = Episode(run_id=f"{prefix}{i}", task_type="review", outcome=Outcome.COMPLETED, created_at=NOW,
                    task_summary=f"Review the supplier agreement number {i}: liability cap and termination",
                    expires_at=NOW + timedelta(days=90), embedding_model=OLD.model_name)
        memory.episodes.add(ns, e, OLD.embed_documents([e.embedding_text()])[0])


def add_fact(memory, ns: Namespace, fact_id: str, text: str) -> None:
    fact = Fact(fact_id=fact_id, domain="supplier_contracts", text=text, confidence=0.9,
                embedding_model=OLD.model_name)
    memory.facts.put(ns, fact, OLD.embed_documents([text])[0])


def recall(memory, model, ns: Namespace = ACME) -> list[str]:
    return [s.item.run_id for s in episodic.recall(memory.episodes, model, ns, TASK, k=50, min_score=0.05, now=NOW)]


def facts(memory, model, ns: Namespace = ACME) -> list[str]:
    found = semantic.recall(memory.facts, model, ns, "liability cap below contract value", domain=None, k=10,
                            min_score=-1.0, now=NOW)  # every fact of the query's model
    return [s.item.fact_id for s in found]


def test_an_interrupted_reembedding_resumes_and_ends_with_every_record_on_the_new_model(backend):
    fill(backend, ACME, 7)
    fill(backend, ACME_2, 3, prefix="d")
    add_fact(backend, ACME, "f1", "A liability cap below contract value is a red flag")
    add_fact(backend, ACME, "f2", "Termination for convenience needs 30 days notice")
    fill(backend, GLOBEX, 2, prefix="g")
    store = backend.reembedding
    assert store.progress("acme", NEW.model_name).missing == 12

    crashing = Interrupting(calls=2)
    with pytest.raises(RuntimeError, match="went away"):
        reembed_tenant(backend, crashing, "acme", batch_size=4)
    progress = store.progress("acme", NEW.model_name)
    assert (progress.total, progress.on_model, progress.staged) == (12, 0, 8)  # two batches kept
    # retrieval during the re-embedding: the old vectors still serve, the new ones are not mixed in
    assert len(recall(backend, OLD)) == 7 and len(facts(backend, OLD)) == 2
    assert recall(backend, NEW) == [] and facts(backend, NEW) == []

    fill(backend, ACME, 1, prefix="late")  # an agent still on the old model writes meanwhile
    resumed = Interrupting(calls=100)
    result = reembed_tenant(backend, resumed, "acme", batch_size=4)
    assert resumed.texts == 5  # only the 4 never embedded + the latecomer
    assert (result.embedded, result.switched) == (5, 13)
    progress = store.progress("acme", NEW.model_name)
    assert (progress.total, progress.on_model, progress.staged, progress.missing) == (13, 13, 0, 0)
    assert {e.embedding_model for ns in (ACME, ACME_2) for e in backend.episodes.list(ns, limit=100)} == {"hash-96"}
    assert {f.embedding_model for f in backend.facts.list(ACME)} == {"hash-96"}
    # after the switch: the new model finds everything, the old model nothing (no mixed comparison)
    assert len(recall(backend, NEW)) == 8 and len(recall(backend, NEW, ACME_2)) == 3
    assert sorted(facts(backend, NEW)) == ["f1", "f2"]
    assert recall(backend, OLD) == [] and facts(backend, OLD) == []
    # another tenant is untouched
    assert {e.embedding_model for e in backend.episodes.list(GLOBEX)} == {"hash-64"}
    assert len(recall(backend, OLD, GLOBEX)) == 2


def test_reembedding_all_tenants_and_again_is_a_no_op(backend):
    fill(backend, ACME, 2)
    fill(backend, GLOBEX, 2, prefix="g")
    add_fact(backend, Namespace(tenant="initech", agent="x"), "f", "Audit rights need ten days notice")
    results = reembed(backend, NEW)
    assert {(r.tenant, r.embedded, r.switched) for r in results} == {("acme", 2, 2), ("globex", 2, 2), ("initech", 1, 1)}
    assert {(r.tenant, r.embedded, r.switched) for r in reembed(backend, NEW)} == {
        ("acme", 0, 0), ("globex", 0, 0), ("initech", 0, 0)}


def test_a_fact_rewritten_after_staging_is_embedded_again_from_its_new_text(backend):
    add_fact(backend, ACME, "f1", "Liability caps below contract value are a red flag")
    store = backend.reembedding
    pending = list(store.pending("acme", NEW.model_name))
    assert store.stage("acme", NEW.model_name, [(p, NEW.embed_documents([p.text])[0]) for p in pending]) == 1
    add_fact(backend, ACME, "f1", "Indemnity without a cap is a red flag")  # rewritten with the old model
    assert [p.text for p in store.pending("acme", NEW.model_name)] == ["Indemnity without a cap is a red flag"]
    reembed_tenant(backend, NEW, "acme")
    found = semantic.recall(backend.facts, NEW, ACME, "indemnity without a cap", domain=None, k=3, min_score=0.3,
                            now=NOW)
    assert [s.item.fact_id for s in found] == ["f1"]


def test_a_backend_that_cannot_reembed_says_so():
    class Plain:
        episodes = facts = None

    with pytest.raises(MemoryConfigError, match="cannot re-embed"):
        reembed(Plain(), NEW, tenant="acme")
