"""Issue 19, session 7 (s7-19d), three mechanisms, on faces drawn here with PIL (not the project's
renderer).

1. A pivot the hands' own axes confirm is not moved to the marks' crossing. Faces drawn here with PIL (not the project's renderer): upright numeral-like strokes
(one to three) at the twelve hours, a dark hour and minute bar and a one-pixel red second hand,
all from the dial's centre, seconds 30-59 (a lost second hand then reads the minute one up).

With ``shift`` the marks' ink sits a little above each hour's place, as a font's capitals sit
above the middle of the line they were centred on: every line joining opposite marks then meets
tightly at a point beside the pivot, and the old reader moved there (its perspective rule),
lost the second hand from there and read :00 with the minute one up. The three hands' axes
meet at the pivot, which now keeps it (``clock_confirm.hands_confirm_pivot``).

Measured, hour:minute on these 24 faces (times from ``random.Random(3)``): shifted marks 12/24
with the reader of main 5ba69ec, 20/24 now; marks in place 24/24 before and after.

2. A stepping minute reading holds only where the hand's inner part steps too. Faces with sixty
ticks (0.86-0.98 of the radius), a minute bar ending where the ticks begin (``reach`` 0.86), a
one-pixel red second hand, seconds 45-58: the tick next to the minute hand's tip (on the next
whole minute) continues its ray, the axis fitted out to the ray's end leans onto that whole
minute, and the old reader took the stepping reading (the minute one up). Now the axis of the
inner part (0.3-0.7 of the ray) must sit on the whole minute too (``clock_sweep``). Hour:minute
on 40 faces (``random.Random(4)``): reaching the ticks 14/40 on main 5ba69ec, 35/40 now; ending
at 0.75 of the radius 38/40 before and after.

3. A move to the marks' crossing that shows clearly less hand is not taken. The shifted marks of
1 with only two hands, a wide hour bar and a hairline minute hand (no second hand, so no three
hands confirm the pivot): seen from the crossing the hairline's rays leave its ink and it is cut
short. Hour:minute on 24 faces (``random.Random(5)``): shifted marks 7/24 on main 5ba69ec, 14/24
now; marks in place 16/24 before and after (a hairline minute hand without a second hand is
often taken for a second hand: a limit of the reader, not of this rule)."""

from __future__ import annotations

import math
import random
from typing import Any

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _numerals(d: Any, c: float, r: float, shift: float) -> None:
    """One to three upright strokes at each hour, their ink ``shift`` (of r) above its place."""
    for k in range(12):
        a = math.radians(30 * k)
        x, y = c + 0.78 * r * math.sin(a), c - 0.78 * r * math.cos(a) - shift * r
        n = 1 + k % 3
        for j in range(n):
            xx = x + (j - (n - 1) / 2) * 0.04 * r
            box = (xx - 0.011 * r, y - 0.05 * r, xx + 0.011 * r, y + 0.05 * r)
            d.rectangle(box, fill=(30, 30, 30))


def _face(h: int, m: int, s: int, shift: float, size: int = 420) -> Image.Image:
    img, d, c, r = supersampled_face(size, (60, 70, 90), 0.46, (250, 248, 240))
    _numerals(d, c, r, shift)
    hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
    bar_hand(d, c, hour, 0.5 * r, 0.05 * r, (40, 40, 45))
    bar_hand(d, c, minute, 0.7 * r, 0.03 * r, (40, 40, 45))
    bar_hand(d, c, 6.0 * s, 0.9 * r, 0.009 * r, (200, 20, 30))
    return img.resize((size, size), Image.LANCZOS)


def _two_hand_face(h: int, m: int, shift: float, size: int = 420) -> Image.Image:
    img, d, c, r = supersampled_face(size, (60, 70, 90), 0.46, (250, 248, 240))
    _numerals(d, c, r, shift)
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m, 0.55 * r, 0.04 * r, (40, 40, 45))
    bar_hand(d, c, 6.0 * m, 0.85 * r, 0.007 * r, (40, 40, 45))
    return img.resize((size, size), Image.LANCZOS)


def _two_hand_hits(shift: float) -> int:
    rng = random.Random(5)
    hits = 0
    for _ in range(24):
        h, m = rng.randint(1, 12), rng.randint(0, 59)
        got = read_clock(_two_hand_face(h, m, shift))
        hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


def _ticked_face(h: int, m: int, s: int, reach: float, size: int = 420) -> Image.Image:
    img, d, c, r = supersampled_face(size, (60, 70, 90), 0.46, (250, 248, 240))
    for k in range(60):
        a = math.radians(6 * k)
        x0, y0 = c + 0.86 * r * math.sin(a), c - 0.86 * r * math.cos(a)
        x1, y1 = c + 0.98 * r * math.sin(a), c - 0.98 * r * math.cos(a)
        width = max(1, round((0.03 if k % 5 == 0 else 0.02) * r))
        d.line((x0, y0, x1, y1), fill=(40, 40, 40), width=width)
    hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
    bar_hand(d, c, hour, 0.55 * r, 0.05 * r, (40, 40, 45))
    bar_hand(d, c, minute, reach * r, 0.03 * r, (40, 40, 45))
    bar_hand(d, c, 6.0 * s, 0.8 * r, 0.009 * r, (200, 20, 30))
    return img.resize((size, size), Image.LANCZOS)


def _ticked_hits(reach: float) -> int:
    rng = random.Random(4)
    hits = 0
    for _ in range(40):
        h, m, s = rng.randint(1, 12), rng.randint(0, 59), rng.randint(45, 58)
        got = read_clock(_ticked_face(h, m, s, reach))
        hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


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


def test_a_tick_in_line_with_the_minute_hand_does_not_make_it_step() -> None:
    assert _ticked_hits(0.86) >= 31  # main 5ba69ec: 14/40


def test_same_faces_with_the_minute_hand_short_of_the_ticks() -> None:
    assert _ticked_hits(0.75) >= 36  # 38/40 before and after


def test_a_move_to_the_marks_crossing_that_loses_hand_is_not_taken() -> None:
    assert _two_hand_hits(0.03) >= 12  # main 5ba69ec: 7/24


def test_same_two_hand_faces_with_marks_in_place() -> None:
    assert _two_hand_hits(0.0) >= 15  # 16/24 before and after
