"""Issue 19, session 7 (s7-19d): a pivot the hands' own axes confirm is not moved to the marks'
crossing. Faces drawn here with PIL (not the project's renderer): upright numeral-like strokes
(one to three) at the twelve hours, a dark hour and minute bar and a one-pixel red second hand,
all from the dial's centre, seconds 30-59 (a lost second hand then reads the minute one up).

With ``shift`` the marks' ink sits a little above each hour's place, as a font's capitals sit
above the middle of the line they were centred on: every line joining opposite marks then meets
tightly at a point beside the pivot, and the old reader moved there (its perspective rule),
lost the second hand from there and read :00 with the minute one up. The three hands' axes
meet at the pivot, which now keeps it (``clock_confirm.hands_confirm_pivot``).

Measured, hour:minute on these 24 faces (times from ``random.Random(3)``): shifted marks 12/24
with the reader of main 5ba69ec, 20/24 now; marks in place 24/24 before and after."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, s: int, shift: float, size: int = 420) -> Image.Image:
    img, d, c, r = supersampled_face(size, (60, 70, 90), 0.46, (250, 248, 240))
    for k in range(12):
        a = math.radians(30 * k)
        x, y = c + 0.78 * r * math.sin(a), c - 0.78 * r * math.cos(a) - shift * r
        n = 1 + k % 3
        for j in range(n):
            xx = x + (j - (n - 1) / 2) * 0.04 * r
            box = (xx - 0.011 * r, y - 0.05 * r, xx + 0.011 * r, y + 0.05 * r)
            d.rectangle(box, fill=(30, 30, 30))
    hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
    bar_hand(d, c, hour, 0.5 * r, 0.05 * r, (40, 40, 45))
    bar_hand(d, c, minute, 0.7 * r, 0.03 * r, (40, 40, 45))
    bar_hand(d, c, 6.0 * s, 0.9 * r, 0.009 * r, (200, 20, 30))
    return img.resize((size, size), Image.LANCZOS)


def _hits(shift: float) -> int:
    rng = random.Random(3)
    hits = 0
    for _ in range(24):
        h, m, s = rng.randint(1, 12), rng.randint(0, 59), rng.randint(30, 59)
        got = read_clock(_face(h, m, s, shift))
        hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


def test_marks_whose_ink_sits_off_their_places_do_not_move_a_confirmed_pivot() -> None:
    assert _hits(0.03) >= 18  # main 5ba69ec: 12/24


def test_same_faces_with_marks_in_place() -> None:
    assert _hits(0.0) >= 23  # 24/24 before and after
