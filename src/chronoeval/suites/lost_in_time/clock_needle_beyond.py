"""A second hand lying along the minute hand, seen only where it runs on past the minute hand's
end (session 13, s13-19p; part of the clock reader, :mod:`clock_reader`).

When the seconds are one more than the minutes (8:44:45, 4:48:49, 12:38:39) the second hand
stands 5.9 s - 6 m = 5.9 - 0.1 m degrees ahead of the minute hand (0.5-2.9 degrees past the half
hour), over it, and runs on a few pixels past its end (a second hand is the longest hand).
Followed from the rim inwards the two make one ray, and that ray is no needle: only its last 3-6%
is thin. The reader then sees two hands, reads no second hand, and rounds the minute hand's place
to the nearest whole minute. Past half a minute that is one minute too many (4:48:49 read
4:49:00), because the minute hand sweeps: it stands at 48.8.

Here, when the reader read no second hand on two rays, the longest ray's outer end is looked at
from its tip inwards. A needle's free end (:func:`thin_end`: at least ``END_WIDTH`` px and under
the reader's needle width ``THIN_HAND`` of the dial radius, parallel, at least ``END_MIN`` of the
radius long, and then a step to ``RISE`` times its width within ``RISE_WITHIN`` of the radius)
whose direction, seen from the pivot, lies ``AHEAD_DEG`` to ``ALONG_DEG`` clockwise ahead of the
axis of the ray inside it, gives the seconds; the minute is read from that axis, sweeping (0.1
degree per second). The reading is taken only where it changes the minute and puts the minute
hand nearer its place than the reading without seconds does.

What it must not take for a needle: the end of a sword, leaf or tapered hand's point (it widens
all along, and its last pixels are fainter than ``END_WIDTH``: the parallel and step tests), and
a thin mark or pin on the minute hand's own line on a clock without a second hand. On dev seeds
0, 3, 4, 7 and 8, the 265 such ends found on clocks without a second hand lay -1.15 to +0.49
degrees from the hand's axis (the ones above +0.25 on whole hours, where no minute changes), and
the whole minute fit the hand better in all but one of the 25 whose minute would change (1:58:00,
a pin 0.01 degrees off the axis: stopped by ``AHEAD_DEG``). Either test alone keeps the test faces
with a pin on the hand's line read right; neither, and they are read a minute early. Where the
seconds are past about 54 the needle lies within half a degree of the minute hand and the rule
does not tell it from a mark (9:58:59 is still read 9:59:00). Pixels only.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime

__all__ = ["needle_beyond_minute"]

END_MIN = 0.025  # the thin end is at least this fraction of the dial radius long ...
END_MAX = 0.2  # ... and at most this (a longer thin stretch is a needle ray of its own)
END_WIDTH = 0.8  # ... at least this wide (px; a point's last pixels are fainter) ...
PARALLEL = 1.3  # ... and no wider than this times its width at the tip
RISE = 2.0  # inside it, the ray widens to this many times the thin end's width ...
RISE_WITHIN = 0.02  # ... within this fraction of the radius (a step, not a point's taper)
ALONG_DEG = 4.0  # the thin end's direction lies this close to the minute hand's axis ...
AHEAD_DEG = 0.5  # ... and at least this far ahead of it (clockwise)


def thin_end(t: cr._Track, contrast: float, radius: float) -> float | None:
    """The radius where a ray's thin outer end meets a wider hand inside it, or None. The end is
    a needle's: parallel (its width changes less than the reader's ``NEEDLE_SLOPE`` per pixel),
    and the hand inside it begins in a step. A sword's, leaf's or tapered hand's point widens
    all along, and its last pixels are fainter than ``END_WIDTH``."""
    r, _, w = t.arrays(contrast)  # r decreasing: tip first
    end = w[(r <= t.tip - 2) & (r >= t.tip - 6)]
    if len(end) < 3:
        return None
    w_end = float(np.median(end))
    if not END_WIDTH <= w_end < cr.THIN_HAND * radius:
        return None
    inside = np.nonzero((r <= t.tip - 2) & (w > PARALLEL * w_end))[0]
    if not len(inside):
        return None
    rho = float(r[inside[0]])  # first circle, from the tip in, wider than the thin end allows
    if not END_MIN * radius <= t.tip - rho <= END_MAX * radius:
        return None
    part = (r > rho) & (r <= t.tip - 2)
    if part.sum() < 4 or np.polyfit(r[part], w[part], 1)[0] < -cr.NEEDLE_SLOPE:
        return None
    wide = w[(r <= rho) & (r >= rho - RISE_WITHIN * radius)]
    if not len(wide) or float(wide.max()) < RISE * w_end:
        return None
    return rho


def needle_beyond_minute(
    rays: list[cr._Track],
    radius: float,
    to_dial: Callable[[float], float],
    hour_a: float,
    reading: ClockTime,
) -> ClockTime | None:
    """The reading with the second hand read from the thin end of the longest of two rays (the
    minute hand's ray), where there is one and it fits clearly better; else None."""
    if len(rays) != 2 or reading.second != 0:
        return None
    t = rays[0]
    contrast = max(u.contrast for u in rays)
    rho = thin_end(t, contrast, radius)
    if rho is None:
        return None
    a_s = cr._angle(t, rho + 1, t.tip - 2)
    a_m = cr._axis_angle(t, cr.AXIS_FROM * rho, rho - 2)
    if a_s is None or a_m is None:
        return None
    d_s, d_m = to_dial(a_s), to_dial(a_m)
    if not AHEAD_DEG <= (d_s - d_m + 180.0) % 360.0 - 180.0 <= ALONG_DEG:
        return None
    second = round(d_s / 6.0) % 60
    x_s = ((d_m - 0.1 * second) % 360.0) / 6.0
    x_0 = (d_m % 360.0) / 6.0
    minute = round(x_s) % 60
    if minute == reading.minute or minute == round(x_0) % 60:
        return None
    if abs(x_s - round(x_s)) >= abs(x_0 - round(x_0)):
        return None
    hour = cr._hour_residual(to_dial(hour_a), minute, second)[0]
    return ClockTime(hour or 12, minute, second)
