"""The review graph served by `langgraph dev` and driven through `langgraph_sdk`, as clients would.

Two API keys, two tenants, one server: each tenant reviews, streams, pauses for approval and
resumes; neither sees the other's threads, runs or memory; a client that tries to choose the
tenant, the memory location or the settings is refused, and nothing is written outside the
server's folder. A second server without keys shows local mode.
"""

from __future__ import annotations

import subprocess

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import AuthenticationError, NotFoundError, PermissionDeniedError

from agent.api_keys import add_key
from memory.backends.store import tenant_prefix
from tests.conftest import ROOT, SAMPLES
from tests.server.harness import langgraph_dev

ASSISTANT = "contract_review"  # the graph id in langgraph.json
AGENT = "server-reviewer"
CONTRACTS = ("northwind_msa_01", "northwind_msa_02")


def contract_input(name: str) -> dict:
    return {"contract_text": (SAMPLES / f"{name}.txt").read_text(), "contract_name": name}


def planted(expected: list[dict]) -> set[tuple[str, str]]:
    return {(e["clause_type"], e["verdict"]) for e in expected if e["verdict"] in ("deviation", "missing")}


def untracked_in_repo() -> set[str]:
    """New files in the work tree, and the ignored server-data folder a server in it would write."""
    listed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    found = {line[3:] for line in listed.splitlines() if line.startswith("??")}
    return found | ({".langgraph_api"} if (ROOT / ".langgraph_api").exists() else set())


@pytest.fixture
def two_tenants(tmp_path):
    """A server with keys for acme and globex; the operator's keys file sits outside its folder."""
    keys = tmp_path / "operator" / "api-keys"
    acme, globex = add_key(keys, "acme", "ci"), add_key(keys, "globex", "ci")
    server_folder = tmp_path / "server"
    server_folder.mkdir()
    env = {"CONTRACT_AGENT_HOME": str(server_folder / "home"), "CONTRACT_AGENT_API_KEYS_FILE": str(keys)}
    before = untracked_in_repo()
    with langgraph_dev(server_folder, env) as server:
        yield server, acme, globex
    assert untracked_in_repo() == before, "the server wrote into the repository"


def test_two_tenants_review_and_neither_sees_the_others_threads_runs_or_memory(two_tenants, tmp_path, expected_findings):
    server, acme_key, globex_key = two_tenants
    acme = get_sync_client(url=server.url, api_key=acme_key, timeout=60)  # X-Api-Key
    globex = get_sync_client(url=server.url, api_key=None, headers={"Authorization": f"Bearer {globex_key}"}, timeout=60)
    stranger = get_sync_client(url=server.url, api_key=None, timeout=60)
    assert "API keys required: 2 key(s) for tenant(s) acme, globex" in server.log.read_text(errors="replace")

    with pytest.raises(AuthenticationError, match="API key"):
        stranger.threads.search()
    with pytest.raises(AuthenticationError, match="unknown API key"):
        get_sync_client(url=server.url, api_key="cra_guessed", timeout=60).threads.search()

    # The schemas a client (or Studio) renders: non-null, and the context holds client fields only.
    [assistant] = acme.assistants.search(graph_id=ASSISTANT)
    schemas = acme.assistants.get_schemas(assistant["assistant_id"])
    assert schemas["input_schema"]["properties"]["contract_text"]["type"] == "string"
    assert schemas["output_schema"]["properties"]["findings"]
    context_fields = schemas["context_schema"]["properties"]
    assert set(context_fields) == {"agent", "task_type", "domain", "use_memory", "we", "approve_procedures"}
    assert all(field.get("description") for field in context_fields.values())

    # acme: a streamed review that pauses for approval, then resumes.
    context = {"agent": AGENT, "approve_procedures": True}
    thread = acme.threads.create()
    nodes = []
    for part in acme.runs.stream(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[0]), context=context,
                                 stream_mode=["updates"]):
        assert part.event != "error", part.data
        if part.event == "updates":
            nodes.extend(part.data)
    assert nodes == ["start_run", "bootstrap", "analyze", "consolidate", "__interrupt__"]
    state = acme.threads.get_state(thread["thread_id"])
    [pending] = state["interrupts"]
    request = pending["value"]
    assert request["tenant"] == "acme" and request["agent"] == AGENT  # the key's tenant, not a client's
    assert planted(expected_findings[CONTRACTS[0]]) <= {(f["clause_type"], f["verdict"]) for f in state["values"]["findings"]}
    final = acme.runs.wait(thread["thread_id"], ASSISTANT, command={"resume": {"approve": True, "by": "Dana Reyes"}},
                           context=context)
    assert final["memory_writes"]["procedure_review"]["status"] == "validated"
    first_run = state["values"]["run_id"]

    # acme's memory is in the server's store under acme's prefix, readable by acme only.
    episodes_ns = [*tenant_prefix("acme"), "episodes", AGENT]
    stored = acme.store.search_items(tuple(episodes_ns), limit=20)["items"]
    assert [item["key"] for item in stored] == [first_run]
    with pytest.raises(PermissionDeniedError, match="outside your memory"):
        globex.store.search_items(tuple(episodes_ns))
    with pytest.raises(PermissionDeniedError, match="outside your memory"):
        globex.store.get_item(tuple(episodes_ns), first_run)
    assert globex.store.search_items(("contract_memory",))["items"] == []  # narrowed to globex's own
    with pytest.raises(PermissionDeniedError, match="written by review runs only"):
        acme.store.put_item(tuple(episodes_ns), "forged", {"record": {}})

    # globex sees none of acme's threads or runs, and cannot run on acme's thread.
    assert globex.threads.search() == []
    for look in (lambda: globex.threads.get(thread["thread_id"]), lambda: globex.threads.get_state(thread["thread_id"]),
                 lambda: globex.runs.list(thread["thread_id"])):
        with pytest.raises(NotFoundError):
            look()
    with pytest.raises(httpx.HTTPStatusError) as missing:  # runs.wait raises httpx's error, not the SDK's
        globex.runs.wait(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[1]), context=context)
    assert missing.value.response.status_code == 404
    with pytest.raises(NotFoundError):
        globex.threads.delete(thread["thread_id"])

    # The same review for globex finds no memory at all; acme's second review finds its own.
    theirs = globex.runs.wait(None, ASSISTANT, input=contract_input(CONTRACTS[1]), context={"agent": AGENT})
    assert theirs["episodes"] == [] and theirs["procedure"] is None
    ours = acme.runs.wait(None, ASSISTANT, input=contract_input(CONTRACTS[1]), context={"agent": AGENT})
    assert [e["item"]["run_id"] for e in ours["episodes"]] == [first_run]
    assert ours["procedure"]["procedure_id"] == request["procedure"]["procedure_id"]
    assert [t["thread_id"] for t in acme.threads.search()] == [thread["thread_id"]]

    # Creating a thread with acme's id: globex hears "not found", as for every other action on it,
    # never the platform's 409 "already exists"; acme's thread is untouched.
    with pytest.raises(NotFoundError) as taken:
        globex.threads.create(thread_id=thread["thread_id"])
    assert "exist" not in taken.value.response.text and taken.value.response.status_code == 404
    with pytest.raises(NotFoundError):
        globex.threads.create(thread_id=thread["thread_id"], if_exists="do_nothing")
    assert acme.threads.get(thread["thread_id"])["metadata"]["tenant"] == "acme"
    free = globex.threads.create(thread_id="0d6f3f4e-5b1a-4c8e-9a51-3c2f1e0b9a77")  # a free id is simply created
    assert free["metadata"]["tenant"] == "globex"

    # A second contract on acme's thread is a run of its own: a new run id and its own episode.
    again = acme.runs.wait(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[1]), context={"agent": AGENT})
    assert again["run_id"] not in (first_run, ours["run_id"])
    assert again["memory_writes"]["episode"] == again["run_id"]
    stored = {item["key"] for item in acme.store.search_items(tuple(episodes_ns), limit=20)["items"]}
    assert stored == {first_run, ours["run_id"], again["run_id"]}


def test_a_client_cannot_choose_the_tenant_memory_or_settings(two_tenants, tmp_path):
    server, acme_key, _ = two_tenants
    acme = get_sync_client(url=server.url, api_key=acme_key, timeout=60)
    elsewhere = tmp_path / "elsewhere"
    attempts = [
        {"context": {"tenant": "globex"}},
        {"context": {"agent": AGENT, "memory": f"sqlite:///{elsewhere / 'memory.sqlite'}"}},
        {"context": {"settings": {"home": str(elsewhere)}}},
        {"context": {"reviewer_model": "bedrock:anthropic.claude", "embeddings": "hash"}},
        {"config": {"configurable": {"tenant": "globex", "memory": f"sqlite:///{elsewhere / 'm.sqlite'}"}}},
    ]
    for attempt in attempts:
        thread = acme.threads.create()
        with pytest.raises(httpx.HTTPStatusError) as refused:
            acme.runs.wait(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[0]), **attempt)
        assert refused.value.response.status_code == 422, attempt
        assert "cannot be set by a client" in refused.value.response.text
        assert "agent, approve_procedures, domain, task_type, use_memory" in refused.value.response.text
        assert acme.runs.list(thread["thread_id"]) == []  # refused before any run existed
    # A context field of the wrong shape fails that run with the reason, and the server carries on.
    thread = acme.threads.create()
    run = acme.runs.create(thread["thread_id"], ASSISTANT, input=contract_input(CONTRACTS[0]),
                           context={"agent": "Not An Id!"})
    acme.runs.join(thread["thread_id"], run["run_id"])
    assert acme.runs.get(thread["thread_id"], run["run_id"])["status"] == "error"
    assert "agent" in str(acme.threads.get(thread["thread_id"]).get("error")), "the error names the field"
    assert acme.runs.wait(None, ASSISTANT, input=contract_input(CONTRACTS[0]), context={"use_memory": False})["findings"]

    assert not elsewhere.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["operator", "server"]
    assert [p.name for p in (tmp_path / "operator").iterdir()] == ["api-keys"]


def test_without_keys_the_server_says_local_mode_and_serves_loopback_callers_as_the_default_tenant(tmp_path):
    env = {"CONTRACT_AGENT_HOME": str(tmp_path / "home"), "CONTRACT_AGENT_TENANT": "solo"}
    with langgraph_dev(tmp_path, env) as server:
        assert "LOCAL MODE" in server.log.read_text(errors="replace")
        client = get_sync_client(url=server.url, api_key=None, timeout=60)
        done = client.runs.wait(None, ASSISTANT, input=contract_input(CONTRACTS[0]), context={"agent": AGENT})
        assert done["final_review"]
        prefix = tenant_prefix("solo")
        assert client.store.search_items((*prefix, "episodes", AGENT))["items"][0]["key"] == done["run_id"]
