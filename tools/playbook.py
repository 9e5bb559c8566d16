"""The buyer's playbook: load and validate playbook.yaml into typed entries.

Metric names the assessor understands (see tools/detection/metrics.py):
cap_multiple, indemnity_direction, notice_days, renewal_notice_days, payment_days,
price_increase_pct, jurisdiction, assignment_freedom, insurance_amount, audit_scope,
restriction_on_buyer, warranty_months, damages_direction, survival_years, breach_notice_hours,
exclusive_remedy, disclaimer_scope, termination_waiver.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tools.errors import PlaybookError

DEFAULT_PLAYBOOK = Path(__file__).with_name("playbook.yaml")

METRIC_NAMES = frozenset(
    {
        "cap_multiple",
        "indemnity_direction",
        "notice_days",
        "renewal_notice_days",
        "payment_days",
        "price_increase_pct",
        "jurisdiction",
        "assignment_freedom",
        "insurance_amount",
        "audit_scope",
        "restriction_on_buyer",
        "warranty_months",
        "damages_direction",
        "survival_years",
        "breach_notice_hours",
        "exclusive_remedy",
        "disclaimer_scope",
        "termination_waiver",
    }
)

Severity = Literal["high", "medium", "low", "none"]


class Missing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    severity: Severity


class Metric(BaseModel):
    """A machine-checkable value and its thresholds (unused keys are allowed to be absent)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    party: Literal["buyer", "supplier"] | None = None
    standard_min: float | None = None
    standard_max: float | None = None
    fallback_min: float | None = None
    fallback_max: float | None = None
    max_renewal_months: float | None = None
    standard: list[str] | None = None
    fallback: list[str] | None = None

    @model_validator(mode="after")
    def _known_name(self) -> Metric:
        if self.name not in METRIC_NAMES:
            raise ValueError(f"unknown metric {self.name!r}; known: {', '.join(sorted(METRIC_NAMES))}")
        return self


class Applicability(BaseModel):
    """When a clause type applies to a deal: the contract names at least one of `terms`
    (case-insensitive whole words) or has a sentence matching one of `patterns` (regular
    expressions, case-sensitive, within one sentence: what the deal does rather than what it
    names); otherwise it is reported not applicable, with `otherwise`."""

    model_config = ConfigDict(extra="forbid")
    terms: list[str] = Field(min_length=1)
    patterns: list[str] = Field(default_factory=list)
    otherwise: str

    @field_validator("patterns")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            re.compile(pattern)
        return patterns


class PlaybookEntry(BaseModel):
    """One clause type: the buyer's positions and how to judge a contract against them."""

    model_config = ConfigDict(extra="forbid")
    id: str = ""
    title: str
    standard: str
    fallback: str
    deviation: str
    severity: Literal["high", "medium", "low"]
    missing: Missing
    recommendation: str
    # the change to ask for, in a phrase that follows "ask for" (the recommendation is the fallback)
    ask: str = ""
    applies_if: Applicability | None = None
    metric: Metric | None = None


class Playbook(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = 1
    buyer_role: str = "buyer"
    clauses: dict[str, PlaybookEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _fill_ids(self) -> Playbook:
        for key, entry in self.clauses.items():
            entry.id = key
        return self

    @property
    def clause_types(self) -> list[str]:
        """Clause type ids in the order the playbook lists them."""
        return list(self.clauses)

    def entry(self, clause_type: str) -> PlaybookEntry:
        try:
            return self.clauses[clause_type]
        except KeyError:
            raise PlaybookError(
                f"unknown clause type {clause_type!r}; the playbook has: {', '.join(self.clause_types)}"
            ) from None


def load_playbook(path: str | Path | None = None) -> Playbook:
    """Load the default playbook, or the user's YAML file; raises PlaybookError if invalid.

    Parsed once per file version (path and modification time): every prompt, tool call and report
    asks for it, and an edited file is picked up on the next call."""
    p = Path(path) if path is not None else DEFAULT_PLAYBOOK
    try:
        version = p.stat().st_mtime_ns
    except FileNotFoundError:
        raise PlaybookError(f"playbook {p}: no such file") from None
    except OSError as exc:
        raise PlaybookError(f"playbook {p}: cannot read ({exc})") from exc
    return _parse_playbook(str(p), version)


# libyaml's safe loader when PyYAML was built with it (its wheels are): the same documents,
# parsed in C; the pure-Python one costs about 0.1 s on the default playbook, at every start.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=8)
def _parse_playbook(path: str, version: int) -> Playbook:
    p = Path(path)
    try:
        raw: Any = yaml.load(p.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except FileNotFoundError:
        raise PlaybookError(f"playbook {p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlaybookError(f"playbook {p}: cannot read ({exc})") from exc
    except yaml.YAMLError as exc:
        raise PlaybookError(f"playbook {p}: invalid YAML: {' '.join(str(exc).split())}") from exc
    if not isinstance(raw, dict):
        raise PlaybookError(f"playbook {p}: expected a mapping with a 'clauses' key")
    try:
        return Playbook.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in err['loc']) or '(top)'}: {err['msg']}" for err in exc.errors()[:5]
        )
        raise PlaybookError(f"playbook {p}: {problems}") from None
