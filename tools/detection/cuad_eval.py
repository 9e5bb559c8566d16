"""Evaluate clause detection against CUAD lawyer labels (a folder of contracts/*.txt + labels.jsonl).

Detection runs on each contract's text alone; labels are read only afterwards, to score.
Per covered CUAD category: document-level precision/recall/F1 of "the contract has this
clause", span agreement (share of found clauses whose quote overlaps a labelled excerpt),
and for governing law / renewal term / renewal notice, value agreement with the lawyers'
answer. Macro averages are over categories.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tools.contract import Contract, load_contract
from tools.detection.clauses import Candidate, find_candidates
from tools.detection.metrics import extract_jurisdiction, extract_renewal
from tools.errors import ContractInputError

# CUAD category -> detector id (playbook clause types or the finer detectors of tools/detection/finer_rules.py)
CATEGORY_DETECTORS: dict[str, str] = {
    "Governing Law": "governing_law",
    "Renewal Term": "auto_renewal",
    "Notice Period To Terminate Renewal": "renewal_notice",
    "Termination For Convenience": "termination_convenience",
    "Anti-Assignment": "assignment",
    "Change Of Control": "change_of_control",
    "Cap On Liability": "cap_on_liability",
    "Uncapped Liability": "uncapped_carveout",
    "Liquidated Damages": "liquidated_damages_clause",
    "Warranty Duration": "warranty_duration",
    "Insurance": "insurance",
    "Audit Rights": "audit_rights",
    "Minimum Commitment": "minimum_commitment",
    "Exclusivity": "exclusivity_grant",
    "Non-Compete": "compete_restriction",
    "Post-Termination Services": "post_termination_services",
    "Most Favored Nation": "most_favored_nation",
    "Price Restrictions": "price_restrictions",
}
VALUE_CATEGORIES = ("Governing Law", "Renewal Term", "Notice Period To Terminate Renewal")
_WORDS = re.compile(r"[a-z0-9]+")


def detect_categories(contract: Contract) -> dict[str, list[Candidate]]:
    """Candidates per CUAD category, from the contract text only."""
    return {cat: find_candidates(contract, det, limit=3) for cat, det in CATEGORY_DETECTORS.items()}


def _tokens(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def quote_overlaps(quote: str, spans: list[str]) -> bool:
    """True when the quote shares a run of 8 words (or all of a shorter excerpt) with a label."""
    q = " ".join(_tokens(quote))
    for span in spans:
        for piece in span.split("<omitted>"):
            words = _tokens(piece)
            if not words:
                continue
            n = min(8, len(words))
            for i in range(0, len(words) - n + 1):
                if " ".join(words[i : i + n]) in q:
                    return True
    return False


def _answer_months(answer: str) -> float | None:
    from tools.detection.numbers import find_durations

    found = find_durations(answer.replace("successive", ""))
    return found[0].months if found else None


def _answer_days(answer: str) -> float | None:
    from tools.detection.numbers import find_durations

    found = find_durations(answer)
    return found[0].days if found else None


def _value_match(category: str, answer: str, candidates: list[Candidate]) -> bool | None:
    """Whether the value read from our quotes agrees with the lawyers' answer (None: not comparable)."""
    if not answer.strip() or not candidates:
        return None
    quotes = " ".join(c.quote for c in candidates)
    if category == "Governing Law":
        ours = extract_jurisdiction(quotes)
        if ours is None:
            return False
        o = ours.lower()
        # the lawyers list several jurisdictions as "England; Wales"
        parts = [a.strip() for a in answer.lower().split(";") if a.strip()]
        return all(a in o or o in a for a in parts)
    if category == "Renewal Term":
        wanted = _answer_months(answer)
        ours = extract_renewal(quotes)[1]
        if wanted is None:
            return None
        return ours is not None and abs(ours - wanted) < 0.5
    wanted_days = _answer_days(answer)
    ours_days = extract_renewal(quotes)[0]
    if wanted_days is None:
        return None
    return ours_days is not None and abs(ours_days - wanted_days) <= 1


def read_labels(root: Path) -> dict[str, dict]:
    """File name -> the lawyers' labels per category, from a CUAD-style folder's labels.jsonl."""
    labels = {}
    for line in (root / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            labels[row["file"]] = row["labels"]
    return labels


def cuad_contracts(data_dir: str | Path) -> list[Path]:
    """The contracts of a CUAD-style folder, in the order they are scored."""
    return sorted((Path(data_dir) / "contracts").glob("*.txt"))


def evaluate_cuad(data_dir: str | Path, on_contract: Callable[[str], None] | None = None) -> dict:
    """Score the detectors on a CUAD-style folder; returns per-category and macro metrics.
    `on_contract(name)` is called as each contract's detection is done (for progress)."""
    root = Path(data_dir)
    labels_path = root / "labels.jsonl"
    contracts_dir = root / "contracts"
    if not labels_path.is_file() or not contracts_dir.is_dir():
        raise ContractInputError(f"{root}: expected contracts/*.txt and labels.jsonl (a CUAD-style folder)")
    files = cuad_contracts(root)
    detections = {}
    for f in files:  # detection first, from text only
        contract = load_contract(f, max_bytes=50 * 1024 * 1024)
        detections[f.name] = detect_categories(contract)
        if on_contract is not None:
            on_contract(f.name)
    labels = read_labels(root)
    per: dict[str, dict] = {}
    for category in CATEGORY_DETECTORS:
        tp = fp = fn = 0
        span_hits = span_total = 0
        value_hits = value_total = 0
        for name, found in detections.items():
            gold = labels.get(name, {}).get(category, {"answer": "", "spans": []})
            positive = bool(gold.get("spans"))
            predicted = bool(found[category])
            tp += positive and predicted
            fp += predicted and not positive
            fn += positive and not predicted
            if positive and predicted:
                span_total += 1
                span_hits += any(quote_overlaps(c.quote, gold["spans"]) for c in found[category])
                if category in VALUE_CATEGORIES:
                    match = _value_match(category, gold.get("answer", ""), found[category])
                    if match is not None:
                        value_total += 1
                        value_hits += match
        precision = tp / (tp + fp) if tp + fp else (1.0 if not fn else 0.0)
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per[category] = {
            "positives": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "precision": precision, "recall": recall, "f1": f1,
            "span_agreement": span_hits / span_total if span_total else None,
            "value_match": (value_hits / value_total if value_total else None) if category in VALUE_CATEGORIES else None,
        }
    spans = [m["span_agreement"] for m in per.values() if m["span_agreement"] is not None]
    values = [m["value_match"] for m in per.values() if m["value_match"] is not None]
    return {
        "contracts": len(files),
        "categories": per,
        "macro": {
            "precision": sum(m["precision"] for m in per.values()) / len(per),
            "recall": sum(m["recall"] for m in per.values()) / len(per),
            "f1": sum(m["f1"] for m in per.values()) / len(per),
            "span_agreement": sum(spans) / len(spans) if spans else None,
            "value_match": sum(values) / len(values) if values else None,
        },
    }


def format_cuad_report(result: dict) -> str:
    """A plain-text table of `evaluate_cuad` results."""
    def pct(x: float | None) -> str:
        return "   -" if x is None else f"{x:4.2f}"

    lines = [f"CUAD evaluation over {result['contracts']} contracts",
             f"{'category':36} {'pos':>3} {'tp':>3} {'fp':>3} {'fn':>3} {'prec':>5} {'rec':>5} {'f1':>5} {'span':>5} {'value':>5}"]
    for category, m in result["categories"].items():
        lines.append(
            f"{category:36} {m['positives']:3d} {m['tp']:3d} {m['fp']:3d} {m['fn']:3d} {pct(m['precision']):>5} "
            f"{pct(m['recall']):>5} {pct(m['f1']):>5} {pct(m['span_agreement']):>5} {pct(m['value_match']):>5}"
        )
    macro = result["macro"]
    lines.append(
        f"{'macro':36} {'':3} {'':3} {'':3} {'':3} {pct(macro['precision']):>5} {pct(macro['recall']):>5} "
        f"{pct(macro['f1']):>5} {pct(macro['span_agreement']):>5} {pct(macro['value_match']):>5}"
    )
    return "\n".join(lines)
