"""Property: random operations by several tenants never let one tenant see another's data.

Every tenant uses the SAME run ids, fact ids, fact keys and procedure ids, and the tenants'
names prefix one another (`t`, `t1`, `t.1`), so any key built by concatenation or prefix
matching would collide. Each stored text names its owner; every read must return exactly what
a per-namespace model of the operations predicts, and never a text of another owner.
"""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.forget import forget_tenant
from memory.records import Episode, Fact, Namespace, Outcome, Procedure, ProcedureStatus
from tests.security.support import MODEL, NOW, inner, query, vector

TENANTS = ("t", "t1", "t.1")
AGENTS = ("a", "a.b")
IDS = ("r1", "r2", "r3")

namespaces = st.builds(Namespace, tenant=st.sampled_from(TENANTS), agent=st.sampled_from(AGENTS))
operations = st.lists(
    st.tuples(
        st.sampled_from(["episode", "fact", "procedure", "observe", "delete_episode", "delete_fact",
                         "validate", "use", "read"]),
        namespaces,
        st.sampled_from(IDS),
    ),
    min_size=1,
    max_size=25,
)


def owner_text(ns: Namespace, kind: str, record_id: str, tenant_wide: bool = False) -> str:
    owner = ns.tenant if tenant_wide else ns.key
    return f"{kind} {record_id} owned by {owner}"


class Model:
    """What each namespace should hold after the operations so far."""

    def __init__(self) -> None:
        self.episodes: dict[tuple[str, str], dict[str, str]] = {}
        self.facts: dict[str, dict[str, str]] = {}
        self.procedures: dict[tuple[str, str], dict[str, str]] = {}
        self.validated: set[tuple[str, str, str]] = set()
        self.uses: dict[tuple[str, str, str], set[str]] = {}
        self.observed: dict[tuple[str, str], set[str]] = {}


def apply(backend, model: Model, op: str, ns: Namespace, rid: str, step: int) -> None:
    agent_key, tenant = (ns.tenant, ns.agent), ns.tenant
    if op == "episode":
        text = owner_text(ns, "episode", rid)
        episode = Episode(run_id=rid, task_type="review", task_summary=text, outcome=Outcome.COMPLETED,
                          key_findings=[f"clause 9.{step} finding"], created_at=NOW,
                          expires_at=NOW + timedelta(days=90), embedding_model=MODEL)
        if backend.episodes.add(ns, episode, vector(text)):
            model.episodes.setdefault(agent_key, {})[rid] = text
    elif op == "fact":
        text = owner_text(ns, "fact", rid, tenant_wide=True)
        backend.facts.put(ns, Fact(fact_id=rid, domain="d", text=text, confidence=0.9, source_runs=[rid],
                                   embedding_model=MODEL), vector(text))
        model.facts.setdefault(tenant, {})[rid] = text
    elif op == "procedure":
        text = owner_text(ns, "procedure", rid)
        stored = backend.procedures.propose(ns, Procedure(procedure_id=rid, task_type="review", title=text,
                                                          steps=["step"], source_runs=[f"run-{step}"]))
        model.procedures.setdefault(agent_key, {}).setdefault(rid, text)
        assert stored.title == model.procedures[agent_key][rid]
    elif op == "observe":
        count = backend.confirmations.observe(ns, f"key-{rid}", f"{ns.key}-{step % 3}")
        seen = model.observed.setdefault((tenant, rid), set())
        seen.add(f"{ns.key}-{step % 3}")
        assert count == len(seen)  # counted within the tenant only
    elif op == "delete_episode":
        assert backend.episodes.delete(ns, [rid]) == int(rid in model.episodes.get(agent_key, {}))
        model.episodes.get(agent_key, {}).pop(rid, None)
    elif op == "delete_fact":
        assert backend.facts.delete(ns, [rid]) == int(rid in model.facts.get(tenant, {}))
        model.facts.get(tenant, {}).pop(rid, None)
    elif op == "validate" and rid in model.procedures.get(agent_key, {}):
        backend.procedures.set_status(ns, rid, ProcedureStatus.VALIDATED, by="tester")
        model.validated.add((*agent_key, rid))
    elif op == "use" and rid in model.procedures.get(agent_key, {}):
        backend.procedures.record_application(ns, rid, success=True, run_id=f"use-{step % 2}")
        model.uses.setdefault((*agent_key, rid), set()).add(f"use-{step % 2}")
    check(backend, model, ns, full=op == "read")


def check(backend, model: Model, ns: Namespace, *, full: bool = True) -> None:
    agent_key = (ns.tenant, ns.agent)
    episodes = model.episodes.get(agent_key, {})
    facts = model.facts.get(ns.tenant, {})
    procedures = model.procedures.get(agent_key, {})
    probe = query("owned by")
    assert sorted(h.item.task_summary for h in backend.episodes.search(ns, probe)) == sorted(episodes.values())
    assert sorted(h.item.text for h in backend.facts.search(ns, probe)) == sorted(facts.values())
    if not full:  # after a write: the searches; a "read" step and the end check everything
        return
    assert sorted(e.task_summary for e in backend.episodes.list(ns, limit=100)) == sorted(episodes.values())
    assert sorted(f.text for f in backend.facts.list(ns, limit=100)) == sorted(facts.values())
    listed = {p.procedure_id: p for p in backend.procedures.list(ns)}
    assert {pid: p.title for pid, p in listed.items()} == procedures
    for pid, procedure in listed.items():
        assert procedure.applications == len(model.uses.get((*agent_key, pid), set()))
        assert (procedure.status == ProcedureStatus.VALIDATED) == ((*agent_key, pid) in model.validated)
    best = backend.procedures.best(ns, "review")
    assert best is None or best.title in procedures.values()
    for rid in IDS:
        got = backend.episodes.get(ns, rid)
        assert (got.task_summary if got else None) == episodes.get(rid)
        fact = backend.facts.get(ns, rid)
        assert (fact.text if fact else None) == facts.get(rid)
        assert set(backend.confirmations.runs(ns, f"key-{rid}")) == model.observed.get((ns.tenant, rid), set())


def test_random_operations_never_cross_tenants(backend):
    """One backend for all examples (opening one per example is slow on AWS): each example
    starts by erasing every tenant, which `check` then confirms left nothing behind."""

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(operations)
    def run(ops):
        for tenant in TENANTS:
            forget_tenant(inner(backend), tenant)
        model = Model()
        for tenant in TENANTS:
            for agent in AGENTS:
                check(backend, model, Namespace(tenant=tenant, agent=agent))
        for step, (op, ns, rid) in enumerate(ops):
            apply(backend, model, op, ns, rid, step)
        for tenant in TENANTS:  # finally every namespace, including ones never touched
            for agent in AGENTS:
                check(backend, model, Namespace(tenant=tenant, agent=agent))

    run()
