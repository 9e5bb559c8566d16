"""kill -9 at random points of review and consolidation: the episode really is the commit marker.

`crash_worker` forks real review processes and SIGKILLs them (at least 50 of them mid-run, about
half inside consolidation), then resumes some killed runs. Two such loops run side by side on one
data folder (25 kills each, their own run ids), so runs are also killed while another process
writes the same memory file, and the test takes half the time. Whatever moment a process died at, the
memory file must hold no fact observation and no fact without the episode of its run, no run
stored twice, and both SQLite files must pass their integrity check.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memory.records import Fact

ROOT = Path(__file__).resolve().parents[2]
KILLS = 50
LOOPS = 2


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill loop forks review processes")
def test_kill_9_anywhere_leaves_no_fact_or_confirmation_without_its_episode(tmp_path):
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTRACT_AGENT_")}
    loops = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.security.crash_worker", str(home), str(KILLS // LOOPS), str(1717 + i), f"loop{i}"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for i in range(LOOPS)
    ]
    summaries = []
    for loop in loops:
        out, err = loop.communicate(timeout=900)
        assert loop.returncode == 0, err[-3000:]
        summaries.append(summary := json.loads(out.strip().splitlines()[-1]))
        assert summary["outcomes"]["failed"] == 0, (summary, err[-3000:])
    assert sum(s["kills"] for s in summaries) >= KILLS, summaries
    assert sum(s["kills_in_consolidation"] for s in summaries) >= KILLS // 4, summaries

    with sqlite3.connect(home / "memory.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        episodes = {(t, r) for t, r in conn.execute("SELECT tenant, run_id FROM episodes")}
        duplicates = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM episodes GROUP BY tenant, agent, run_id HAVING count(*) > 1)"
        ).fetchone()[0]
        orphan_observations = conn.execute(
            "SELECT tenant, run_id FROM confirmations c WHERE NOT EXISTS "
            "(SELECT 1 FROM episodes e WHERE e.tenant = c.tenant AND e.run_id = c.run_id)"
        ).fetchall()
        facts = [(t, Fact.model_validate_json(r)) for t, r in conn.execute("SELECT tenant, record FROM facts")]
        procedure_runs = conn.execute("SELECT tenant, run_id FROM procedure_runs").fetchall()
    with sqlite3.connect(home / "checkpoints.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    assert duplicates == 0
    assert orphan_observations == []
    assert facts, f"no fact was confirmed: the loops prove nothing about facts ({summaries})"
    for tenant, fact in facts:
        assert all((tenant, run) in episodes for run in fact.source_runs), fact
    assert all((tenant, run) in episodes for tenant, run in procedure_runs)
