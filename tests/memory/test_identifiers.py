"""Identifiers a query and a memory share (issue 18): amounts written any way, section numbers,
codes, and names at the start of a sentence. The eligibility gate let a memory through on a
shared identifier, and the parser missed "640k euros", read "3.2 million dollars" as section
3.2, and dropped every sentence-initial name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.backends import open_memory
from memory.records import Episode, Namespace, Outcome
from memory.retrieval import identifiers, query_identifiers
from memory.stores import VectorQuery

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NS = Namespace(tenant="acme", agent="reviewer")


@pytest.mark.parametrize("writings", [
    ["fees of 640k euros", "EUR 640,000", "€640k", "640 thousand euros", "640,000 EUR"],
    ["a cap of 3.2 million dollars", "$3.2M", "USD 3,200,000", "3.2m USD", "3,200,000 dollars"],
    ["two million dollars", "$2M", "2,000,000 USD", "2 million"],
])
def test_one_amount_is_one_identifier_however_written(writings):
    tokens = [identifiers(text) for text in writings]
    shared = set.intersection(*tokens)
    assert len(shared) == 1, tokens


def test_an_amount_is_not_read_as_a_section_number():
    assert "3p2" not in identifiers("a cap of 3.2 million dollars")
    assert "3p2" in identifiers("the cap in section 3.2")
    assert identifiers("the cap in section 3.2") & identifiers("liability, clause 3.2") == {"3p2"}


def test_sentence_initial_names_are_tentative_in_queries_and_kept_in_stored_text():
    found, tentative = query_identifiers("Brightwater sent an amendment. Review the Acme deal")
    assert "acme" in found and {"brightwater", "review"} <= tentative
    assert "brightwater" in identifiers("Brightwater sent an amendment")  # stored texts keep every name
    assert query_identifiers("Acme Robotics")[0] == {"acme", "robotics"}  # a bare name is a name


@pytest.mark.parametrize("url_options", ["", "?vector_index=exact"])
def test_a_sentence_initial_name_finds_its_episode_and_a_common_first_word_finds_nothing(tmp_path, url_options):
    from tests.conformance.support import vec

    memory = open_memory(f"sqlite:///{tmp_path / 'memory.sqlite'}{url_options}")

    def add(run_id: str, summary: str, cosine: float, direction: int) -> None:
        memory.episodes.add(NS, Episode(run_id=run_id, task_type="review", task_summary=summary,
                                        outcome=Outcome.COMPLETED, created_at=NOW - timedelta(days=1),
                                        expires_at=NOW + timedelta(days=30), embedding_model="m"),
                            vec(cosine, direction))

    add("brightwater", "Review the Brightwater supply agreement amendment", 0.05, 2)
    for i in range(40):
        add(f"other-{i}", f"Review the supply agreement of supplier {i}", 0.05, 1 + i % 7)

    def search(text: str) -> list[str]:
        hits = memory.episodes.search(NS, VectorQuery(text=text, vector=vec(1.0), embedding_model="m", k=3,
                                                      min_score=0.25, now=NOW, vector_alone=0.4))
        return [h.item.run_id for h in hits]

    assert search("Brightwater sent an amendment") == ["brightwater"]
    assert search("Review the supply agreement") == []  # "Review" starts every summary: it names nothing
    memory.close()
