"""Six calendars behind one interface (:func:`search_calendar`), one backend per calendar:
Gregorian (datetime), Chinese (sxtwl), Islamic (hijridate Umm al-Qura | convertdate tabular),
Hebrew (pyluach), Persian (jdatetime), Shaka (convertdate.indian_civil); festivals per calendar."""

from chronoeval.suites.span.calendars.api import (
    add_days,
    add_years,
    convert,
    make_date,
    search_calendar,
    shift_years,
)
from chronoeval.suites.span.calendars.base import CalDate, CalendarError
from chronoeval.suites.span.calendars.festivals import (
    FESTIVALS,
    festival_date,
    festival_in_gregorian_year,
    festivals_of,
    get_festival,
)
from chronoeval.suites.span.calendars.registry import (
    BACKENDS,
    FAMILIES,
    ISLAMIC_VARIANTS,
    get_calendar,
)

__all__ = [
    "BACKENDS",
    "FAMILIES",
    "FESTIVALS",
    "ISLAMIC_VARIANTS",
    "CalDate",
    "CalendarError",
    "add_days",
    "add_years",
    "convert",
    "festival_date",
    "festival_in_gregorian_year",
    "festivals_of",
    "get_calendar",
    "get_festival",
    "make_date",
    "search_calendar",
    "shift_years",
]
