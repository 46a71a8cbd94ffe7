"""Islamic (Hijri) calendar backends, two variants recorded in every item that uses one:

- ``islamic_umalqura``: the Umm al-Qura calendar of Saudi Arabia (hijridate's table), valid
  only for 1924-08-01..2077-11-16 (1343-01-01..1500-12-30 AH); outside it a CalendarError.
- ``islamic_tabular``: the arithmetic (civil, Friday-epoch) tabular calendar of convertdate,
  leap years 2, 5, 7, 10, 13, 16, 18, 21, 24, 26, 29 of each 30-year cycle.
"""

from __future__ import annotations

import datetime as dt

from convertdate import islamic as _tabular
from hijridate import Gregorian as _HGregorian
from hijridate import Hijri as _Hijri

from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend
from chronoeval.suites.span.calendars.gregorian import TWELVE

MONTHS = (
    "Muharram",
    "Safar",
    "Rabi al-Awwal",
    "Rabi al-Thani",
    "Jumada al-Ula",
    "Jumada al-Akhirah",
    "Rajab",
    "Shaban",
    "Ramadan",
    "Shawwal",
    "Dhu al-Qidah",
    "Dhu al-Hijjah",
)


class _Islamic(CalendarBackend):
    family = "islamic"
    month_names = MONTHS

    def months(self, year: int) -> list[tuple[int, bool]]:
        return TWELVE

    def day_name(self, date: CalDate) -> str:
        return f"{date.day} {MONTHS[date.month - 1]} {date.year} AH"


class UmmAlQura(_Islamic):
    name = "islamic_umalqura"
    label = "Islamic (Umm al-Qura)"
    valid_from = dt.date(1924, 8, 1)
    valid_to = dt.date(2077, 11, 16)

    def _from_ordinal(self, ordinal: int) -> CalDate:
        d = dt.date.fromordinal(ordinal)
        h = _HGregorian(d.year, d.month, d.day).to_hijri()
        return CalDate(self.name, h.year, h.month, h.day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return _Hijri(year, month, day).to_gregorian().toordinal()

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        if not 1343 <= year <= 1500:
            raise self.range_error(f"Islamic year {year} AH")
        return _Hijri(year, month, 1).month_length()


class Tabular(_Islamic):
    name = "islamic_tabular"
    label = "Islamic (tabular)"

    def _from_ordinal(self, ordinal: int) -> CalDate:
        d = dt.date.fromordinal(ordinal)
        y, m, day = _tabular.from_gregorian(d.year, d.month, d.day)
        return CalDate(self.name, y, m, day)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        return dt.date(*_tabular.to_gregorian(year, month, day)).toordinal()

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        if month % 2 == 1:
            return 30
        if month == 12 and (14 + 11 * year) % 30 < 11:
            return 30
        return 29
