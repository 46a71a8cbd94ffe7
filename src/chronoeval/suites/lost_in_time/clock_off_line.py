"""A thin end that leaves the hand's axis is a second hand (issue 19, session 9, s9-19h; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

When the second hand lies along the minute hand (within a degree or two), the reader sees two
rays, and the longest one steps down in width to a thin end: the needle beyond the minute hand's
tip. Where the looks call that ray no needle (its middle is the minute hand's width),
``clock_two_hands`` scores the reading "second hand over the minute hand" against the looks'
reading "no second hand" by the consistency of the hands, and takes it only when it agrees
``clock_two_hands.MARGIN`` better. With the second hand along the minute hand the two readings
differ little in how well they agree: the second hand moves the minute hand by s/60 of a minute,
so where s is about the minute the two residuals differ by less than the margin (dev generator
seeds 0, 3, 4, 7, faces without perspective or warp: 5 of the 42 misses, read at :00 with the
minute one up, 6:50:51 read 6:51:00; also at :44:45, where why the margin was missed was not
traced). The rule has no limit on the minute: it applies at any minute.

Rule (for any clock; a hand is straight): the reading "no second hand" makes the thin end the
minute hand's own point, and a hand's point lies on its axis. Where the thin end leaves the
wider part's axis (measured across the ray between the ink's edges, ``clock_two_hands.minute_axis``)
by more than ``clock_two_hands.IN_LINE_DEG``, that reading is ruled out by the drawing, so the
reading "second hand over the minute hand" needs no margin: it is taken when it agrees better at
all, within ``clock_two_hands.AGREE`` itself, with the minute hand within
``clock_two_hands.MINUTE_FIT`` of its minute. Not used where the thin end lies further than
``MAX_OFF_DEG`` off the axis (two hands that far apart show as two rays), nor where the other ray
is a needle. Pixels only.
"""

from __future__ import annotations

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time import clock_two_hands as th
from chronoeval.suites.lost_in_time.answers import ClockTime

MAX_OFF_DEG = 4.0  # a thin end further off the axis than this is no hand lying along it


def second_off_the_line(case: th.TwoRays) -> ClockTime | None:
    """Two rays read as ``reading`` with no second hand (``second_a`` None): the longest ray's
    thin end read as the second hand over the minute hand, where it leaves the wider part's axis
    and that reading agrees better; else None."""
    to_dial, second_a, hour_a, reading = case.to_dial, case.second_a, case.hour_a, case.reading
    step = None if second_a is not None else th.needle_step(case.rays, case.radius)
    if step is None:
        return None
    first, other, rho, outer = step
    inner = th.wider_axis(first, rho, case.rgb, case.dial, case.scene, case.radius)
    if inner is None:
        return None
    a_m, a_s = to_dial(inner), to_dial(outer)
    off = abs((a_s - a_m + 180.0) % 360.0 - 180.0)
    if not th.IN_LINE_DEG < off <= MAX_OFF_DEG:
        return None
    a_h = to_dial(cr._pivot_angle(other))
    alt, r_m = th._reading(a_s, a_m, a_h)
    if (alt.hour, alt.minute) == (reading.hour, reading.minute) or r_m > th.MINUTE_FIT:
        return None
    hours = hour_a if isinstance(hour_a, tuple) else (hour_a,)
    current = min(th._fit(None, a_m, to_dial(h), reading) for h in hours)
    fit = th._fit(a_s, a_m, a_h, alt)
    return alt if fit <= th.AGREE and fit < current else None
