"""The settings described: the configuration reference of the README, and the values in force.

Both are built from `agent.settings.Settings` itself (each field's name, default and
description), so a new setting shows up without anyone listing it; `contract-review config`
prints them and tests/test_readme_tables.py checks the README's table against `reference_table`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.settings import ENV_PREFIX, Settings, setting_source


def variable(name: str) -> str:
    return ENV_PREFIX + name.upper()


def shown(value: Any) -> str:
    """A value as one would write it in the environment: unset, empty, a path, a number."""
    if value is None:
        return "unset"
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, str):
        return value if value else "empty"
    return str(value)


def reference() -> list[dict[str, str]]:
    """Every setting: its variable, its default and what it means, in the class's order."""
    rows = []
    for name, field in Settings.model_fields.items():
        if not field.description:
            raise ValueError(f"setting {name!r} has no description: give it Field(description=...)")
        default = field.default_factory() if field.default_factory is not None else field.default
        rows.append({"setting": name, "variable": variable(name), "default": shown(default),
                     "meaning": " ".join(field.description.split())})
    return rows


def reference_table() -> str:
    """The configuration table of the README, in Markdown."""
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for row in reference():
        default = row["default"] if row["default"] in ("unset", "empty") else f"`{row['default']}`"
        meaning = row["meaning"].replace("|", r"\|")
        lines.append(f"| `{row['variable']}` | {default} | {meaning} |")
    return "\n".join(lines) + "\n"


def current(settings: Settings) -> list[dict[str, str]]:
    """The values in force and where each came from (default, environment, the .env file)."""
    return [{"setting": name, "variable": variable(name), "value": shown(getattr(settings, name)),
             "from": setting_source(name)} for name in Settings.model_fields]
