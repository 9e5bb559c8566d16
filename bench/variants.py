"""A second similar-contract sequence: programmatic variants of the SaaS sample with planted deviations.

Each variant changes the customer and turns a few clause "knobs" (payment days, price increase,
renewal period and notice, liability cap, termination notice, governing law) to a standard,
fallback or deviation position of the playbook, so the expected verdict of every knob is known by
construction. `write_variants(folder)` writes the texts and `expected.json` into a bench data
folder (never into sample_contracts/).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agent.errors import ConfigurationError

BASE = Path(__file__).resolve().parents[1] / "sample_contracts" / "skyline_saas_subscription.txt"
BASE_CUSTOMER = "Fenwick & Hale Retail Group plc"

# knob -> (clause type, exact text in the base contract, {position: (replacement, verdict)})
KNOBS: dict[str, tuple[str, str, dict[str, tuple[str, str]]]] = {
    "payment": ("payment_terms", "within fifteen (15) days of the invoice date", {
        "deviation": ("within fifteen (15) days of the invoice date", "deviation"),
        "fallback": ("within forty-five (45) days of receipt of a correct invoice", "fallback"),
        "standard": ("within sixty (60) days of receipt of a correct invoice", "standard"),
    }),
    "price": ("price_changes", "by up to seven per cent (7%)", {
        "deviation": ("by up to seven per cent (7%)", "deviation"),
        "fallback": ("by up to four per cent (4%)", "fallback"),
        "standard": ("by up to three per cent (3%)", "standard"),
    }),
    "renewal": ("auto_renewal", "thirty-six (36) months (each a \"Renewal Term\") unless either Party gives "
                "written notice of non-renewal at least one hundred and twenty (120) days", {
        "deviation": ("thirty-six (36) months (each a \"Renewal Term\") unless either Party gives written "
                      "notice of non-renewal at least one hundred and twenty (120) days", "deviation"),
        "fallback": ("twelve (12) months (each a \"Renewal Term\") unless either Party gives written "
                     "notice of non-renewal at least ninety (90) days", "fallback"),
        "standard": ("twelve (12) months (each a \"Renewal Term\") unless either Party gives written "
                     "notice of non-renewal at least sixty (60) days", "standard"),
    }),
    "cap": ("liability_cap", "shall not exceed one (1) times the total Fees", {
        "deviation": ("shall not exceed fifty per cent (50%) of the total Fees", "deviation"),
        "fallback": ("shall not exceed one (1) times the total Fees", "fallback"),
        "standard": ("shall not exceed two (2) times the total Fees", "standard"),
    }),
    "termination": ("termination_convenience", "at any time on thirty (30) days' written notice", {
        "deviation": ("at any time on one hundred and eighty (180) days' written notice", "deviation"),
        "fallback": ("at any time on sixty (60) days' written notice", "fallback"),
        "standard": ("at any time on thirty (30) days' written notice", "standard"),
    }),
    "law": ("governing_law", "the laws of the State of California", {
        "deviation": ("the laws of the Province of Ontario", "deviation"),
        "fallback": ("the laws of the State of California", "fallback"),
        "standard": ("the laws of the State of New York", "standard"),
    }),
}

# Clauses no variant changes, whose expected verdict the base contract fixes.
FIXED = [("liquidated_damages", "deviation")]


@dataclass(frozen=True)
class Variant:
    name: str
    customer: str
    positions: dict[str, str]  # knob -> standard | fallback | deviation


VARIANTS = [
    Variant("skyline_variant_01", "Marlowe Garden Centres plc",
            {"payment": "deviation", "price": "deviation", "renewal": "deviation", "cap": "fallback",
             "termination": "standard", "law": "fallback"}),
    Variant("skyline_variant_02", "Ashgrove Home Stores Ltd",
            {"payment": "standard", "price": "deviation", "renewal": "fallback", "cap": "deviation",
             "termination": "deviation", "law": "standard"}),
    Variant("skyline_variant_03", "Kestrel Outdoor Retail plc",
            {"payment": "fallback", "price": "standard", "renewal": "deviation", "cap": "standard",
             "termination": "deviation", "law": "deviation"}),
    Variant("skyline_variant_04", "Bramblewood Books Ltd",
            {"payment": "deviation", "price": "fallback", "renewal": "standard", "cap": "deviation",
             "termination": "fallback", "law": "deviation"}),
]


# The base contract's late-payment interest (1.5% a month, itself a deviation of the playbook's payment
# terms) is set to the playbook's 1% in every variant, so that the payment knob alone decides the
# verdict of payment_terms (issue 30 reads every payment provision, interest included).
NEUTRAL = [("one and one half per cent (1.5%) per month", "one per cent (1%) per month")]


def render(variant: Variant, base_text: str) -> str:
    text = base_text.replace(BASE_CUSTOMER, variant.customer)
    for original, neutral in NEUTRAL:
        if original not in text:
            raise ConfigurationError(f"the base contract {BASE.name} no longer contains {original!r}")
        text = text.replace(original, neutral)
    for knob, position in variant.positions.items():
        _, original, options = KNOBS[knob]
        if original not in text:
            raise ConfigurationError(f"the base contract {BASE.name} no longer contains the {knob} text")
        text = text.replace(original, options[position][0])
    return text


def expected(variant: Variant) -> list[dict[str, str]]:
    """The labelled verdict of every knob clause plus the fixed ones."""
    rows = [{"clause_type": KNOBS[k][0], "verdict": KNOBS[k][2][p][1]} for k, p in variant.positions.items()]
    return rows + [{"clause_type": c, "verdict": v} for c, v in FIXED]


def write_variants(folder: Path, count: int = len(VARIANTS)) -> list[Path]:
    """Write the first `count` variants and `expected.json`; returns the contract paths in order."""
    folder.mkdir(parents=True, exist_ok=True)
    base_text = BASE.read_text(encoding="utf-8")
    paths, labels = [], {}
    for variant in VARIANTS[:count]:
        path = folder / f"{variant.name}.txt"
        path.write_text(render(variant, base_text), encoding="utf-8")
        paths.append(path)
        labels[variant.name] = expected(variant)
    (folder / "expected.json").write_text(json.dumps(labels, indent=2) + "\n", encoding="utf-8")
    return paths
