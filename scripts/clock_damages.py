"""Clock damages (issue 32): reviews written by a clock behind or ahead, and a clock before 1970
or centuries ahead, each against a data folder, each checked for lost memory and its exit code.

    python scripts/clock_damages.py /tmp/clock-damage      # every damage, one folder each under it

Each damage is a function taking a data folder (empty or not) and returning a `ClockOutcome`: what it
did, the exit codes the CLI gave, what memory was lost, and whether it behaved as documented
(docs/OPERATING.md, "Time"). The suite runs them (tests/ops/test_clock_skew.py); the "damage
everything" script runs them after its own (`DAMAGES`). Reviews run in process with the offline reviewer;
a skewed clock is injected into the run (the graph's clock service), and `memory decay` runs
through the CLI on the machine's clock. The absurd clocks freeze the whole process's clock
(freezegun), so the CLI sees them as it would a machine's clock.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agent.settings import Settings  # noqa: E402
from cli.main import main as cli  # noqa: E402
from graphs.runner import Reviewer, open_checkpointer  # noqa: E402
from memory.backends import open_memory  # noqa: E402
from memory.records import Episode, Namespace  # noqa: E402

SAMPLES = ROOT / "sample_contracts"
CONTRACTS = ("northwind_msa_01.txt", "kestrel_supply_01.txt", "northwind_msa_02.txt")
TTL = timedelta(days=90)  # the default episode time to live (CONTRACT_AGENT_EPISODE_TTL_DAYS)
SLACK = timedelta(hours=1)  # between the checks below and the reviews they follow


@dataclass
class ClockOutcome:
    name: str
    ok: bool = False
    exit_codes: list[int] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # run ids whose episode is gone though it should not be
    messages: list[str] = field(default_factory=list)  # what the CLI said on stderr
    detail: str = ""


def _settings(folder: Path) -> Settings:
    return Settings(home=folder)


def review(folder: Path, contract: str, clock: Callable[[], datetime] | None = None) -> str:
    """One review of a sample contract into `folder`'s memory, with `clock` as the run's clock;
    returns its run id."""
    settings = _settings(folder)
    with open_checkpointer(settings) as saver:
        report = Reviewer(settings, saver, clock=clock).review_path(SAMPLES / contract)
    return report["run_id"]


def episodes(folder: Path) -> dict[str, Episode]:
    settings = _settings(folder)
    memory = open_memory(settings.resolved_memory_url())
    try:
        return {e.run_id: e for e in memory.episodes.list(Namespace(tenant=settings.tenant, agent=settings.agent),
                                                          limit=10_000)}
    finally:
        memory.close()


def run_cli(folder: Path, *args: str) -> tuple[int, str]:
    """`contract-review ARGS --home FOLDER` in process: (exit code, stderr)."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli([*args, "--home", str(folder)])
    return code, err.getvalue()


def clock_behind(folder: Path, days: int = 120) -> ClockOutcome:
    """A run whose clock is `days` behind, after one on time: it must not be written already
    expired, and the next `memory decay` must delete nothing."""
    damage = ClockOutcome(f"clock {days} days behind")
    before = set(episodes(folder))
    on_time = review(folder, CONTRACTS[0])
    skewed = review(folder, CONTRACTS[1], clock=lambda: datetime.now(UTC) - timedelta(days=days))
    code, err = run_cli(folder, "memory", "decay")
    damage.exit_codes.append(code)
    damage.messages += err.splitlines()
    after = episodes(folder)
    damage.lost = sorted((before | {on_time, skewed}) - set(after))
    dated = after.get(skewed)
    damage.ok = code == 0 and not damage.lost and dated is not None \
        and dated.expires_at >= datetime.now(UTC) + TTL - SLACK
    damage.detail = f"the behind run's episode expires {dated.expires_at:%Y-%m-%d}" if dated else "its episode is gone"
    return damage


def clock_ahead(folder: Path, days: int = 200) -> ClockOutcome:
    """A run whose clock is `days` ahead: `memory decay` reads it as written now (and says so on
    stderr), so 91 days later it has expired instead of living `days` + 90 days."""
    damage = ClockOutcome(f"clock {days} days ahead")
    review(folder, CONTRACTS[0])
    ahead = review(folder, CONTRACTS[1], clock=lambda: datetime.now(UTC) + timedelta(days=days))
    code, err = run_cli(folder, "memory", "decay")
    damage.exit_codes.append(code)
    damage.messages += err.splitlines()
    redated = episodes(folder).get(ahead)
    warned = any(ahead in line and "ahead of this clock" in line for line in damage.messages)
    later = review(folder, CONTRACTS[2])  # a run on time after it: the ahead one is not the last run
    as_of = (datetime.now(UTC) + TTL + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S")
    code, err = run_cli(folder, "memory", "decay", "--as-of", as_of)
    damage.exit_codes.append(code)
    damage.messages += err.splitlines()
    after = episodes(folder)
    damage.lost = sorted({later} - set(after))  # the last run's episode is never expired
    damage.ok = (damage.exit_codes == [0, 0] and warned and not damage.lost and ahead not in after
                 and redated is not None and redated.created_at <= datetime.now(UTC))
    damage.detail = (f"decay {'warned' if warned else 'did NOT warn'}; the ahead episode "
                     f"{'expired 91 days later' if ahead not in after else 'outlived its 90 days'}")
    return damage


def absurd_clock(folder: Path, when: str = "1965-06-01") -> ClockOutcome:
    """The machine's clock at `when` (before 1970, or centuries ahead): a review and `memory
    decay` end with exit 3 and one line; nothing is written."""
    from freezegun import freeze_time

    damage = ClockOutcome(f"clock at {when}")
    before = episodes(folder)
    with freeze_time(when):
        for command in (["review", str(SAMPLES / CONTRACTS[0]), "--quiet"], ["memory", "decay"]):
            code, err = run_cli(folder, *command)
            damage.exit_codes.append(code)
            damage.messages += err.splitlines()
    after = episodes(folder)
    damage.lost = sorted(set(before) - set(after))
    said = [m for m in damage.messages if m.strip()]
    one_line = len(said) == 2 and all(m.startswith("error: ") and "clock" in m for m in said)  # one per command
    damage.ok = damage.exit_codes == [3, 3] and one_line and not damage.lost and set(after) == set(before)
    damage.detail = " | ".join(damage.messages)
    return damage


DAMAGES: list[tuple[str, Callable[[Path], ClockOutcome]]] = [
    ("clock-behind", clock_behind),
    ("clock-ahead", clock_ahead),
    ("clock-1965", absurd_clock),
    ("clock-2400", lambda folder: absurd_clock(folder, "2400-01-01")),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder for the data folders (one per damage)")
    args = parser.parse_args(argv)
    results = [fn(args.folder / name) for name, fn in DAMAGES]
    for result in results:
        print(json.dumps(asdict(result)))
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
