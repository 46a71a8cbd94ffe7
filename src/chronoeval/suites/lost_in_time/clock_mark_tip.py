"""A hand that runs into a mark at the rim: its length and axis taken up to where the mark
begins (issue 19, sessions 12-13, s12-19o / s13-19o; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, the choice of hands by the consistency of the
readings: three rays, or two of nearly one length).

A minute hand pointing at a numeral or tick joins it, and the ray the reader follows runs on
through the mark to the rim: it is longer than the second hand (a length penalty in
``_assign_by_consistency``) and its fitted axis leans 0.5-1.5 deg towards the mark, whose ink
lies on the mark's own radial line, a pixel or two beside the hand's. "No second hand" then
scores best and the minute reads one up (4:39:48 read 4:40:00).

Rule (for any clock): a ray reaching the rim zone (tip at least ``RIM_ZONE`` of the radius)
whose outer part, from ``MARK_FROM`` of the radius out, leaves the line fitted through its inner
part (``AXIS_FROM`` of the tip to ``MARK_FROM`` of the radius) by more than ``OFF_PX`` and stays
off it to the tip, is a hand that ends where it leaves the line; its tip and axis are taken up to
there. Pixels only.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

RIM_ZONE = 0.93  # the ray reaches this fraction of the radius (into the marks or the rim)
MARK_FROM = 0.78  # the hand's own line is fitted inside this fraction of the radius
OFF_PX = 1.2  # the mark's ink lies this far (px) off the hand's line
STAY_OFF = 0.8  # ... on at least this share of the circles from the hand's end to the tip
MIN_MARK = 8  # ... which are at least this many circles
NEAR_DEG = 6.0  # no other ray within this many degrees (a hand under the ray skews its line)


def mark_trimmed(t: cr._Track, radius: float, rays: list[cr._Track]) -> tuple[int, float] | None:
    """(tip, fitted axis angle in degrees, as ``clock_reader._axis_angle``) of the hand part of a
    ray that runs into a mark at the rim, or None where the ray stays on its hand's line (or
    another of ``rays`` lies within ``NEAR_DEG`` of it: its inner part may hold that hand's ink
    too)."""
    if t.tip < RIM_ZONE * radius:
        return None
    here = cr._track_angle(t)
    for u in rays:
        if u is not t and abs((cr._track_angle(u) - here + 180.0) % 360.0 - 180.0) < NEAR_DEG:
            return None
    line = cr._axis_line(t, cr.AXIS_FROM * t.tip, MARK_FROM * radius)  # the hand's own line
    if line is None:
        return None
    mean, d = line
    r, c, _ = t.arrays()
    a = np.radians(c * cr.BIN_DEG)
    pts = np.column_stack([r * np.sin(a), -r * np.cos(a)])
    off = np.abs((pts[:, 0] - mean[0]) * d[1] - (pts[:, 1] - mean[1]) * d[0])
    outer = r > MARK_FROM * radius  # tip first (radii decrease)
    if not outer.any():
        return None
    # the hand's end: the outermost circle from which, inwards, every circle is on the line
    on = off <= OFF_PX
    k = int(np.argmax(outer)) + int(outer.sum()) - 1  # innermost outer circle
    end = None
    for j in range(k, -1, -1):
        if not on[j]:
            break
        end = j
    if end is None or end == 0:
        return None
    beyond = off[:end]
    if len(beyond) < MIN_MARK or float(np.mean(beyond > OFF_PX)) < STAY_OFF:
        return None
    tip = int(r[end])
    angle = cr._axis_angle(t, cr.AXIS_FROM * t.tip, tip)
    if angle is None:
        return None
    return tip, angle
