"""The thinnest hand, as long as the longest, is the second hand however wide it is drawn (issue 19,
session 15, s15-19u; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 4,
the choice by consistency among three or more rays).

Among three or more rays the reader chooses which hold the second, minute and hour hands by how
well the readings agree and by conventions (``clock_reader._assign_by_consistency``). One of them
is that the second hand is needle-thin: a ray that ``_needle`` does not call a needle (its middle
``THIN_HAND`` of the radius or wider, 2.9 px on the normalised dial) pays 2.0 as the second hand,
more than the 0.8 that "no second hand, one ray left over" pays. A second hand drawn a little
wider than that — a lollipop or counterweighted second hand of 3 px on a 200 px radius, or one
widened by a warp — was then left over and the minute read by rounding its hand: the seconds
lost and the minute one up late in the minute (dev, main 4dc26b0: 9:1505 4:55:28 read 4:56:00,
the second ray 2.96 px wide beside a 5.8 px minute hand and a 9.4 px hour hand; 9:2044 10:02:56
read 10:03:00, 3.2 px beside 4.6 and 6.4 px).

What makes a second hand on real clocks is relative: it is the thinnest of the hands and reaches
as far as the longest. So a ray clearly thinner in its middle than both the minute and the hour
hand of the hypothesis (under ``THINNER`` of the narrower of the two) and as long as the longest
ray (within ``AS_LONG``) is no less a second hand than a needle: it pays nothing for its width.
A minute hand that short beside it (under ``MINUTE_OVER_NEEDLE`` of its length) makes it
rather a thin minute hand with the hour hand taken for the minute (a clock without a second hand,
the hour hand's tail the third ray). The other conventions (the second hand the longest, the
thinnest, the consistency of the readings) still decide. Pixels only: the rays' widths and
lengths.

Session 16 (s16-19x): ``THINNER`` 0.7 -> 0.8. On a small face upsampled to the normalised dial
the anti-aliased fringe widens every hand by about the same pixels, so a 1 pt second hand beside
a 2 pt minute hand (the warped matplotlib polar clock) measures 0.70-0.74 of it and was left over.
"""

from __future__ import annotations

from chronoeval.suites.lost_in_time import clock_reader as cr

THINNER = 0.8  # the second hand's middle under this fraction of the other hands' (s16-19x: was 0.7)
AS_LONG = 0.95  # ... and it reaches this fraction of the longest ray's length


def thin_second(
    info: list[tuple[float, float, float, float]], si: int, tip_m: float, w_m: float, w_h: float
) -> bool:
    """Whether ray ``si`` may be the second hand beside a minute hand ``tip_m`` long and a
    minute and an hour hand whose middles are ``w_m`` and ``w_h`` wide, though it is no needle:
    clearly the thinnest of the three, as long as the longest ray, and the minute hand no
    shorter than ``clock_reader.MINUTE_OVER_NEEDLE`` of it. ``info`` holds per ray (tip, dial
    angle, mid width, outer width), as in ``clock_reader._assign_by_consistency``."""
    tip_s, _, w_s, _ = info[si]
    longest = max(tip for tip, _, _, _ in info)
    return (
        w_s < THINNER * min(w_m, w_h)
        and tip_s >= AS_LONG * longest
        and tip_m >= cr.MINUTE_OVER_NEEDLE * tip_s
    )
