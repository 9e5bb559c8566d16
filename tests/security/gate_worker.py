"""The worker of test_security_gate.py, in a module that imports little: each spawned process
imports it afresh (the test module imports moto and boto3, which would slow every start)."""

from __future__ import annotations

from datetime import UTC, datetime

from memory import semantic
from memory.records import FactCandidate, Namespace, Outcome

NS = Namespace(tenant="acme", agent="reviewer")
FACT = "A liability cap below 2x the annual fees is a red flag"
SHARED_FIRST = ["run-0", "run-1"]
SHARED_LATER = ["run-2", "run-3", "run-4", "run-5"]


def observe_in_process(url: str, worker: int, barrier) -> None:
    from memory.backends import open_memory
    from memory.embeddings import load_embeddings

    memory = open_memory(url)
    embeddings = load_embeddings("hash:16")
    candidate = [FactCandidate(text=FACT, confidence=0.9)]
    now = datetime.now(UTC)

    def observe(run_id: str) -> None:
        # each run reviews its own contract, from its own counterparty and template
        semantic.observe(memory.facts, memory.confirmations, embeddings, NS, run_id, Outcome.COMPLETED,
                         candidate, confirmations_needed=3, now=now, source=f"c-{run_id}", counterparty=f"cp-{run_id}",
                         template=f"tpl-{run_id}")

    for _ in range(2):  # retries of the same runs
        for run_id in SHARED_FIRST:
            observe(run_id)
    barrier.wait(60)  # phase 1 done: the parent checks
    barrier.wait(60)
    for run_id in [*SHARED_LATER, f"solo-{worker}"]:
        observe(run_id)
        observe(run_id)
    memory.close()


