"""One model setting per role and one switch for all, LangChain provider strings, and chat models
defined outside the project (`package.module:factory`), driven through the whole graph."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from agent.errors import ConfigurationError
from agent.models import langchain_providers, load_chat_model
from agent.offline import OfflineReviewerModel
from agent.settings import Settings
from cli.main import main
from graphs.runner import choice, context_from_settings
from tests.conftest import SAMPLES
from tools.playbook import load_playbook

CLAUSE_TYPES = len(load_playbook().clause_types)
CONTRACT = SAMPLES / "northwind_msa_01.txt"
FACTORY = '''
from agent.offline import OfflineReviewerModel

ROLES = []


class OutsideModel(OfflineReviewerModel):
    """A chat model the project does not know: here the offline reviewer under another name."""


def make(role="reviewer"):
    ROLES.append(role)
    return OutsideModel(model=f"outside-{role}")


def wrong():
    return "not a chat model"
'''


@pytest.fixture
def outside_package(tmp_path, monkeypatch):
    """A package beside the user (the current directory), as a user writes one."""
    name = f"mymodels_{tmp_path.name.replace('-', '_')}"
    package = tmp_path / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mymodel.py").write_text(textwrap.dedent(FACTORY))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield name
    for module in [m for m in sys.modules if m.startswith(name)]:
        del sys.modules[module]


def test_model_applies_to_every_role_unless_the_role_has_its_own():
    every = Settings(model="realistic:4")
    assert {role: every.model_spec(role) for role in ("reviewer", "compression", "extraction")} == dict.fromkeys(
        ("reviewer", "compression", "extraction"), "realistic:4")
    mixed = Settings(model="realistic:4", extraction_model="offline")
    ctx = context_from_settings(mixed)
    assert [choice(ctx, f"{role}_model") for role in ("reviewer", "compression", "extraction")] == [
        "realistic:4", "realistic:4", "offline"]


def test_the_cli_model_option_reaches_every_role_through_an_outside_factory(outside_package, capsys):
    code = main(["review", str(CONTRACT), "--format", "json", "--model", f"{outside_package}.mymodel:make"])
    assert code == 0, capsys.readouterr().err
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "COMPLETED" and len(report["findings"]) == CLAUSE_TYPES
    assert report["memory"]["writes"]["episode"] == report["run_id"]  # the extraction role ran on it too
    roles = sys.modules[f"{outside_package}.mymodel"].ROLES
    assert sorted(roles) == ["compression", "extraction", "reviewer"]


def test_a_role_setting_keeps_its_own_model_under_the_switch(outside_package, monkeypatch, capsys):
    monkeypatch.setenv("CONTRACT_AGENT_EXTRACTION_MODEL", "offline")
    assert main(["review", str(CONTRACT), "--no-memory", "--format", "json", "--quiet",
                 "--model", f"{outside_package}.mymodel:make"]) == 0
    assert sorted(sys.modules[f"{outside_package}.mymodel"].ROLES) == ["compression", "reviewer"]


def test_an_outside_factory_must_return_a_chat_model(outside_package):
    with pytest.raises(ConfigurationError, match="returned str, not a LangChain BaseChatModel"):
        load_chat_model(f"{outside_package}.mymodel:wrong")
    with pytest.raises(ConfigurationError, match="has no attribute 'missing'"):
        load_chat_model(f"{outside_package}.mymodel:missing")
    model = load_chat_model(f"{outside_package}.mymodel:make", role="compression")
    assert isinstance(model, OfflineReviewerModel) and model.model == "outside-compression"


def test_langchain_provider_strings_go_through_init_chat_model(monkeypatch):
    assert {"openai", "anthropic", "groq", "mistralai"} <= langchain_providers()
    with pytest.raises(ConfigurationError, match="needs its LangChain integration package"):
        load_chat_model("anthropic:claude-3-5-haiku-latest", settings=Settings())
    # No provider package but ours is installed here: register one more provider the way
    # LangChain lists its own, and check init_chat_model builds it with our sampling and budget.
    import langchain.chat_models.base as lc

    monkeypatch.setitem(lc._BUILTIN_PROVIDERS, "localtest",
                        ("agent.offline.model", "OfflineReviewerModel", lc._BUILTIN_PROVIDERS["openai"][2]))
    lc._get_chat_model_creator.cache_clear()
    model = load_chat_model("localtest:small-model-7b", role="extraction", settings=Settings())
    assert isinstance(model, OfflineReviewerModel)
    assert (model.model, model.temperature, model.max_tokens) == ("small-model-7b", 0.0, 2048)
    lc._get_chat_model_creator.cache_clear()
