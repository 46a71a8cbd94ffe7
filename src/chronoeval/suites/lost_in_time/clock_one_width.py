"""A thin hand of one width out to its tip is one hand, not a second hand lying over a hidden minute
hand (issue 19, session 14, s14-19r; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`,
reader step 4).

With two rays, the longest one a needle by its looks (``clock_reader._needle``: thin, parallel)
and the other no longer than ``MINUTE_OVER_NEEDLE`` of it (the hour hand), ``_identify`` reads
"the minute hand hides under the second hand": the seconds from the ray's outer part, the minute
from its inner part, split where the ray steps up in width (``_step``). Where it shows no such
step, both were read from the whole ray, so the second hand was put exactly on the minute hand
(seconds equal to the minute) and, past the half hour, the minute read one short: a clock
without a second hand whose minute hand is thin (a line, or a sword, leaf or tapered hand thinned
by a stretch, a warp or a slant) read 11:53:54 for 11:54:00. On dev seeds 7-13 of the generator
(25,200 faces) 10 of the 36 misses of clocks without a second hand were this, the largest group.

Rule (for any clock; the second hand is the thinnest hand): a minute hand hidden under a needle
is at least as wide as the needle, and the needle runs on past it, so the ray widens where the
minute hand ends. A ray that shows no width step holds one hand, the minute hand, and there is
no second hand on it: no step by ``_step`` (running medians, at most ``STEP_RATIO``), and
between neighbouring stretches of ``WINDOW`` circles the width changes by less than
``ONE_WIDTH`` (:func:`local_step`; the thin hands read right by this measured 1.05-1.09). The
local test keeps real needles nearly as wide as the minute hand: 0.2 degrees from it, such a
needle steps 2.5 -> 3.7 px where the minute hand ends, which the running medians blur to 1.33,
and on a small face the reader's enlargement blurs the local step itself to 1.32. Only where the
ray is seen from near the pivot (its innermost circle within ``SEEN_FROM`` of its length): a ray
that begins far out (a needle's free end, the hands inside it joined to another ray) may hold
the step in the part not seen. Of the 10 dev misses above the rule reads 5; the others begin far
out (3), show a break with a mark beyond it (local step 1.35), or end in a sword's point run
into a tick (1.92). Pixels only; no drawer's lengths or widths.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

__all__ = ["one_hand"]

SEEN_FROM = 0.5  # the ray's innermost circle lies within this fraction of its length
WINDOW = 8  # circles on each side of a place where the width may step (a needle's free end)
ONE_WIDTH = 1.2  # ... and the width changes less than this there (one width: noise, a slow taper)


def local_step(t: cr._Track) -> float:
    """The largest width step along a ray between neighbouring stretches of ``WINDOW`` circles
    each (median inside over median outside), from ``AXIS_FROM`` of its length out to 3 px short
    of its tip. ``_step`` compares all the ray inside a place with all of it outside (running
    medians), which a short thin end beyond a long wide part, or a slow taper, blurs."""
    r, _, w = t.arrays()  # tip first
    keep = (r >= cr.AXIS_FROM * t.tip) & (r <= t.tip - 3)
    w = w[keep]
    if len(w) < 2 * WINDOW:
        return 1.0
    runs = np.median(np.lib.stride_tricks.sliding_window_view(w, WINDOW), axis=1)
    outer, inner = runs[: len(runs) - WINDOW], runs[WINDOW:]
    return float(np.max(inner / np.maximum(outer, 0.5)))


def one_hand(t: cr._Track, ratio: float) -> bool:
    """Whether the longest ray ``t``, read as a needle over the minute hand, is one hand: no width
    step along it (``ratio``, its ``_step``, at most ``STEP_RATIO``) where it is seen from near
    the pivot."""
    if ratio > cr.STEP_RATIO or not t.radii or min(t.radii) > SEEN_FROM * t.tip:
        return False
    return local_step(t) <= ONE_WIDTH
