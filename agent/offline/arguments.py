"""Tool choice and tool-call arguments for requests outside the contract review, read from the text.

The offline model does not understand language; for a generic tool it only takes what the request
states literally, so a call is valid and its values are ones the user wrote:
- a call written out, `name(3)` or `name(city="Oslo")`: positional values map onto the tool's
  parameters in order, keywords by name (Python literals only; nothing is evaluated);
- otherwise, for a required string parameter, the first quoted text, else the first run of
  capitalised words past the start of a sentence ("a Pirate greeting" -> "Pirate"); for a number,
  the first number written. Anything not found is left to the schema filler (`fill_schema`).
A tool is picked, when none is forced, by the words its name and description share with the request.
"""

from __future__ import annotations

import ast
import re
from typing import Any

_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|「([^」]+)」")
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w'&-]*(?:,?\s[A-Z][\w'&-]*)*)")
_NUMBER = re.compile(r"(?<![\w.,])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\w|[.,]\d)")
_WORD = re.compile(r"[a-z0-9]+")
# Words too common to say which tool a request is about.
_STOP = frozenset("a an and the of to in on for with is are be by it this that what which use using tool call get "
                  "from as at or me my you your please".split())


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _STOP and len(w) > 1}


def pick_tool(tools: list[dict[str, Any]], request: str) -> dict[str, Any] | None:
    """The bound tool (OpenAI format) the request names or is most about; None if no word is shared."""
    for tool in tools:
        if re.search(rf"\b{re.escape(tool['function']['name'])}\b", request):
            return tool
    wanted = _words(request)
    scored = []
    for index, tool in enumerate(tools):
        function = tool["function"]
        shared = wanted & (_words(function["name"]) | _words(function.get("description") or ""))
        if shared:
            scored.append((len(shared), -index, tool))
    return max(scored, key=lambda s: s[:2])[2] if scored else None


def _written_call(name: str, request: str) -> tuple[list[Any], dict[str, Any]] | None:
    match = re.search(rf"\b{re.escape(name)}\s*\(", request)
    if not match:
        return None
    depth, start = 1, match.end()
    for end in range(start, len(request)):
        depth += {"(": 1, ")": -1}.get(request[end], 0)
        if depth == 0:
            break
    else:
        return None
    try:
        call = ast.parse(f"f({request[start:end]})", mode="eval").body
        assert isinstance(call, ast.Call)
        return [ast.literal_eval(a) for a in call.args], {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except (SyntaxError, ValueError, AssertionError):
        return None


def _literal(type_name: str, request: str) -> Any:
    if type_name == "string":
        quoted = _QUOTED.search(request)
        if quoted:
            return next(group for group in quoted.groups() if group)
        named = _CAPITALISED.search(request)
        return named.group(1) if named else None
    if type_name in ("integer", "number"):
        for number in _NUMBER.findall(request):
            value = float(number.replace(",", ""))
            if type_name == "number" or value.is_integer():
                return value if type_name == "number" else int(value)
    return None


def arguments_from_request(tool: dict[str, Any], request: str) -> dict[str, Any]:
    """Argument values the request states for `tool` (OpenAI format); may be partial or empty."""
    function = tool["function"]
    parameters = function.get("parameters") or {}
    properties: dict[str, Any] = parameters.get("properties") or {}
    written = _written_call(function["name"], request)
    if written is not None:
        positional, keywords = written
        args = dict(zip(properties, positional, strict=False))
        args.update({k: v for k, v in keywords.items() if k in properties})
        return args
    args = {}
    for key in parameters.get("required") or []:
        value = _literal(str((properties.get(key) or {}).get("type", "")), request)
        if value is not None:
            args[key] = value
    return args
