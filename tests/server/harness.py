"""Start `langgraph dev` on 127.0.0.1 for a test, serving the graphs of the repo's langgraph.json
(or another, such as the example agent's).

The server runs in a temporary folder (its `.langgraph_api/` data lands there, not in the work
tree) from a copy of langgraph.json whose paths are made absolute and whose `env` file is left
out (the test passes its environment itself). It is bounded in time and always killed with its
process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 90
# Failures that say the machine cannot host the server, not that our graph is broken.
ENVIRONMENTAL = ("address already in use", "permission denied", "no space left", "too many open files")


@dataclass
class Server:
    url: str
    folder: Path
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def langgraph_cli() -> str | None:
    beside = Path(sys.executable).with_name("langgraph")
    return str(beside) if beside.exists() else shutil.which("langgraph")


def server_config(folder: Path, source: Path = ROOT / "langgraph.json") -> Path:
    """`source` (the repo's langgraph.json by default) with `dependencies`, graph and auth paths
    resolved against its folder."""
    config = json.loads(source.read_text())
    base = source.parent
    config["dependencies"] = [str((base / dep).resolve()) for dep in config.get("dependencies", ["."])]
    graphs = {}
    for name, target in config["graphs"].items():
        path, _, attr = target.rpartition(":")
        graphs[name] = f"{(base / path).resolve()}:{attr}"
    config["graphs"] = graphs
    if "auth" in config:
        path, _, attr = config["auth"]["path"].rpartition(":")
        config["auth"] = {**config["auth"], "path": f"{(base / path).resolve()}:{attr}"}
    # The developer's .env (optional, gitignored) must not change what a test sees: the test
    # passes its environment explicitly.
    config.pop("env", None)
    target = folder / "langgraph.json"
    target.write_text(json.dumps(config, indent=2))
    return target


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ok", timeout=2) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@contextlib.contextmanager
def langgraph_dev(folder: Path, env: dict[str, str], source: Path = ROOT / "langgraph.json") -> Iterator[Server]:
    """Serve the graphs of `source` (the repo's langgraph.json by default) with `langgraph dev`;
    skip only when the machine cannot host it."""
    cli = langgraph_cli()
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]' (in the [dev] extra)")
    config = server_config(folder, source)
    full_env = {**os.environ, "LANGSMITH_TRACING": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1", **env}
    for _attempt in range(3):  # a port taken between probing and binding: try another
        port = _free_port()
        log = folder / f"server-{port}.log"
        server = Server(url=f"http://127.0.0.1:{port}", folder=folder, log=log)
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [cli, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port),
                 "--config", str(config)],
                cwd=folder, env=full_env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
            )
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while time.monotonic() < deadline and process.poll() is None and not _healthy(server.url):
                time.sleep(0.25)
            if process.poll() is None and _healthy(server.url):
                yield server
                return
            tail = server.log_tail()
            if "address already in use" in tail.lower():
                continue
            if any(reason in tail.lower() for reason in ENVIRONMENTAL):
                pytest.skip(f"langgraph dev cannot start on this machine: {tail.splitlines()[-1] if tail else 'no output'}")
            state = "exited" if process.poll() is not None else f"not healthy after {START_TIMEOUT_S}s"
            pytest.fail(f"langgraph dev {state}; log tail:\n{tail}")
        finally:
            _stop(process)
    pytest.skip("langgraph dev found no free port on 127.0.0.1 after 3 attempts")
