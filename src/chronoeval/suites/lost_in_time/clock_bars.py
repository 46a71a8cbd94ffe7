"""Two hands lying on one another at a small angle, told apart by the sides of their ink.

Part of the clock reader (:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5):
when the minute and the hour hand lie within a few degrees of each other and neither shows a
step up in width (two hands of one length, or of nearly one width), the reader sees one ray and
read both hands at that ray's angle — between the two hands, a minute or more off the minute
hand. General clock knowledge tells them apart here: a hand's sides run straight, and a bar's
sides run parallel to its axis, so the two sides of the ink the two hands make together are the
outer side of each hand, and their directions are the two hands' directions. One hand alone
(a bar, a needle) has parallel sides, a pointed hand's sides close in towards its tip; only two
hands parting from the pivot give sides that open outwards along straight lines. Which of the
two is the minute hand is told by the consistency of the readings (the hour hand 0.5 degrees
per minute past its hour), as in the reader's three-ray case. Pixels only.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime

# the sides must open by at least this many degrees (one straight side is fitted to ~0.1-0.2 deg)
OPEN_MIN_DEG = 1.5
# ... and by at most this many (further apart, the two hands show as two rays)
OPEN_MAX_DEG = 20.0
# a side is straight when its points lie this close (rms, px) to the fitted line
SIDE_RMS = 0.8
# the sides are sampled from this fraction of the ray's length out to (tip - END_SKIP * radius)
SIDE_FROM = 0.3
END_SKIP = 0.05


_Across = tuple[float, np.ndarray, np.ndarray, np.ndarray, float, float, list[tuple[int, int, int]]]


def _across(
    t: cr._Track, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> _Across | None:
    """A ray's ink sampled across it (0.5 px steps, a quarter radius each side), radius by
    radius (1 px steps) from ``SIDE_FROM`` of its tip to ``END_SKIP`` short of it: ``(a0, rs,
    us, prof, thr, peak, runs)``, ``a0`` the ray's direction in radians, ``prof`` the ink's
    difference from the dial (rows ``rs``, columns ``us``), ``thr`` the level counted as ink,
    ``peak`` the median row maximum, and ``runs`` each ``(k, lo, hi)``: row ``k``'s run of ink
    through the middle, where it ends inside the window on both sides. None where the ray is
    too short."""
    a0 = math.radians(cr._track_angle(t))
    d = np.array([math.sin(a0), -math.cos(a0)])
    n = np.array([math.cos(a0), math.sin(a0)])  # towards larger clock angles
    r_hi = t.tip - END_SKIP * radius
    r_lo = SIDE_FROM * t.tip
    if r_hi - r_lo < 0.2 * radius:
        return None
    rs = np.arange(r_lo, r_hi, 1.0, dtype=np.float32)
    half = 0.25 * radius
    us = np.arange(-half, half + 0.25, 0.5, dtype=np.float32)
    map_x = (pivot[0] + rs[:, None] * d[0] + us[None, :] * n[0]).astype(np.float32)
    map_y = (pivot[1] + rs[:, None] * d[1] + us[None, :] * n[1]).astype(np.float32)
    prof = cv2.remap(diff, map_x, map_y, cv2.INTER_LINEAR, borderValue=0.0)
    peak = float(np.percentile(prof.max(axis=1), 50))
    thr = max(float(cr.RUN_DIFF), 0.35 * peak)
    on = prof > thr
    mid = len(us) // 2
    runs = []
    for k in range(len(rs)):
        row = on[k]
        near = np.nonzero(row[mid - 4 : mid + 5])[0]
        if len(near) == 0:
            continue
        j = mid - 4 + int(near[len(near) // 2])
        lo = j
        while lo > 0 and row[lo - 1]:
            lo -= 1
        hi = j
        while hi < len(us) - 1 and row[hi + 1]:
            hi += 1
        if lo == 0 or hi == len(us) - 1:
            continue  # ink runs out of the window: not a hand's side
        runs.append((k, lo, hi))
    return a0, rs, us, prof, thr, peak, runs


def _edges(p: np.ndarray, us: np.ndarray, lo: int, hi: int, thr: float) -> tuple[float, float]:
    """The two edges of the ink run ``lo``..``hi`` across a ray (profile ``p`` at offsets ``us``,
    0.5 px apart), sub-pixel: where the profile crosses ``thr`` between the last pixels in and
    out."""
    fl = (thr - p[lo - 1]) / max(float(p[lo] - p[lo - 1]), 1e-6)
    fr = (p[hi] - thr) / max(float(p[hi] - p[hi + 1]), 1e-6)
    return us[lo - 1] + 0.5 * fl, us[hi] + 0.5 * fr


def _sides(
    t: cr._Track, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> tuple[float, float] | None:
    """Directions (clock degrees) of a ray's two sides, left (counter-clockwise) first, each a
    straight line fitted to where the ink across the ray ends; None where the ray is too short
    or a side is not straight."""
    across = _across(t, diff, pivot, radius)
    if across is None:
        return None
    a0, rs, us, prof, thr, _, runs = across
    left, right, keep = [], [], []
    for k, lo, hi in runs:
        l_edge, r_edge = _edges(prof[k], us, lo, hi, thr)
        left.append(l_edge)
        right.append(r_edge)
        keep.append(rs[k])
    if len(keep) < 0.6 * len(rs) or len(keep) < 12:
        return None
    r = np.asarray(keep, dtype=np.float64)
    out = []
    for side in (np.asarray(left, np.float64), np.asarray(right, np.float64)):
        slope = _side_slope(r, side)
        if slope is None:
            return None
        out.append((math.degrees(a0) + math.degrees(math.atan(slope))) % 360.0)
    return out[0], out[1]


def _line(r: np.ndarray, u: np.ndarray) -> tuple[float, float, float]:
    """Least-squares line u = a + b r: (b, a, rms)."""
    b, a = np.polyfit(r, u, 1)
    res = u - (a + b * r)
    return float(b), float(a), float(np.sqrt(np.mean(res**2)))


def _side_slope(r: np.ndarray, u: np.ndarray) -> float | None:
    """Slope (across per along) of one side of a ray's ink, radii ``r`` increasing.

    A side is straight, or, where two hands lie on one another, bends once: near the pivot it is
    one hand's side, further out the other hand's, which comes out from under the first. The
    outer line is the one that belongs to the hand standing out there. None when neither fits."""
    b, _, rms = _line(r, u)
    if rms <= SIDE_RMS:
        return b
    n = len(r)
    best: tuple[float, float] | None = None
    for k in range(max(12, n // 5), n - max(12, n // 5)):  # [k:] is the outer part
        _, _, rms_in = _line(r[:k], u[:k])
        b_out, _, rms_out = _line(r[k:], u[k:])
        worst = max(rms_out, rms_in)
        if best is None or worst < best[0]:
            best = (worst, b_out)
    if best is None or best[0] > SIDE_RMS:
        return None
    return best[1]


def split_bars(
    rays: list[cr._Track],
    shared: float,
    second_a: float | None,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """Minute and hour hands read at one ray's angle (``shared``, clock degrees) as two hands:
    where that ray's sides open outwards along straight lines, they are two hands' outer sides
    (:func:`_opening_sides`); else where a narrower hand lies wholly inside a wider one, the
    ridges of shade inside the ink give its side (:func:`_inner_edges`). Returns the reading
    with minute and hour taken from the two directions (assigned by the consistency of the
    readings), or None where the ray is one hand."""
    ray = next((t for t in rays if cr._pivot_angle(t) == shared), None)
    if ray is None:
        return None
    diff = cr._max_channel_diff(rgb, dial).astype(np.float32)
    pivot = (scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1])
    found = _opening_sides(ray, diff, pivot, radius) or _inner_edges(ray, diff, pivot, radius)
    if found is None:
        return None
    second = 0
    a_s = None
    if second_a is not None:
        a_s = to_dial(second_a)
        second = round(a_s / 6.0) % 60
    best: tuple[float, ClockTime] | None = None
    for a_m, a_h in ((found[0], found[1]), (found[1], found[0])):
        reading = cr._pair_reading(to_dial(a_m), to_dial(a_h), second, a_s)
        if best is None or reading[0] < best[0]:
            best = reading
    assert best is not None
    return best[1]


# Session 6 (s6-19c): a narrower hand lying wholly inside a wider one.
# a ridge of shade inside the ink stands out by at least this fraction of the ray's peak ink
INNER_STEP = 0.2
# ridge points lie this close (px) to the line fitted through them
MIRROR_PX = 0.75
# the inner hand's side must fit this well (rms px) ...
INNER_RMS = 0.8
# ... and part from the wide hand's axis by at least this many degrees (a ridge parallel to the
# wide hand is its own outline; a hand's axis is fitted to ~0.1-0.2 deg)
INNER_MIN_DEG = 0.4


def _inner_edges(
    t: cr._Track, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> tuple[float, float] | None:
    """Directions (clock degrees) of the wide hand and of a narrower hand drawn on top of it,
    wholly inside its ink; None where no such inner hand shows.

    The wide hand's axis is the middle of the ink's outer sides (a straight line). A hand drawn
    on top shows its own sides inside that ink as ridges of shade (its outline, a band of
    another shade), found radius by radius as local maxima of the ink's difference from the
    dial. A bar's sides run parallel to its axis, so the straight line through most ridge
    points that is *not* parallel to the wide hand's axis (the wide hand's own outline is) is a
    side of the inner hand, and its direction is that hand's direction (a line fitted through
    pairs of points, counted by the points it passes, refitted on them). Ridges darker than
    their surroundings (valleys of the difference), and tapered inner hands, whose sides are
    not parallel to their axis, are not looked for."""
    across = _across(t, diff, pivot, radius)
    if across is None:
        return None
    a0, rs, us, prof, _, peak, runs = across
    outer_c, keep = [], []
    pts_r: list[float] = []
    pts_u: list[float] = []
    for k, lo, hi in runs:
        if hi - lo < 6:
            continue
        c_o = 0.5 * (us[lo] + us[hi])
        outer_c.append(c_o)
        keep.append(rs[k])
        # ridges of shade strictly inside the ink (a hand's outline, a band of its own shade)
        p = prof[k]
        for q in range(lo + 3, hi - 2):
            if p[q] >= p[q - 1] and p[q] > p[q + 1]:
                left_min = float(p[max(lo, q - 6) : q].min())
                right_min = float(p[q + 1 : min(hi + 1, q + 7)].min())
                if min(p[q] - left_min, p[q] - right_min) >= INNER_STEP * peak:
                    pts_r.append(float(rs[k]))
                    pts_u.append(float(us[q] - c_o))
    if len(keep) < 0.6 * len(rs) or len(pts_r) < 12:
        return None
    if len(pts_r) > 4 * len(keep):  # a textured hand, not an outline: no side to find (and
        return None  # the line search below grows with the cube of the points)
    r = np.asarray(keep, dtype=np.float64)
    b_o, _, rms_o = _line(r, np.asarray(outer_c, np.float64))
    if rms_o > SIDE_RMS:
        return None
    side = _inner_side(np.asarray(pts_r), np.asarray(pts_u), len(keep), radius)
    if side is None:
        return None
    b_i = side + b_o
    deg = math.degrees(a0)
    wide = (deg + math.degrees(math.atan(b_o))) % 360.0
    inner = (deg + math.degrees(math.atan(b_i))) % 360.0
    if abs((inner - wide + 180.0) % 360.0 - 180.0) < INNER_MIN_DEG:
        return None
    return wide, inner


def _inner_side(pr: np.ndarray, pu: np.ndarray, n_keep: int, radius: float) -> float | None:
    """The slope (across the ray per unit along it) of the straight line through the most ridge
    points ``(pr, pu)`` that is not parallel to the wide hand, refitted on its inliers; None
    where no such line holds enough of them. ``n_keep``: the radii where the ink was measured."""
    # the inner hand's side: the straight line through the most ridge points that is not
    # parallel to the wide hand (its own outline runs parallel to its axis)
    best: tuple[int, float, float] | None = None
    order = np.argsort(pr)
    n_pts = len(order)
    min_slope = math.tan(math.radians(INNER_MIN_DEG))
    for ii in range(0, n_pts, 2):
        i1 = order[ii]
        i2 = order[ii + 1 :: 2]
        dr = pr[i2] - pr[i1]
        far = dr >= 0.15 * radius
        if not far.any():
            continue
        i2, dr = i2[far], dr[far]
        b = (pu[i2] - pu[i1]) / dr
        steep = np.abs(b) >= min_slope
        if not steep.any():
            continue
        b = b[steep]
        a = pu[i1] - b * pr[i1]
        cnt = (np.abs(pu[None, :] - (a[:, None] + b[:, None] * pr[None, :])) <= MIRROR_PX).sum(1)
        k = int(np.argmax(cnt))
        if best is None or int(cnt[k]) > best[0]:
            best = (int(cnt[k]), float(b[k]), float(a[k]))
    if best is None or best[0] < max(12, 0.3 * n_keep):
        return None
    b_line = best[1]
    a_fit = np.median(pu - b_line * pr)  # refit on the inliers
    inl = np.abs(pu - (a_fit + b_line * pr)) <= MIRROR_PX
    if inl.sum() < 12:  # the median fell between two groups of ridges: the best line's own
        inl = np.abs(pu - (best[2] + b_line * pr)) <= MIRROR_PX
    b_i, _, rms_i = _line(pr[inl], pu[inl])
    if rms_i > INNER_RMS:
        return None
    return b_i


def _opening_sides(
    t: cr._Track, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> tuple[float, float] | None:
    """:func:`_sides` where they open outwards by ``OPEN_MIN_DEG``-``OPEN_MAX_DEG``."""
    sides = _sides(t, diff, pivot, radius)
    if sides is None:
        return None
    opening = (sides[1] - sides[0] + 180.0) % 360.0 - 180.0
    if not OPEN_MIN_DEG <= opening <= OPEN_MAX_DEG:
        return None
    return sides
