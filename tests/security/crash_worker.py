"""A kill -9 loop over real review processes (used by test_security_crash.py).

Run as `python -m tests.security.crash_worker HOME KILLS SEED [PREFIX]` (PREFIX starts each run id,
so that several loops can share one data folder, each process killing its own children). It imports the agent once, then
forks one child process per trial: the child reviews a contract (or resumes a killed run) with
the SQLite checkpointer, as `contract-review review` does, and this process SIGKILLs it at a
random point, until KILLS children died by the signal mid-run. A point is "a random delay of up
to 30 ms after the n-th checkpoint" (the child reports each one through a pipe), so kills land
inside steps, not only between them: half after any checkpoint of the run, half after one of
consolidation's. Finally a few killed runs are resumed without a kill, as an operator would. Prints a JSON summary on stdout.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
import traceback
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "sample_contracts"
# four suppliers and templates whose reviews share a claim (the liability cap deviates, high), so a
# fact can pass the gate: three contracts from two counterparties and two templates at least
CONTRACTS = [SAMPLES / f"{name}.txt" for name in (
    "northwind_msa_01", "northwind_msa_04", "kestrel_supply_01", "kestrel_supply_05", "tidewater_logistics_services",
    "cobalt_distribution_agreement")]
MAX_TRIALS_PER_KILL = 4
RUN_CHECKPOINTS = 27  # a review of these contracts writes 28-30
CONSOLIDATE_CHECKPOINTS = 5  # of its 6 (input, then one after each node): after the 6th all is written
RESUMED_AT_END = 6


def _child(action: str, run_id: str, contract: str, events: int) -> None:
    """Runs in the forked child, as `contract-review review`/`resume` would; never returns.
    After each checkpoint it writes the checkpoint's graph ("consolidate", "analyze", ...) as
    one line to the `events` pipe, so the parent can kill it at a chosen point of the run."""
    code = 0
    try:
        from agent.errors import ConfigurationError
        from agent.settings import Settings
        from graphs.runner import Reviewer, open_checkpointer

        settings = Settings()
        try:
            with open_checkpointer(settings) as saver:
                put = saver.put

                def put_and_tell(config, checkpoint, metadata, new_versions):
                    saved = put(config, checkpoint, metadata, new_versions)
                    graph = config["configurable"].get("checkpoint_ns", "").split(":")[0] or "review"
                    os.write(events, f"{graph}\n".encode())
                    return saved

                saver.put = put_and_tell
                reviewer = Reviewer(settings, saver)
                if action == "resume":
                    reviewer.resume(run_id)
                else:
                    reviewer.review_path(contract, thread_id=run_id)
        except ConfigurationError as exc:  # killed before its first checkpoint: nothing to resume
            code = 3 if "no checkpoint" in str(exc) else 1
    except BaseException:  # (a child's failure is reported, not hidden)
        traceback.print_exc()
        code = 1
    finally:
        os._exit(code)


def _status(status: int) -> str:
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        return "killed"
    return {0: "done", 3: "never_started"}.get(os.WEXITSTATUS(status), "failed")


def _run(action: str, run_id: str, contract: str, kill_at: tuple[str, int, float] | None) -> tuple[str, bool]:
    """Run one child; with `kill_at = (graph, n, delay)`, SIGKILL it `delay` seconds after its
    n-th checkpoint of `graph` ("" = of any graph). Returns (outcome, killed inside consolidation)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(action, run_id, contract, write)
    os.close(write)
    seen: dict[str, int] = {}
    consolidating = False
    with os.fdopen(read, "rb", buffering=0) as pipe:
        for line in iter(pipe.readline, b""):  # ends when the child exits
            graph = line.decode().strip()
            consolidating = consolidating or graph == "consolidate"
            seen[graph] = seen.get(graph, 0) + 1
            seen[""] = seen.get("", 0) + 1
            if kill_at is not None and seen.get(kill_at[0], 0) == kill_at[1]:
                time.sleep(kill_at[2])  # to land inside the step that follows, not only between steps
                os.kill(pid, signal.SIGKILL)
                break
    _, status = os.waitpid(pid, 0)
    return _status(status), consolidating


def main(home: str, kills_wanted: int, seed: int, prefix: str = "run") -> dict:
    os.environ["CONTRACT_AGENT_HOME"] = home
    os.environ["CONTRACT_AGENT_CHECKPOINTER"] = "sqlite"
    # Import and warm everything once: each forked child starts at once.
    from graphs.context import _cached
    from graphs.runner import Reviewer  # noqa: F401
    from memory.embeddings import load_embeddings
    from memory.pii import default_scrubber

    default_scrubber()
    _cached("embeddings", "wordllama", load_embeddings)

    rng = random.Random(seed)
    kills = in_consolidation = trials = runs = 0
    outcomes: dict[str, int] = {"done": 0, "killed": 0, "failed": 0, "never_started": 0}
    unfinished: list[str] = []  # killed runs, to resume
    while kills < kills_wanted and trials < kills_wanted * MAX_TRIALS_PER_KILL:
        trials += 1
        if unfinished and rng.random() < 0.35:
            run_id, action, contract = unfinished.pop(rng.randrange(len(unfinished))), "resume", ""
        else:
            runs += 1
            run_id, action, contract = f"{prefix}-{runs}", "review", str(rng.choice(CONTRACTS))
        if rng.random() < 0.5:  # inside consolidation: after one of its checkpoints
            kill_at = ("consolidate", rng.randint(1, CONSOLIDATE_CHECKPOINTS), rng.uniform(0.0, 0.03))
        else:  # anywhere: after any checkpoint of the run
            kill_at = ("", rng.randint(1, RUN_CHECKPOINTS), rng.uniform(0.0, 0.03))
        outcome, consolidating = _run(action, run_id, contract, kill_at)
        outcomes[outcome] += 1
        if outcome == "killed":
            kills += 1
            in_consolidation += consolidating
            unfinished.append(run_id)
    rng.shuffle(unfinished)
    for run_id in unfinished[:RESUMED_AT_END]:  # the operator resumes what was left
        outcomes[_run("resume", run_id, "", None)[0]] += 1
    return {"kills": kills, "kills_in_consolidation": in_consolidation, "trials": trials, "runs": runs,
            "outcomes": outcomes, "resumed_at_end": min(len(unfinished), RESUMED_AT_END)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:5])))
