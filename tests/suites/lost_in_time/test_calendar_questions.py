"""CalendarQA questions: gold weekdays against an independent path (Zeller's congruence), hand-known
dates, the six types, and day-of-year arithmetic across leap rules."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from chronoeval.suites.lost_in_time.answers import WEEKDAYS
from chronoeval.suites.lost_in_time.calendar_questions import (
    CALENDAR_QUESTION_TYPES,
    CalendarQuestion,
    make_questions,
    nth_day,
    ordinal,
)

_ZELLER_NAMES = ("Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def zeller(year: int, month: int, day: int) -> str:
    """Weekday name by Zeller's congruence for the Gregorian calendar."""
    if month < 3:
        month += 12
        year -= 1
    k, j = year % 100, year // 100
    h = (day + 13 * (month + 1) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
    return _ZELLER_NAMES[h]


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_day_of(year: int, n: int) -> tuple[int, int]:
    """Month and day of the n-th day of the year, by walking month lengths."""
    for month, length in enumerate(_MONTH_DAYS, start=1):
        length += 1 if month == 2 and is_leap(year) else 0
        if n <= length:
            return month, n
        n -= length
    raise AssertionError("n beyond the end of the year")


@pytest.mark.parametrize(
    ("year", "month", "day", "name"),
    [
        (2000, 1, 1, "Saturday"),
        (1776, 7, 4, "Thursday"),
        (9999, 12, 31, "Friday"),
        (1, 1, 1, "Monday"),
        (1969, 7, 20, "Sunday"),
        (2024, 2, 29, "Thursday"),
        (1900, 3, 1, "Thursday"),
    ],
)
def test_hand_known_dates(year: int, month: int, day: int, name: str) -> None:
    assert zeller(year, month, day) == name
    assert WEEKDAYS[dt.date(year, month, day).weekday()] == name


def _check(question: CalendarQuestion, year: int) -> None:
    month, day = month_day_of(year, question.n)
    assert (question.date.year, question.date.month, question.date.day) == (year, month, day)
    assert question.weekday == zeller(year, month, day)
    assert question.weekday in WEEKDAYS
    assert "weekday" in question.text.lower()


@pytest.mark.parametrize("seed", range(6))
def test_gold_against_zeller_for_random_years(seed: int) -> None:
    rng = random.Random(seed)
    for year in [rng.randint(1, 9999) for _ in range(40)] + [1, 4, 100, 400, 1900, 2000, 9999]:
        questions = make_questions(year, rng)
        assert tuple(q.qtype for q in questions) == CALENDAR_QUESTION_TYPES
        for q in questions:
            _check(q, year)
        by_type = {q.qtype: q for q in questions}
        assert by_type["new_years_day"].n == 1
        assert (by_type["christmas"].date.month, by_type["christmas"].date.day) == (12, 25)
        assert by_type["day_100"].n == 100 and by_type["day_153"].n == 153
        fixed = {1, 100, 153, by_type["christmas"].n}
        assert by_type["random_nth_day"].n not in fixed
        assert by_type["specific_date"].n not in fixed
        assert ordinal(by_type["random_nth_day"].n) in by_type["random_nth_day"].text
        spec = by_type["specific_date"]
        assert f"{_MONTHS[spec.date.month - 1]} {spec.date.day} " in spec.text


def test_six_types_and_wording() -> None:
    questions = make_questions(2025, random.Random(0))
    texts = {q.qtype: q.text for q in questions}
    assert set(texts) == set(CALENDAR_QUESTION_TYPES) and len(questions) == 6
    assert "New Year's Day" in texts["new_years_day"]
    assert "Christmas Day" in texts["christmas"]
    assert "100th day of the year" in texts["day_100"]
    assert "153rd day of the year" in texts["day_153"]
    assert all("2025" not in t for t in texts.values())  # the year is only in the image


def test_leap_year_day_of_year_arithmetic() -> None:
    rng = random.Random(1)
    # 1900 is not a leap year (divisible by 100, not 400); 2000 is.
    q1900 = {q.qtype: q for q in make_questions(1900, rng)}
    q2000 = {q.qtype: q for q in make_questions(2000, rng)}
    assert q1900["day_100"].date == dt.date(1900, 4, 10)
    assert q2000["day_100"].date == dt.date(2000, 4, 9)
    assert q1900["day_153"].date == dt.date(1900, 6, 2)
    assert q2000["day_153"].date == dt.date(2000, 6, 1)
    assert q1900["christmas"].n == 359 and q2000["christmas"].n == 360
    assert q2000["day_100"].weekday == "Sunday" and q1900["day_100"].weekday == "Tuesday"
    assert nth_day(2000, 366) == dt.date(2000, 12, 31)
    with pytest.raises(ValueError):
        nth_day(1900, 366)
    with pytest.raises(ValueError):
        nth_day(2024, 0)


def test_random_choices_cover_the_year_and_are_deterministic() -> None:
    a = make_questions(2024, random.Random(42))
    assert a == make_questions(2024, random.Random(42))
    rng = random.Random(9)
    ns = {make_questions(2023, rng)[5].n for _ in range(3000)}
    assert ns == set(range(1, 366)) - {1, 100, 153, 359}
    rng = random.Random(10)
    leap_ns = {make_questions(2024, rng)[5].n for _ in range(3000)}
    assert 366 in leap_ns and 360 not in leap_ns and 359 in leap_ns


@pytest.mark.parametrize("year", [0, -1, 10000])
def test_year_range(year: int) -> None:
    with pytest.raises(ValueError, match="1..9999"):
        make_questions(year, random.Random(0))


@pytest.mark.parametrize(
    ("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (11, "11th"), (12, "12th"), (13, "13th"),
                    (21, "21st"), (22, "22nd"), (111, "111th"), (153, "153rd"), (366, "366th")]
)  # fmt: skip
def test_ordinal(n: int, text: str) -> None:
    assert ordinal(n) == text
