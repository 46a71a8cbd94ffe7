"""ClockTime.from_gold keeps decoded golds (each gold is decoded when validated and when scored):
the same times as the strict parse, failures never kept, and the kept time is reused."""

from __future__ import annotations

import pytest

from chronoeval.suites.lost_in_time.answers import ClockTime


@pytest.mark.parametrize(
    "text,want",
    [
        ("3:00:00", (3, 0, 0)),
        ("12:59:59", (12, 59, 59)),
        ("0:05:07", (12, 5, 7)),
        (" 1:02:03\n", (1, 2, 3)),
    ],
)
def test_kept_golds_are_the_strict_parse(text: str, want: tuple[int, int, int]) -> None:
    got = ClockTime.from_gold(text)
    assert (got.hour, got.minute, got.second) == want
    assert got == ClockTime._parse_gold(text)
    assert ClockTime.from_gold(text) is got  # decoded once, then reused


@pytest.mark.parametrize("text", ["13:00:00", "3:00", "3:0:00", "", "3:60:00", "x"])
def test_bad_golds_fail_every_time(text: str) -> None:
    for _ in range(2):
        with pytest.raises(ValueError):
            ClockTime.from_gold(text)


def test_a_subclass_gets_its_own_type() -> None:
    class Tick(ClockTime):
        pass

    assert type(Tick.from_gold("3:00:00")) is Tick
