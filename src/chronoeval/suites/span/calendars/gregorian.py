"""Gregorian calendar backend: Python's proleptic Gregorian ``datetime.date``."""

from __future__ import annotations

import calendar as _stdcal
import datetime as dt

from chronoeval.core.names import MONTH_NAMES
from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend

MONTHS = MONTH_NAMES


TWELVE = [(m, False) for m in range(1, 13)]


class Gregorian(CalendarBackend):
    name = "gregorian"
    family = "gregorian"
    label = "Gregorian"
    month_names = MONTHS

    def _from_ordinal(self, ordinal: int) -> CalDate:
        d = dt.date.fromordinal(ordinal)
        return CalDate(self.name, d.year, d.month, d.day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return dt.date(year, month, day).toordinal()

    def months(self, year: int) -> list[tuple[int, bool]]:
        return TWELVE

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        return _stdcal.monthrange(year, month)[1]

    def day_name(self, date: CalDate) -> str:
        return f"{MONTHS[date.month - 1]} {date.day}, {date.year}"
