"""What an agent tells the memory core about its runs: the interface the generic memory steps read.

The memory steps (`memory.graph.steps.MemorySteps`) know nothing of any domain. Everything they
need to know about a run they ask the agent, through one object implementing `MemoryAgent`:

- what the task is (`profile`): a summary memory may keep (derived: no free input text), who the
  counterparty is and how the input is laid out, of which memory keeps only keyed tokens; and what
  to search by (`search`: the identifiers and structure of the input, never stored);
- how the run ended as the graph observed it (`observe`): the outcome, what is still open, the
  problems the run recorded. An extraction model can lower that outcome only by naming one of them;
- what the run found (`results`, `tools_used`, `step_count`, together `record`): what an episode
  keeps, read from the graph state, never from a model's wording;
- how to extract the rest (`extraction_instructions`, `digest`): the model reads a digest of the
  state and judges only what needs judgement (approach, patterns, facts, procedure);
- what to keep out of memory (`private_names`) and what of the recalled memory to serve
  (`recalled`, a hook that sees the current input before the block is composed; `findings_view`
  lays out the past results in the block), and what the graph may do with it before the model's
  first turn (`first_calls`: calls of the agent's own tools, e.g. assessing a remembered place the
  current input bears out, whose answers the model then reads as tool results).

Every method but the two class attributes has a default that reads a named key of
`memory.graph.MemoryState` (`task`, `outcome_hint`, `open_items`, `results`, `tools_called`,
`steps`); a missing key raises `MissingStateKey` naming the key and the method to implement.
A small agent is then a class with `kind`, `extraction_instructions` and the methods whose
keys it does not set itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from memory.block import FindingsView
from memory.claims import NO_VOCABULARY, Vocabulary
from memory.errors import MissingStateKey
from memory.records import Episode, Fact, Outcome, Procedure, RunArtifacts, Scored

DIGEST_HEADER = "Run digest:"


@dataclass(frozen=True)
class TaskProfile:
    """What a run's task is, as memory may keep it.

    `summary` is stored with the episode and embedded: only what the agent derived (a kind of task,
    a label from a closed list, counts), never free input text. `counterparty` (the other side, as
    the agent identified it) and `template` (the input's layout, e.g. its outline) are never
    stored: memory keeps a keyed token of each, which it adds to the summary and to what it
    searches by, so runs for the same counterparty or on the same layout find each other without
    memory holding a name."""

    summary: str
    counterparty: str = ""
    template: str = ""


@dataclass(frozen=True)
class Problem:
    """Something that went wrong in a run, as the graph recorded it (a tool error, a spent budget,
    a model that failed): `key` is how a digest names it, `text` says what happened."""

    key: str
    text: str


@dataclass(frozen=True)
class Observed:
    """How the run ended, as the graph observed it: what an episode records unless an extraction
    model names an open item or a problem of these as its reason for a worse outcome."""

    outcome: Outcome
    open_items: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()


@dataclass
class Recalled:
    """What the reads found, before the memory block is composed (see `MemoryAgent.recalled`)."""

    episodes: list[Scored[Episode]] = field(default_factory=list)
    facts: list[Scored[Fact]] = field(default_factory=list)
    procedure: Procedure | None = None


def require(state: Mapping[str, Any], key: str, method: str) -> Any:
    """`state[key]`, or `MissingStateKey` naming the key and the `MemoryAgent` method that reads it."""
    value = state.get(key)
    if value is None:
        raise MissingStateKey(
            f"the memory steps need state[{key!r}], which this run does not have: MemoryAgent.{method}(state) "
            f"reads it by default. Put {key!r} in the graph state, or implement {method}() for this agent")
    return value


def item_key(text: str) -> str:
    """An item's name compared loosely: case, spaces, hyphens and underscores aside."""
    return "_".join(re.findall(r"[^\W_]+", str(text).casefold()))


# Words too common in what goes wrong to tell one problem from another.
_GENERIC = frozenset("""about after again answered before because calls could error errors failed failing failure
    finding findings model models outcome recorded should still their there times which while would""".split())


def distinctive_words(text: str) -> set[str]:
    """The words of `text` that can tell one problem from another (5+ letters, not generic)."""
    return {w for w in re.findall(r"[^\W\d_]{5,}", str(text).casefold()) if w not in _GENERIC}


class MemoryAgent:
    """The interface an agent implements for the memory core (see the module docstring).

    `kind` names the agent's runs (an extraction model that distils one kind only, such as the
    offline stand-in, says so in its `extracts_only`); `extraction_instructions` is the system
    prompt of the extraction request."""

    kind: ClassVar[str] = ""
    extraction_instructions: ClassVar[str] = ""
    findings_view: ClassVar[FindingsView | None] = None  # how the block shows past results (memory.block)
    # a fact is confirmed by runs on at least this many distinct counterparties and templates
    # (`TaskProfile`): an agent whose tasks have none keeps 1 (distinct runs alone)
    fact_min_counterparties: ClassVar[int] = 1
    fact_min_templates: ClassVar[int] = 1

    def __init__(self) -> None:
        missing = [name for name in ("kind", "extraction_instructions") if not getattr(self, name, "")]
        if missing:
            raise TypeError(f"{type(self).__name__} must set {' and '.join(missing)} (memory.graph.MemoryAgent)")

    # ------------------------------------------------------------ the task

    def profile(self, state: Mapping[str, Any]) -> TaskProfile:
        """What the task is; by default the state's `task`, stored as it is."""
        return TaskProfile(summary=str(require(state, "task", "profile")))

    def search(self, state: Mapping[str, Any], profile: TaskProfile) -> str:
        """What recall embeds and matches, besides the tokens: by default the summary. It may hold
        more of the input (its structure, its identifiers, what the input looks like in the terms
        of a stored result), since it is never stored; only the read steps ask for it."""
        return profile.summary

    # ------------------------------------------------------------ how the run ended

    def observe(self, state: Mapping[str, Any]) -> Observed:
        """The outcome the graph observed; by default `outcome_hint` and `open_items`."""
        raw = str(require(state, "outcome_hint", "observe")).strip().upper()
        try:
            outcome = Outcome(raw)
        except ValueError:
            raise MissingStateKey(f"state['outcome_hint'] is {raw!r}, not one of COMPLETED, PARTIAL, FAILED: "
                                  "fix it, or implement MemoryAgent.observe() for this agent") from None
        return Observed(outcome, open_items=tuple(str(i) for i in state.get("open_items") or ()))

    def item(self, text: str, observed: Observed) -> str | None:
        """The open item or problem key a model's `text` names, or None: an open item by its name
        (case, spaces, hyphens aside), alone or as words of a sentence ("insurance is still
        open"); a problem by its key, or by a distinctive word of its text ("the step budget ran
        out" names "step budget of 16 model steps used up"; "the model failed" names nothing in
        particular). An agent with synonyms for its items overrides it."""
        said = f"_{item_key(text)}_"
        if said == "__":
            return None
        for name in observed.open_items:
            if f"_{item_key(name)}_" in said:
                return name
        words = distinctive_words(text)
        for problem in observed.problems:
            if f"_{item_key(problem.key)}_" in said or words & distinctive_words(problem.text):
                return problem.key
        return None

    # ------------------------------------------------------------ what the run found

    def results(self, state: Mapping[str, Any]) -> list[str]:
        """What the run found, one line each as memory keeps it; by default the state's `results`."""
        return [str(line) for line in require(state, "results", "results")]

    def tools_used(self, state: Mapping[str, Any]) -> list[str]:
        return list(dict.fromkeys(str(t) for t in state.get("tools_called") or ()))

    def step_count(self, state: Mapping[str, Any]) -> int:
        return int(state.get("steps") or 0)

    def record(self, state: Mapping[str, Any], profile: TaskProfile, observed: Observed) -> RunArtifacts:
        """The run as the graph holds it: what an episode keeps whatever a model writes, and all it
        keeps when no model answer can be read (no facts, no procedure: nothing a model vouched for)."""
        results = self.results(state)
        return RunArtifacts(
            task_summary=profile.summary, outcome=observed.outcome, key_findings=results,
            approach=f"Recorded from the run itself ({len(results)} results).",
            tools_used=self.tools_used(state), step_count=self.step_count(state),
        )

    # ------------------------------------------------------------ what the extraction model reads

    def digest(self, state: Mapping[str, Any], record: RunArtifacts, observed: Observed) -> str:
        """What the extraction model reads of the run, from the state: the task, the outcome the
        graph observed, what is open, the problems, the results and the tools."""
        lines = [DIGEST_HEADER, f"Task: {record.task_summary}", f"Outcome observed: {observed.outcome.value}",
                 f"Results ({len(record.key_findings)}): " + "; ".join(record.key_findings)]
        if observed.open_items:
            lines.append("Still open: " + ", ".join(observed.open_items))
        if observed.problems:
            lines.append("Problems recorded: " + "; ".join(f"[{p.key}] {p.text}" for p in observed.problems))
        if record.tools_used:
            lines.append(f"Tools used: {', '.join(record.tools_used)}; model steps: {record.step_count}")
        return "\n".join(lines)

    # ------------------------------------------------------------ what memory keeps and serves

    def private_names(self, state: Mapping[str, Any], scrubber: Any) -> Sequence[str]:
        """People the run's input names (found with the context one stored field lacks): every
        stored field is scrubbed of them too. None by default."""
        return ()

    def parties(self, state: Mapping[str, Any]) -> Sequence[str]:
        """The names of the input's parties (companies and people): a fact built from or naming one
        is refused (`memory.semantic.observe`). None by default."""
        return ()

    def vocabulary(self, state: Mapping[str, Any]) -> Vocabulary:
        """The subjects the agent knows (the names each goes by) and their standard positions: a
        fact is keyed by its claim in these terms, and a claim contradicting a standard position
        waits in the fact review queue instead of being confirmed. None by default."""
        return NO_VOCABULARY

    def first_calls(self, state: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Tool calls the graph makes itself before the model's first turn, from what memory
        served and the current input bears out (`{"name": tool, "args": {...}}`, each a call of the
        agent's own tools, answered as the model's calls are; `"omit": [keys]` leaves those keys
        out of a JSON answer, saying so, where the model needs less than the whole answer). None
        by default."""
        return []

    def recalled(self, state: Mapping[str, Any], recalled: Recalled) -> Recalled:
        """What of the recalled memory to serve for the current input, before the block is composed
        (e.g. only the remembered places the current input bears out). All of it by default."""
        return recalled
