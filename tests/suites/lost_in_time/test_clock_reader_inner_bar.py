"""A narrower hand lying wholly inside a wider one near the times the hands overlap (issue 19,
session 6, s6-19c), on faces drawn here with PIL (not the project's renderer, not a third-party
drawer): a dark dial, a wide hour bar and a narrow minute bar of one length, each a fill with a
paler outline, the minute bar drawn on top, 2.5-6 degrees off the hour bar, and no second hand.

The old reader saw one ray and read both hands at its angle (the wide bar's axis): the minute
a minute or so off. Now the paler outline of the bar on top, a ridge of shade inside the ink
that is not mirrored about the wide bar's axis, gives the inner bar's direction
(``clock_bars._inner_edges``, in ``split_bars``). Measured on these 24 faces, hour:minute: 4/24 with the reader of
main d21f8a0 and with branch s6-19b's (the mechanism switched off), 16/24 now."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, size: int = 360) -> Image.Image:
    img, d, c, r = supersampled_face(size, (240, 238, 230), 0.46, (20, 16, 10))
    hour, minute = 30.0 * (h % 12) + 0.5 * m, 6.0 * m
    for angle, width in ((hour, 0.16 * r), (minute, 0.07 * r)):
        bar_hand(d, c, angle, 0.8 * r, width + 0.04 * r, (120, 115, 100))
        bar_hand(d, c, angle, 0.78 * r, width, (70, 66, 58))
    return img.resize((size, size), Image.LANCZOS)


def _overlap_times(seed: int, n: int) -> list[tuple[int, int]]:
    """``n`` times with the minute hand 2.5-6 degrees off the hour hand (either side)."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < n:
        h, m = rng.randint(1, 11), rng.randint(0, 59)
        gap = (6.0 * m - (30.0 * h + 0.5 * m) + 180.0) % 360.0 - 180.0
        if 2.5 <= abs(gap) <= 6.0:
            out.append((h, m))
    return out


def _hits() -> int:
    hits = 0
    for seed in (1, 2):
        for h, m in _overlap_times(seed, 12):
            got = read_clock(_face(h, m))
            hits += got is not None and (got.hour, got.minute) == (h, m)
    return hits


def test_narrow_bar_inside_a_wide_bar_is_read_on_its_own_axis() -> None:
    assert _hits() >= 12  # 16/24 now; 4/24 without the inner bar (branch s6-19b 6cbce59)


def test_an_inner_side_is_found_where_the_ridges_median_falls_between_two_sides() -> None:
    """Both sides of the inner hand seen as ridges, in equal numbers: the offsets' median lies
    between them, on neither side; the best line's own inliers are refitted (no empty fit)."""
    from chronoeval.suites.lost_in_time.clock_bars import _inner_side

    r = np.arange(40.0, 160.0, 3.0)
    slope = 0.05
    pr = np.concatenate([r, r])
    pu = np.concatenate([slope * r, slope * r + 4.0])  # two sides 4 px apart, 40 points each
    got = _inner_side(pr, pu, n_keep=len(r), radius=200.0)
    assert got is not None and abs(got - slope) < 1e-9
    assert _inner_side(r, slope * r + 1.0, n_keep=len(r), radius=200.0) == pytest.approx(slope)
