"""Build a held-out CUAD folder (contracts/*.txt + labels.jsonl) from the public CUAD v1 release.

The folder has the layout of ../shared/cuad, so `contract-review eval cuad --data OUT` scores it:
the supplier-type contracts (supply, manufacturing, distributor, service, outsourcing,
maintenance, reseller, hosting, transportation) of CUAD v1 minus the development contracts.
CUAD v1 is by The Atticus Project (CC BY 4.0); keep the output out of the repository.

Input: an extracted CUAD v1 folder with `master_clauses.csv` and `full_contract_txt/`; the
contract type comes from the `full_contract_pdf/Part_*/<Type>/` folder a contract's PDF sits
in (only the file names are read), or, without that tree, from the document name.

    python scripts/make_cuad_heldout.py --cuad /path/to/CUAD_v1 --out /tmp/cuad_heldout \
        --exclude ../shared/cuad [--half 1|2]
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

CATEGORIES = (
    "Governing Law", "Renewal Term", "Notice Period To Terminate Renewal", "Termination For Convenience",
    "Anti-Assignment", "Change Of Control", "Cap On Liability", "Uncapped Liability", "Liquidated Damages",
    "Warranty Duration", "Insurance", "Audit Rights", "Minimum Commitment", "Exclusivity", "Non-Compete",
    "Post-Termination Services", "Most Favored Nation", "Price Restrictions", "Expiration Date", "Parties",
)
# CUAD folder/name keyword -> the type written to labels.jsonl (order matters: first match wins)
SUPPLIER_TYPES = (
    ("transportation", "Transportation"), ("outsourcing", "Outsourcing"), ("hosting", "Hosting"),
    ("maintenance", "Maintenance"), ("manufactur", "Manufacturing"), ("supply", "Supply"),
    ("distribut", "Distributor"), ("reseller", "Reseller"), ("servic", "Service"),
)


def supplier_type(folder_or_name: str) -> str | None:
    """The supplier type a CUAD type folder (or a document name) stands for; None for other types."""
    lowered = folder_or_name.lower()
    if "consult" in lowered:  # "Consulting Agreements" are not supplier contracts
        return None
    for key, label in SUPPLIER_TYPES:
        if key in lowered:
            return label
    return None


def _stem(name: str) -> str:
    return re.sub(r"\.(?:pdf|txt)$", "", name.strip(), flags=re.IGNORECASE)


def _pdf_types(cuad: Path) -> dict[str, str | None]:
    """Document stem -> supplier type, from the PDF folder tree (empty when it is absent)."""
    types: dict[str, str | None] = {}
    root = cuad / "full_contract_pdf"
    if root.is_dir():
        for pdf in root.rglob("*"):
            if pdf.suffix.lower() == ".pdf":
                types[_stem(pdf.name)] = supplier_type(pdf.parent.name)
    return types


def _pdf_folders(cuad: Path) -> dict[str, str]:
    """Document stem -> the name of the type folder its PDF sits in."""
    root = cuad / "full_contract_pdf"
    return {_stem(pdf.name): pdf.parent.name for pdf in root.rglob("*") if pdf.suffix.lower() == ".pdf"} if root.is_dir() else {}


def _spans(cell: str) -> list[str]:
    cell = (cell or "").strip()
    if not cell:
        return []
    try:
        value = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        return [cell]
    return [str(v) for v in value if str(v).strip()] if isinstance(value, list) else [str(value)]


def _answer(row: dict[str, str], category: str) -> str:
    for column in (f"{category}-Answer", f"{category}- Answer", f"{category} -Answer"):
        if column in row:
            return (row[column] or "").strip()
    return ""


def _digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def _excluded(exclude: Path | None) -> tuple[set[str], set[str]]:
    """Stems and text digests of the development contracts (by name and by content)."""
    if exclude is None:
        return set(), set()
    names = {_stem(p.name) for p in (exclude / "contracts").glob("*.txt")}
    digests = {_digest(p.read_text(encoding="utf-8", errors="replace")) for p in (exclude / "contracts").glob("*.txt")}
    labels = exclude / "labels.jsonl"
    if labels.is_file():
        names |= {_stem(json.loads(line)["file"]) for line in labels.read_text(encoding="utf-8").splitlines() if line.strip()}
    return names, digests


def half_of(file_name: str) -> int:
    """1 or 2: a fixed split of contracts by a hash of the file name (stable across runs and machines)."""
    return 1 + hashlib.sha256(file_name.encode("utf-8")).digest()[0] % 2


def _other_type(folder_or_name: str) -> str:
    """A readable type for a non-supplier CUAD folder ("License_Agreements" -> "License Agreements")."""
    return " ".join(folder_or_name.replace("_", " ").split()) or "Other"


def build(cuad: Path, out: Path, exclude: Path | None, half: int | None = None, other: bool = False) -> dict[str, int]:
    """Write OUT/contracts/*.txt and OUT/labels.jsonl (only one half of them when `half`); return counts per type.

    With `other`, write the contracts of every type that is *not* a supplier type instead: a
    tuning set that shares no contract with the supplier held-out set.
    """
    master = cuad / "master_clauses.csv"
    texts = cuad / "full_contract_txt"
    if not master.is_file() or not texts.is_dir():
        raise SystemExit(f"{cuad}: expected master_clauses.csv and full_contract_txt/ (an extracted CUAD v1 folder)")
    types = _pdf_types(cuad)
    folders = _pdf_folders(cuad) if other else {}
    skip_names, skip_digests = _excluded(exclude)
    txt_by_stem = {_stem(p.name): p for p in texts.glob("*.txt")}
    if out.exists():
        shutil.rmtree(out)
    (out / "contracts").mkdir(parents=True)
    counts: dict[str, int] = {}
    csv.field_size_limit(sys.maxsize)
    with master.open(encoding="utf-8", newline="") as fh, (out / "labels.jsonl").open("w", encoding="utf-8") as labels:
        for row in csv.DictReader(fh):
            stem = _stem(row["Filename"])
            kind = types[stem] if stem in types else supplier_type(stem)
            if other:
                kind = None if kind is not None else _other_type(folders.get(stem, "Other"))
            txt = txt_by_stem.get(stem)
            if kind is None or txt is None or stem in skip_names or (half and half_of(txt.name) != half):
                continue
            text = txt.read_text(encoding="utf-8", errors="replace")
            if _digest(text) in skip_digests:
                continue
            (out / "contracts" / txt.name).write_text(text, encoding="utf-8")
            record = {"file": txt.name, "type": kind,
                      "labels": {c: {"answer": _answer(row, c), "spans": _spans(row.get(c, ""))} for c in CATEGORIES}}
            labels.write(json.dumps(record, ensure_ascii=False) + "\n")
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuad", type=Path, required=True, help="extracted CUAD v1 folder")
    parser.add_argument("--out", type=Path, required=True, help="output folder (rewritten)")
    parser.add_argument("--exclude", type=Path, default=None, help="a CUAD-style folder whose contracts to leave out")
    parser.add_argument("--half", type=int, choices=(1, 2), default=None,
                        help="keep only one fixed half (by file-name hash): tune rules on one, report the other")
    parser.add_argument("--other", action="store_true",
                        help="write the non-supplier contracts instead (licences, collaborations, ...): a tuning set")
    args = parser.parse_args(argv)
    counts = build(args.cuad, args.out, args.exclude, args.half, args.other)
    total = sum(counts.values())
    print(f"{total} contracts written to {args.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
