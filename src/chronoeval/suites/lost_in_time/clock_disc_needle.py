"""A second hand along the minute hand whose free end ends in a bump: a disc near its tip, or
the dot or tick at the rim that it runs into (issue 19, session 12, s12-19m; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 4).

A second hand lying along the minute (or hour) hand and running on past its tip shows, from the
rim in, as one ray: the needle's free end, then a step up in width where the wider hand begins.
``clock_reader._needle`` tells such a thin end from a pointed hand's point by its width near the
tip and by how it widens inwards there (a point widens all the way in; a needle stays parallel).
Where the free end is short and ends in a bump wider than a needle (a disc near the tip, or a
mark the needle touches: on the generator faces this rule gained, an hour dot or a minute tick at
the rim), the bump fills the window near the tip that the width is measured in, and from the tip
in the ray widens across the bump's outer half as a point does. Such a ray was read as one hand:
no second hand, the minute one up (10:39:40 read 10:40:00: the needle's end on the hour dot at
8 o'clock).

Rule (for any clock): a ray whose end, beyond a clear step up in width (``_step``), is, from
the tip in, one bump (a disc or a mark: rising from the tip to its widest circle within ``DISC_SPAN`` of
the ray's length, narrower than ``DISC_MAX`` of the radius) and then, without a break, a thin
stretch of one width down to the step (a needle: at least ``MIN_THIN`` circles, ``MIN_NEEDLE_PX``
to ``THIN_HAND`` of the radius wide, its widths within ``PARALLEL_PX`` of their median and
``SPREAD_PX`` of each other, not widening inwards by more than ``NEEDLE_SLOPE``, the bump
``BUMP_OVER_THIN`` wider) is a needle lying over a wider hand. The parallel stretch, not the
bump, is what a pointed hand lacks: a point keeps widening inwards, and where it runs
into a tick or numeral its narrowest part is a waist, not a stretch of one width. Used only where
the reader sees one or two rays and no other ray is long enough to be the minute hand (then the
ray is read as the second hand over the minute hand, as for any needle). Pixels only; no
drawer's lengths, widths or colours.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

MIN_THIN = 3  # circles of the parallel thin stretch between the step and the bump
PARALLEL_PX = 0.3  # the thin stretch's widths lie within this (px) of its median
SPREAD_PX = 0.4  # ... and within this (px) of each other (a point's waist at a mark: more)
MIN_NEEDLE_PX = 0.9  # a needle's stretch is at least this wide (a point's faint end is less)
BUMP_OVER_THIN = 1.4  # the bump is at least this much wider than the thin stretch
DISC_SPAN = 0.1  # the bump's widest circle lies within this fraction of the ray from its tip
DISC_MAX = 0.05  # ... and is narrower than this fraction of the radius (no wide hand's end)


def needle_with_disc(rays: list[cr._Track], contrast: float, radius: float) -> bool:
    """Whether the longest of one or two rays is a needle ending in a bump over the minute hand:
    :func:`disc_needle`, where no other ray is long enough to be the minute hand itself (longer
    than ``clock_reader.MINUTE_OVER_NEEDLE`` of the ray: the wider hand under the needle would
    then be the hour hand, and a pointed minute hand running into a numeral is read so)."""
    if len(rays) > 2 or (len(rays) == 2 and rays[1].tip > cr.MINUTE_OVER_NEEDLE * rays[0].tip):
        return False
    return disc_needle(rays[0], contrast, radius)


def disc_needle(t: cr._Track, contrast: float, radius: float) -> bool:
    """Whether ``t`` ends, beyond a width step, in a needle with a bump (a disc, a mark) at its tip."""
    ratio, rho = cr._step(t)
    if ratio <= cr.STEP_RATIO:
        return False
    r, _, w = t.arrays(contrast)  # tip first
    part = (r > rho) & (r <= t.tip)
    rs, ws = r[part], w[part]
    if len(ws) < MIN_THIN + 3:
        return False
    near = rs >= t.tip - DISC_SPAN * t.tip
    k = int(np.argmax(np.where(near, ws, -1.0)))  # the disc's widest circle
    peak = float(ws[k])
    if not near[k] or peak >= DISC_MAX * radius:
        return False
    # inwards from the disc down to the step: the needle's thin stretch, of one width (its end
    # circles, where the disc or the wider hand begins, may stand apart)
    inner = np.nonzero(ws[k:] < peak / BUMP_OVER_THIN)[0]
    if not len(inner):
        return False
    start = k + int(inner[0])
    thin = ws[start:]
    mid = float(np.median(thin))
    kept = thin[np.abs(thin - mid) <= PARALLEL_PX]
    if (
        len(kept) < MIN_THIN
        or len(thin) - len(kept) > 2
        or not MIN_NEEDLE_PX <= mid < cr.THIN_HAND * radius
        or float(np.max(kept) - np.min(kept)) > SPREAD_PX
    ):
        return False
    on = np.abs(thin - mid) <= PARALLEL_PX
    if np.polyfit(rs[start:][on], kept, 1)[0] < -cr.NEEDLE_SLOPE:
        return False  # widening inwards: a point's end, not a needle
    # the disc: one bump joined to the needle, rising from it to the widest circle and falling
    # from there to the tip (no break, no second bump: a numeral or tick beyond a point)
    if np.any(np.diff(rs[k:]) != -1) or np.any(np.diff(ws[k:start]) > PARALLEL_PX):
        return False
    return not np.any(np.diff(ws[: k + 1]) < -PARALLEL_PX)  # tip first: widening up to the disc
