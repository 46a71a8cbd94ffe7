"""Chinese lunisolar calendar backend: sxtwl (寿星万年历, astronomical new moons and solar terms).

Years are numbered by the Gregorian year in which the lunar year begins (Spring Festival), so
2000-07-01 is 2000-5-30; a leap month (闰月) carries ``leap=True`` and the number of the month it
follows. sxtwl extrapolates invalid lunar dates (day 30 of a 29-day month becomes the next month's
first day), so every lunar date is checked against the month table before conversion.
"""

from __future__ import annotations

import bisect
import datetime as dt
from functools import lru_cache

import sxtwl

from chronoeval.suites.span.calendars.base import CalDate, CalendarBackend, CalendarError

ORDINALS = (
    "1st",
    "2nd",
    "3rd",
    "4th",
    "5th",
    "6th",
    "7th",
    "8th",
    "9th",
    "10th",
    "11th",
    "12th",
)
CHINESE_MONTHS = ("正月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月",
                  "十一月", "十二月")  # fmt: skip


def _lunar(ordinal: int) -> tuple[int, int, bool]:
    d = dt.date.fromordinal(ordinal)
    x = sxtwl.fromSolar(d.year, d.month, d.day)
    return x.getLunarMonth(), x.getLunarDay(), bool(x.isLunarLeap())


@lru_cache(maxsize=512)
def _new_year(year: int) -> int:
    """Gregorian ordinal of the Spring Festival (1st day of the 1st month) of lunar ``year``."""
    o = dt.date(year, 1, 20).toordinal()
    month, day, leap = _lunar(o)
    o -= day - 1  # the first day of that lunar month
    while (month, leap) != (1, False) or o < dt.date(year, 1, 20).toordinal():
        o += 29
        if _lunar(o)[1] != 1:
            o += 1
        month, _day, leap = _lunar(o)
    return o


@lru_cache(maxsize=512)
def _month_table(year: int) -> tuple[tuple[int, bool, int, int], ...]:
    """(month, leap, first Gregorian ordinal, length) for every month of lunar ``year``, found by
    walking sxtwl month starts from one Spring Festival to the next (sxtwl's per-day year lookup
    is slow; this table makes every later conversion a bisection)."""
    out = []
    start, end = _new_year(year), _new_year(year + 1)
    while start < end:
        month, _day, leap = _lunar(start)
        o = start + 29
        if _lunar(o)[1] != 1:
            o += 1
        out.append((month, leap, start, o - start))
        start = o
    return tuple(out)


class Chinese(CalendarBackend):
    name = "chinese"
    family = "chinese"
    label = "Chinese lunar"
    month_names = tuple(f"{o} month" for o in ORDINALS)

    def _from_ordinal(self, ordinal: int) -> CalDate:
        year = dt.date.fromordinal(ordinal).year
        if ordinal < _new_year(year):
            year -= 1
        table = _month_table(year)
        i = bisect.bisect_right([t[2] for t in table], ordinal) - 1
        month, leap, start, _n = table[i]
        return CalDate(self.name, year, month, ordinal - start + 1, leap)

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        for m, lp, start, _n in _month_table(year):
            if (m, lp) == (month, leap):
                return start + day - 1
        raise CalendarError(f"Chinese lunar year {year} has no month {month}")  # pragma: no cover

    def months(self, year: int) -> list[tuple[int, bool]]:
        self._check_year(year)
        return [(m, lp) for m, lp, _s, _n in _month_table(year)]

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        self._check_year(year)
        for m, lp, _s, n in _month_table(year):
            if (m, lp) == (month, leap):
                return n
        what = f"leap month {month}" if leap else f"month {month}"
        raise CalendarError(f"Chinese lunar year {year} has no {what}")

    def _check_year(self, year: int) -> None:
        if not self.valid_from.year - 1 <= year <= self.valid_to.year:
            raise self.range_error(f"Chinese lunar year {year}")

    def leap_month(self, year: int) -> int | None:
        return next((m for m, lp in self.months(year) if lp), None)

    def month_name(self, month: int, leap: bool = False, year: int | None = None) -> str:
        return f"{'leap ' if leap else ''}{ORDINALS[month - 1]} month"

    def day_name(self, date: CalDate) -> str:
        return (
            f"day {date.day} of the {self.month_name(date.month, date.leap)} "
            f"of Chinese lunar year {date.year}"
        )
