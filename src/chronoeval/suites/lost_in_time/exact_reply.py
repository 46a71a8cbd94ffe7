"""A shortcut for clock replies that are nothing but a time in the asked-for format.

Models told to "answer in H:MM:SS" very often reply with exactly that (``10:10:00``, ``3:45``,
``10:10:00.``). For such a reply the full reader (:func:`parsing.parse_clock_answer`: markup
stripping, JSON, boxed and final-answer segments, every mention shape) can only find that one
numeric mention, so its value is computed here directly. Anything else, including a value out of
range, non-ASCII digits or whitespace, AM/PM or a second mention, is left to the full reader.
``tests/suites/lost_in_time/test_exact_reply.py`` checks that the shortcut equals the full reader
on every reply it takes: a grid of all values and paddings, the reply corpus written the way real
models write, and the released MINED strings.
"""

from __future__ import annotations

import re

from chronoeval.suites.lost_in_time.answers import ClockTime

_EXACT_RE = re.compile(r"[ \t\r\n]*([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?\.?[ \t\r\n]*")


def exact_clock_reply(text: str) -> ClockTime | None:
    """The reading of a reply that is only ``H:MM`` or ``H:MM:SS`` (24-hour folded onto the dial,
    as the full reader does), or None when the full reader must read it."""
    match = _EXACT_RE.fullmatch(text)
    if match is None:
        return None
    hour, minute = int(match[1]), int(match[2])
    second = int(match[3]) if match[3] is not None else 0
    if hour > 23 or minute > 59 or second > 59:
        return None  # the full reader names the offending span in its NoAnswer
    return ClockTime(hour % 12 or 12, minute, second)
