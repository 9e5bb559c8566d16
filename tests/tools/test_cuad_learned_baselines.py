"""scripts/cuad_learned_baselines.py: the rules beside classifiers learned from CUAD-style labels."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

FILLER = (
    "The Supplier shall deliver the Products to the delivery point named in each purchase order.",
    "Invoices are payable within thirty days of receipt by the Customer at the stated address.",
    "Each party shall keep the other's confidential information secret during the term hereof.",
    "The Supplier shall maintain a quality system that meets the specifications in Exhibit A.",
    "Forecasts issued by the Customer are estimates only and bind neither party to any quantity.",
)
GOVERNING = "This Agreement shall be governed by the laws of the State of {state}, without regard to conflicts of law."
ASSIGNMENT = "Neither party may assign this Agreement without the prior written consent of the other party."
STATES = ("New York", "Delaware", "Texas", "Ohio", "Illinois", "California", "Georgia", "Florida")


def _load():
    spec = importlib.util.spec_from_file_location("cuad_learned_baselines", ROOT / "scripts" / "cuad_learned_baselines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _folder(root: Path, n: int, offset: int) -> Path:
    """n contracts: every other one states governing law, every third one restricts assignment."""
    (root / "contracts").mkdir(parents=True)
    rows = []
    for i in range(offset, offset + n):
        clauses, labels = [], {}
        if i % 2 == 0:
            sentence = GOVERNING.format(state=STATES[i % len(STATES)])
            clauses.append(sentence)
            labels["Governing Law"] = {"answer": STATES[i % len(STATES)], "spans": [sentence]}
        if i % 3 == 0:
            clauses.append(ASSIGNMENT)
            labels["Anti-Assignment"] = {"answer": "Yes", "spans": [ASSIGNMENT]}
        body = [FILLER[(i + k) % len(FILLER)] for k in range(len(FILLER))] + clauses
        text = "SUPPLY AGREEMENT\n\n" + "\n\n".join(f"{k}. CLAUSE {k}\n\n{s}" for k, s in enumerate(body, start=1))
        (root / "contracts" / f"c{i:02d}.txt").write_text(text, encoding="utf-8")
        rows.append({"file": f"c{i:02d}.txt", "type": "Supply", "labels": labels})
    (root / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return root


def test_learned_systems_are_scored_beside_the_rules_on_the_test_folder(tmp_path, capsys):
    module = _load()
    train = _folder(tmp_path / "train", 20, 0)
    test = _folder(tmp_path / "test", 8, 100)
    assert module.main(["--train", str(train), "--test", str(test), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)[str(test)]
    assert set(result) == {"rules", "tfidf", "rule-weights", "rules+tfidf"}
    # the rules read both clauses on their own; the learned models learn them from 20 labelled contracts
    for system in result:
        assert result[system]["Governing Law"] == 1.0, system
        assert result[system]["Anti-Assignment"] == 1.0, system
    # categories no contract has: every system finds nothing, which scores 1.0
    assert result["tfidf"]["Insurance"] == 1.0
    assert result["rules"]["macro"] == pytest.approx(1.0)


def test_wrong_test_labels_lower_every_system_alike(tmp_path, capsys):
    """Scores come from the test folder's labels, the models from the training folder's."""
    module = _load()
    train = _folder(tmp_path / "train", 20, 0)
    test = _folder(tmp_path / "test", 8, 100)
    rows = [json.loads(line) for line in (test / "labels.jsonl").read_text().splitlines()]
    for row in rows:  # the lawyers "missed" every governing-law clause
        row["labels"].pop("Governing Law", None)
    (test / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert module.main(["--train", str(train), "--test", str(test), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)[str(test)]
    for system in result:
        assert result[system]["Governing Law"] == 0.0, system
        assert result[system]["Anti-Assignment"] == 1.0, system


def test_text_report_has_a_row_per_category_and_the_macro(tmp_path, capsys):
    module = _load()
    train = _folder(tmp_path / "train", 10, 0)
    test = _folder(tmp_path / "test", 4, 50)
    assert module.main(["--train", str(train), "--test", str(test)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("category"))
    assert header.split()[1:] == ["rules", "tfidf", "rule-weights", "rules+tfidf"]
    assert sum(line.startswith("Governing Law") for line in out.splitlines()) == 1
    assert any(line.startswith("macro") for line in out.splitlines())


def test_a_folder_that_is_not_cuad_shaped_is_refused(tmp_path, capsys):
    module = _load()
    train = _folder(tmp_path / "train", 10, 0)
    with pytest.raises(SystemExit) as stop:
        module.main(["--train", str(train), "--test", str(tmp_path / "nothing")])
    assert stop.value.code == 2
    assert "labels.jsonl" in capsys.readouterr().err
