"""Default-time bias on hand-made answer lists (paper §4: answers collapsing onto one time)."""

from __future__ import annotations

import pytest

from chronoeval.suites.lost_in_time.metrics import default_time_bias, hour_minute


def test_collapse_onto_ten_ten() -> None:
    golds = ["1:00:00", "2:15:30", "3:30:00", "10:10:00", "5:45:10"]
    answers = ["10:10:00", "10:10:35", "10:10:00", "10:10:00", None]  # one NoAnswer
    got = default_time_bias(answers, golds)
    assert got["top_answer"] == "10:10"
    assert got["top_share"]["value"] == 1.0 and got["top_share"]["n"] == 4
    assert got["top_gold_share"]["value"] == pytest.approx(1 / 5)
    assert got["share_10:10"]["value"] == 1.0


def test_no_collapse_and_no_answers() -> None:
    got = default_time_bias(["1:00:00", "2:15:00", "3:30:00"], ["1:00:00", "2:15:00", "3:30:00"])
    assert got["top_share"]["value"] == pytest.approx(1 / 3)
    assert got["share_10:10"]["value"] == 0.0
    none = default_time_bias([None, None], ["1:00:00", "2:00:00"])
    assert "top_answer" not in none
    assert none["share_10:10"]["value"] is None
    assert hour_minute("NoAnswer(no time found)") is None and hour_minute("12:05:09") == "12:05"
