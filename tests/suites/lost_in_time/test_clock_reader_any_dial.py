"""The clock reader on dials it was not tuned for: a second hand told by colour alone, hands of
one length told by width, and pointed minute hands that are not second hands (issue 19)."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.render.clock import render_clock, sample_realistic_face, sample_time
from chronoeval.suites.lost_in_time.answers import SECONDS_ON_DIAL, ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face

_rect_hand = bar_hand


def _grey_hands_red_second(time: ClockTime, size: int = 360) -> Image.Image:
    """Black face, no marks, grey hour and minute hands of the same length (the hour hand wider),
    and a red second hand too wide for a needle (2.5 % of the radius): its colour says what it is."""
    img, d, c, r = supersampled_face(size, (255, 255, 255), 0.45, (0, 0, 0))
    hour = 30 * (time.hour % 12) + 0.5 * time.minute + time.second / 120
    minute = 6 * time.minute + 0.1 * time.second
    _rect_hand(d, c, hour, 0.8 * r, 0.11 * r, (70, 70, 70))
    _rect_hand(d, c, minute, 0.8 * r, 0.065 * r, (70, 70, 70))
    _rect_hand(d, c, 6 * time.second, 0.7 * r, 0.025 * r, (255, 85, 85))
    return img.resize((size, size), Image.LANCZOS)


def _hm(got: ClockTime | None, gold: ClockTime) -> bool:
    return got is not None and (got.hour, got.minute) == (gold.hour, gold.minute)


def test_second_hand_told_by_colour_and_hour_by_width() -> None:
    """Measured 9/12 (the reader before issue 19's colour rule: 1/12); the misses are pivot
    errors where three wide bars meet without a cap."""
    rng = random.Random(19)
    times = [ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL)) for _ in range(12)]
    right = sum(_hm(read_clock(_grey_hands_red_second(t)), t) for t in times)
    assert right >= 8, right


def test_pointed_minute_hand_without_second_hand_is_not_a_needle() -> None:
    """Sword and leaf minute hands narrow to a point as thin as a needle; on a clock with no
    second hand they must still be read as minute hands. Measured 15/16 (before: 12/16)."""
    rng = random.Random(1919)
    right = n = 0
    while n < 16:
        face = sample_realistic_face("no_second_hand", rng)
        if face.hand_shape not in ("sword", "leaf") or face.distortion != "none":
            continue
        n += 1
        gold = sample_time("no_second_hand", rng)
        right += _hm(read_clock(render_clock(gold, face)), gold)
    assert right >= 15, right


def _matplotlib_polar_clock(time: ClockTime) -> Image.Image:
    """A clock drawn the way a public matplotlib clock-dataset generator draws it
    (github.com/Kopfgeldjaeger/Clock_project, wall_clock_v3.0.py; re-implemented from its
    description): polar axes, numerals as angular tick labels outside the circle, three black
    lines of 1, 2 and 4 pt, lengths 0.9, 0.7 and 0.3 of the radius."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = time.second
    a_h = 2 * math.pi * ((time.hour % 12) / 12 + time.minute / 720 + s / 43200)
    a_m = 2 * math.pi * (time.minute / 60 + s / 3600)
    a_s = 2 * math.pi * s / 60
    fig = plt.figure(figsize=(2.5, 2.5))
    ax = fig.add_subplot(111, polar=True)
    for a, r, w in ((a_s, 0.9, 1), (a_m, 0.7, 2), (a_h, 0.3, 4)):
        ax.plot([a, a], [0, r], color="black", linewidth=w)
    ax.set_yticklabels([])
    ax.set_xticks([2 * math.pi * k / 12 for k in range(12)])
    ax.set_xticklabels([str(k or 12) for k in range(12)])
    ax.set_theta_direction(-1)
    ax.set_theta_offset(math.pi / 2)
    ax.grid(False)
    ax.set_ylim(0, 1)
    buf = io.BytesIO()
    fig.savefig(buf, dpi=100, bbox_inches="tight", format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def test_thick_short_hour_hand_beside_the_minute_hand_keeps_the_pivot() -> None:
    """Hour and minute hands 10-30 degrees apart on a small matplotlib dial: their joint ink is
    thicker than the pivot's, and a pivot taken there reads every hand degrees off. Measured
    7/10 (before the pivot search leaned towards the outline's centre: 2/10); a known limit
    (docs/benchmarks.md), so the bar is set just under the measured level."""
    rng = random.Random(7)
    times = []
    while len(times) < 10:
        t = ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL))
        hour = 30 * (t.hour % 12) + 0.5 * t.minute
        gap = abs((6 * t.minute - hour + 180) % 360 - 180)
        if 10 <= gap <= 30:
            times.append(t)
    right = sum(_hm(read_clock(_matplotlib_polar_clock(t)), t) for t in times)
    assert right >= 6, right
