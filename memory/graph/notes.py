"""Notes a model keeps mid-run (`remember`, memory.graph.tools): what a note may be, and how a
run's notes join what it proposes to memory when it ends.

A note never goes to durable memory by itself: `MemorySteps.extract_artifacts` adds the run's
notes (`state["memory_notes"]`) to the run's proposals, which are then scrubbed of PII, screened
for instructions and, for facts, counted by the confirmation gate like every other proposal.
"""

from __future__ import annotations

from typing import Any

from memory.records import FactCandidate
from memory.screen import has_instruction
from memory.semantic import normalise_fact

MAX_NOTE_CHARS = 300  # a note is one short sentence: a fact or a pattern, never a copy of input
MAX_NOTES = 8  # per run
NOTE_KINDS = ("fact", "pattern")


def check_note(note: str, kind: str, kept: list[dict[str, Any]]) -> tuple[str, str]:
    """(the note as it would be kept, "") or ("", why it is refused)."""
    text = " ".join(str(note or "").split())
    if kind not in NOTE_KINDS:
        return "", f"kind must be one of {', '.join(NOTE_KINDS)}"
    if not text:
        return "", "the note is empty"
    if len(text) > MAX_NOTE_CHARS:
        return "", f"a note is one sentence of at most {MAX_NOTE_CHARS} characters ({len(text)} sent): shorten it"
    if has_instruction(text):
        return "", "the note reads as an instruction (memory keeps no orders to a model): nothing was kept"
    if kind == "fact" and not normalise_fact(text):
        return "", "the note has no content words to remember"
    if len(kept) >= MAX_NOTES:
        return "", f"this run already keeps {MAX_NOTES} notes, the most a run may keep"
    return text, ""


def notes_as_proposals(notes: list[dict[str, Any]] | None, *, domain: str,
                       confidence: float) -> tuple[list[FactCandidate], list[str]]:
    """A run's notes as what it proposes: (fact candidates, reusable patterns), each note once and at
    most `MAX_NOTES` of them. A fact note gets the
    run's domain and `confidence` (the gate's minimum: a note is one model's word, and only
    independent runs confirm it)."""
    facts, patterns = [], []
    seen: set[tuple[str, str]] = set()
    for note in notes or []:
        text = str(note.get("text") or "")
        key = (str(note.get("kind")), text)
        if not text or key in seen:
            continue
        seen.add(key)
        if len(seen) > MAX_NOTES:  # calls of one turn each saw the notes before it: the cap holds here
            break
        if note.get("kind") == "pattern":
            patterns.append(text)
        else:
            facts.append(FactCandidate(text=text, domain=domain, confidence=confidence))
    return facts, patterns
