"""``calendar_api``: the only module TimeAgent code may import (its names are also predefined).

Strings in, strings out, so model-written code and tool calls use the same forms:
dates ``YYYY-MM-DD`` (a Chinese leap month ``YYYY-LMM-DD``; Hebrew months from Nisan = 1, Adar II =
13); calendars ``gregorian``, ``chinese``, ``hebrew``, ``islamic`` (= Umm al-Qura),
``islamic_tabular``, ``persian``, ``shaka``.
"""

from __future__ import annotations

from datetime import date, timedelta

from chronoeval.suites.span.calendars import (
    FESTIVALS,
    get_calendar,
    make_date,
    search_calendar,
)
from chronoeval.suites.span.calendars import add_days as _add_days
from chronoeval.suites.span.calendars import shift_years as _shift_years


def add_days(calendar: str, date: str, n: int) -> str:
    """The date ``n`` days after ``date`` (negative: before), in the same calendar."""
    return _add_days(make_date(calendar, date), int(n)).iso()


def add_years(calendar: str, date: str, n: int) -> str:
    """Same month and day ``n`` years on in that calendar (a missing leap month -> the ordinary
    month; a missing day -> the month's last day; Hebrew Adar <-> Adar II as for Purim)."""
    return _shift_years(make_date(calendar, date), int(n))[0].iso()


def month_length(calendar: str, year: int, month: int, leap: bool = False) -> int:
    return get_calendar(calendar).month_length(int(year), int(month), bool(leap))


def festivals() -> list[str]:
    return [f"{f.name} ({f.family})" for f in FESTIVALS]


__all__ = [
    "add_days",
    "add_years",
    "date",
    "festivals",
    "month_length",
    "search_calendar",
    "timedelta",
]
