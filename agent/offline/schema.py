"""Filling a JSON schema deterministically: how the offline model answers structured-output requests.

Values come from a `source` object where its keys and types fit (the extraction mode passes its
RunArtifacts dict), else from the schema's default, const or first enum value, else the empty
value of the type. The result conforms to the schema's types and required keys.
"""

from __future__ import annotations

from typing import Any

_MISSING = object()
_EMPTY: dict[str, Any] = {"string": "", "integer": 0, "number": 0.0, "boolean": False, "null": None}
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "object": (dict,), "array": (list,), "null": (type(None),),
}


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        ref = str(schema["$ref"])
        node: Any = root
        for part in ref.lstrip("#/").split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        schema = {**{k: v for k, v in schema.items() if k != "$ref"}, **node}
    return schema


def _fits(value: Any, type_name: str) -> bool:
    if type_name in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _PY_TYPES.get(type_name, (object,)))


def fill_schema(schema: dict[str, Any], source: Any = _MISSING, *, root: dict[str, Any] | None = None) -> Any:
    """A value conforming to `schema`, taken from `source` where it fits."""
    root = root if root is not None else schema
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return source if source in schema["enum"] else schema["enum"][0]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        resolved = [_resolve(b, root) for b in branches]
        if source is not _MISSING:
            for branch in resolved:
                if _fits(source, branch.get("type", "")):
                    return fill_schema(branch, source, root=root)
        if "default" in schema:
            return schema["default"]
        nullable = [b for b in resolved if b.get("type") == "null"]
        return None if nullable else fill_schema(resolved[0], root=root)
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            merged.update(_resolve(part, root))
        return fill_schema(merged, source, root=root)
    type_name = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(type_name, list):
        usable = [t for t in type_name if source is not _MISSING and _fits(source, t)]
        type_name = usable[0] if usable else ("null" if "null" in type_name else type_name[0])
    if type_name == "object":
        return _fill_object(schema, source if isinstance(source, dict) else {}, root)
    if type_name == "array":
        items = schema.get("items", {})
        values = source if isinstance(source, list) else []
        return [fill_schema(items, v, root=root) for v in values]
    if source is not _MISSING and _fits(source, type_name):
        return float(source) if type_name == "number" else source
    if "default" in schema:
        return schema["default"]
    if type_name == "string":
        return "x" * int(schema.get("minLength", 0))
    if type_name in ("integer", "number") and "minimum" in schema:
        return schema["minimum"]
    return _EMPTY.get(type_name)


def _fill_object(schema: dict[str, Any], source: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    result: dict[str, Any] = {}
    for key, sub in properties.items():
        if key in source:
            result[key] = fill_schema(sub, source[key], root=root)
        elif key in required:
            result[key] = fill_schema(sub, root=root)
    return result
