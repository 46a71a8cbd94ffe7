"""Hebrew calendar backend: pyluach. Months are numbered from Nisan = 1 (Tishrei = 7); in a leap
year month 12 is Adar I and month 13 Adar II, in a common year month 12 is Adar. The year begins
on 1 Tishrei, so months run 7..12(13), 1..6 within a year."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from pyluach import dates as _dates
from pyluach import hebrewcal as _hcal

from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend

MONTHS = (
    "Nisan",
    "Iyar",
    "Sivan",
    "Tammuz",
    "Av",
    "Elul",
    "Tishrei",
    "Cheshvan",
    "Kislev",
    "Tevet",
    "Shevat",
    "Adar",
    "Adar II",
)


def is_leap(year: int) -> bool:
    return (7 * year + 1) % 19 < 7


@lru_cache(maxsize=8192)
def _month_length(year: int, month: int) -> int:
    return sum(1 for _ in _hcal.Month(year, month).iterdates())


class Hebrew(CalendarBackend):
    name = "hebrew"
    family = "hebrew"
    label = "Hebrew"
    month_names = MONTHS

    def _from_ordinal(self, ordinal: int) -> CalDate:
        h = _dates.GregorianDate.from_pydate(dt.date.fromordinal(ordinal)).to_heb()
        return CalDate(self.name, h.year, h.month, h.day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return _dates.HebrewDate(year, month, day).to_pydate().toordinal()

    def months(self, year: int) -> list[tuple[int, bool]]:
        last = 13 if is_leap(year) else 12
        return [(m, False) for m in (*range(7, last + 1), *range(1, 7))]

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        return _month_length(year, month)

    def month_name(self, month: int, leap: bool = False, year: int | None = None) -> str:
        if month == 12 and year is not None and is_leap(year):
            return "Adar I"
        return MONTHS[month - 1]
