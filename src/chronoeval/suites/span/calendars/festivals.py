"""Festivals per calendar, each a rule that gives its date in a year of its own calendar.

Rules (written decisions, see docs/suites/span.md):

- fixed (month, day) in the festival's calendar;
- ``last``: the last day of a month (Chinese New Year's Eve: day 29 or 30 of the 12th month);
- Purim: 14 Adar in a common Hebrew year, 14 Adar II (month 13) in a leap year;
- ``nth weekday``: Gregorian floating days (US Mother's Day: 2nd Sunday of May; US Thanksgiving:
  4th Thursday of November);
- Shaka: the Indian national New Year (1 Chaitra) and the national days at the fixed Saka dates the
  Government of India gazette uses (Republic Day 6 Magha, Independence Day 24 Shravana, Gandhi
  Jayanti 10 Ashvin).

A festival's year is its own calendar's year (Passover 5760 is in April 2000; Republic Day of Saka
1921 is 2000-01-26). :func:`festival_in_gregorian_year` lists the days a festival falls on within
one Gregorian year (two for Eid al-Fitr in 1968, 2000 and 2033).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from chronoeval.suites.span.calendars.base import CalDate, CalendarError


@dataclass(frozen=True)
class Festival:
    name: str
    family: str
    """The calendar family the festival belongs to (gregorian, chinese, islamic, ...)."""
    month: int
    day: int  # 0 = the month's last day
    weekday: int | None = None  # Gregorian floating days: 0 = Monday
    nth: int | None = None
    aliases: tuple[str, ...] = ()

    def rule(self) -> str:
        if self.weekday is not None:
            wd = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
            return f"{self.nth}th {wd[self.weekday]} of month {self.month}"
        if self.day == 0:
            return f"last day of month {self.month}"
        return f"month {self.month}, day {self.day}"


FESTIVALS: tuple[Festival, ...] = (
    Festival("New Year's Day", "gregorian", 1, 1),
    Festival("Valentine's Day", "gregorian", 2, 14),
    Festival("Mother's Day (US)", "gregorian", 5, 0, weekday=6, nth=2, aliases=("mother's day",)),
    Festival("Halloween", "gregorian", 10, 31),
    Festival("Thanksgiving (US)", "gregorian", 11, 0, weekday=3, nth=4, aliases=("thanksgiving",)),
    Festival("Christmas Day", "gregorian", 12, 25, aliases=("christmas",)),
    Festival("Spring Festival", "chinese", 1, 1, aliases=("chinese new year", "春节")),
    Festival("Lantern Festival", "chinese", 1, 15, aliases=("元宵节",)),
    Festival("Dragon Boat Festival", "chinese", 5, 5, aliases=("duanwu", "端午节")),
    Festival("Qixi Festival", "chinese", 7, 7, aliases=("qixi", "七夕")),
    Festival("Mid-Autumn Festival", "chinese", 8, 15, aliases=("mid autumn", "中秋节")),
    Festival("Chinese New Year's Eve", "chinese", 12, 0, aliases=("除夕",)),
    Festival("Islamic New Year", "islamic", 1, 1, aliases=("hijri new year", "1 muharram")),
    Festival("Ashura", "islamic", 1, 10),
    Festival("Mawlid", "islamic", 3, 12, aliases=("mawlid al-nabi",)),
    Festival("First day of Ramadan", "islamic", 9, 1, aliases=("1 ramadan", "ramadan")),
    Festival("Eid al-Fitr", "islamic", 10, 1),
    Festival("Eid al-Adha", "islamic", 12, 10),
    Festival("Rosh Hashanah", "hebrew", 7, 1),
    Festival("Yom Kippur", "hebrew", 7, 10),
    Festival("Sukkot", "hebrew", 7, 15),
    Festival("Hanukkah", "hebrew", 9, 25, aliases=("chanukah",)),
    Festival("Purim", "hebrew", 12, 14),
    Festival("Passover", "hebrew", 1, 15, aliases=("pesach",)),
    Festival("Nowruz", "persian", 1, 1, aliases=("norouz", "persian new year")),
    Festival("Sizdah Bedar", "persian", 1, 13),
    Festival("Tirgan", "persian", 4, 13),
    Festival("Mehregan", "persian", 7, 16),
    Festival("Yalda Night", "persian", 9, 30, aliases=("yalda", "shab-e yalda")),
    Festival("Sepandarmazgan", "persian", 11, 29),
    Festival("Indian National New Year", "shaka", 1, 1, aliases=("shaka new year", "chaitra 1")),
    Festival("Republic Day (India)", "shaka", 11, 6, aliases=("republic day",)),
    Festival("Independence Day (India)", "shaka", 5, 24, aliases=("independence day",)),
    Festival("Gandhi Jayanti", "shaka", 7, 10),
)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9\u4e00-\u9fff]+", " ", name.lower().replace("'", "")).strip()


_BY_KEY: dict[str, Festival] = {}
for _f in FESTIVALS:
    for _k in (_f.name, *_f.aliases):
        _BY_KEY[_key(_k)] = _f


def get_festival(name: str) -> Festival:
    try:
        return _BY_KEY[_key(name)]
    except KeyError:
        known = ", ".join(f.name for f in FESTIVALS)
        raise CalendarError(f"unknown festival {name!r}; known: {known}") from None


def festivals_of(family: str) -> list[Festival]:
    return [f for f in FESTIVALS if f.family == family]


@lru_cache(maxsize=1 << 14)
def festival_date(festival: Festival, year: int, calendar: str) -> CalDate:
    """The festival's date in ``year`` of its own calendar (``calendar``: the backend name, which
    picks the Islamic variant)."""
    from chronoeval.suites.span.calendars.registry import get_calendar

    cal = get_calendar(calendar)
    if cal.family != festival.family:
        raise CalendarError(
            f"{festival.name} is a {festival.family} festival, not a {cal.family} one"
        )
    month, day = festival.month, festival.day
    if festival.weekday is not None:
        first = dt.date(year, month, 1)
        offset = (festival.weekday - first.weekday()) % 7
        day = 1 + offset + 7 * ((festival.nth or 1) - 1)
    elif festival.name == "Purim" and (13, False) in cal.months(year):
        month = 13  # Purim is 14 Adar II in a leap year
    if day == 0:
        day = cal.month_length(year, month)
    return cal.date(year, month, day)


def festival_in_gregorian_year(festival: Festival, g_year: int, calendar: str) -> list[CalDate]:
    """Every occurrence of the festival within Gregorian year ``g_year`` (0, 1 or 2 of them)."""
    from chronoeval.suites.span.calendars.registry import get_calendar

    cal = get_calendar(calendar)
    lo, hi = dt.date(g_year, 1, 1).toordinal(), dt.date(g_year, 12, 31).toordinal()
    first, last = cal.from_ordinal(lo).year, cal.from_ordinal(hi).year
    out = []
    for y in range(first, last + 1):
        d = festival_date(festival, y, calendar)
        if lo <= cal.to_ordinal(d) <= hi:
            out.append(d)
    return out
