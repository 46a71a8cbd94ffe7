"""Shaka (Indian national civil) calendar backend: convertdate.indian_civil, with month lengths
checked here (convertdate extrapolates invalid dates). Chaitra has 30 days (31 when Gregorian
year Saka + 78 is a leap year), Vaishakha..Bhadra 31, Ashvin..Phalguna 30."""

from __future__ import annotations

import calendar as _stdcal
import datetime as dt

from convertdate import indian_civil as _ic

from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend
from chronoeval.suites.span.calendars.gregorian import TWELVE

MONTHS = (
    "Chaitra",
    "Vaishakha",
    "Jyaishtha",
    "Ashadha",
    "Shravana",
    "Bhadra",
    "Ashvin",
    "Kartika",
    "Agrahayana",
    "Pausha",
    "Magha",
    "Phalguna",
)


class Shaka(CalendarBackend):
    name = "shaka"
    family = "shaka"
    label = "Shaka (Indian national)"
    month_names = MONTHS

    def _from_ordinal(self, ordinal: int) -> CalDate:
        d = dt.date.fromordinal(ordinal)
        y, m, day = _ic.from_gregorian(d.year, d.month, d.day)
        return CalDate(self.name, y, m, day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return dt.date(*_ic.to_gregorian(year, month, day)).toordinal()

    def months(self, year: int) -> list[tuple[int, bool]]:
        return TWELVE

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        if month == 1:
            return 31 if _stdcal.isleap(year + 78) else 30
        return 31 if month <= 6 else 30

    def day_name(self, date: CalDate) -> str:
        return f"{date.day} {MONTHS[date.month - 1]} {date.year} Saka"
