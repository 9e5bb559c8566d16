"""The calibrated thresholds do what docs/CALIBRATION.md claims on the labelled pair set."""

from __future__ import annotations

import numpy as np
import pytest

from memory.embeddings import calibrated_thresholds, load_embeddings
from memory.errors import MemoryConfigError
from tests.memory.calibration_set import FACT_PAIRS, TASK_PAIRS, stored_episode_text


def _cosines(spec: str, pairs: list[tuple[str, str, str]], *, episodes: bool) -> dict[str, np.ndarray]:
    """Cosine of query vs stored text per label; stored episodes carry findings lines."""
    embeddings = load_embeddings(spec)
    out: dict[str, list[float]] = {}
    for i, (a, b, label) in enumerate(pairs):
        stored = stored_episode_text(b, i) if episodes else b
        out.setdefault(label, []).append(float(np.dot(embeddings.embed_query(a), embeddings.embed_query(stored))))
    return {label: np.array(values) for label, values in out.items()}


def _report(spec: str, kind: str, cosines: dict[str, np.ndarray], threshold: float) -> None:
    for label, values in cosines.items():
        print(f"{spec:9} {kind} {label:10} n={len(values):2} min={values.min():.2f} "
              f"median={np.median(values):.2f} max={values.max():.2f} pass@{threshold:.2f}={np.mean(values >= threshold):.0%}")


def test_wordllama_thresholds_separate_the_labelled_pairs():
    episode_min, fact_min = calibrated_thresholds(load_embeddings("wordllama").model_name)
    tasks = _cosines("wordllama", TASK_PAIRS, episodes=True)
    facts = _cosines("wordllama", FACT_PAIRS, episodes=False)
    _report("wordllama", "task", tasks, episode_min)
    _report("wordllama", "fact", facts, fact_min)
    # episodes: every rewording of the task is recalled, few other tasks of the domain, no stranger
    assert np.all(tasks["paraphrase"] >= episode_min)
    assert np.mean(tasks["related"] >= episode_min) <= 0.15
    assert np.all(tasks["unrelated"] < episode_min)
    # facts: most relevant facts pass, none that does not bear on the task
    assert np.all(facts["paraphrase"] >= fact_min)
    assert np.mean(facts["related"] >= fact_min) >= 0.7
    assert np.all(facts["unrelated"] < fact_min)


def test_hash_thresholds_reject_every_unrelated_pair():
    episode_min, fact_min = calibrated_thresholds("hash-256")
    tasks = _cosines("hash", TASK_PAIRS, episodes=True)
    facts = _cosines("hash", FACT_PAIRS, episodes=False)
    _report("hash", "task", tasks, episode_min)
    _report("hash", "fact", facts, fact_min)
    assert np.mean(tasks["paraphrase"] >= episode_min) >= 0.6  # a lexical stand-in: no synonyms
    assert np.mean(tasks["related"] >= episode_min) <= 0.15
    assert np.all(tasks["unrelated"] < episode_min)
    assert np.all(facts["unrelated"] < fact_min)


def test_an_uncalibrated_model_is_refused_with_the_fix():
    with pytest.raises(MemoryConfigError, match="set the episode and fact minimum scores explicitly"):
        calibrated_thresholds("some-new-model")


def test_wordllama_vector_alone_bar_follows_its_rule():
    """`vector_alone`: the lowest 0.05 grid value at which (a) no related or unrelated calibration
    pair passes, and (b) no query of the retrieval benchmark's tuning half that has no right answer
    finds a stored episode on cosine alone (docs/CALIBRATION.md)."""
    from datetime import UTC, datetime

    from bench.retrieval import _seed
    from bench.retrieval_queries import all_queries, split
    from memory.backends.sqlite import SqliteMemory
    from memory.embeddings import calibrated_vector_alone

    embeddings = load_embeddings("wordllama")
    tasks = _cosines("wordllama", TASK_PAIRS, episodes=True)
    worst_pair = max(tasks["related"].max(), tasks["unrelated"].max())
    tuning, _ = split(all_queries())
    no_answer = [q.text for q in tuning if not q.answerable]
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder, SqliteMemory(Path(folder) / "m.sqlite") as memory:
        _seed(memory, embeddings, 300, datetime.now(UTC))
        with memory.db.read() as conn:
            stored = np.stack([np.frombuffer(blob, dtype=np.float32) for (blob,) in conn.execute(
                "SELECT vector FROM episodes")])
    worst_query = float((stored @ np.asarray(embeddings.embed_documents(no_answer), dtype=np.float32).T).max())
    grid = np.round(np.arange(0.05, 1.0, 0.05), 2)
    expected = float(grid[(grid > worst_pair) & (grid > worst_query)][0])
    print(f"worst related/unrelated pair {worst_pair:.3f}, worst no-answer tuning query {worst_query:.3f} -> {expected}")
    assert calibrated_vector_alone(embeddings.model_name) == expected
    assert calibrated_vector_alone("hash-256") is None  # models without the bar keep min_score alone
