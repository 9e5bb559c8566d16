"""Damage everything beside the store, the way an operator could, and check nothing is lost silently.

    python -m scripts.damage_everything            # every damage, real CLI processes
    python -m scripts.damage_everything --only flip-index --keep /tmp/damaged

A data folder is made by finished CLI reviews (memory on, the SQLite checkpointer, completed runs'
checkpoints kept a day so the key has something to protect), its vector indexes built, and a
`memory backup` taken. Then each damage of `DAMAGES` is done to a fresh copy of that folder and
the command a user runs next is run. A damage passes when the command either exits 0 with every
episode of the folder still there, or exits with the code docs/OPERATING.md documents for it and
says so in one line on stderr; and then the documented recovery (if any) brings every episode back.

`DAMAGES` is the list to extend: a damage is a function of the data folder plus what is expected.
The clock damages (a clock behind or ahead, before 1970, centuries ahead) are
scripts/clock_damages.py's `DAMAGES`, run after these on data folders of their own (they inject a
skewed clock into the run, which a copy of a finished folder cannot have); `--only clock-behind`
picks one of them too.
Exit code: 0 when every damage passed, 1 otherwise (a table says which and why).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_contracts"
CONTRACTS = ("northwind_msa_01.txt", "kestrel_supply_01.txt")
BACKUP = "backup.sqlite"  # taken into the folder's parent: never damaged with the folder
BASE_ENV = {"CONTRACT_AGENT_CHECKPOINTER": "sqlite", "CONTRACT_AGENT_CHECKPOINT_KEEP_COMPLETED_DAYS": "1"}
LIST = ("memory", "list", "--tier", "episodes", "--format", "json")
SEARCH = ("memory", "search", "supply agreement liability", "--format", "json")


@dataclass(frozen=True)
class Damage:
    """One damage, what the user runs next, and what docs/OPERATING.md says then happens."""

    name: str
    what: str
    apply: Callable[[Path], None]  # damages the data folder in place
    exit_code: int  # of `command`
    says: str = ""  # a regex the one stderr line must match ("" and exit 0: stderr may be empty)
    command: tuple[str, ...] = LIST  # "{run}" stands for a finished run's id
    recover: tuple[str, ...] = ()  # the documented way back (run after the damage was reported)
    env: dict[str, str] = field(default_factory=dict)  # for the command (e.g. another key, a skewed clock)
    restore_after: Callable[[Path], None] | None = None  # the operator's repair before `recover`


# ------------------------------------------------------------------ the damages


def _memory(home: Path) -> Path:
    return home / "memory.sqlite"


def delete_wal(home: Path) -> None:
    for suffix in ("-wal", "-shm"):
        Path(f"{_memory(home)}{suffix}").unlink(missing_ok=True)


def flip_index(home: Path) -> None:
    """Random bytes flipped inside every vector index file (among its vectors, past the header)."""
    files = sorted((home / "memory.sqlite.vectors").glob("*.usearch"))
    if not files:
        raise RuntimeError("the folder has no vector index file to damage")
    rng = random.Random(32)
    for path in files:
        data = bytearray(path.read_bytes())
        rows, row_bytes = int.from_bytes(data[0:4], "little"), int.from_bytes(data[4:8], "little")
        span = range(8, 8 + rows * row_bytes)  # the vectors (usearch's own header checks never read them)
        for offset in rng.sample(span, min(48, len(span))):
            data[offset] ^= rng.randrange(1, 256)
        path.write_bytes(bytes(data))


def key_file(home: Path) -> Path:
    """The folder's checkpoint key file: beside the data folder, never in it (issue 31), set for
    every command by CONTRACT_AGENT_CHECKPOINT_KEY_FILE."""
    return home.parent / "checkpoint.key"


def swap_key(home: Path) -> None:
    key = key_file(home)
    key.write_bytes(random.Random(32).randbytes(len(key.read_bytes())))


def delete_key(home: Path) -> None:
    key_file(home).unlink()


def truncate_main(home: Path) -> None:
    path = _memory(home)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def delete_main(home: Path) -> None:
    _memory(home).unlink()


EARLIER = "after-first-run.sqlite"  # memory.sqlite as the first review left it


def older_copy(home: Path) -> None:
    """An older state of the file put in place (what a lost write-ahead log leaves, or a copy
    taken by hand one run earlier)."""
    shutil.copy2(home.parent / EARLIER, _memory(home))


def _put_key_back(home: Path) -> None:
    shutil.copy2(home.parent / "checkpoint.key.saved", key_file(home))


RESTORE = ("memory", "restore", f"../{BACKUP}")

DAMAGES: list[Damage] = [
    Damage("delete-wal", "the write-ahead log (-wal, -shm) deleted after finished runs", delete_wal, 0),
    Damage("flip-index", "random bytes flipped inside every vector index file", flip_index, 0,
           says=r"vector index .* is damaged .*rebuilding", command=SEARCH),
    Damage("swap-key", "another checkpoint key written into the key file", swap_key, 3,
           says=r"another key", command=("resume", "{run}"),
           restore_after=_put_key_back, recover=LIST),
    Damage("delete-key", "the key file deleted while checkpoints need it", delete_key, 3,
           says=r"checkpoint key is missing", command=("resume", "{run}"),
           restore_after=_put_key_back, recover=LIST),
    Damage("truncate-main", "memory.sqlite cut to half its size", truncate_main, 4, says=r"truncated",
           recover=RESTORE),
    Damage("delete-main", "memory.sqlite deleted", delete_main, 4, says=r"missing or empty", recover=RESTORE),
    Damage("older-copy", "an older copy of memory.sqlite put in place (a lost log)", older_copy, 4,
           says=r"behind what this folder last wrote", recover=RESTORE),
]


# ------------------------------------------------------------------ running


@dataclass
class Result:
    damage: str
    exit_code: int
    expected: int
    line: str
    problems: list[str]
    seconds: float

    @property
    def passed(self) -> bool:
        return not self.problems


def cli(home: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`contract-review ARGV` in a fresh process, in `home`, as a user runs it."""
    environ = {**os.environ, **BASE_ENV, "CONTRACT_AGENT_HOME": str(home), "PYTHONPATH": str(REPO),
               "CONTRACT_AGENT_CHECKPOINT_KEY_FILE": str(key_file(home)), **(env or {})}
    return subprocess.run([sys.executable, "-m", "cli.main", *argv], env=environ, cwd=home, capture_output=True,
                          text=True, timeout=600)


def episodes(home: Path) -> list[str] | None:
    done = cli(home, *LIST)
    if done.returncode != 0:
        return None
    return sorted(e["run_id"] for e in json.loads(done.stdout)["episodes"])


def prepare(root: Path) -> tuple[Path, list[str]]:
    """A data folder after finished reviews, with its vector indexes and a backup beside it."""
    home = root / "home"
    home.mkdir(mode=0o700, parents=True)
    for number, name in enumerate(CONTRACTS):
        done = cli(home, "review", str(SAMPLES / name), "--format", "json")
        if done.returncode != 0:
            raise RuntimeError(f"review of {name} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
        if number == 0:
            shutil.copy2(_memory(home), root / EARLIER)
    build_indexes(_memory(home))
    done = cli(home, "memory", "backup", str(root / BACKUP))
    if done.returncode != 0:
        raise RuntimeError(f"memory backup failed: {done.stderr.strip()}")
    shutil.copy2(key_file(home), root / "checkpoint.key.saved")
    kept = episodes(home)
    if not kept:
        raise RuntimeError("the reviews left no episode")
    return home, kept


def build_indexes(path: Path) -> None:
    """Build every namespace's vector index file now (a CLI run builds one only past 2,000 vectors)."""
    sys.path.insert(0, str(REPO))
    from memory.backends.sqlite import SqliteMemory
    from memory.backends.sqlite.vectors import IndexKey

    with SqliteMemory(path) as memory, memory.db.read() as conn:
        keys = [IndexKey("episodes", *row) for row in conn.execute("SELECT DISTINCT tenant, agent, model FROM episodes")]
        for key in keys:
            memory.vectors.build(key, full=True)


def attempt(damage: Damage, root: Path, home: Path, kept: list[str]) -> Result:
    started = time.perf_counter()
    folder = root / damage.name / "home"
    shutil.copytree(home, folder)
    shutil.copy2(root / BACKUP, folder.parent / BACKUP)
    for name in ("checkpoint.key.saved", "checkpoint.key", EARLIER):
        shutil.copy2(root / name, folder.parent / name)
    damage.apply(folder)
    done = cli(folder, *(arg.replace("{run}", kept[0]) for arg in damage.command), env=damage.env)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    problems = []
    if done.returncode != damage.exit_code:
        problems.append(f"exit {done.returncode}, documented {damage.exit_code}")
    if damage.exit_code != 0 and len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines, wanted one")
    if damage.says and not any(re.search(damage.says, line) for line in lines):
        problems.append(f"stderr does not say /{damage.says}/")
    if done.returncode == 0 and damage.command == LIST:
        listed = sorted(e["run_id"] for e in json.loads(done.stdout)["episodes"])
        if listed != kept:
            problems.append(f"exit 0 with {len(listed)} of {len(kept)} episodes: memory lost silently")
    if damage.restore_after is not None:
        damage.restore_after(folder)
    if damage.recover:
        back = cli(folder, *damage.recover)
        if back.returncode != 0:
            problems.append(f"recovery {' '.join(damage.recover)} exit {back.returncode}: {back.stderr.strip()}")
    if done.returncode == 0 or damage.recover:
        now = episodes(folder)
        if now is None or not set(kept) <= set(now):
            problems.append(f"after {'recovery' if damage.recover else 'the command'}: "
                            f"{len(now or [])} of {len(kept)} episodes")
    line = lines[-1] if lines else ""
    return Result(damage.name, done.returncode, damage.exit_code, line, problems, time.perf_counter() - started)


def run(root: Path, damages: list[Damage] | None = None) -> list[Result]:
    home, kept = prepare(root)
    return [attempt(damage, root, home, kept) for damage in (damages if damages is not None else DAMAGES)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only this damage (repeatable)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    from scripts import clock_damages

    chosen = [d for d in DAMAGES if not args.only or d.name in args.only]
    clocks = [(name, fn) for name, fn in clock_damages.DAMAGES if not args.only or name in args.only]
    if args.only and len(chosen) + len(clocks) != len(set(args.only)):
        known = [d.name for d in DAMAGES] + [name for name, _ in clock_damages.DAMAGES]
        parser.error(f"unknown damage; known: {', '.join(known)}")
    with tempfile.TemporaryDirectory(prefix="damage-") as scratch:
        root = args.keep or Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        results = run(root, chosen) if chosen else []
        skewed = [fn(root / "clock" / name) for name, fn in clocks]
    for r in results:
        status = "ok  " if r.passed else "FAIL"
        print(f"{status} {r.damage:14} exit {r.exit_code} (documented {r.expected})  {r.seconds:5.1f}s  {r.line[:110]}")
        for problem in r.problems:
            print(f"     {problem}")
    for c in skewed:
        codes = ",".join(map(str, c.exit_codes))
        print(f"{'ok  ' if c.ok else 'FAIL'} {c.name:14} exits {codes}  lost {len(c.lost)}  {c.detail[:110]}")
    return 0 if all(r.passed for r in results) and all(c.ok for c in skewed) else 1


if __name__ == "__main__":
    sys.exit(main())
