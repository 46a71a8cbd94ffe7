"""CalendarQA question templates and gold answers (Lost in Time).

Each year gets one question of each of six types: New Year's Day, Christmas Day, a specific date,
the 100th day, the 153rd day and a random Nth day of the year. The answer is always a weekday name
from :data:`~chronoeval.suites.lost_in_time.answers.WEEKDAYS`, computed with Python's proleptic
Gregorian date arithmetic.
"""

from __future__ import annotations

import calendar as _calendar
import datetime as _dt
import random
from dataclasses import dataclass

from chronoeval.core.names import MONTH_NAMES
from chronoeval.suites.lost_in_time.answers import WEEKDAYS

MIN_YEAR = 1
MAX_YEAR = 9999

CALENDAR_QUESTION_TYPES: tuple[str, ...] = (
    "new_years_day",
    "christmas",
    "specific_date",
    "day_100",
    "day_153",
    "random_nth_day",
)

ANSWER_INSTRUCTION = "Answer with the name of the weekday only."

_TEMPLATES: dict[str, str] = {
    "new_years_day": (
        "According to the calendar, on what day of the week does New Year's Day fall in this year?"
    ),
    "christmas": (
        "According to the calendar, on what day of the week does Christmas Day fall in this year?"
    ),
    "specific_date": "What day of the week is {month} {day} in the year shown in the calendar?",
    "day_100": "What day of the week is the 100th day of the year shown in the calendar?",
    "day_153": "What day of the week is the 153rd day of the year shown in the calendar?",
    "random_nth_day": "What day of the week is the {ordinal} day of the year shown in the calendar?",
}


@dataclass(frozen=True)
class CalendarQuestion:
    """One CalendarQA question about a yearly calendar.

    ``text`` is what the model sees (it ends with :data:`ANSWER_INSTRUCTION`); ``date`` is the day
    asked about, ``weekday`` the gold answer and ``n`` the day's ordinal in its year (1-based).
    """

    qtype: str
    text: str
    date: _dt.date
    weekday: str
    n: int

    @property
    def year(self) -> int:
        return self.date.year


def check_year(year: int) -> None:
    if isinstance(year, bool) or not isinstance(year, int):
        raise TypeError(f"year must be an int, got {type(year).__name__}")
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise ValueError(
            f"year {year} is outside the supported range {MIN_YEAR}..{MAX_YEAR} "
            "(proleptic Gregorian calendar of Python's datetime)"
        )


def ordinal(n: int) -> str:
    """``1 -> '1st'``, ``22 -> '22nd'``, ``113 -> '113th'``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def days_in_year(year: int) -> int:
    return 366 if _calendar.isleap(year) else 365


def nth_day(year: int, n: int) -> _dt.date:
    """The ``n``-th day (1-based) of ``year``."""
    check_year(year)
    if not 1 <= n <= days_in_year(year):
        raise ValueError(f"year {year} has no day number {n} (it has {days_in_year(year)} days)")
    return _dt.date(year, 1, 1) + _dt.timedelta(days=n - 1)


def weekday_name(day: _dt.date) -> str:
    return WEEKDAYS[day.weekday()]


def _question(qtype: str, text: str, day: _dt.date) -> CalendarQuestion:
    return CalendarQuestion(
        qtype=qtype,
        text=f"{text} {ANSWER_INSTRUCTION}",
        date=day,
        weekday=weekday_name(day),
        n=day.timetuple().tm_yday,
    )


def make_questions(year: int, rng: random.Random) -> list[CalendarQuestion]:
    """The six CalendarQA questions for ``year``, in :data:`CALENDAR_QUESTION_TYPES` order.

    The specific date is drawn uniformly from the days of the year other than the four fixed ones
    (1 January, 25 December, days 100 and 153); the random Nth day is drawn uniformly from
    1..days-in-year excluding 1, 100, 153 and Christmas (359, or 360 in leap years). Deterministic
    for a given ``rng`` state.
    """
    check_year(year)
    total = days_in_year(year)
    christmas = _dt.date(year, 12, 25)
    fixed_n = {1, 100, 153, christmas.timetuple().tm_yday}

    specific_n = rng.choice([n for n in range(1, total + 1) if n not in fixed_n])
    specific = nth_day(year, specific_n)
    random_n = rng.choice([n for n in range(1, total + 1) if n not in fixed_n])

    return [
        _question("new_years_day", _TEMPLATES["new_years_day"], _dt.date(year, 1, 1)),
        _question("christmas", _TEMPLATES["christmas"], christmas),
        _question(
            "specific_date",
            _TEMPLATES["specific_date"].format(
                month=MONTH_NAMES[specific.month - 1], day=specific.day
            ),
            specific,
        ),
        _question("day_100", _TEMPLATES["day_100"], nth_day(year, 100)),
        _question("day_153", _TEMPLATES["day_153"], nth_day(year, 153)),
        _question(
            "random_nth_day",
            _TEMPLATES["random_nth_day"].format(ordinal=ordinal(random_n)),
            nth_day(year, random_n),
        ),
    ]
