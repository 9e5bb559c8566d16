"""A throwaway PostgreSQL server for the tests: Debian's binaries, initdb + pg_ctl, loopback only.

The cluster lives in a temporary folder, listens on 127.0.0.1 on a free port (and on a socket in
that folder), trusts local connections, and is stopped and removed at the end of the session.
Run as root (CI), the server runs as the `postgres` user the Debian package creates, since
PostgreSQL refuses to run as root. Each test gets a schema of its own (`fresh_url`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SKIP_HINT = "Debian: apt-get install postgresql (.ci/run installs it when missing)"


def postgres_bin() -> Path | None:
    """The folder of initdb and pg_ctl: Debian's newest /usr/lib/postgresql/N/bin, else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl and shutil.which("initdb") else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PostgresServer:
    url: str  # the `postgres` database as the `test` superuser
    folder: Path

    def fresh_url(self) -> str:
        """A URL whose connections work in a new, empty schema (tables a test creates stay in it)."""
        import psycopg

        schema = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return f"{self.url}?options=-csearch_path%3D{schema}"


def _run(command: list[str], as_user: dict[str, Any], log: Path) -> None:
    with log.open("ab") as sink:
        done = subprocess.run(command, stdout=sink, stderr=subprocess.STDOUT, timeout=120, **as_user)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command[:2])} failed ({done.returncode}):\n{log.read_text(errors='replace')[-2000:]}")


@contextlib.contextmanager
def postgres_server(skip) -> Iterator[PostgresServer]:
    """Start a cluster; `skip(reason)` is called (pytest.skip) only when no server can run here."""
    binaries = postgres_bin()
    if binaries is None:
        skip(f"PostgreSQL server binaries (initdb, pg_ctl) not found: {SKIP_HINT}")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        skip("psycopg is not installed: pip install -e '.[dev]' (the postgres extra)")
    as_user: dict[str, Any] = {}
    folder = Path(tempfile.mkdtemp(prefix="contract-agent-pg-"))  # /tmp: reachable by the postgres user
    if os.geteuid() == 0:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder, ignore_errors=True)
            skip(f"running as root and no 'postgres' user to run the server as: {SKIP_HINT}")
        os.chown(folder, account.pw_uid, account.pw_gid)
        as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
    data, port = folder / "data", _free_port()
    log = folder / "initdb.log"  # written by this process; the server's own log is in `data`
    try:
        _run([str(binaries / "initdb"), "-D", str(data), "-U", "test", "--auth=trust", "-E", "UTF8",
              "--no-sync", "--no-instructions"], as_user, log)
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
        _run([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(data / "server.log"), "-w", "-t", "60",
              "start"],
             as_user, folder / "pg_ctl.log")
    except Exception:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    try:
        yield PostgresServer(url=f"postgresql://test@127.0.0.1:{port}/postgres", folder=folder)
    finally:
        with contextlib.suppress(Exception):
            _run([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], as_user,
                 folder / "pg_ctl.log")
        shutil.rmtree(folder, ignore_errors=True)
