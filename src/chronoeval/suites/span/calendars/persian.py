"""Persian (Solar Hijri) calendar backend: jdatetime (33-year arithmetic leap rule)."""

from __future__ import annotations

import datetime as dt

import jdatetime

from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend
from chronoeval.suites.span.calendars.gregorian import TWELVE

MONTHS = (
    "Farvardin",
    "Ordibehesht",
    "Khordad",
    "Tir",
    "Mordad",
    "Shahrivar",
    "Mehr",
    "Aban",
    "Azar",
    "Dey",
    "Bahman",
    "Esfand",
)


class Persian(CalendarBackend):
    name = "persian"
    family = "persian"
    label = "Persian (Solar Hijri)"
    month_names = MONTHS

    def _from_ordinal(self, ordinal: int) -> CalDate:
        j = jdatetime.date.fromgregorian(date=dt.date.fromordinal(ordinal))
        return CalDate(self.name, j.year, j.month, j.day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return jdatetime.date(year, month, day).togregorian().toordinal()

    def months(self, year: int) -> list[tuple[int, bool]]:
        return TWELVE

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        if month <= 6:
            return 31
        if month <= 11:
            return 30
        return 30 if jdatetime.date(year, 1, 1).isleap() else 29

    def day_name(self, date: CalDate) -> str:
        return f"{date.day} {MONTHS[date.month - 1]} {date.year} SH"
