"""Calendar names -> backends (one instance each), with the common spellings as aliases."""

from __future__ import annotations

import re

from chronoeval.suites.span.calendars.base import CalendarBackend, CalendarError
from chronoeval.suites.span.calendars.chinese import Chinese
from chronoeval.suites.span.calendars.gregorian import Gregorian
from chronoeval.suites.span.calendars.hebrew import Hebrew
from chronoeval.suites.span.calendars.islamic import Tabular, UmmAlQura
from chronoeval.suites.span.calendars.persian import Persian
from chronoeval.suites.span.calendars.shaka import Shaka

BACKENDS: dict[str, CalendarBackend] = {
    b.name: b
    for b in (Gregorian(), Chinese(), UmmAlQura(), Tabular(), Hebrew(), Persian(), Shaka())
}
FAMILIES = ("gregorian", "chinese", "shaka", "hebrew", "islamic", "persian")
"""The six SPAN calendars, in the paper's order."""

ISLAMIC_VARIANTS = {"umm_al_qura": "islamic_umalqura", "tabular": "islamic_tabular"}

ALIASES = {
    "gregorian": "gregorian",
    "western": "gregorian",
    "chinese": "chinese",
    "chinese_lunar": "chinese",
    "lunar": "chinese",
    "nongli": "chinese",
    "islamic": "islamic_umalqura",
    "hijri": "islamic_umalqura",
    "islamic_umalqura": "islamic_umalqura",
    "islamic_umm_al_qura": "islamic_umalqura",
    "umm_al_qura": "islamic_umalqura",
    "umalqura": "islamic_umalqura",
    "islamic_tabular": "islamic_tabular",
    "tabular_islamic": "islamic_tabular",
    "hijri_tabular": "islamic_tabular",
    "tabular": "islamic_tabular",
    "hebrew": "hebrew",
    "jewish": "hebrew",
    "persian": "persian",
    "solar_hijri": "persian",
    "jalali": "persian",
    "iranian": "persian",
    "shaka": "shaka",
    "saka": "shaka",
    "indian": "shaka",
    "indian_national": "shaka",
    "indian_civil": "shaka",
}


def calendar_key(name: str) -> str:
    return re.sub(r"[^a-z]+", "_", str(name).lower()).strip("_")


def get_calendar(name: str) -> CalendarBackend:
    """The backend for a calendar name or alias; CalendarError listing the known names."""
    backend = BACKENDS.get(name)
    if backend is not None:
        return backend
    canon = ALIASES.get(calendar_key(name))
    if canon is None:
        raise CalendarError(
            f"unknown calendar {name!r}; known: {', '.join(sorted(BACKENDS))} "
            "(also: islamic = Umm al-Qura, hijri, jewish, jalali, saka, indian)"
        )
    return BACKENDS[canon]
