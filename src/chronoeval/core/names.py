"""Locale-independent English names shared by suites (``calendar.month_name`` follows the locale,
so item text built from it could differ between machines)."""

from __future__ import annotations

MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
"""English Gregorian month names, January first."""
