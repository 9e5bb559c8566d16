"""The outcome a run records: the one the graph observed, lowered only for a reason the state confirms.

An extraction model judges a run, but the graph owns its facts. A model's claimed outcome can make
the recorded outcome worse only when the model names, as its reason, an item the run left open or
a problem the run recorded (`Observed`); a claim that names nothing the state confirms, or a claim
of a better outcome, is refused and the observed outcome stands. Either way the decision is kept
(`Settled.report()`, the `outcome` of the run's extraction report), so a reader sees what the model
claimed, what was recorded and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from memory.graph.agent import Observed
from memory.records import Outcome

RANK = {Outcome.COMPLETED: 3, Outcome.PARTIAL: 2, Outcome.FAILED: 1, Outcome.UNKNOWN: 0}


@dataclass(frozen=True)
class Settled:
    """The outcome to record and how it was decided."""

    observed: Outcome
    recorded: Outcome
    claimed: Outcome | None = None
    lowered_because: list[str] = field(default_factory=list)  # the confirmed items or problems
    refused: str = ""  # why a claim was not taken ("" when it was, or when there was none)

    @property
    def note(self) -> str:
        """One sentence for a report: why the recorded outcome differs from the observed one, or
        why a claim was refused ("" when there is nothing to say)."""
        if self.recorded != self.observed:
            return (f"the extraction model lowered the outcome from {self.observed.value} to {self.recorded.value}: "
                    f"{', '.join(self.lowered_because)} (confirmed by the run)")
        return self.refused

    def report(self) -> dict[str, Any]:
        return {"observed": self.observed.value, "claimed": self.claimed.value if self.claimed else None,
                "recorded": self.recorded.value, "lowered_because": list(self.lowered_because),
                "refused": self.refused, "note": self.note}


def settle(observed: Observed, claimed: Outcome | None, reasons: Sequence[str],
           confirm: Callable[[str, Observed], str | None]) -> Settled:
    """What to record of `observed` given a model's `claimed` outcome and stated `reasons`;
    `confirm(reason, observed)` returns the open item or problem key a reason names, or None."""
    base = observed.outcome
    if claimed is None or claimed == base:
        return Settled(observed=base, recorded=base, claimed=claimed)
    if RANK[claimed] > RANK[base]:
        return Settled(observed=base, recorded=base, claimed=claimed, refused=(
            f"the extraction model claimed {claimed.value}, better than the {base.value} the run observed: "
            "a model cannot raise a run's outcome"))
    confirmed = list(dict.fromkeys(item for item in (confirm(r, observed) for r in reasons) if item))
    if confirmed:
        return Settled(observed=base, recorded=claimed, claimed=claimed, lowered_because=confirmed)
    open_items = ", ".join(observed.open_items) or "nothing"
    problems = "; ".join(p.text for p in observed.problems) or "none"
    named = ", ".join(str(r) for r in reasons) or "no reason"
    return Settled(observed=base, recorded=base, claimed=claimed, refused=(
        f"the extraction model claimed {claimed.value} and named {named}, which the run does not confirm "
        f"(open: {open_items}; problems recorded: {problems}): the run's {base.value} stands"))
