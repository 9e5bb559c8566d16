"""Numbers as contracts write them."""

from __future__ import annotations

import pytest

from tools.detection.numbers import (
    find_durations,
    find_money,
    find_multiples,
    find_percents,
    parse_number,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [("thirty (30)", 30), ("one hundred and eighty", 180), ("twenty-four", 24), ("1,000,000", 1e6),
     ("ninety", 90), ("seven (7)", 7), ("two thousand five hundred", 2500)],
)
def test_parse_number(text, value):
    assert parse_number(text) == value


def test_durations_in_days_months_hours():
    found = find_durations("within thirty (30) days, a 12-month term, seventy-two (72) hours and two (2) years")
    assert [(d.value, d.unit) for d in found] == [(30, "day"), (12, "month"), (72, "hour"), (2, "year")]
    assert found[3].months == 24 and found[2].hours == 72


def test_percents_money_and_multiples():
    assert [p.value for p in find_percents("up to five per cent (5%) or 200%")][-1] == 200
    assert [m.value for m in find_money("USD 2,000,000 per occurrence and $5 million aggregate")] == [2e6, 5e6]
    assert [m.value for m in find_money("one million dollars ($1,000,000)")] == [1e6]
    assert [m.value for m in find_multiples("two times the fees, or 3x, or twice")] == [2, 3, 2]


def test_a_quoted_figure_in_brackets_is_read():
    assert [d.days for d in find_durations('upon ninety ("90") days prior written notice')] == [90]
    assert parse_number("sixty (“60”)") == 60


def test_a_renewal_notice_with_a_blanked_out_period_is_still_a_candidate():
    from tools.detection.clauses import score_sentence
    from tools.detection.rules import DETECTORS

    detector = DETECTORS["renewal_notice"]
    sentence = ("This Agreement renews automatically for successive renewal terms unless either party gives written "
                "notice of non-renewal at least [***] days prior to the end of the then-current term.")
    assert score_sentence(detector, sentence) >= detector.threshold
    assert score_sentence(detector, sentence.replace("[***] days", "some time")) == 0  # no period at all
