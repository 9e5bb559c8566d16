"""The offline working-memory summary: compact lines written from a run, and read back into calls.

`summarize` keeps the task, the step count, every useful tool result (sections listed and read,
candidates, search hits, assessments, recorded findings) and the errors not yet resolved; it drops
failed attempts that were later resolved. `agent.offline.summary_format.parse_summary` turns the same lines back into
`ToolCall` records, so the offline reviewer treats a summary as evidence of work already done.
Each line is `<readable text>` optionally followed by ` | {json details}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from agent.offline.calls import ToolCall
from agent.offline.progress import REDIRECTS, finding_line, progress_of
from agent.offline.summary_format import line
from agent.offline.transcript import read_transcript

_TASK_CHARS = 600


def _sections(result: dict[str, Any], list_key: str) -> list[str]:
    return [str(item.get("section")) for item in result.get(list_key, []) if isinstance(item, dict)]


def summarize(messages: Sequence[BaseMessage]) -> str:
    """Summary lines for the (non-system) messages of a run, prior summaries included."""
    transcript = read_transcript(messages)
    progress = progress_of(transcript)
    lines: list[str] = []
    if transcript.task:
        lines.append(f"Task: {' '.join(transcript.task.split())[:_TASK_CHARS]}")
    lines.append(f"Model steps so far: {transcript.model_steps}")
    if progress.listed:
        lines.append(f"Listed sections: {', '.join(progress.section_ids()) or 'none'}")
    elif progress.listings:
        lines.extend(_failed(c) for c in progress.listings if c.error)
    read = [s for s in progress.reads if progress.read_ok(s)]
    if read:
        lines.append(f"Read sections: {', '.join(read)}")
    for section, calls in progress.reads.items():
        if section not in read:
            lines.extend(_failed(c) for c in calls if c.error)
    for name in progress.order:
        tp = progress.types[name]
        if tp.finding is not None:  # done: the recorded finding is all that is needed to continue
            lines.append(f"Recorded finding: {finding_line(tp.finding)}")
            continue
        resolved = False
        found = tp.find_result()
        if found is not None:
            candidates = _sections(found, "candidates")
            text = f"Candidates for {name}: " + (f"sections {', '.join(candidates)}" if candidates else "none")
            lines.append(line(text, {"if_missing": found["if_missing"]} if found.get("if_missing") else None))
        searched = next((c for c in reversed(tp.searches) if c.ok), None)
        if searched is not None:
            hits = _sections(searched.result, "hits")
            text = f"Search for {name}: " + (f"sections {', '.join(hits)}" if hits else "none")
            lines.append(line(text, {"query": searched.args.get("query")}))
        retrying = tp.failed(tp.records) > 0  # a failed record is retried with an explicit quote
        for call in tp.assessments:
            if call.ok:
                lines.append(_assessed(name, call, keep_quote=retrying))
        if resolved:
            lines.append(f"Recorded finding: {finding_line(tp.finding)}")
        else:
            errors = [c for c in (*tp.finds, *tp.searches, *tp.assessments, *tp.records) if c.error]
            lines.extend(_failed(c) for c in errors if not (c in tp.searches and searched is not None))
    return "\n".join(lines)


def _assessed(name: str, call: ToolCall, *, keep_quote: bool = False) -> str:
    """The assessment in one line. Its quote and recommendation are not copied: record_finding
    fills both in by reference (the section's assessed quote, the playbook's recommendation for
    the verdict); the quote is kept only while a failed record needs an explicit one."""
    result = call.result or {}
    section = result.get("section", call.args.get("section"))
    if result.get("found") is not True:
        return line(f"Assessed {name} in section {section}: not found", {"reason": result.get("reason", "")})
    # an assessment that recorded its finding answers in short: the verdict is the recorded one
    judged = result.get("recorded") if isinstance(result.get("recorded"), dict) else result
    details = {"quote": result["quote"]} if keep_quote and result.get("quote") else {}
    # where the assessment sends the reviewer next (the buyer's side, a worse clause elsewhere)
    # survives the compression, so the coverage check is never lost with the history
    details.update({key: {"section": result[key]["section"]} for key in REDIRECTS
                    if isinstance(result.get(key), dict) and result[key].get("section")})
    return line(f"Assessed {name} in section {section}: {judged.get('verdict')} ({judged.get('severity')})", details or None)


def _failed(call: ToolCall) -> str:
    return line(f"Failed: {call.name} -> {' '.join(str(call.error).split())[:200]}", {"args": call.args})
