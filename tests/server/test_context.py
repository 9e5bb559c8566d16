"""The client-facing context and the schemas a server renders; where a run's tenant comes from."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from langgraph.runtime import ServerInfo
from langgraph.store.memory import InMemoryStore
from pydantic import ValidationError

from agent.errors import ConfigurationError
from agent.settings import Settings
from graphs.context import (
    RUNTIME_STORE_URL,
    InProcessContext,
    ReviewContext,
    ReviewServices,
    open_memory_for,
    run_scope,
)
from graphs.review import graph
from graphs.runner import context_from_settings
from memory.backends.store import StoreMemory
from memory.backends.store.layout import episodes_ns
from memory.records import Namespace

CLIENT_FIELDS = {"agent", "task_type", "domain", "use_memory", "we", "approve_procedures"}


class User(dict):
    @property
    def identity(self) -> str:
        return self["identity"]


def test_the_served_graph_has_no_checkpointer_and_renders_every_schema():
    assert graph.checkpointer is None  # `langgraph dev` refuses a graph with its own
    assert graph.get_input_jsonschema()["properties"]["contract_text"]["type"] == "string"
    assert {"findings", "final_review", "memory_writes"} <= set(graph.get_output_jsonschema()["properties"])
    context = graph.get_context_jsonschema()
    assert set(context["properties"]) == CLIENT_FIELDS and context["additionalProperties"] is False
    for name, field in context["properties"].items():
        assert field.get("description") and field.get("type") in ("string", "boolean"), name


def test_the_context_accepts_client_fields_only_and_validates_them():
    assert ReviewContext(agent="reviewer-2", use_memory=False).agent == "reviewer-2"
    for extra in ({"tenant": "globex"}, {"memory": "sqlite:////tmp/m.sqlite"}, {"settings": {}}, {"clock": None}):
        with pytest.raises(ValidationError, match="Unexpected keyword argument"):
            ReviewContext(**extra)
    with pytest.raises(ValidationError, match="should match pattern"):
        ReviewContext(agent="../other-tenant")
    with pytest.raises(ValidationError):
        ReviewContext(use_memory="sometimes")


def test_services_can_only_be_injected_in_process():
    with pytest.raises(ValidationError):  # JSON cannot stand in for the in-process object
        InProcessContext(services={"tenant": "globex", "memory": "sqlite:////tmp/x.sqlite"})
    with pytest.raises(TypeError, match="unknown review option"):
        context_from_settings(Settings(), tenants="x")


def test_the_tenant_is_the_authenticated_users_never_the_services_default():
    services = ReviewServices(settings=Settings(tenant="default"), tenant="cli-tenant")
    local = InProcessContext(agent="a", services=services)
    assert run_scope(SimpleNamespace(context=local)).namespace == Namespace(tenant="cli-tenant", agent="a")
    served = SimpleNamespace(context=ReviewContext(agent="a"),
                             server_info=ServerInfo(assistant_id="x", graph_id="g", user=User(identity="k", tenant="acme")))
    assert run_scope(served).tenant == "acme"
    nameless = SimpleNamespace(context=ReviewContext(), server_info=ServerInfo("x", "g", user=User(identity="k")))
    with pytest.raises(ConfigurationError, match="carries no tenant"):
        run_scope(nameless)


def test_a_served_graph_keeps_memory_in_langgraphs_store_unless_the_server_names_another(settings):
    store = InMemoryStore()
    served = ReviewServices(settings=settings, served=True)
    scope = run_scope(SimpleNamespace(context=InProcessContext(services=served), store=store))
    assert served.memory_spec() == RUNTIME_STORE_URL
    memory = open_memory_for(scope)
    assert isinstance(memory, StoreMemory) and memory.store is store
    assert memory.episodes.list(Namespace(tenant="default", agent="a")) == []
    assert list(store.search(episodes_ns(Namespace(tenant="default", agent="a")))) == []
    without_store = run_scope(SimpleNamespace(context=InProcessContext(services=served)))
    with pytest.raises(ConfigurationError, match="runs without one"):
        open_memory_for(without_store)
    in_process = ReviewServices(settings=settings)
    assert in_process.memory_spec() == settings.resolved_memory_url()
    named = ReviewServices(settings=settings.model_copy(update={"memory_url": "sqlite:///x.sqlite"}), served=True)
    assert named.memory_spec() == "sqlite:///x.sqlite"
