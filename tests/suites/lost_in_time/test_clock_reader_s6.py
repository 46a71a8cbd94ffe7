"""A red second line lying on, or a few degrees off, a wider grey hand (issue 19, session 6,
s6-19b), on faces drawn here with PIL (not the project's renderer, not a third-party drawer):
a near-black dial, two grey bars of one length with a paler outline (the hour bar wider, both
drawn a little beside the pivot, as off-centre rectangles are), a stepping minute hand, and a
thin orange-red second line from the pivot.

- ``on``: the second line runs down the minute bar (a stepping clock at m:m). The two rays then
  differ in colour (one has a red middle), and the old reader took the grey hour bar, which
  measures thinner (the red ink counts as the other bar's), for a second hand in a colour of its
  own. Now a stripe down a non-needle ray is looked for first (``clock_stripes.
  stripe_before_colour``).
- ``beside``: the second line 6 degrees behind the minute bar (m:(m-1)): from the pivot it runs
  inside the bar, then leaves it. No ray of its own, no stripe down the middle: the old reader
  read two hands and no second hand and often swapped them (the bar with the red line measures
  wider). Now the line is found anywhere across the ray (``clock_stripes.second_beside_axis``).

Measured on these 24 faces each (times from ``random.Random(1)`` and ``(2)``), hour:minute: ``on``
7/24 with the reader of main d21f8a0, 19/24 now; ``beside`` 5/24 before, 17/24 now (5/24 with
the first mechanism alone); without the second line 22/24 before and after."""

from __future__ import annotations

import random

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, s: int | None, size: int = 360) -> Image.Image:
    img, d, c, r = supersampled_face(size, (235, 235, 235), 0.46, (12, 14, 28))
    hour, minute = 30.0 * (h % 12) + 0.5 * m, 6.0 * m
    for angle, width, beside in ((hour, 0.11 * r, 0.02 * r), (minute, 0.07 * r, -0.012 * r)):
        bar_hand(d, c, angle, 0.85 * r, width + 0.03 * r, (95, 95, 100), beside)
        bar_hand(d, c, angle, 0.835 * r, width, (55, 55, 62), beside)
    if s is not None:
        bar_hand(d, c, 6.0 * s, 0.72 * r, 0.022 * r, (240, 70, 60))
    return img.resize((size, size), Image.LANCZOS)


def _hits(kind: str) -> int:
    hits = 0
    for seed in (1, 2):
        rng = random.Random(seed)
        for _ in range(12):
            h, m = rng.randint(1, 12), rng.randint(0, 59)
            s = {"on": m, "beside": (m - 1) % 60, "none": None}[kind]
            got = read_clock(_face(h, m, s))
            hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


def test_second_line_down_a_grey_bar_is_not_taken_for_the_other_bar() -> None:
    assert _hits("on") >= 17  # main d21f8a0: 7/24


def test_second_line_leaving_a_bar_at_a_small_angle() -> None:
    assert _hits("beside") >= 15  # main d21f8a0: 5/24


def test_same_faces_without_the_second_line() -> None:
    assert _hits("none") >= 20  # 22/24 before and after
