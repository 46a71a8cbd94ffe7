"""A second hand with a disc near its tip lying along the minute hand (issue 19, session 12,
s12-19m; ``clock_disc_needle.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer).

A needle (0.88 of the radius, 0.008 r wide, a round disc of 0.022 r at 0.96 of its length) lies
0-6 degrees beside a bar minute hand (0.78 r) and runs past its end; dots mark the minutes. From
the rim in, the hands are one ray: the disc, the needle's thin stretch, then the minute hand's
step up in width. The disc made the reader take the end for a pointed hand's point (wider than a
needle, widening inwards), so the seconds were lost and the minute read one up (1:35:36 read
1:36:00). Measured, hour:minute of 129 faces: 119 with main b314f23, 129 now."""

from __future__ import annotations

import math

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, s: int, size: int = 400) -> Image.Image:
    img, d, c, r = supersampled_face(size, (190, 200, 210), 0.46, (250, 248, 240))
    for k in range(60):  # minute dots, well beyond the needle's tip
        a = math.radians(6 * k)
        x, y = c + 0.95 * r * math.sin(a), c - 0.95 * r * math.cos(a)
        q = (0.018 if k % 5 == 0 else 0.008) * r
        d.ellipse((x - q, y - q, x + q, y + q), fill=(60, 60, 60))
    ink = (30, 30, 30)
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.5 * r, 0.05 * r, ink)
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.78 * r, 0.035 * r, ink)
    bar_hand(d, c, 6.0 * s, 0.88 * r, 0.008 * r, ink)
    a = math.radians(6.0 * s)
    x, y, q = c + 0.96 * 0.88 * r * math.sin(a), c - 0.96 * 0.88 * r * math.cos(a), 0.022 * r
    d.ellipse((x - q, y - q, x + q, y + q), fill=ink)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=ink)
    return img.resize((size, size), Image.LANCZOS)


def _needle_along_minute() -> list[tuple[int, int, int]]:
    """Times whose needle lies on or beside the minute hand (s = m, or m + 1: 0.1 m degrees
    behind it or 6 - 0.1 m ahead), at hours whose hour hand lies more than 25 degrees away."""
    times = []
    for m in range(2, 58, 3):
        for s in (m, m + 1):
            for h in (1, 4, 7, 10):
                hour = 30 * (h % 12) + 0.5 * m + s / 120
                if abs((hour - 6 * (s % 60) + 180) % 360 - 180) > 25:
                    times.append((h, m, s % 60))
    return times


def test_a_needle_with_a_disc_along_the_minute_hand_is_the_second_hand() -> None:
    times = _needle_along_minute()
    assert len(times) == 129
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 126, f"{right}/129 read right (119/129 with main b314f23)"
