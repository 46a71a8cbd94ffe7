"""Marks on a dial whose outline is no ellipse (issue 19, session 10, s10-19j;
``clock_outline_marks.py``). Faces drawn here with PIL and bent here with OpenCV (not the
project's renderer, and not its warp: the outline here has four lobes, the generator's three).

A cream dial with a dark rim, sixty ticks (the hours' bold and running out to the rim, the
minutes' short), bar hands and a thin red second hand. The face is then bent: a point seen at
angle a and radius rho shows the flat face's point at angle a - w sin(2(a - p)) and radius
rho (1 + k) / (1 + k cos(4(a - q))), so the outline bulges out by up to k in four directions and
in by as much between them. The reader corrects the hands' angles against the hours' marks, which
it looked for in a ring out to 0.98 of the fitted circle: in the bulges the ticks lie beyond it,
and a bold tick joined to the rim was dropped with the rim (a blob longer than a mark). The hours'
windows then took minute ticks, the correction was several degrees off and so was the minute.

The docstring gives the counts measured with main 1beea27's reader and with this one."""

from __future__ import annotations

import math
import random

import numpy as np
from PIL import Image

from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, polar_remap, supersampled_face


def _face(t: ClockTime, size: int) -> np.ndarray:
    img, d, c, r = supersampled_face(size, (60, 90, 140), 0.44, (40, 40, 40))
    inner = 0.95 * r  # a dark rim 0.05 of the radius wide
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(244, 238, 222))
    for k in range(60):
        a = math.radians(6 * k)
        ux, uy = math.sin(a), -math.cos(a)
        r0, r1, w = (0.8, 0.96, 0.035) if k % 5 == 0 else (0.87, 0.92, 0.01)
        d.line(
            (c + r0 * r * ux, c + r0 * r * uy, c + r1 * r * ux, c + r1 * r * uy),
            (30, 30, 40),
            max(1, round(w * r)),
        )
    hour = 30 * (t.hour % 12) + 0.5 * t.minute + t.second / 120.0
    minute = 6 * t.minute + 0.1 * t.second
    bar_hand(d, c, hour, 0.5 * r, 0.05 * r, (35, 30, 30))
    bar_hand(d, c, minute, 0.76 * r, 0.03 * r, (35, 30, 30))
    bar_hand(d, c, 6 * t.second, 0.86 * r, 0.008 * r, (200, 30, 30))
    cap = 0.035 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=(35, 30, 30))
    return np.asarray(img.resize((size, size), Image.LANCZOS)).copy()


def _bend(img: np.ndarray, w: float, p: float, k: float, q: float) -> Image.Image:
    """The bend described in the module's docstring (angles in degrees)."""

    def source(a: np.ndarray, rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        src = a - math.radians(w) * np.sin(2 * (a - math.radians(p)))
        return src, rho * (1 + k) / (1 + k * np.cos(4 * (a - math.radians(q))))

    return polar_remap(img, source, (60, 90, 140))


def _faces(n: int, seed: int) -> list[tuple[ClockTime, Image.Image]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        t = ClockTime(rng.randint(1, 12), rng.randint(0, 59), rng.randint(0, 59))
        w = rng.choice((-1, 1)) * rng.uniform(3.0, 7.0)
        bent = _bend(
            _face(t, 420), w, rng.uniform(0, 180), rng.uniform(0.04, 0.06), rng.uniform(0, 90)
        )
        out.append((t, bent))
    return out


def test_bent_dial_with_ticks_on_the_rim_read_against_its_marks() -> None:
    """24 faces. Measured hour:minute: main 1beea27's reader 3/24 (its misses 1-3 minutes off,
    a few with the hour off too); with the ring following the outline and the ticks on the rim
    kept (commit 7ac547a) 19/24; with marks far off the curve of the others left out, 21/24."""
    right = 0
    for t, img in _faces(24, 1019):
        got = read_clock(img)
        right += got is not None and (got.hour, got.minute) == (t.hour, t.minute)
    assert right >= 20
