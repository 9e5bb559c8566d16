"""Reading a model's run-artifacts answer: the usual slips repaired, what cannot be read reported.

The consolidate step asks a model to distil a finished run into `RunArtifacts`. Models answer
with native structured output where they have it, else with text; either way the answer goes
through `read_artifacts`, which accepts what real models produce:

* JSON wrapped in prose or code fences, several objects, braces in the prose around it
  (the first object that looks like run artifacts wins; trailing commas are forgiven);
* a wrapper object (`{"run_artifacts": {...}}`), key aliases (`summary`, `findings`, `facts`);
* enums in any case or a synonym (`completed`, `Complete`, `success` -> COMPLETED);
* confidence as a percentage (`80`, `"80%"` -> 0.8), numbers as strings;
* procedure steps as objects (`{"step": 1, "description": ...}`) or one multi-line string;
  lists given as one comma- or line-separated string; tool names as objects.

Every repair is listed (`Reading.repairs`), and an answer that still cannot be read raises
`ArtifactsError` with the reason, which the caller reports and can send back for one retry.
Nothing here falls back silently.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import ValidationError

from memory.records import Extraction, Outcome, RunArtifacts

log = logging.getLogger(__name__)

ARTIFACTS_TOOL = "run_artifacts"
EXTRACT_REQUEST = "Extract the run artifacts as JSON now."  # the request's last line
# What native structured output is asked for: the RunArtifacts fields, plainly typed.
ARTIFACTS_SCHEMA: dict[str, Any] = {
    "title": ARTIFACTS_TOOL,
    "description": "The distilled record of a finished agent run, for the agent's long-term memory.",
    "type": "object",
    "properties": {
        "task_summary": {"type": "string", "description": "what was done, for whom, on what"},
        "outcome": {"type": "string", "enum": ["COMPLETED", "PARTIAL", "FAILED"],
                    "description": "how the run ended; the outcome the run observed stands unless yours is worse "
                                   "and lowered_because names why"},
        "lowered_because": {"type": "array", "items": {"type": "string"},
                            "description": "only for an outcome worse than the run observed: each item still open "
                                           "or problem the run recorded that makes it worse, by name"},
        "key_findings": {"type": "array", "items": {"type": "string"}},
        "approach": {"type": "string"},
        "tools_used": {"type": "array", "items": {"type": "string"}},
        "step_count": {"type": "integer"},
        "reusable_patterns": {"type": "array", "items": {"type": "string"}},
        "fact_candidates": {"type": "array", "items": {
            "type": "object",
            "properties": {"text": {"type": "string"}, "domain": {"type": "string"},
                           "confidence": {"type": "number", "description": "0 to 1"}},
            "required": ["text", "confidence"],
        }},
        "procedure": {"anyOf": [
            {"type": "object", "properties": {"title": {"type": "string"},
                                              "steps": {"type": "array", "items": {"type": "string"}}},
             "required": ["title", "steps"]},
            {"type": "null"},
        ]},
    },
    "required": ["task_summary", "outcome", "key_findings", "approach", "tools_used", "step_count"],
}
# What a run records about itself (its task, findings, tools and steps, from the graph state): the
# memory steps fill these from the run and ask the model only for the rest, what needs judgement.
RECORDED_FIELDS = ("task_summary", "key_findings", "tools_used", "step_count")


def judgement_schema(schema: dict[str, Any] = ARTIFACTS_SCHEMA) -> dict[str, Any]:
    """`schema` without the fields a run records itself (RECORDED_FIELDS)."""
    return {**schema, "properties": {k: v for k, v in schema["properties"].items() if k not in RECORDED_FIELDS},
            "required": [k for k in schema["required"] if k not in RECORDED_FIELDS]}

_OUTCOMES = {
    "completed": Outcome.COMPLETED, "complete": Outcome.COMPLETED, "success": Outcome.COMPLETED,
    "succeeded": Outcome.COMPLETED, "successful": Outcome.COMPLETED, "done": Outcome.COMPLETED,
    "partial": Outcome.PARTIAL, "partially_completed": Outcome.PARTIAL, "incomplete": Outcome.PARTIAL,
    "failed": Outcome.FAILED, "failure": Outcome.FAILED, "fail": Outcome.FAILED, "error": Outcome.FAILED,
    "unknown": Outcome.UNKNOWN,
}
_ALIASES = {
    "summary": "task_summary", "task": "task_summary", "findings": "key_findings", "key_finding": "key_findings",
    "patterns": "reusable_patterns", "facts": "fact_candidates", "fact_candidate": "fact_candidates",
    "tools": "tools_used", "steps_taken": "step_count", "steps_count": "step_count", "num_steps": "step_count",
    "status": "outcome", "result": "outcome",
    "lower_because": "lowered_because", "because": "lowered_because", "reason": "lowered_because",
    "reasons": "lowered_because", "outcome_reason": "lowered_because", "outcome_reasons": "lowered_because",
    "open": "lowered_because", "still_open": "lowered_because", "open_items": "lowered_because",
}
# Other names a model gives what it says is still open ("open_clause_types", "open_tasks" ...).
_OPEN_KEY = re.compile(r"^(?:open|still_open|unfinished|outstanding)_\w+$")
_WRAPPERS = ("run_artifacts", "artifacts", "run", "result", "data", "output")
_STEP_TEXT_KEYS = ("description", "text", "step", "action", "instruction", "title", "name")
_FACT_TEXT_KEYS = ("text", "fact", "statement", "description")
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


class ArtifactsError(ValueError):
    """A run-artifacts answer that cannot be read, with the reason (sent back on a retry)."""


@dataclass
class Reading:
    """Artifacts read from an answer, and the slips that were repaired on the way."""

    artifacts: RunArtifacts
    repairs: list[str] = field(default_factory=list)


def _objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object in `text` (fenced blocks first), outermost ones, in order."""
    decoder = json.JSONDecoder()
    sources = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    found: list[dict[str, Any]] = []
    for source in sources:
        index = source.find("{")
        while index != -1:
            value, end = _decode_at(decoder, source, index)
            if isinstance(value, dict):
                found.append(value)
                index = source.find("{", end)
            else:
                index = source.find("{", index + 1)
    return found


def _decode_at(decoder: json.JSONDecoder, text: str, index: int) -> tuple[Any, int]:
    try:
        return decoder.raw_decode(text, index)
    except json.JSONDecodeError:
        pass
    # forgive trailing commas: decode the span up to the matching brace with them removed
    depth, in_string, escaped = 0, False, False
    for position in range(index, len(text)):
        char = text[position]
        if in_string:
            escaped = char == "\\" and not escaped
            if char == '"' and not escaped:
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                try:
                    return json.loads(_TRAILING_COMMA.sub(r"\1", text[index:position + 1])), position + 1
                except json.JSONDecodeError:
                    return None, index + 1
    return None, index + 1


def _looks_like_artifacts(data: dict[str, Any]) -> bool:
    keys = {_ALIASES.get(k, k) for k in (_key(k) for k in data)}
    return bool(keys & {"outcome", "task_summary", "key_findings", "approach", "reusable_patterns"})


def _key(key: Any) -> str:
    return re.sub(r"[\s\-]+", "_", str(key).strip()).lower()


def _unwrap(data: dict[str, Any], repairs: list[str]) -> dict[str, Any]:
    for _ in range(3):
        if _looks_like_artifacts(data):
            return data
        inner = [v for k, v in data.items() if _key(k) in _WRAPPERS and isinstance(v, dict)]
        if len(inner) != 1:
            return data
        repairs.append("unwrapped a wrapper object")
        data = inner[0]
    return data


def _text_list(value: Any, keys: tuple[str, ...], what: str, repairs: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        parts = [p for p in re.split(r"\n|;\s+(?=\S)", value) if p.strip()]
        if len(parts) == 1 and "," in value and what == "tools_used":
            parts = value.split(",")
        repairs.append(f"{what} given as one string")
        return [_NUMBERING.sub("", p).strip() for p in parts if p.strip()]
    if not isinstance(value, list):
        raise ArtifactsError(f"{what} must be a list, got {type(value).__name__}")
    items: list[str] = []
    for item in value:
        if isinstance(item, dict):
            text = next((str(item[k]) for k in keys if k in item and isinstance(item[k], str | int | float)
                         and not isinstance(item[k], bool) and str(item[k]).strip() and not str(item[k]).isdigit()),
                        None)
            if text is None:
                text = "; ".join(f"{k}: {v}" for k, v in item.items())
            repairs.append(f"{what} given as objects")
            items.append(text.strip())
        elif item is not None and str(item).strip():
            text = str(item).strip()
            if _NUMBERING.match(text):
                repairs.append(f"{what} numbered")
                text = _NUMBERING.sub("", text).strip()
            items.append(text)
    return items


def _confidence(value: Any, repairs: list[str]) -> float:
    if isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        try:
            number = float(text)
        except ValueError:
            words = {"high": 0.85, "medium": 0.7, "low": 0.4}
            if text.lower() in words:
                repairs.append("confidence given as a word")
                return words[text.lower()]
            raise ArtifactsError(f"confidence {value!r} is not a number") from None
        if value.strip().endswith("%"):
            number = number / 100 if number > 1 else number
        repairs.append("confidence given as text")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        return 0.0
    if 1.0 < number <= 100.0:
        repairs.append("confidence given as a percentage")
        number /= 100.0
    if not 0.0 <= number <= 1.0:
        raise ArtifactsError(f"confidence {value!r} is outside 0-1")
    return number


def _facts(value: Any, repairs: list[str]) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        value = [value]
    facts = []
    for item in value:
        if isinstance(item, str):
            if item.strip():
                facts.append({"text": item.strip(), "confidence": 0.0})
                repairs.append("fact given as plain text (no confidence)")
            continue
        if not isinstance(item, dict):
            continue
        fields = {_key(k): v for k, v in item.items()}
        text = next((str(fields[k]) for k in _FACT_TEXT_KEYS if isinstance(fields.get(k), str) and fields[k].strip()),
                    "")
        if not text:
            continue
        fact: dict[str, Any] = {"text": text.strip(), "confidence": _confidence(fields.get("confidence"), repairs)}
        if isinstance(fields.get("domain"), str) and fields["domain"].strip():
            fact["domain"] = fields["domain"].strip()
        facts.append(fact)
    return facts


def _procedure(value: Any, repairs: list[str]) -> dict[str, Any] | None:
    if value in (None, "", [], {}):
        return None
    if isinstance(value, list | str):
        repairs.append("procedure given as bare steps")
        value = {"title": "", "steps": value}
    if not isinstance(value, dict):
        raise ArtifactsError(f"procedure must be an object with title and steps, got {type(value).__name__}")
    fields = {_key(k): v for k, v in value.items()}
    steps = _text_list(fields.get("steps"), _STEP_TEXT_KEYS, "procedure steps", repairs)
    title = fields.get("title") or fields.get("name") or ""
    if not steps:
        return None
    return {"title": str(title).strip() or "Procedure", "steps": steps}


def _outcome(value: Any, repairs: list[str]) -> Outcome:
    if isinstance(value, Outcome):
        return value
    text = _key(value) if value is not None else ""
    if text not in _OUTCOMES:
        raise ArtifactsError(f"outcome {value!r} is not one of COMPLETED, PARTIAL, FAILED")
    if str(value) != _OUTCOMES[text].value:
        repairs.append(f"outcome {value!r} read as {_OUTCOMES[text].value}")
    return _OUTCOMES[text]


def _integer(value: Any, what: str, repairs: list[str]) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        raise ArtifactsError(f"{what} must be a whole number")
    if isinstance(value, int):
        return value
    try:
        number = int(float(str(value).strip()))
    except ValueError:
        raise ArtifactsError(f"{what} {value!r} is not a number") from None
    repairs.append(f"{what} given as {type(value).__name__}")
    return number


def normalise(data: dict[str, Any]) -> Reading:
    """Run artifacts from a decoded answer, repairing the usual slips (see module doc)."""
    repairs: list[str] = []
    data = _unwrap(data, repairs)
    fields: dict[str, Any] = {}
    reasons: list[str] = []
    for raw_key, value in data.items():
        key = _key(raw_key)
        key = "lowered_because" if _OPEN_KEY.match(key) else _ALIASES.get(key, key)
        if key == "lowered_because":  # every name a model gives its reasons, together
            value = list(value) if isinstance(value, dict) else value  # {"insurance": "open"}: the names
            reasons += _text_list(value, ("item", "name", "reason", "text"), "lowered_because", repairs)
            continue
        if key != raw_key and key in RunArtifacts.model_fields:
            repairs.append(f"key {raw_key!r} read as {key}")
        fields.setdefault(key, value)
    if "outcome" not in fields:
        raise ArtifactsError("the answer has no outcome")
    summary = fields.get("task_summary")
    approach = fields.get("approach")
    shaped = {
        "task_summary": summary.strip() if isinstance(summary, str) else "",
        "outcome": _outcome(fields.get("outcome"), repairs),
        "key_findings": _text_list(fields.get("key_findings"), ("finding", "text", "description"), "key_findings",
                                   repairs),
        "approach": approach.strip() if isinstance(approach, str) else
        " ".join(_text_list(approach, _STEP_TEXT_KEYS, "approach", repairs)),
        "tools_used": list(dict.fromkeys(_text_list(fields.get("tools_used"), ("name", "tool"), "tools_used",
                                                    repairs))),
        "step_count": _integer(fields.get("step_count"), "step_count", repairs),
        "reusable_patterns": _text_list(fields.get("reusable_patterns"), ("pattern", "text", "description"),
                                        "reusable_patterns", repairs),
        "fact_candidates": _facts(fields.get("fact_candidates"), repairs),
        "procedure": _procedure(fields.get("procedure"), repairs),
        "lowered_because": list(dict.fromkeys(reasons)),
    }
    try:
        artifacts = RunArtifacts.model_validate(shaped)
    except ValidationError as exc:
        raise ArtifactsError(f"the answer does not fit the run-artifacts record: {exc.errors()[0]['msg']}") from exc
    return Reading(artifacts=artifacts, repairs=list(dict.fromkeys(repairs)))


def read_artifacts(answer: str | dict[str, Any] | None) -> Reading:
    """Run artifacts from a model's answer (a decoded object, or text holding one)."""
    if isinstance(answer, dict):
        return normalise(answer)
    text = (answer or "").strip()
    if not text:
        raise ArtifactsError("the answer is empty")
    objects = _objects(text)
    candidates = [o for o in objects if _looks_like_artifacts(_unwrap(o, []))]
    if not candidates:
        first = text.find("{")
        if first != -1 and _decode_at(json.JSONDecoder(), text, first)[0] is None:
            raise ArtifactsError("the JSON object in the answer is cut off or malformed")
        raise ArtifactsError("no JSON object with an outcome in the answer" if objects else "no JSON object in the answer")
    reading = normalise(candidates[0])
    if text[0] != "{" or not text.endswith("}"):
        reading.repairs.insert(0, "JSON wrapped in prose or code fences")
    return reading


RETRY_REQUEST = ("Your answer could not be used: {reason}. Answer again with ONE JSON object and nothing else "
                 "(no prose, no code fences), with the keys {keys}; outcome is COMPLETED, PARTIAL or FAILED, "
                 "a fact's confidence is between 0 and 1.")


def retry_request(reason: str, schema: dict[str, Any] = ARTIFACTS_SCHEMA) -> str:
    """The message that sends an unreadable answer back, naming the keys `schema` asks for."""
    keys = list(schema["properties"])
    return RETRY_REQUEST.format(reason=reason, keys=f"{', '.join(keys[:-1])} and {keys[-1]}")


@dataclass
class Extracted:
    """What asking the extraction model gave: the artifacts (None if no answer could be read) and
    a report of how (status, method, attempts, errors, repairs, the usage of each call)."""

    artifacts: RunArtifacts | None
    status: Extraction
    method: str
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        return {"status": self.status.value, "method": self.method, "attempts": self.attempts,
                "errors": list(self.errors), "repairs": list(self.repairs)}


def _structured(model: BaseChatModel, schema: dict[str, Any]) -> Any:
    """The model with native structured output for `schema`, or None if it has none."""
    try:
        return model.with_structured_output(schema, include_raw=True)
    except (NotImplementedError, ValueError, TypeError, AttributeError):
        return None


def _ask(model: BaseChatModel, structured: Any, messages: list[BaseMessage]) -> tuple[Any, BaseMessage]:
    """(the answer to read: a decoded object or text, the raw AI message)."""
    if structured is None:
        raw = model.invoke(messages)
        return _text(raw), raw
    out = structured.invoke(messages)
    raw = out.get("raw") if isinstance(out, dict) else out
    parsed = out.get("parsed") if isinstance(out, dict) else None
    if isinstance(parsed, dict) and parsed:
        return parsed, raw
    calls = getattr(raw, "tool_calls", None) or []
    if calls and isinstance(calls[0].get("args"), dict) and calls[0]["args"]:
        return calls[0]["args"], raw
    return _text(raw), raw


def _text(message: Any) -> str:
    content = getattr(message, "content", message)
    return content if isinstance(content, str) else getattr(message, "text", str(content))


def extract(
    model: BaseChatModel,
    request: list[BaseMessage],
    *,
    on_error: Callable[[BaseException], None] | None = None,
    schema: dict[str, Any] = ARTIFACTS_SCHEMA,
) -> Extracted:
    """Ask `model` for the run artifacts of `request`: native structured output where the model
    has it, else text; an answer that cannot be read is sent back with the reason, once.
    `schema` is what the model is asked for (`judgement_schema()` when the caller fills the
    fields a run records itself); an answer is read the same way whatever it holds.

    `on_error` sees a failed call first (it may raise, e.g. for a model set up wrongly); a failed
    call otherwise counts as an unreadable answer. Never raises for a bad answer.
    """
    structured = _structured(model, schema)
    result = Extracted(artifacts=None, status=Extraction.FAILED, method="structured" if structured else "text")
    messages = list(request)
    for attempt in (1, 2):
        result.attempts = attempt
        try:
            answer, raw = _ask(model, structured, messages)
        except Exception as exc:
            if on_error is not None:
                on_error(exc)
            # no traceback: hosts other than the CLI print it; the error is reported with the run
            log.warning("run-artifacts extraction call failed (attempt %d): %s: %s", attempt, type(exc).__name__, exc)
            result.errors.append(f"{type(exc).__name__}: {exc}")
            continue
        result.usage.append(dict(getattr(raw, "usage_metadata", None) or {}))
        try:
            reading = read_artifacts(answer)
        except ArtifactsError as exc:
            result.errors.append(str(exc))
            messages = [*request, HumanMessage(retry_request(str(exc), schema))]
            continue
        result.artifacts = reading.artifacts
        result.repairs = reading.repairs
        result.status = (Extraction.RETRIED if attempt > 1 else
                         Extraction.REPAIRED if reading.repairs else Extraction.OK)
        return result
    return result
