"""Which ray a hidden hour hand lies under, checked against the minute (issue 19, session 9,
s9-19h; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

With two rays, a second hand and a minute hand seen, the hour hand lies under one of them. The
looks decide which: the ray that steps up in width where the wider hour hand begins under it.
A minute hand that narrows to a point (leaf, sword, tapered, arrow) steps in width by its own
shape, while the hour hand lying a degree or two beside the needle leaves the needle's ray
without a clear step; the hour was then read on the minute hand's ray, hours off (dev generator
seeds 0, 3, 4, 7, faces without perspective or warp: 5 of 42 misses, 11:06:56 read 1:06:56).

Rule (for any clock): the hour hand stands 0.5 deg per minute past its hour, so with the minute
read, a ray whose angle (and the hour angle read on it) lies ``FAR_H`` of an hour or more away
from every hour's place for that minute does not hold the hour hand; where the other ray lies
within ``NEAR_H`` of an hour's place, the hour hand is under that ray. Only where the minute hand
itself sits within ``MINUTE_FIT`` of its minute (dev seed 10, a stretched face read 0.34 min off:
2:10:01 read 12:10:01 without that guard). Pixels only.
"""

from __future__ import annotations

from collections.abc import Callable

from chronoeval.suites.lost_in_time import clock_reader as cr

FAR_H = 0.2  # an hour hand this far (hours, 6 deg) from its place for the minute is misplaced
NEAR_H = 0.1  # ... and the other ray this close (3 deg) holds it
MINUTE_FIT = 0.1  # only where the minute hand sits this close (min) to its minute: angles that
# far off (a stretched view the marks did not undo) move the hour hand's place as much


def hour_under_other_ray(
    rays: list[cr._Track],
    to_dial: Callable[[float], float],
    second_a: float,
    minute_a: float,
    hour_a: float,
) -> float:
    """The hour hand's image angle: ``hour_a``, or the angle of the ray it was not read on where
    only that one fits the minute (two rays, a second hand read)."""
    second = round(to_dial(second_a) / 6.0) % 60
    x = ((to_dial(minute_a) - 0.1 * second) % 360.0) / 6.0
    if abs(x - round(x)) > MINUTE_FIT:
        return hour_a
    minute = round(x) % 60
    angles = [cr._pivot_angle(t) for t in rays[:2]]
    on = min((0, 1), key=lambda k: abs((angles[k] - hour_a + 180.0) % 360.0 - 180.0))
    other = angles[1 - on]
    # the hour hand is not on that ray where neither the angle read nor the ray's own fits
    r_now = min(cr._hour_residual(to_dial(a), minute, second)[1] for a in (hour_a, angles[on]))
    r_other = cr._hour_residual(to_dial(other), minute, second)[1]
    return other if r_now >= FAR_H and r_other <= NEAR_H else hour_a
