"""Two things on clocks that look like a second hand drawn on a wider hand, and are not (issue 19,
session 7, s7-19e; ``clock_stripe_guards.py``). Faces drawn here with PIL (not the project's
renderer, not a third-party drawer).

- ``lume``: dark bar hands on a cream dial, no second hand, a pale luminous strip printed down the
  minute hand's middle from 0.3 to 0.85 of its length (as on many watches). The strip is a
  straight line of another colour in line with the pivot, so ``clock_stripes.second_beside_axis``
  took it for a second hand; the minute was then read as if 0.1 degree per (false) second had
  passed, one short where the minute is past 30. A second hand is mounted on the pivot: its line
  runs into the pivot, a printed strip stops short (``runs_into_pivot``).
- ``over``: a narrower gold minute hand lying along a wider silver hour hand (times within 0.5
  degrees of the hands' overlap), a red bar second hand that is not needle-thin, on a dark dial.
  The joint ray shows a stripe of its own colour down its middle, and the stripe rule, run before
  ``_identify``'s colour rule since session 6, took the minute hand for the second hand. The
  stripe is now taken first only when its ray's sides have the other ray's colour (the hands share
  a colour, the second hand alone differs: ``stripe_on_alike_hands``).

Measured (24 faces each, times from ``random.Random(1)``), hour:minute: ``lume`` 17/24 with the
reader of main 5ba69ec, 23/24 now; ``over`` 0/24 before, 24/24 now; the ``lume`` faces without
the strip 23/24 before and after (the same face missed)."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _ticks(d, c: float, r: float, colour: tuple[int, int, int]) -> None:  # noqa: ANN001
    for k in range(12):
        a = math.radians(30 * k)
        ux, uy = math.sin(a), -math.cos(a)
        inner, outer = (
            (c + 0.88 * r * ux, c + 0.88 * r * uy),
            (c + 0.97 * r * ux, c + 0.97 * r * uy),
        )
        d.line([inner, outer], fill=colour, width=int(0.02 * r))


def _lume_face(h: int, m: int, s: int, strip: bool, size: int = 360) -> Image.Image:
    img, d, c, r = supersampled_face(size, (60, 70, 90), 0.46, (238, 232, 214))
    _ticks(d, c, r, (20, 20, 20))
    hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
    bar_hand(d, c, hour, 0.55 * r, 0.08 * r, (15, 15, 20))
    bar_hand(d, c, minute, 0.82 * r, 0.06 * r, (15, 15, 20))
    if strip:  # a luminous strip down the minute hand, 0.3 to 0.85 of its length
        a = math.radians(minute)
        ux, uy, px, py = math.sin(a), -math.cos(a), math.cos(a), math.sin(a)
        w, length = 0.3 * 0.06 * r / 2, 0.82 * r
        pts = [
            (c + 0.3 * length * ux + k * w * px, c + 0.3 * length * uy + k * w * py)
            for k in (-1, 1)
        ]
        pts += [
            (c + 0.85 * length * ux + k * w * px, c + 0.85 * length * uy + k * w * py)
            for k in (1, -1)
        ]
        d.polygon(pts, fill=(190, 245, 200))
    cap = 0.05 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=(15, 15, 20))
    return img.resize((size, size), Image.LANCZOS)


def _over_face(h: int, m: int, s: int, size: int = 360) -> Image.Image:
    img, d, c, r = supersampled_face(size, (200, 200, 200), 0.46, (25, 30, 40))
    _ticks(d, c, r, (220, 220, 220))
    hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
    bar_hand(d, c, hour, 0.72 * r, 0.09 * r, (150, 150, 155))
    bar_hand(d, c, minute, 0.85 * r, 0.04 * r, (230, 180, 40))
    bar_hand(d, c, 6.0 * s, 0.75 * r, 0.026 * r, (230, 40, 40))
    return img.resize((size, size), Image.LANCZOS)


def _lume_times() -> list[tuple[int, int, int]]:
    # past the half hour (where a false second of about the minute's own value moves the
    # minute back by more than half a minute), hidden seconds under 25 (a clock without a
    # second hand is read to the minute the hand has passed)
    rng = random.Random(1)
    return [(rng.randint(1, 12), rng.randint(31, 59), rng.randint(0, 25)) for _ in range(24)]


def _over_times() -> list[tuple[int, int, int]]:
    """Times whose minute hand lies within 0.5 degrees of the hour hand, the second hand at
    least 20 degrees from both."""
    rng = random.Random(1)
    out: list[tuple[int, int, int]] = []
    while len(out) < 24:
        h = rng.randint(0, 10)
        t = round(3600 * h * 12 / 11 + rng.uniform(-1, 1) * 0.5 / (5.5 / 60)) % 43200
        hh, m, s = t // 3600, (t // 60) % 60, t % 60
        hour, minute = 30 * hh + 0.5 * m + s / 120, 6 * m + 0.1 * s
        if abs((hour - minute + 180) % 360 - 180) > 0.5:
            continue
        near = min(abs((6 * s - a + 180) % 360 - 180) for a in (hour, minute))
        if near >= 20:
            out.append((hh or 12, m, s))
    return out


def _hits(faces: list[tuple[tuple[int, int, int], Image.Image]]) -> int:
    hits = 0
    for (h, m, _), image in faces:
        got = read_clock(image)
        hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


def test_a_luminous_strip_on_the_minute_hand_is_no_second_hand() -> None:
    faces = [(t, _lume_face(*t, strip=True)) for t in _lume_times()]
    assert _hits(faces) >= 22  # main 5ba69ec: 17/24


def test_same_faces_without_the_strip() -> None:
    faces = [(t, _lume_face(*t, strip=False)) for t in _lume_times()]
    assert _hits(faces) >= 21  # 23/24 before and after


def test_a_minute_hand_over_an_hour_hand_of_another_colour_is_no_second_hand() -> None:
    faces = [(t, _over_face(*t)) for t in _over_times()]
    assert _hits(faces) >= 20  # main 5ba69ec: 0/24
