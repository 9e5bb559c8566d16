"""README.md's generated tables are what the code prints today (scripts/readme_tables.py writes
them): the demo table from a real demo run, the configuration table from the settings class."""

from __future__ import annotations

import importlib.util

import pytest

from agent.settings import Settings
from agent.settings_doc import reference, reference_table
from tests.conftest import ROOT

spec = importlib.util.spec_from_file_location("readme_tables", ROOT / "scripts" / "readme_tables.py")
readme_tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(readme_tables)

README = (ROOT / "README.md").read_text(encoding="utf-8")
FIX = "README.md is out of date: run `python scripts/readme_tables.py` and commit what it changes"


def test_configuration_table_is_generated_from_the_settings_class():
    assert readme_tables.section(README, "configuration") == reference_table(), FIX


def test_configuration_table_leaves_no_setting_out():
    table = reference_table()
    for name in Settings.model_fields:  # a setting added later is in it without anyone listing it
        assert f"`CONTRACT_AGENT_{name.upper()}`" in table
    for wanted in ("CONTRACT_AGENT_EPISODE_MIN_SCORE", "CONTRACT_AGENT_FACT_MIN_SCORE", "CONTRACT_AGENT_MAX_MODEL_STEPS",
                   "chroma://", "CONTRACT_AGENT_ENV_FILE", "CONTRACT_AGENT_CUAD_DIR"):
        assert wanted in table


def test_every_setting_says_what_it_means():
    assert all(row["meaning"] for row in reference())


def test_a_setting_without_a_description_is_refused(monkeypatch):
    field = Settings.model_fields["tenant"]
    monkeypatch.setattr(field, "description", None)
    with pytest.raises(ValueError, match="tenant"):
        reference()


def test_demo_table_is_what_the_demo_prints():
    assert readme_tables.section(README, "demo") == readme_tables.demo_table(), FIX


def test_check_mode_names_a_stale_table(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "README.md"
    stale.write_text(readme_tables.replace(README, "configuration", "| old | table |\n"), encoding="utf-8")
    monkeypatch.setattr(readme_tables, "README", stale)
    assert readme_tables.main(["--check", "configuration"]) == 1
    assert "configuration" in capsys.readouterr().out
    assert readme_tables.main(["configuration"]) == 0  # rewrites it
    assert readme_tables.section(stale.read_text(encoding="utf-8"), "configuration") == reference_table()
