"""The Chroma backend beyond the conformance suite: URLs, persistence, isolation, a Chroma server,
and a real review remembering through it. (The conformance suite runs it as the "chroma" entry.)"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("chromadb", reason="chromadb is in the [chroma] extra")

from agent.settings import Settings  # noqa: E402
from graphs.runner import build_graph, context_from_settings  # noqa: E402
from memory.backends import open_memory  # noqa: E402
from memory.errors import MemoryBackendError, MemoryConfigError  # noqa: E402
from memory.records import Namespace  # noqa: E402
from tests.conformance.support import MODEL, NS, episode, fact, procedure, query, vec  # noqa: E402
from tests.conftest import SAMPLES  # noqa: E402


@pytest.fixture
def folder(tmp_path) -> Path:
    return tmp_path / "chroma"


def test_everything_written_is_there_after_reopening_the_folder(folder):
    memory = open_memory(f"chroma:///{folder}")
    memory.episodes.add(NS, episode("r1", "review the Acme supply agreement"), vec(0.9))
    memory.facts.put(NS, fact("f1"), vec(0.9))
    memory.procedures.propose(NS, procedure("p1"))
    assert memory.confirmations.observe(NS, "k", "run-1") == 1
    memory.close()

    again = open_memory(f"chroma:///{folder}")
    assert [s.item.run_id for s in again.episodes.search(NS, query())] == ["r1"]
    assert again.facts.get(NS, "f1").text == "suppliers cap liability"
    assert again.procedures.get(NS, "p1").status.value == "pending"
    assert again.confirmations.observe(NS, "k", "run-2") == 2
    assert again.namespaces() == [NS]
    assert (folder / "state.sqlite").exists()  # procedures and confirmations live beside the vectors
    again.close()


def test_lookalike_namespaces_never_share_a_collection(folder):
    memory = open_memory(f"chroma:///{folder}")
    pairs = [Namespace(tenant="acme", agent="a.b"), Namespace(tenant="acme.a", agent="b"),
             Namespace(tenant="acme-a", agent="b")]
    for index, ns in enumerate(pairs):
        memory.episodes.add(ns, episode(f"run-{index}"), vec(0.95))
        memory.facts.put(ns, fact(f"fact-{index}"), vec(0.95))
    for index, ns in enumerate(pairs):
        assert [s.item.run_id for s in memory.episodes.search(ns, query())] == [f"run-{index}"]
        assert [f.fact_id for f in memory.facts.list(ns)] == [f"fact-{index}"]
        assert memory.episodes.get(ns, f"run-{(index + 1) % 3}") is None
    assert memory.episodes.delete(pairs[0], ["run-1", "run-2"]) == 0  # another tenant's ids delete nothing
    names = [c.name for c in memory.client.list_collections()]
    assert len(names) == len(set(names)) == 6 and not any("acme" in n for n in names)
    memory.close()


def test_a_model_change_keeps_vectors_apart_and_a_dimension_change_is_refused(folder):
    memory = open_memory(f"chroma:///{folder}")
    memory.episodes.add(NS, episode("old"), vec(0.9))
    memory.episodes.add(NS, episode("new", model="bigger-model"), [0.1] * 32)  # another model, another size
    assert [s.item.run_id for s in memory.episodes.search(NS, query())] == ["old"]
    bigger = query(vector=[0.1] * 32, model="bigger-model")
    assert [s.item.run_id for s in memory.episodes.search(NS, bigger)] == ["new"]
    assert {e.run_id for e in memory.episodes.list(NS)} == {"old", "new"}
    with pytest.raises(MemoryBackendError, match="dimensions"):
        memory.episodes.add(NS, episode("odd"), [0.1] * 5)  # same model name, different size
    with pytest.raises(MemoryBackendError, match="dimensions"):
        memory.episodes.search(NS, query(vector=[0.1] * 5, model=MODEL))
    with pytest.raises(MemoryBackendError, match="finite"):
        memory.facts.put(NS, fact("bad"), [float("nan")] * 8)
    memory.close()


@pytest.mark.parametrize(
    "url, message",
    [("chroma://", "names no folder"), ("chroma://localhost:8000", "state=/path/state.sqlite"),
     ("chroma://localhost:notaport?state=/tmp/s.sqlite", "invalid port")],
)
def test_bad_chroma_urls_say_what_to_write(url, message):
    with pytest.raises(MemoryConfigError, match=message):
        open_memory(url)


def test_without_chromadb_the_url_says_which_extra_to_install(monkeypatch, folder):
    monkeypatch.setitem(sys.modules, "chromadb", None)  # as if the extra were not installed
    with pytest.raises(MemoryConfigError, match=r"\[chroma\]"):
        open_memory(f"chroma:///{folder}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def chroma_server(data: Path):
    """`chroma run` (shipped with chromadb) on 127.0.0.1, as the docker-compose service serves it."""
    cli = Path(sys.executable).with_name("chroma")
    if not cli.exists():
        pytest.skip("the chroma CLI is not installed beside this Python")
    port = _free_port()
    log = data.parent / "chroma-server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([str(cli), "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
                                   stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1):
                    break
            time.sleep(0.2)
        else:
            pytest.fail(f"chroma run did not start:\n{log.read_text(errors='replace')[-2000:]}")
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def test_a_chroma_server_holds_the_vectors_and_a_local_file_the_counters(tmp_path):
    with chroma_server(tmp_path / "server-data") as port:
        url = f"chroma://127.0.0.1:{port}?state={tmp_path / 'state.sqlite'}"
        memory = open_memory(url)
        assert memory.episodes.add(NS, episode("r1", "review the Acme supply agreement"), vec(0.9))
        assert not memory.episodes.add(NS, episode("r1"), vec(0.9))
        memory.facts.put(NS, fact("f1"), vec(0.8))
        other = Namespace(tenant="globex", agent="reviewer")
        assert memory.episodes.search(other, query()) == [] and memory.facts.list(other) == []
        memory.close()
        reopened = open_memory(url)  # another client of the same server sees the same data
        assert [s.item.run_id for s in reopened.episodes.search(NS, query())] == ["r1"]
        assert [s.item.fact_id for s in reopened.facts.search(NS, query())] == ["f1"]
        reopened.close()


def test_a_review_remembers_through_chroma(folder):
    graph = build_graph()
    ctx = context_from_settings(
        Settings(), tenant="acme", agent="chroma-reviewer", memory=f"chroma:///{folder}", reviewer_model="offline",
        compression_model="offline", extraction_model="offline", embeddings="wordllama",
    )
    states = []
    for index, name in enumerate(("northwind_msa_01", "northwind_msa_02")):
        payload = {"contract_text": (SAMPLES / f"{name}.txt").read_text(), "contract_name": name}
        states.append(graph.invoke(payload, {"configurable": {"thread_id": f"t{index}"}, "recursion_limit": 400},
                                   context=ctx))
    first, second = states
    assert first["memory_writes"]["episode"] == first["run_id"]
    assert [e["item"]["run_id"] for e in second["episodes"]] == [first["run_id"]]
    assert second["usage"]["tool_calls"] < first["usage"]["tool_calls"]  # the remembered layout saved calls
