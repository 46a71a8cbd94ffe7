"""Answer types of the Lost in Time suite: a 12-hour clock reading and a weekday."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

WEEKDAYS: tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
"""Weekday names in Python's ``date.weekday()`` order (Monday = 0)."""

CLOCK_STYLES: tuple[str, ...] = (
    "easy",
    "basic",
    "black_dial",
    "no_second_hand",
    "roman",
    "arrow_hands",
)
"""The paper's ClockQA styles (standard, black dial, no second hand, Roman numerals, arrow hands)
plus its easy whole-hour set, in the order reports list them."""

SECONDS_ON_DIAL = 12 * 3600
_GOLD_RE = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})$")


@dataclass(frozen=True, order=True)
class ClockTime:
    """A time as read off an analogue 12-hour dial: hour 1..12, minute 0..59, second 0..59.

    ``str()`` gives the DateTimeQA gold format ``H:MM:SS`` (12-hour, no leading zero on the hour).
    """

    hour: int
    minute: int
    second: int = 0

    def __post_init__(self) -> None:
        if not (1 <= self.hour <= 12 and 0 <= self.minute <= 59 and 0 <= self.second <= 59):
            raise ValueError(f"not a 12-hour clock time: {self.hour}:{self.minute}:{self.second}")

    def __str__(self) -> str:
        return f"{self.hour}:{self.minute:02d}:{self.second:02d}"

    @property
    def dial_seconds(self) -> int:
        """Seconds since 12:00:00 on the dial, in [0, 43200)."""
        return (self.hour % 12) * 3600 + self.minute * 60 + self.second

    @classmethod
    def from_dial_seconds(cls, value: int) -> ClockTime:
        value %= SECONDS_ON_DIAL
        h, rest = divmod(value, 3600)
        m, s = divmod(rest, 60)
        return cls(h or 12, m, s)

    @classmethod
    def from_gold(cls, text: str) -> ClockTime:
        """Strictly parse a gold ``H:MM:SS`` string (raises ValueError otherwise)."""
        if cls is ClockTime and type(text) is str:
            return _gold_time(text)  # each gold is decoded twice per run (validated, scored)
        return cls._parse_gold(text)

    @classmethod
    def _parse_gold(cls, text: str) -> ClockTime:
        match = _GOLD_RE.match(text.strip())
        if not match:
            raise ValueError(f"gold clock answer must be H:MM:SS, got {text!r}")
        h, m, s = (int(g) for g in match.groups())
        if h == 0:
            h = 12
        return cls(h, m, s)


@functools.lru_cache(maxsize=65536)
def _gold_time(text: str) -> ClockTime:
    """:meth:`ClockTime.from_gold` of a string, kept (a pure function of the string; the time is
    frozen; a string that fails is not kept and fails again the same way)."""
    return ClockTime._parse_gold(text)
