"""A stepping minute hand must step along its whole length (part of the clock reader,
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5; session 7).

Some clocks move the minute hand once a minute, so the reader also tries the stepping reading
(the hand on a whole minute whatever the seconds) and takes it when the hand's fitted axis sits
within 0.04 min of a whole minute and that fits clearly better than the sweeping reading
(``clock_reader._minute_reading``). The axis is fitted from 0.3 of the ray's length out to its
tip. A minute hand that ends on the ring of minute ticks is continued, in the ray, by the tick
it touches, and ticks stand on whole minutes: the tick's ink, furthest from the pivot and so the
strongest lever of the fit, pulls the axis towards the whole minute next to the hand's tip.
Late in a minute (seconds 40-59, the sweeping hand 0.7-1 min past its minute) a pull of 0.1-0.25
min puts the axis on the next whole minute, the stepping reading wins, and the minute is read
one up (25 of the 35 "minute one off, seconds right" misses of Roman faces on dev seeds).

The tick cannot pull the hand's inner part. So the stepping reading is kept only when the axis
fitted over the inner part alone (``INNER_FROM`` to ``INNER_TO`` of the ray's length, inside the
numerals' and ticks' ring for hands that reach it) also sits on the whole minute: within
``INNER_STEP`` min, or at least nearer to it than to the sweeping place. A hand that really steps
sits on the whole minute along its whole length. Pixels only.
"""

from __future__ import annotations

from collections.abc import Callable

from chronoeval.suites.lost_in_time import clock_reader as cr

INNER_FROM = 0.3  # the inner axis is fitted from this fraction of the ray's length ...
INNER_TO = 0.7  # ... out to this fraction (numerals and ticks lie further out)
INNER_STEP = 0.06  # a stepping hand's inner axis sits this close (min) to the whole minute


def minute_reading(
    t: cr._Track,
    a_m: float,
    second: int,
    a_s: float | None,
    to_dial: Callable[[float], float],
) -> tuple[int, float]:
    """``clock_reader._minute_reading`` for the minute hand ``t`` at dial angle ``a_m``, with
    the stepping reading kept only where the hand's inner axis steps too."""
    minute, r_m = cr._minute_reading(a_m, second, a_s)
    x = ((a_m - 0.1 * second) % 360.0) / 6.0
    if minute == round(x) % 60:
        return minute, r_m  # the sweeping reading (or both agree)
    from chronoeval.suites.lost_in_time.clock_loose_angles import loose

    if loose(to_dial):  # angles too loose to tell a whole minute (s13-19q)
        return round(x) % 60, abs(x - round(x))
    inner = cr._axis_angle(t, INNER_FROM * t.tip, INNER_TO * t.tip)
    if inner is None:
        return minute, r_m
    a_i = to_dial(inner)
    y_i = (a_i % 360.0) / 6.0
    x_i = ((a_i - 0.1 * second) % 360.0) / 6.0
    r_step, r_sweep = abs(y_i - round(y_i)), abs(x_i - round(x_i))
    if r_step <= INNER_STEP or r_step <= r_sweep:
        return minute, r_m
    return round(x) % 60, abs(x - round(x))
