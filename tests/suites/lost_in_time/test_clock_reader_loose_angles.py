"""No stepping minute reading where the dial's marks show its angles to be loose (issue 19,
session 13, s13-19q; ``clock_loose_angles.py``). Faces drawn here with PIL (not the project's
renderer, not a third-party drawer).

A cream dial with a dark rim, twelve bold hour ticks, a dark hour bar, a dark minute bar and a
thin red second line; everything on the face (ticks and hands) is drawn turned by a three-lobed
error ``A sin(3a + p)`` of its angle ``a`` (a dial printed or seen unevenly: the reader's angle
mapper, a turn or a curve of the first and second harmonics, cannot follow a third harmonic, so
the hour marks land about ``A / sqrt(2)`` deg rms from their hours). The time is a sweeping
clock's at 46-52 seconds, and the phase ``p`` puts the minute hand's seen angle exactly on the
next whole minute (the error there is 0.8-1.4 deg, within ``A`` = 1.5). The reader took that
for a stepping minute hand and read the minute one up with the seconds right (4:17:48 read
4:18:48). Where the marks land 0.7 deg rms or more from their hours, the stepping reading is not
taken. Measured, hour:minute of 84 faces: 14 with main 3ebf8b4, 82 now."""

from __future__ import annotations

import math

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, s: int, amp: float, size: int = 400) -> Image.Image:
    """The clock at h:m:s, every angle turned by ``amp * sin(3a + p)`` with ``p`` chosen so the
    minute hand's seen angle is the whole minute m + 1 (when ``amp`` allows it)."""
    minute = 6.0 * m + 0.1 * s
    want = (6.0 - 0.1 * s) / amp  # sin(3 * minute + p) that lands the hand on m + 1
    p = math.asin(max(-1.0, min(1.0, want))) - 3.0 * math.radians(minute)

    def seen(a: float) -> float:
        return a + amp * math.sin(3.0 * math.radians(a) + p)

    img, d, c, r = supersampled_face(size, (40, 90, 60), 0.42, (60, 50, 40))
    inner = 0.95 * r
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(248, 244, 232))
    for k in range(12):
        a = math.radians(seen(30.0 * k))
        ux, uy = math.sin(a), -math.cos(a)
        d.line(
            (c + 0.78 * r * ux, c + 0.78 * r * uy, c + 0.92 * r * ux, c + 0.92 * r * uy),
            (30, 30, 30),
            round(0.035 * r),
        )
    ink = (45, 45, 55)
    bar_hand(d, c, seen(30 * (h % 12) + 0.5 * m + s / 120.0), 0.5 * r, 0.07 * r, ink)
    bar_hand(d, c, seen(minute), 0.74 * r, 0.045 * r, ink)
    bar_hand(d, c, seen(6.0 * s), 0.88 * r, 0.009 * r, (200, 20, 30))
    cap = 0.035 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=(200, 20, 30))
    return img.resize((size, size), Image.LANCZOS)


def _times() -> list[tuple[int, int, int]]:
    """Seconds 46-52 (the sweeping hand 0.13-0.23 min short of the next whole minute), minutes
    spread over the dial away from the second hand, hours 1-12."""
    times = []
    for k in range(84):
        s = 46 + k % 7
        m = (7 * k + 3) % 60
        if abs(((6 * m + 0.1 * s) - 6 * s + 180) % 360 - 180) < 15:
            m = (m + 20) % 60
        times.append((1 + k % 12, m, s))
    return times


def _right(amp: float) -> int:
    right = 0
    for h, m, s in _times():
        got = read_clock(_face(h, m, s, amp))
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, m)
    return right


def test_no_stepping_reading_where_the_marks_show_loose_angles() -> None:
    right = _right(1.5)
    assert right >= 78, f"{right}/84 read right (14/84 with main 3ebf8b4)"
