"""`contract-review eval cuad` end to end on a small CUAD-style folder, the held-out builder
(scripts/make_cuad_heldout.py), and the whole review graph on the longest real contract."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from cli.main import main
from tests.conftest import CUAD, ROOT

CATEGORIES_ON = {
    "Governing Law": ("New York", "This Agreement is governed by the laws of the State of New York."),
    "Renewal Term": ("successive 1 year", "This Agreement renews automatically for successive one (1) year terms."),
    "Anti-Assignment": ("Yes", "Neither party may assign this Agreement without the prior written consent of the other party."),
}


def _mini_folder(root: Path) -> Path:
    """Two contracts: one with three clauses, one with none; labels written as the lawyers' answers."""
    (root / "contracts").mkdir(parents=True)
    with_clauses = "SUPPLY AGREEMENT\n\n" + "\n\n".join(
        f"{i}. CLAUSE\n\n{sentence}" for i, (_, sentence) in enumerate(CATEGORIES_ON.values(), start=1)
    )
    (root / "contracts" / "a.txt").write_text(with_clauses, encoding="utf-8")
    (root / "contracts" / "b.txt").write_text("SERVICES AGREEMENT\n\n1. SERVICES\n\nThe Supplier provides the services.\n", encoding="utf-8")
    rows = [
        {"file": "a.txt", "type": "Supply", "labels": {c: {"answer": a, "spans": [s]} for c, (a, s) in CATEGORIES_ON.items()}},
        {"file": "b.txt", "type": "Service", "labels": {}},
    ]
    (root / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return root


def test_eval_cuad_prints_the_table_with_value_column(tmp_path, capsys):
    folder = _mini_folder(tmp_path / "cuad")
    assert main(["eval", "cuad", "--data", str(folder)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("category"))
    assert header.split()[-2:] == ["span", "value"]
    governing = next(line for line in out.splitlines() if line.startswith("Governing Law"))
    assert governing.split()[-5:] == ["1.00", "1.00", "1.00", "1.00", "1.00"]  # prec rec f1 span value
    assert any(line.startswith("macro") for line in out.splitlines())


def test_eval_cuad_json_scores_what_the_labels_say(tmp_path, capsys):
    folder = _mini_folder(tmp_path / "cuad")
    assert main(["eval", "cuad", "--data", str(folder), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["contracts"] == 2
    for category in CATEGORIES_ON:
        m = result["categories"][category]
        assert (m["tp"], m["fp"], m["fn"]) == (1, 0, 0), category
    assert result["categories"]["Renewal Term"]["value_match"] == 1.0
    assert result["categories"]["Insurance"]["positives"] == 0


def test_eval_cuad_rejects_a_folder_that_is_not_cuad_shaped(tmp_path, capsys):
    assert main(["eval", "cuad", "--data", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert "labels.jsonl" in err and "Traceback" not in err


def _load_builder():
    spec = importlib.util.spec_from_file_location("make_cuad_heldout", ROOT / "scripts" / "make_cuad_heldout.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_cuad_release(root: Path) -> Path:
    """A CUAD v1-shaped release: master_clauses.csv, full_contract_txt/, full_contract_pdf/Part_*/<Type>/."""
    names = {"SupplyCo-SUPPLY AGREEMENT": "Supply", "HostCo-HOSTING AGREEMENT": "Hosting",
             "BrandCo-ENDORSEMENT AGREEMENT": "Endorsement", "DevCo-SUPPLY AGREEMENT": "Supply",
             "CopyCo-MAINTENANCE AGREEMENT": "Maintenance"}
    (root / "full_contract_txt").mkdir(parents=True)
    for name, kind in names.items():
        text = f"{name}\n\n1. LAW\n\nThis Agreement is governed by the laws of Delaware.\n"
        if name == "CopyCo-MAINTENANCE AGREEMENT":
            text = "The dev contract under another name.\n"
        (root / "full_contract_txt" / f"{name}.txt").write_text(text, encoding="utf-8")
        folder = root / "full_contract_pdf" / "Part_I" / kind
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.pdf").write_bytes(b"%PDF-1.4")
    with (root / "master_clauses.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Filename", "Governing Law", "Governing Law-Answer",
                         "Notice Period To Terminate Renewal", "Notice Period To Terminate Renewal- Answer"])
        for name in names:
            writer.writerow([f"{name}.pdf", "['This Agreement is governed by the laws of Delaware.']", "Delaware", "[]", ""])
    return root


def test_heldout_builder_keeps_supplier_types_and_leaves_out_the_dev_set(tmp_path):
    builder = _load_builder()
    release = _fake_cuad_release(tmp_path / "CUAD_v1")
    dev = tmp_path / "dev"
    (dev / "contracts").mkdir(parents=True)
    (dev / "contracts" / "DevCo-SUPPLY AGREEMENT.txt").write_text("anything", encoding="utf-8")  # excluded by name
    (dev / "contracts" / "renamed.txt").write_text("The dev contract under another name.\n", encoding="utf-8")  # by content
    out = tmp_path / "heldout"
    counts = builder.build(release, out, dev)
    assert counts == {"Supply": 1, "Hosting": 1}
    rows = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    assert sorted(r["file"] for r in rows) == ["HostCo-HOSTING AGREEMENT.txt", "SupplyCo-SUPPLY AGREEMENT.txt"]
    labels = rows[0]["labels"]
    assert labels["Governing Law"] == {"answer": "Delaware", "spans": ["This Agreement is governed by the laws of Delaware."]}
    assert labels["Notice Period To Terminate Renewal"] == {"answer": "", "spans": []}
    assert sorted(p.name for p in (out / "contracts").iterdir()) == sorted(r["file"] for r in rows)
    halves = [builder.build(release, tmp_path / f"h{h}", dev, half=h) for h in (1, 2)]
    assert sum(sum(c.values()) for c in halves) == 2  # the halves split the folder without overlap
    other = builder.build(release, tmp_path / "other", dev, other=True)
    assert other == {"Endorsement": 1}  # the non-supplier tuning set shares no contract with the held-out one
    assert [p.name for p in (tmp_path / "other" / "contracts").iterdir()] == ["BrandCo-ENDORSEMENT AGREEMENT.txt"]


def test_heldout_builder_reads_the_type_from_the_name_without_the_pdf_tree():
    builder = _load_builder()
    assert builder.supplier_type("Part_III/Service") == "Service"
    assert builder.supplier_type("XYZ-MASTER SERVICES AGREEMENT") == "Service"
    assert builder.supplier_type("Consulting Agreements") is None
    assert builder.supplier_type("Co_Branding") is None


@pytest.mark.skipif(not (CUAD / "labels.jsonl").is_file(), reason="CUAD dev set not found at ../shared/cuad")
def test_longest_cuad_contract_goes_through_the_whole_graph(settings):
    from langgraph.checkpoint.memory import InMemorySaver

    from graphs.runner import Reviewer

    longest = max((CUAD / "contracts").glob("*.txt"), key=lambda p: p.stat().st_size)
    report = Reviewer(settings, InMemorySaver(), use_memory=False).review_path(longest)
    assert report["outcome"] == "COMPLETED"
    assert report["findings"]  # its time is `contract-review bench cuad`'s figure
