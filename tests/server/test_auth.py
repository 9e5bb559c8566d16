"""API keys and the served graph's auth handlers, in process (the real server: test_langgraph_server.py)."""

from __future__ import annotations

import asyncio
import json
import os
import stat

import pytest
from langgraph_sdk import Auth

from agent.api_keys import KeyRing, add_key, digest, load_key_ring, parse_keys
from agent.errors import ConfigurationError
from agent.settings import get_settings
from graphs import auth as served_auth


class User(dict):
    """What LangGraph hands the handlers: attribute and item access to the user dict."""

    @property
    def identity(self) -> str:
        return self["identity"]


def ctx(resource: str, action: str, tenant: str | None = "acme") -> Auth.types.AuthContext:
    user = User(identity=f"{tenant}/ci", **({"tenant": tenant} if tenant else {}))
    return Auth.types.AuthContext(resource=resource, action=action, user=user, permissions=[])


def run(coroutine):
    return asyncio.run(coroutine)


@pytest.fixture
def keys_file(tmp_path, monkeypatch):
    path = tmp_path / "keys"
    monkeypatch.setenv("CONTRACT_AGENT_API_KEYS_FILE", str(path))
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


def test_a_new_key_is_printed_once_and_only_its_digest_is_kept(tmp_path):
    path = tmp_path / "keys"
    key = add_key(path, "acme", "ci")
    text = path.read_text()
    assert key not in text and digest(key) in text and text.startswith("acme ci sha256:")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    ring = KeyRing(parse_keys(text, "keys"))
    assert ring.find(key).tenant == "acme" and ring.find(key + "x") is None and ring.find("") is None
    with pytest.raises(ConfigurationError, match="already has a key named 'ci'"):
        add_key(path, "acme", "ci")
    with pytest.raises(ConfigurationError, match="invalid tenant 'Acme Corp'"):
        add_key(path, "Acme Corp", "ci")


@pytest.mark.parametrize("line", ["acme ci", "acme ci md5:abc", "ACME ci sha256:" + "0" * 64, "acme ci sha256:" + "0" * 63,
                                  "acme/x ci sha256:" + "0" * 64])
def test_a_malformed_key_line_names_its_source_and_entry(line):
    with pytest.raises(ConfigurationError, match=r"keys file, entry 2: expected"):
        parse_keys("# comment\n" + line, "keys file")


def test_keys_come_from_the_file_and_the_environment_and_names_do_not_clash(tmp_path, settings):
    path = tmp_path / "keys"
    add_key(path, "acme", "ci")
    both = settings.model_copy(update={"api_keys_file": path, "api_keys": f"globex bot {digest('k1')}; # none"})
    assert {(k.tenant, k.name) for k in load_key_ring(both).keys} == {("acme", "ci"), ("globex", "bot")}
    clash = settings.model_copy(update={"api_keys": f"acme a {digest('k1')}\nacme a {digest('k2')}"})
    with pytest.raises(ConfigurationError, match="configured twice"):
        load_key_ring(clash)
    missing = settings.model_copy(update={"api_keys_file": tmp_path / "absent"})
    with pytest.raises(ConfigurationError, match="cannot read the API keys file"):
        load_key_ring(missing)


def test_a_key_maps_to_its_tenant_by_bearer_or_header_and_a_new_key_works_without_restart(keys_file):
    key = add_key(keys_file, "acme", "ci")
    scope = {"client": ("10.1.2.3", 5555)}
    user = run(served_auth.authenticate(f"Bearer {key}", {}, scope))
    assert (user["identity"], user["tenant"]) == ("acme/ci", "acme")
    assert run(served_auth.authenticate(None, {b"x-api-key": key.encode()}, scope))["tenant"] == "acme"
    for authorization, headers in [(None, {}), ("Basic abc", {}), ("Bearer cra_wrong", {})]:
        with pytest.raises(Auth.exceptions.HTTPException) as denied:
            run(served_auth.authenticate(authorization, headers, scope))
        assert denied.value.status_code == 401
    later = add_key(keys_file, "globex", "ci")
    os.utime(keys_file, (os.stat(keys_file).st_atime, os.stat(keys_file).st_mtime + 5))
    assert run(served_auth.authenticate(f"Bearer {later}", {}, scope))["tenant"] == "globex"


def test_without_keys_only_loopback_callers_are_served_all_as_the_default_tenant(keys_file, monkeypatch):
    monkeypatch.delenv("CONTRACT_AGENT_API_KEYS_FILE")
    monkeypatch.setenv("CONTRACT_AGENT_TENANT", "solo")
    get_settings.cache_clear()
    user = run(served_auth.authenticate("Bearer anything", {}, {"client": ("127.0.0.1", 1)}))
    assert (user["identity"], user["tenant"]) == ("local", "solo")
    with pytest.raises(Auth.exceptions.HTTPException) as denied:
        run(served_auth.authenticate(None, {}, {"client": ("192.168.1.9", 1)}))
    assert denied.value.status_code == 403 and "no API keys configured" in denied.value.detail


def test_threads_are_stamped_with_the_tenant_and_filtered_by_it():
    value = {"thread_id": "t", "metadata": {"tenant": "globex", "note": "mine"}}
    assert run(served_auth.tenant_only(ctx("threads", "create"), value)) == {"tenant": "acme"}
    assert value["metadata"] == {"tenant": "acme", "owner": "acme/ci", "note": "mine"}
    moved = {"thread_id": "t", "metadata": {"tenant": "globex"}}  # an update cannot give a thread away
    run(served_auth.tenant_only(ctx("threads", "update"), moved))
    assert moved["metadata"]["tenant"] == "acme"
    assert run(served_auth.tenant_only(ctx("threads", "search"), {"metadata": {}})) == {"tenant": "acme"}
    with pytest.raises(Auth.exceptions.HTTPException, match="carries no tenant"):
        run(served_auth.tenant_only(ctx("threads", "read", tenant=None), {}))


@pytest.mark.parametrize("context", [{"tenant": "globex"}, {"memory": "sqlite:////tmp/x.sqlite"}, {"settings": {}},
                                     {"agent": "a", "clock": "now"}, "not an object"])
def test_a_run_context_naming_server_fields_is_refused(context):
    value = {"thread_id": None, "metadata": {}, "kwargs": {"context": context}}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        run(served_auth.create_run(ctx("threads", "create_run"), value))
    assert refused.value.status_code == 422 and "cannot be set by a client" in refused.value.detail


def test_a_run_context_of_client_fields_is_accepted_and_the_run_is_stamped():
    value = {"metadata": {}, "kwargs": {"context": {"agent": "a", "use_memory": False, "approve_procedures": True}}}
    assert run(served_auth.create_run(ctx("threads", "create_run"), value)) == {"tenant": "acme"}
    assert value["metadata"]["tenant"] == "acme"


def test_assistants_are_read_only_for_callers():
    assert run(served_auth.assistants(ctx("assistants", "search"), {})) is True
    for action in ("create", "update", "delete"):
        with pytest.raises(Auth.exceptions.HTTPException, match="operator"):
            run(served_auth.assistants(ctx("assistants", action), {}))


def test_the_store_is_read_only_and_confined_to_the_callers_tenant():
    for action in ("put", "delete"):
        with pytest.raises(Auth.exceptions.HTTPException, match="written by review runs only"):
            run(served_auth.store(ctx("store", action), {"namespace": ("contract_memory", "acme"), "key": "k"}))
    broad = {"namespace": ("contract_memory",)}
    assert run(served_auth.store(ctx("store", "search"), broad)) is True
    assert broad["namespace"] == ("contract_memory", "acme")
    listing = {"namespace": None}
    run(served_auth.store(ctx("store", "list_namespaces"), listing))
    assert listing["namespace"] == ("contract_memory", "acme")
    own = {"namespace": ("contract_memory", "acme", "episodes", "a"), "key": "r1"}
    assert run(served_auth.store(ctx("store", "get"), own)) is True
    for namespace in [("contract_memory", "globex", "episodes", "a"), ("other",), ("contract_memory", "acme2")]:
        with pytest.raises(Auth.exceptions.HTTPException, match="outside your memory"):
            run(served_auth.store(ctx("store", "get"), {"namespace": namespace, "key": "r1"}))


def test_the_keys_commands_add_a_key_once_and_list_names_only(home, capsys):
    from cli.main import main

    assert main(["keys", "list"]) == 0
    assert "local mode" in capsys.readouterr().out
    assert main(["keys", "add", "--tenant", "acme", "--name", "ci-bot"]) == 0
    key = capsys.readouterr().out.strip()
    assert key.startswith("cra_") and key not in (home / "api-keys").read_text()
    assert main(["keys", "add", "--tenant", "acme", "--name", "ci-bot"]) == 3
    assert "already has a key" in capsys.readouterr().err
    assert main(["keys", "list", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"tenant": "acme", "name": "ci-bot"}]
    get_settings.cache_clear()
    assert run(served_auth.authenticate(f"Bearer {key}", {}, {"client": ("10.0.0.1", 1)}))["tenant"] == "acme"
