"""Ticks joined to the rim on one side of a tilted dial (issue 19, session 12, s12-19n;
``clock_rim_ticks.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer).

Sixty ticks end 1% of the radius short of a ring round the dial; seen at a slant (a homography,
``helpers.tilted``) the gap closes on one side, and there the ticks are one blob with the ring.
The reader's marks leave out blobs as long as a ring, so an hour's window held the ticks that
stayed free on one side of the hour only: the hours' marks came out up to 14 degrees off, the
curve fitted to them turned the hands by degrees, and the minute was read one or two off (2:19:35
read 2:17:35, 1:30:02 read 1:32:02). The ticks' stubs inward of the ring's inner edge are marks
again. Measured, hour:minute of 90 faces: 79 with main b314f23, 88 now."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face, tilted

BORDER = (190, 200, 210)


def _face(
    h: int,
    m: int,
    s: int,
    tilt: tuple[float, float],
    ink: tuple[int, int, int] = (40, 40, 40),
    dial: tuple[int, int, int] = (250, 248, 240),
    size: int = 400,
) -> Image.Image:
    """A ring (0.975-0.995 of the radius), sixty ticks out to 0.965 (every fifth from 0.85 and
    bolder), bar hands and a red second hand, seen with ``tilt``."""
    img, d, c, r = supersampled_face(size, BORDER, 0.46, dial)
    d.ellipse((c - 0.995 * r, c - 0.995 * r, c + 0.995 * r, c + 0.995 * r), fill=ink)
    d.ellipse((c - 0.975 * r, c - 0.975 * r, c + 0.975 * r, c + 0.975 * r), fill=dial)
    for k in range(60):
        a = math.radians(6 * k)
        ux, uy = math.sin(a), -math.cos(a)
        start = 0.85 if k % 5 == 0 else 0.92
        width = int((0.025 if k % 5 == 0 else 0.008) * r)
        d.line(
            [(c + start * r * ux, c + start * r * uy), (c + 0.965 * r * ux, c + 0.965 * r * uy)],
            fill=ink,
            width=width,
        )
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.5 * r, 0.05 * r, ink)
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.78 * r, 0.03 * r, ink)
    bar_hand(d, c, 6.0 * s, 0.82 * r, 0.008 * r, (200, 30, 30))
    q = 0.035 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=ink)
    return tilted(img.resize((size, size), Image.LANCZOS), tilt, BORDER)


def _cases(seed: int, n: int = 30) -> list[tuple[int, int, int, tuple[float, float]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        h, m, s = rng.randrange(1, 13), rng.randrange(60), rng.randrange(60)
        a, mag = rng.uniform(0, 2 * math.pi), rng.uniform(0.08, 0.16)
        out.append((h, m, s, (mag * math.cos(a), mag * math.sin(a))))
    return out


def _right(cases: list[tuple[int, int, int, tuple[float, float]]], **colours: object) -> int:
    right = 0
    for h, m, s, tilt in cases:
        got = read_clock(_face(h, m, s, tilt, **colours))  # type: ignore[arg-type]
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, m)
    return right


def test_ticks_joined_to_the_ring_on_one_side_are_marks() -> None:
    # 26 + 29 + 24 of 90 with main b314f23; 30 + 30 + 28 now
    cases = _cases(0) + _cases(1) + _cases(2)
    assert _right(cases) >= 84


def test_light_ticks_on_a_dark_dial() -> None:
    # other times and tilts in light ink on a dark dial: 56 of 60 with main, 57 now (a guard:
    # the rule must lose nothing here)
    cases = _cases(3) + _cases(4)
    assert _right(cases, ink=(230, 230, 220), dial=(20, 30, 60)) >= 56
