"""A needle of one width from the pivot to its tip hides no other hand (issue 19, session 15,
s15-19t; ``clock_bare_needle.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer).

1. The hour hand lies under a leaf (or tapered) minute hand, the hands nearly on one another, and
   the needle lies within a degree or two of an hour's place for the minute read (1:05:50: the
   needle at 300 deg, 10:05's hour place 302.5 deg). Neither ray steps in width (a leaf narrows
   all along, which ``_hidden_step`` does not count), so the reader chose the hour's ray by the
   hour residual alone and read the needle's ray often (10:05:50). Measured on main 4dc26b0:
   leaf 39 of 60 (every second face of those listed), tapered 45 of 60; now 60 and 60.
2. Guard: the hour hand truly under the needle, a thin tapered hour hand (0.02 of the radius at
   its base, the needle 0.009): the needle's ray steps by only 1.24-1.39 (``_step``), so the rule
   needs a width of one to ``ONE_WIDTH`` (1.15): with it set to the reader's ``STEP_RATIO``
   (1.4) 38 of 46 faces read right; main and now 45 of 46.
3. The needle long (0.93 R), the minute hand short (0.64 R, under ``MINUTE_OVER_NEEDLE`` of the
   needle) lying on the hour hand: the reader hid the minute hand under the needle (or, by
   ``clock_one_width``, read the needle as the minute hand). Main 4dc26b0 20 of 67 (every second
   face), now 51 of 67.
"""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageDraw

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, supersampled_face

INK = (30, 30, 30)
BACK = (200, 205, 215)


def _leaf(
    d: ImageDraw.ImageDraw, c: float, angle: float, length: float, width: float, widest: float
) -> None:
    """A hand widest (``width``) at ``widest`` of its length (0: at the pivot), narrowing to a
    point at ``length``, with a short tail."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)
    px, py = -uy, ux
    tail = 0.08 * length
    pts = [
        (c - tail * ux - 0.3 * width * px, c - tail * uy - 0.3 * width * py),
        (c + widest * length * ux - 0.5 * width * px, c + widest * length * uy - 0.5 * width * py),
        (c + length * ux, c + length * uy),
        (c + widest * length * ux + 0.5 * width * px, c + widest * length * uy + 0.5 * width * py),
        (c - tail * ux + 0.3 * width * px, c - tail * uy + 0.3 * width * py),
    ]
    d.polygon(pts, fill=INK)


def _leaf_face(h: int, m: int, s: int, widest: float, hour_w: float = 0.08) -> Image.Image:
    img, d, c, r = supersampled_face(400, BACK, 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.025 * r))
    hour_ticks(d, c, r, INK, (0.84, 0.93))
    _leaf(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.5 * r, hour_w * r, widest)
    _leaf(d, c, 6.0 * m + 0.1 * s, 0.8 * r, 0.05 * r, widest)
    bar_hand(d, c, 6.0 * s, 0.92 * r, 0.009 * r, INK)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    return img.resize((400, 400), Image.LANCZOS)


def _near(a: float, b: float, deg: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) < deg


def _needle_on_an_hour_place() -> list[tuple[int, int, int]]:
    """Hour and minute hands within 2.5 deg (the minute nearest 30 h / 5.5), the second where the
    needle lies within 3 deg of another hour's place for that minute, 25 deg or more from both."""
    out = []
    for h in range(1, 12):
        m = round(30 * h / 5.5) % 60
        for other in range(12):
            s = round(5 * other + m / 12.0) % 60
            if not (_near(6 * s, 30 * h + 0.5 * m, 25) or _near(6 * s, 6 * m, 25)):
                out.append((h, m, s))
    return out[::2]


@pytest.mark.parametrize(("widest", "least"), [(0.35, 57), (0.0, 57)])
def test_no_hour_hand_under_a_needle_of_one_width(widest: float, least: int) -> None:
    right = 0
    for h, m, s in _needle_on_an_hour_place():
        got = read_clock(_leaf_face(h, m, s, widest))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= least, f"{right}/60 read right"


def test_a_needle_over_a_thin_tapered_hour_hand_keeps_it() -> None:
    times = []
    for h in range(1, 12, 2):
        for m in range(3, 60, 7):
            a_h = 30 * h + 0.5 * m
            if not _near(6 * m, a_h, 25):
                times.append((h, m, round(a_h / 6.0) % 60))  # the needle on the hour hand
    right = 0
    for h, m, s in times:
        got = read_clock(_leaf_face(h, m, s, 0.0, hour_w=0.02))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 44, f"{right}/{len(times)} read right"


def _short_minute_face(h: int, m: int, s: int) -> Image.Image:
    img, d, c, r = supersampled_face(400, BACK, 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.025 * r))
    hour_ticks(d, c, r, INK, (0.84, 0.93))
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.45 * r, 0.05 * r, INK)
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.64 * r, 0.025 * r, INK)
    bar_hand(d, c, 6.0 * s, 0.93 * r, 0.009 * r, INK)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    return img.resize((400, 400), Image.LANCZOS)


def test_minute_and_hour_hand_beside_a_long_needle_of_one_width() -> None:
    times = []
    for h in range(1, 12):
        for dm in (-1, 0, 1):
            m = (round(30 * h / 5.5) + dm) % 60
            times += [(h, m, s) for s in range(7, 60, 11) if not _near(6 * s, 30 * h + 0.5 * m, 25)]
    right = 0
    for h, m, s in times[::2]:
        got = read_clock(_short_minute_face(h, m, s))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 48, f"{right}/{len(times[::2])} read right"
