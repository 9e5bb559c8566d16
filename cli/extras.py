"""Optional extras: which one to install when a command needs a package that is not there.

`make demo` installs the runtime dependencies only; the AWS backend, Chroma, PostgreSQL, Ollama,
the benchmarks' charts and the moto-backed AWS benchmark live in extras of `pyproject.toml`. A
command that needs one of them fails with one line naming the extra, read from the installed
package's own metadata (so the line follows pyproject.toml), instead of `No module named ...`.
"""

from __future__ import annotations

import re

DISTRIBUTION = "contract-memory-agent"

# The import name of a package an extra holds -> its distribution name on PyPI, where they differ.
MODULE_DISTRIBUTIONS = {
    "botocore": "boto3",
    "langchain_aws": "langchain-aws",
    "langchain_ollama": "langchain-ollama",
    "psycopg_pool": "psycopg-pool",
    "sklearn": "scikit-learn",
    "hcl2": "python-hcl2",
    "flask": "moto",
    "flask_cors": "moto",
    "dateutil": "python-dateutil",
    "langgraph.checkpoint.postgres": "langgraph-checkpoint-postgres",
    "langgraph.store.postgres": "langgraph-checkpoint-postgres",
    "langgraph_cli": "langgraph-cli",
}

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?[^;]*;\s*extra\s*==\s*['\"]([^'\"]+)['\"]")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def extras_of(distribution: str) -> list[str]:
    """The extras of this project that install `distribution`, the most specific first (`dev`,
    which holds nearly everything, last)."""
    import importlib.metadata  # only when a command has failed: --help stays quick

    try:
        requirements = importlib.metadata.metadata(DISTRIBUTION).get_all("Requires-Dist") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    found = []
    for line in requirements:
        match = _REQUIREMENT.match(line)
        if match and _normal(match.group(1)) == _normal(distribution) and match.group(3) not in found:
            found.append(match.group(3))
    return sorted(found, key=lambda extra: extra == "dev")


def missing_module(exc: BaseException | None) -> str | None:
    """The module a `ModuleNotFoundError` in `exc` or its causes names, else None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            return exc.name
        exc = exc.__cause__ or exc.__context__
    return None


def missing_extra_message(exc: BaseException) -> str | None:
    """One line saying which extra to install for the package `exc` found missing, or None when
    the package is none of this project's extras (a real bug: let it surface as one)."""
    module = missing_module(exc)
    if module is None:
        return None
    distribution = next((dist for name, dist in MODULE_DISTRIBUTIONS.items()
                         if module == name or module.startswith(name + ".")), module.split(".")[0])
    extras = extras_of(distribution)
    if not extras:
        return None
    extra = extras[0]
    return (f"this command needs {distribution}, which is in the [{extra}] extra and not installed here: "
            f"pip install -e '.[{extra}]' in a clone (or pip install 'contract-memory-agent[{extra}]'); "
            "`make test` installs every extra")
