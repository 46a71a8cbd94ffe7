"""A minute hand hidden under the second hand read on its own fitted axis where the pivot guess
is off (issue 19, session 13, s13-19q; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

With two rays, the shorter one the hour hand, the minute hand lies under the second hand: the
longer ray holds both, and widens where the minute hand ends under the needle (a width step).
``clock_reader._identify`` reads the minute on the ray's inner part (0.3 of the step's radius
out to the step) as the mean angle of its ink *seen from the pivot guess*. Where that guess is
a few pixels off (two rays give only one crossing of axes, and the ray that holds two hands
does not point exactly at the pivot; dev perspective and stretch faces 2-5 px) the angle turns
by the offset over the radius: 3-5 deg on the inner part, at 30-60 px, enough to read the
minute one off with the seconds right (dev 10:2011 8:17:17 read 8:18:17, 13:1439, 0:3334).

The hand's own direction does not depend on the pivot guess: the straight line fitted through
the inner part's ink centres (``clock_reader._axis_angle``, as the reader does with three or
more rays) turns with the hand. That fit has its own bias where the pivot guess is right: a
pointed minute hand narrows outwards, so the needle's share of the inner part's ink grows
outwards and the fitted line leans towards the needle (dev 14:560: pivot right, the fit 3 deg
off). The needle's free end beyond the step tells the two cases apart: a hand turns about the
pivot, so the line fitted through the needle's own ink passes through the true pivot. Only
where it misses the pivot guess by ``PIVOT_MISS`` px or more, and by ``SURE`` standard errors of
that distance (a short free end far out carries a wide error back to the pivot: dev 16:170, a
15 px end at 180 px), is the guess taken to be off and
the minute read on the minute hand's fitted line, and only within ``MAX_TURN`` of the angle seen
from the pivot (further, other ink such as a cap or the hour hand's base shaped the fit).
Pixels only; no drawer's widths, lengths or colours.
"""

from __future__ import annotations

import math

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

INNER_FROM = 0.3  # the inner part starts at this fraction of the step's radius (as _identify)
MAX_TURN = 6.0  # the fitted line replaces the angle from the pivot only this close (deg) ...
PIVOT_MISS = 1.5  # ... and only where the needle's own line misses the pivot guess by this (px)
MIN_POINTS = 6  # circles of ink a line is fitted through
SURE = 3.0  # ... and by this many standard errors of that distance
MIN_SCATTER = 0.3  # px: ink centres scatter at least this much about a hand's line (sampling)


def line_miss(t: cr._Track, r_min: float, r_max: float) -> tuple[float, float] | None:
    """How far (px) the straight line through the ray's ink centres between ``r_min`` and
    ``r_max`` passes from the pivot the ray was traced from, and the standard error of that
    distance (the centres' scatter about the line, carried back to the pivot: a short end far
    out puts a wide error on it); None with too few circles."""
    r, c, _ = t.arrays()
    keep = (r >= r_min) & (r <= r_max)
    if keep.sum() < MIN_POINTS:
        return None
    a = np.radians(c[keep] * cr.BIN_DEG)
    pts = np.column_stack([r[keep] * np.sin(a), -r[keep] * np.cos(a)])
    mean = pts.mean(axis=0)
    _, sv, vt = np.linalg.svd(pts - mean, full_matrices=False)
    d, n = vt[0], len(pts)
    along = (pts - mean) @ d
    spread = float(along @ along)
    if spread <= 0:
        return None
    scatter = max(float(sv[1]) / math.sqrt(max(n - 2, 1)), MIN_SCATTER)
    miss = abs(float(mean[0] * d[1] - mean[1] * d[0]))
    lever = float(mean @ d)  # the pivot's distance from the centres' mean along the line
    return miss, scatter * math.sqrt(1.0 / n + lever * lever / spread)


def hidden_minute_angle(t: cr._Track, rho: float, from_pivot: float) -> float:
    """The minute hand's angle under the needle ray ``t`` whose width steps up at radius
    ``rho``: where the needle's free end (beyond ``rho``) points ``PIVOT_MISS`` px or more beside
    the pivot guess, the inner part's fitted axis (if it lies within ``MAX_TURN`` of the angle
    ``from_pivot`` that ``_identify`` read); else ``from_pivot``."""
    fit = line_miss(t, rho + 2, t.tip - 2)  # the needle's free end
    if fit is None or fit[0] < max(PIVOT_MISS, SURE * fit[1]):
        return from_pivot  # the pivot guess may lie on the needle's line: the angle from it holds
    axis = cr._axis_angle(t, INNER_FROM * rho, rho - 2)
    if axis is None or abs((axis - from_pivot + 180.0) % 360.0 - 180.0) > MAX_TURN:
        return from_pivot
    return axis
