"""The hour hand is no narrower than the minute hand (issue 19, session 16, s16-19y;
``clock_wider_hour.py``). Faces drawn here with PIL (not the project's renderer, not a third-party
drawer), then bent about their centre (``helpers.polar_remap``: each point seen turned by
4 deg x sin 2(a - phase), as a lens or a warped print might bend it).

Whole hours: the second hand lies over the minute hand at 12, the reader sees two rays (the
needle's, holding the minute hand, and the hour hand's). The hour hand is long (0.72 of the
radius: over ``MINUTE_OVER_NEEDLE`` of the needle) and the minute hand narrows to a point, so the
reader hid the hour hand under the needle and read the hour hand as the minute hand (1:00:00 read
12:05:00, 10:00:00 read 11:50:00): both readings nearly agree at whole hours, and the bend takes
away the margin the consistency rules ask for.

1. Tapered hands, the hour hand 0.09 of the radius wide at its base, the minute hand 0.05, bent
   at phases 0, 20 and 160 deg (36 faces): main af3b308 21 of 36 (10, 7, 4), now 36.
2. Hour and minute hand of one width (0.05 of the radius), phase 20 (12 faces): main 8 of 12,
   now 11 (the rule takes a ray at least as wide as the needle ray's body).
3. Guard: the second hand over the hour hand (61 times, bent at phase 20 and tilted): read as
   main reads them (61 and 58 of 61, main and now).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image, ImageDraw

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, polar_remap, supersampled_face, tilted

INK = (30, 30, 30)
BACK = (200, 205, 215)


def _tapered(d: ImageDraw.ImageDraw, c: float, angle: float, length: float, width: float) -> None:
    """A hand ``width`` wide at the pivot narrowing straight to a point at ``length``, with a
    short tail."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)
    px, py = -uy, ux
    tail = 0.08 * length
    d.polygon(
        [
            (c - tail * ux - 0.3 * width * px, c - tail * uy - 0.3 * width * py),
            (c - 0.5 * width * px, c - 0.5 * width * py),
            (c + length * ux, c + length * uy),
            (c + 0.5 * width * px, c + 0.5 * width * py),
            (c - tail * ux + 0.3 * width * px, c - tail * uy + 0.3 * width * py),
        ],
        fill=INK,
    )


def _face(
    h: int, m: int, s: int, phase: float | None, hour_w: float = 0.09, minute_w: float = 0.05
) -> Image.Image:
    img, d, c, r = supersampled_face(400, BACK, 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.025 * r))
    hour_ticks(d, c, r, INK, (0.84, 0.93))
    _tapered(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.72 * r, hour_w * r)
    _tapered(d, c, 6.0 * m + 0.1 * s, 0.85 * r, minute_w * r)
    bar_hand(d, c, 6.0 * s, 0.92 * r, 0.009 * r, INK)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    img = img.resize((400, 400), Image.LANCZOS)
    if phase is None:
        return img
    w, ph = math.radians(4.0), math.radians(phase)
    return polar_remap(np.asarray(img), lambda a, rho: (a + w * np.sin(2 * (a - ph)), rho), BACK)


def _whole_hours_right(phase: float, **widths: float) -> int:
    right = 0
    for h in range(1, 13):
        got = read_clock(_face(h, 0, 0, phase, **widths))
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, 0)
    return right


def test_whole_hours_the_minute_hand_under_the_needle() -> None:
    right = sum(_whole_hours_right(phase) for phase in (0.0, 20.0, 160.0))
    assert right >= 34, f"{right}/36 read right"


def test_whole_hours_hands_of_one_width() -> None:
    right = _whole_hours_right(20.0, hour_w=0.05, minute_w=0.05)
    assert right >= 10, f"{right}/12 read right"


def _needle_over_hour() -> list[tuple[int, int, int]]:
    out = []
    for h in range(1, 13):
        for m in (4, 13, 22, 31, 47, 56):
            a_h = 30 * (h % 12) + 0.5 * m
            if abs((a_h - 6 * m + 180.0) % 360.0 - 180.0) >= 25:
                out.append((h, m, round(a_h / 6.0) % 60))
    return out


@pytest.mark.parametrize(("tilt", "least"), [(None, 60), ((0.15, -0.1), 56)])
def test_a_needle_over_the_wider_hour_hand_keeps_it(
    tilt: tuple[float, float] | None, least: int
) -> None:
    right = 0
    times = _needle_over_hour()
    for h, m, s in times:
        img = _face(h, m, s, 20.0 if tilt is None else None)
        got = read_clock(img if tilt is None else tilted(img, tilt, BACK))
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, m)
    assert right >= least, f"{right}/{len(times)} read right"
