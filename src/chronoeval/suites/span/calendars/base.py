"""Calendar dates, the backend protocol and the errors every calendar backend shares.

A date in any calendar is a :class:`CalDate` (calendar, year, month, day, leap flag). Backends
convert between a CalDate and a Gregorian ordinal (``datetime.date.toordinal()``: 0001-01-01 is 1),
so any two calendars convert through that one day count. Each backend declares the Gregorian range
it is valid (and checked day by day) on; outside it a :class:`CalendarError` is raised, never an
extrapolated date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import ClassVar

from chronoeval.core.errors import ChronoevalError

CHECKED_MIN = dt.date(1900, 1, 1)
CHECKED_MAX = dt.date(2100, 12, 31)
"""The Gregorian span every backend was cross-checked on, day by day, against an independent
implementation (tests/suites/span/test_calendars.py); no backend answers outside it."""


class CalendarError(ChronoevalError, ValueError):
    """An invalid or out-of-range date, or an unknown calendar or festival; says which and why."""


@dataclass(frozen=True, order=True)
class CalDate:
    calendar: str
    year: int
    month: int
    day: int
    leap: bool = False
    """Chinese leap month (闰月); always False for other calendars."""

    def iso(self) -> str:
        """``YYYY-MM-DD``; a Chinese leap month is written ``L`` + number: ``1990-L05-09``."""
        month = f"L{self.month:02d}" if self.leap else f"{self.month:02d}"
        return f"{self.year:04d}-{month}-{self.day:02d}"

    def __str__(self) -> str:
        return f"{self.calendar}:{self.iso()}"

    def to_json(self) -> str:
        return str(self)


_ISO = re.compile(r"^\s*(-?\d{1,5})-(L?)(\d{1,2})-(\d{1,2})\s*$", re.IGNORECASE)


def parse_iso(text: str, calendar: str) -> tuple[int, int, int, bool]:
    """(year, month, day, leap) of ``YYYY-MM-DD`` / ``YYYY-LMM-DD``; CalendarError otherwise."""
    m = _ISO.match(str(text))
    if not m:
        raise CalendarError(
            f"{calendar} date {text!r} is not written YYYY-MM-DD (a Chinese leap month: YYYY-LMM-DD)"
        )
    return int(m.group(1)), int(m.group(3)), int(m.group(4)), bool(m.group(2))


class CalendarBackend:
    """One calendar: conversion to and from a Gregorian ordinal, month structure, names."""

    name: ClassVar[str]
    family: ClassVar[str]
    """The calendar as reports group it (both Islamic variants are ``islamic``)."""
    label: ClassVar[str]
    """How questions name the calendar."""
    month_names: ClassVar[tuple[str, ...]]
    valid_from: ClassVar[dt.date] = CHECKED_MIN
    valid_to: ClassVar[dt.date] = CHECKED_MAX

    # -- to implement ----------------------------------------------------------------------
    def _from_ordinal(self, ordinal: int) -> CalDate:
        raise NotImplementedError

    def _to_ordinal(self, year: int, month: int, day: int, leap: bool) -> int:
        """Gregorian ordinal of a date already checked by :meth:`check`."""
        raise NotImplementedError

    def months(self, year: int) -> list[tuple[int, bool]]:
        """The months of ``year`` in order, as (number, leap)."""
        raise NotImplementedError

    def month_length(self, year: int, month: int, leap: bool = False) -> int:
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------------
    def check(self, year: int, month: int, day: int, leap: bool = False) -> None:
        """Raise CalendarError naming what is wrong with (year, month, day, leap)."""
        if (month, leap) not in self.months(year):
            what = f"leap month {month}" if leap else f"month {month}"
            raise CalendarError(f"{self.label} year {year} has no {what}")
        n = self.month_length(year, month, leap)
        if not 1 <= day <= n:
            raise CalendarError(
                f"{self.label} {self.month_name(month, leap, year)} {year} has {n} days, "
                f"not day {day}"
            )

    def range_error(self, what: str) -> CalendarError:
        return CalendarError(
            f"{what} is outside the {self.label} backend's range "
            f"({self.valid_from.isoformat()}..{self.valid_to.isoformat()} Gregorian); "
            "no extrapolation"
        )

    def from_ordinal(self, ordinal: int) -> CalDate:
        if not self.valid_from.toordinal() <= ordinal <= self.valid_to.toordinal():
            raise self.range_error(f"Gregorian {dt.date.fromordinal(ordinal).isoformat()}")
        return self._from_ordinal(ordinal)

    def to_ordinal(self, date: CalDate) -> int:
        if date.calendar != self.name:
            raise CalendarError(f"{date} is not a {self.name} date")
        self.check(date.year, date.month, date.day, date.leap)
        ordinal = self._to_ordinal(date.year, date.month, date.day, date.leap)
        if not self.valid_from.toordinal() <= ordinal <= self.valid_to.toordinal():
            raise self.range_error(f"{self.label} {date.iso()}")
        return ordinal

    def date(self, year: int, month: int, day: int, leap: bool = False) -> CalDate:
        """A checked date of this calendar (range included)."""
        d = CalDate(self.name, int(year), int(month), int(day), bool(leap))
        self.to_ordinal(d)
        return d

    def month_name(self, month: int, leap: bool = False, year: int | None = None) -> str:
        name = self.month_names[month - 1]
        return f"leap {name}" if leap else name

    def day_name(self, date: CalDate) -> str:
        """The date as questions write it, e.g. ``28 Sivan 5760``."""
        return f"{date.day} {self.month_name(date.month, date.leap, date.year)} {date.year}"
