"""Compare the rule detectors with classifiers learned from CUAD labels, on CUAD-style folders.

The question this answers: would a model trained on lawyers' labels find the playbook's clauses
in unseen contracts better than the hand-written rules of tools/detection/rules.py? Three learned systems
are trained on the --train folders and scored on each --test folder, beside the rules:

- `tfidf`: per category, a logistic regression over word uni- and bigrams (TF-IDF) of every
  sentence, with the words of its section title; a contract has the clause when its best
  sentence scores at or above a per-category cut-off.
- `rule-weights`: the same model over which of the detector's own patterns a sentence matches
  (and whether its title names the clause): the rules' wording with weights learned, not set.
- `rules+tfidf`: the rules' decision, with a rule hit kept only when the TF-IDF model gives it
  at least a floor and a clause the rules missed added when the model is sure; floor and bar
  per category.

A sentence is a positive example when it overlaps a labelled excerpt (the span test of
`contract-review eval cuad`). Cut-offs, floors and bars are picked by 5-fold cross-validation
over the training contracts, never on a test folder. Scores are document-level F1 per category
and their macro average, as `eval cuad` reports them.

Needs scikit-learn (the `research` extra: pip install -e ".[research]"); nothing in the agent
imports it. Folders have the layout of ../shared/cuad (contracts/*.txt + labels.jsonl), e.g.
those scripts/make_cuad_heldout.py builds:

    python scripts/cuad_learned_baselines.py --train /tmp/cuad_otherA --train /tmp/cuad_otherB \
        --train /tmp/cuad_heldout_h1 --test ../shared/cuad --test /tmp/cuad_heldout_h2
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.contract import load_contract  # noqa: E402
from tools.detection.clauses import contract_sentences, rule_hits, score_hits, titled  # noqa: E402
from tools.detection.cuad_eval import CATEGORY_DETECTORS, quote_overlaps, read_labels  # noqa: E402
from tools.detection.rules import DETECTORS  # noqa: E402

CATEGORIES = tuple(CATEGORY_DETECTORS)
SYSTEMS = ("rules", "tfidf", "rule-weights", "rules+tfidf")
CUTOFFS = tuple(round(x, 2) for x in np.arange(0.05, 0.96, 0.05))
FLOORS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3)
BARS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)  # 1.01: never add
_TITLE_WORDS = re.compile(r"[a-z]+")


@dataclass
class Doc:
    """One contract: its sentences with the rules' view of each, and the lawyers' labels."""

    name: str
    texts: list[str] = field(default_factory=list)  # sentence text + its section title's words
    gold: dict[str, bool] = field(default_factory=dict)
    sentence_gold: dict[str, list[bool]] = field(default_factory=dict)
    rule_hit: dict[str, bool] = field(default_factory=dict)  # the rules find the clause
    patterns: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)  # per sentence; () when gated out


def read_folder(folder: Path) -> list[Doc]:
    """Every contract of a CUAD-style folder, with what the baselines need of it."""
    labels = read_labels(folder)
    docs = []
    for path in sorted((folder / "contracts").glob("*.txt")):
        contract = load_contract(path, max_bytes=50 * 1024 * 1024)
        sentences = contract_sentences(contract)
        doc = Doc(path.name)
        doc.texts = [text + " " + " ".join("T_" + w for w in _TITLE_WORDS.findall(section.title.lower()))
                     for section, _, _, text in sentences]
        for category, detector_id in CATEGORY_DETECTORS.items():
            detector = DETECTORS[detector_id]
            spans = labels.get(path.name, {}).get(category, {}).get("spans") or []
            doc.gold[category] = bool(spans)
            doc.sentence_gold[category] = [bool(spans) and quote_overlaps(text, spans) for *_, text in sentences]
            rows, best = [], 0.0
            for section, _, _, text in sentences:
                hits = rule_hits(detector, text) or ()
                rows.append(hits + ((len(detector.rules),) if hits and titled(detector, section.title) else ()))
                best = max(best, score_hits(detector, hits, section.title))
            doc.patterns[category] = rows
            doc.rule_hit[category] = best >= detector.threshold
        docs.append(doc)
    return docs


def f1(predicted: np.ndarray, gold: np.ndarray) -> float:
    tp = int((predicted & gold).sum())
    wrong = int((predicted != gold).sum())
    return 1.0 if tp + wrong == 0 else 2 * tp / (2 * tp + wrong)


def _model() -> LogisticRegression:
    # positives are rare (a clause is a sentence or two of hundreds): weigh them up
    return LogisticRegression(C=4.0, max_iter=3000, class_weight={0: 1, 1: 5})


def _best_sentence_scores(train: list[Doc], test: list[Doc], features) -> dict[str, np.ndarray]:
    """Per category, each test contract's best sentence probability under a sentence classifier
    fitted on the training sentences; `features(docs, category)` gives one matrix row per sentence."""
    owner = np.array([i for i, d in enumerate(test) for _ in d.texts], dtype=int)
    out = {}
    for category in CATEGORIES:
        y = np.array([g for d in train for g in d.sentence_gold[category]])
        if y.all() or not y.any():  # nothing to tell apart: every contract alike
            out[category] = np.full(len(test), float(y.any()))
            continue
        model = _model().fit(features(train, category), y)
        best = np.zeros(len(test))
        np.maximum.at(best, owner, model.predict_proba(features(test, category))[:, 1])
        out[category] = best
    return out


def tfidf_scores(train: list[Doc], test: list[Doc]) -> dict[str, np.ndarray]:
    """The TF-IDF sentence model's scores (the vocabulary comes from the training sentences)."""
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True, token_pattern=r"[A-Za-z_]+")
    matrices = {id(train): vectorizer.fit_transform([t for d in train for t in d.texts])}
    matrices[id(test)] = vectorizer.transform([t for d in test for t in d.texts])
    return _best_sentence_scores(train, test, lambda docs, _category: matrices[id(docs)])


def _pattern_matrix(docs: list[Doc], category: str) -> csr_matrix:
    width = len(DETECTORS[CATEGORY_DETECTORS[category]].rules) + 1
    rows, cols, n = [], [], 0
    for doc in docs:
        for hits in doc.patterns[category]:
            rows.extend([n] * len(hits))
            cols.extend(hits)
            n += 1
    return csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, width))


def rule_weight_scores(train: list[Doc], test: list[Doc]) -> dict[str, np.ndarray]:
    """Scores with the detector's own patterns as features and their weights learned."""
    return _best_sentence_scores(train, test, _pattern_matrix)


def _combined(rules: np.ndarray, p: np.ndarray, floor: float, bar: float) -> np.ndarray:
    return (rules & (p >= floor)) | (p >= bar)


def choose_settings(train: list[Doc], folds: int) -> dict[str, dict[str, tuple[float, ...]]]:
    """Cut-offs (and the stack's floor and bar) per category, from out-of-fold scores on train."""
    n = len(train)
    oof = {"tfidf": {c: np.zeros(n) for c in CATEGORIES}, "rule-weights": {c: np.zeros(n) for c in CATEGORIES}}
    for fit_idx, held_idx in KFold(folds, shuffle=True, random_state=0).split(np.arange(n)):
        fit, held = [train[i] for i in fit_idx], [train[i] for i in held_idx]
        for system, scorer in (("tfidf", tfidf_scores), ("rule-weights", rule_weight_scores)):
            for category, scores in scorer(fit, held).items():
                oof[system][category][held_idx] = scores
    settings: dict[str, dict[str, tuple[float, ...]]] = {s: {} for s in SYSTEMS[1:]}
    for category in CATEGORIES:
        gold = np.array([d.gold[category] for d in train])
        rules = np.array([d.rule_hit[category] for d in train])
        for system in ("tfidf", "rule-weights"):
            p = oof[system][category]
            settings[system][category] = (max(CUTOFFS, key=lambda t: (f1(p >= t, gold), -abs(t - 0.5))),)
        p = oof["tfidf"][category]
        grid = [(floor, bar) for floor in FLOORS for bar in BARS]
        # ties go to the smallest change to the rules (lowest floor, highest bar)
        settings["rules+tfidf"][category] = max(grid, key=lambda fb: (round(f1(_combined(rules, p, *fb), gold), 6), -fb[0], fb[1]))
    return settings


def score(folders: dict[str, list[Doc]], train: list[Doc], settings: dict) -> dict[str, dict[str, dict[str, float]]]:
    """Per test folder, document-level F1 per system and category plus the macro average; the
    models are fitted once, on all training contracts, and score every folder's contracts."""
    test = [doc for docs in folders.values() for doc in docs]
    scored = {"tfidf": tfidf_scores(train, test), "rule-weights": rule_weight_scores(train, test)}
    results, start = {}, 0
    for folder, docs in folders.items():
        part = slice(start, start + len(docs))
        start += len(docs)
        results[folder] = _folder_scores(docs, {s: {c: p[part] for c, p in by.items()} for s, by in scored.items()}, settings)
    return results


def _folder_scores(test: list[Doc], probabilities: dict, settings: dict) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for system in SYSTEMS:
        per = {}
        for category in CATEGORIES:
            gold = np.array([d.gold[category] for d in test])
            rules = np.array([d.rule_hit[category] for d in test])
            if system == "rules":
                predicted = rules
            elif system == "rules+tfidf":
                predicted = _combined(rules, probabilities["tfidf"][category], *settings[system][category])
            else:
                predicted = probabilities[system][category] >= settings[system][category][0]
            per[category] = f1(predicted, gold)
        per["macro"] = sum(per[c] for c in CATEGORIES) / len(CATEGORIES)
        out[system] = per
    return out


def render(results: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = []
    for folder, table in results.items():
        lines.append(f"{folder}: document-level F1")
        lines.append(f"{'category':36s}" + "".join(f"{s:>14s}" for s in SYSTEMS))
        for category in (*CATEGORIES, "macro"):
            lines.append(f"{category:36s}" + "".join(f"{table[s][category]:14.3f}" for s in SYSTEMS))
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, action="append", required=True, help="a CUAD-style folder to learn from")
    parser.add_argument("--test", type=Path, action="append", required=True, help="a CUAD-style folder to score on")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds over the training contracts")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    for folder in (*args.train, *args.test):
        if not (folder / "labels.jsonl").is_file() or not (folder / "contracts").is_dir():
            parser.error(f"{folder}: expected contracts/*.txt and labels.jsonl (a CUAD-style folder)")
    train = [doc for folder in args.train for doc in read_folder(folder)]
    if len(train) < args.folds:
        parser.error(f"{len(train)} training contracts are fewer than the {args.folds} folds")
    settings = choose_settings(train, args.folds)
    results = score({str(folder): read_folder(folder) for folder in args.test}, train, settings)
    print(json.dumps(results, indent=2) if args.format == "json" else render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
