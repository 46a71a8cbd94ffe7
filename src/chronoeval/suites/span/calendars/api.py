"""``search_calendar`` and the date arithmetic around it: the one interface generators, programs,
reference agents and TimeAgent tools all call.

- ``search_calendar(source, target, date=...)`` converts a date written ``YYYY-MM-DD`` (Chinese
  leap month ``YYYY-LMM-DD``; Hebrew months from Nisan = 1, Adar II = 13) from one calendar to
  another and returns the target date in the same form.
- ``search_calendar(source, target, festival=..., year=...)`` gives the date, in ``target``, of a
  festival of calendar ``source`` in ``source`` year ``year``.
- ``add_days(calendar, date, n)`` and ``add_years(calendar, date, n)`` do arithmetic inside one
  calendar (years: same month and day ``n`` years on, see :func:`shift_years` for the edge rules).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import lru_cache

from chronoeval.suites.span.calendars.base import CalDate, CalendarError, parse_iso
from chronoeval.suites.span.calendars.festivals import festival_date, get_festival
from chronoeval.suites.span.calendars.registry import get_calendar


@lru_cache(maxsize=1 << 16)
def make_date(calendar: str, text: str) -> CalDate:
    """A checked CalDate from a calendar name and ``YYYY-MM-DD`` text."""
    cal = get_calendar(calendar)
    y, m, d, leap = parse_iso(text, cal.name)
    if leap and cal.name != "chinese":
        raise CalendarError(f"only the Chinese calendar has leap months, not {cal.label}")
    return cal.date(y, m, d, leap)


@lru_cache(maxsize=1 << 16)
def convert(date: CalDate, target: str) -> CalDate:
    """The same day in another calendar."""
    src, dst = get_calendar(date.calendar), get_calendar(target)
    if src is dst:
        src.to_ordinal(date)
        return date
    return dst.from_ordinal(src.to_ordinal(date))


@lru_cache(maxsize=1 << 16)
def add_days(date: CalDate, n: int) -> CalDate:
    cal = get_calendar(date.calendar)
    return cal.from_ordinal(cal.to_ordinal(date) + int(n))


def shift_years(date: CalDate, n: int) -> tuple[CalDate, list[str]]:
    moved, edges = _shift_years(date, int(n))
    return moved, list(edges)


@lru_cache(maxsize=1 << 16)
def _shift_years(date: CalDate, n: int) -> tuple[CalDate, tuple[str, ...]]:
    """Same month and day ``n`` years on in the date's own calendar, and the edge rules applied.

    - a Chinese leap month whose target year has no such leap month -> the ordinary month of the
      same number (``leap_month_to_regular``);
    - Hebrew Adar of a common year -> Adar II in a leap year; Adar I or Adar II of a leap year ->
      Adar in a common year (``adar``): the rule for Purim and for anniversaries;
    - a day the target month does not have (30 of a 29-day month, 31 Chaitra, 30 Esfand, Feb 29)
      -> the month's last day (``clamped_day``).
    """
    cal = get_calendar(date.calendar)
    year, month, leap = date.year + int(n), date.month, date.leap
    edges: list[str] = []
    months = cal.months(year)
    if leap and (month, True) not in months:
        leap = False
        edges.append("leap_month_to_regular")
    if cal.name == "hebrew":
        if month == 12 and (13, False) in months and (13, False) not in cal.months(date.year):
            month = 13
            edges.append("adar")
        elif month == 13 and (13, False) not in months:
            month = 12
            edges.append("adar")
        elif month == 12 and (13, False) not in months and (13, False) in cal.months(date.year):
            edges.append("adar")
    length = cal.month_length(year, month, leap)
    day = date.day
    if day > length:
        day = length
        edges.append("clamped_day")
    return cal.date(year, month, day, leap), tuple(edges)


def add_years(date: CalDate, n: int) -> CalDate:
    return shift_years(date, n)[0]


def search_calendar(
    source: str,
    target: str,
    date: str | None = None,
    festival: str | None = None,
    year: int | None = None,
) -> str:
    """Convert ``date`` (``YYYY-MM-DD`` in ``source``) to ``target``, or give the date in
    ``target`` of ``festival`` (a festival of ``source``) in ``source`` year ``year``.

    Returns ``YYYY-MM-DD`` (a Chinese leap month as ``YYYY-LMM-DD``). Raises CalendarError for an
    invalid or out-of-range date, an unknown calendar or festival, or a wrong combination.
    """
    if (date is None) == (festival is None):
        raise CalendarError("give exactly one of date=... or festival=... (with year=...)")
    if date is not None:
        with _in_range(f"date {date!r}"):
            return convert(make_date(source, date), get_calendar(target).name).iso()
    if year is None:
        raise CalendarError(f"festival {festival!r} needs year= (a year of the {source} calendar)")
    cal = get_calendar(source)
    fest = get_festival(str(festival))
    try:
        y = int(year)
    except (TypeError, ValueError):
        raise CalendarError(f"year must be an integer, got {year!r}") from None
    with _in_range(f"{festival} in {source} year {y}"):
        return convert(festival_date(fest, y, cal.name), get_calendar(target).name).iso()


@contextlib.contextmanager
def _in_range(what: str) -> Iterator[None]:
    """A date beyond what the calendar libraries handle (year 0, year 10000 …) is a CalendarError
    like any invalid date, never a bare ValueError/OverflowError."""
    try:
        yield
    except CalendarError:
        raise
    except (ValueError, OverflowError) as exc:
        raise CalendarError(f"{what} is out of the supported range ({exc})") from None
