"""The clock reader, session 6 (issue 19, branch s6-19a): faces drawn here with PIL (not the
project's renderer), one test per rule added in ``clock_hands.py``.

The docstrings give the counts measured with main d21f8a0's reader and with this one."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face

DIAL = (226, 240, 250)
HAND = (48, 48, 52)
ORANGE = (236, 104, 38)


def _ticks(d, c: float, r: float, ink: tuple[int, int, int]) -> None:  # noqa: ANN001
    for k in range(60):
        a = math.radians(6 * k)
        inner, w = (0.84, 0.025) if k % 5 == 0 else (0.9, 0.01)
        ux, uy = math.sin(a), -math.cos(a)
        d.line(
            (c + inner * r * ux, c + inner * r * uy, c + 0.95 * r * ux, c + 0.95 * r * uy),
            fill=ink,
            width=max(1, round(w * r)),
        )


def _edge_face(t: ClockTime, size: int) -> Image.Image:
    """Dark bar hands on a pale dial; an orange second hand as long as the minute hand, drawn
    over it, so that near the minute hand's angle it runs down one of its edges (half on the
    hand, half on the dial) and shows no end of its own."""
    img, d, c, r = supersampled_face(size, (200, 200, 196), 0.45, DIAL)
    _ticks(d, c, r, HAND)
    minute = 6.0 * t.minute + 0.1 * t.second
    hour = 30.0 * (t.hour % 12) + 0.5 * (t.minute + t.second / 60.0)
    bar_hand(d, c, hour, 0.5 * r, 0.06 * r, HAND)
    bar_hand(d, c, minute, 0.78 * r, 0.04 * r, HAND)
    bar_hand(d, c, 6.0 * t.second, 0.78 * r, 0.009 * r, ORANGE)
    cap = 0.03 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=HAND)
    return img.resize((size, size), Image.LANCZOS)


def test_second_hand_down_the_edge_of_the_minute_hand() -> None:
    """A coloured second hand lying along the minute hand's edge, no longer than it: the clock
    was read without seconds, the minute one up (h:m:(m+1) read h:(m+1):00). 16 faces, minutes
    45-58: main d21f8a0's reader 7/16 hour:minute, this reader 16/16."""
    rng = random.Random(6)
    right = 0
    for _ in range(16):
        m = rng.randint(45, 58)
        t = ClockTime(rng.randint(1, 12), m, m + 1)
        got = read_clock(_edge_face(t, 420))
        right += got is not None and (got.hour, got.minute) == (t.hour, t.minute)
    assert right >= 14


def _tick_face(t: ClockTime, size: int) -> Image.Image:
    """A wide minute hand whose tip runs onto the wide hour tick beside it (so its ray goes on to
    the tick's outer end, beyond the second hand's tip), and a needle second hand shorter than
    that."""
    img, d, c, r = supersampled_face(size, (90, 110, 130), 0.45, (250, 250, 246))
    for k in range(60):
        a = math.radians(6 * k)
        inner, w = (0.8, 0.03) if k % 5 == 0 else (0.9, 0.01)
        ux, uy = math.sin(a), -math.cos(a)
        d.line(
            (c + inner * r * ux, c + inner * r * uy, c + 0.95 * r * ux, c + 0.95 * r * uy),
            fill=HAND,
            width=max(1, round(w * r)),
        )
    minute = 6.0 * t.minute + 0.1 * t.second
    hour = 30.0 * (t.hour % 12) + 0.5 * (t.minute + t.second / 60.0)
    bar_hand(d, c, hour, 0.5 * r, 0.07 * r, HAND)
    bar_hand(d, c, minute, 0.84 * r, 0.05 * r, HAND)
    bar_hand(d, c, 6.0 * t.second, 0.78 * r, 0.008 * r, HAND)
    cap = 0.035 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=HAND)
    return img.resize((size, size), Image.LANCZOS)


def test_minute_hand_on_a_tick_beyond_the_second_hand() -> None:
    """The minute hand's ray runs on into an hour tick, past the second hand's tip; the
    hypothesis "no second hand, one ray extra" (no minute residual) won and the clock was read
    at :00 (h:04:40 read h:05:00); with the second hand taken, the minute hand's axis fitted
    out to the tick's end leaned towards the tick and the minute was still read one up
    (``own_axis``). Minutes one short of an hour tick, seconds 36-59. 16 faces: main d21f8a0's
    reader 0/16 hour:minute, this reader 15/16 (3/16 with the unused-needle cost alone)."""
    rng = random.Random(7)
    right = 0
    for _ in range(16):
        t = ClockTime(rng.randint(1, 12), 5 * rng.randint(1, 11) - 1, rng.randint(36, 59))
        got = read_clock(_tick_face(t, 420))
        right += got is not None and (got.hour, got.minute) == (t.hour, t.minute)
    assert right >= 14


def _offset_face(t: ClockTime, size: int, off: tuple[float, float]) -> Image.Image:
    """Ticks around the dial's centre, the hands' pivot ``off`` (fractions of the radius) beside
    it (a cheaply made or misprinted dial): opposite ticks' lines cross at the dial's centre,
    not at the pivot. A 1-px second hand."""
    img, d, c, r = supersampled_face(size, (90, 110, 130), 0.45, (250, 250, 246))
    _ticks(d, c, r, HAND)
    p = c + off[0] * r, c + off[1] * r
    minute = 6.0 * t.minute + 0.1 * t.second
    hour = 30.0 * (t.hour % 12) + 0.5 * (t.minute + t.second / 60.0)
    for angle, length, width in (
        (hour, 0.5, 0.06),
        (minute, 0.75, 0.04),
        (6.0 * t.second, 0.8, 0.004),
    ):
        a = math.radians(angle)
        ux, uy = math.sin(a), -math.cos(a)
        d.line(
            (p[0], p[1], p[0] + length * r * ux, p[1] + length * r * uy),
            fill=HAND,
            width=max(1, round(width * r)),
        )
    cap = 0.03 * r
    d.ellipse((p[0] - cap, p[1] - cap, p[0] + cap, p[1] + cap), fill=HAND)
    return img.resize((size, size), Image.LANCZOS)


def test_pivot_move_that_loses_the_second_hand_is_not_taken() -> None:
    """Hands pivoting 0.045 of the radius beside the ticks' centre: the lines joining opposite
    ticks cross at the centre, the reader moved its pivot there (step 3), and from there the
    1-px second hand was lost (read at :00, the minute one up past :30). Seconds 30-59, 24
    faces: main d21f8a0's reader 8/24 hour:minute, this reader 21/24."""
    rng = random.Random(8)
    right = 0
    for _ in range(24):
        t = ClockTime(rng.randint(1, 12), rng.randint(0, 59), rng.randint(30, 59))
        a = rng.uniform(0, 2 * math.pi)
        got = read_clock(_offset_face(t, 420, (0.045 * math.cos(a), 0.045 * math.sin(a))))
        right += got is not None and (got.hour, got.minute) == (t.hour, t.minute)
    assert right >= 19
