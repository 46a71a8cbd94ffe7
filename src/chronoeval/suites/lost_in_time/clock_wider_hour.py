"""The hour hand is no narrower than the minute hand: with two rays, a reading that hides the
hour hand under the needle's ray and reads the minute hand on a ray at least as wide as the hand
hidden there is read the other way round, where that agrees better (issue 19, session 16,
s16-19y; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

Where the second hand lies over one of the other hands the reader sees two rays: the needle's
ray, which holds a second hand over a hidden hand, and the other ray. Which hand hides under the
needle was decided by the other ray's length (longer than ``MINUTE_OVER_NEEDLE`` of the needle:
the minute hand) or by a width step along the needle's ray; where the minute hand lies under the
second hand (every whole hour: both at 12) and the hour hand is long, or the minute hand narrows
to a point so that its end makes no step, the hour hand was read under the needle and the minute
hand on the hour hand's ray: 3:00:00 read 12:15:00, 10:00:00 read 11:50:00. Both readings are
nearly self-consistent at whole hours (11:00 and 11:55 put the hands within 2.5 deg), so the
consistency rules (``clock_two_hands``, ``clock_hidden_minute``, with their margins) do not
undo it. On dev seeds 7-13 of the generator the largest group of the gross misses (hour wrong or
the minute far off) of the ``easy`` style.

Rule (for any clock: the hour hand is at least as wide as the minute hand). With two rays and a
reading that puts the second hand and the hour hand on one ray and the minute hand on the other,
shorter one (by more than ``SAME_LENGTH`` of the radius: a hand as long as the needle's ray is
no hour hand beside a minute hand under the needle): where the other ray's body is at least
``WIDER`` (1.0) times as wide as the needle ray's body (from ``BODY_FROM`` to ``BODY_TO`` of
each ray's length: the hidden hand's body under the needle, the other hand's own), measured both
by the median run width and by the widest tenth's median (a counterweight's disc on the other
ray widens one tenth of it; a short hidden hour hand fills only part of the needle ray's body
and lowers its median), the other ray may be the hour hand and the hand under the needle the
minute hand. That reading is taken where its minute hand lies within ``MINUTE_FIT`` of its
minute, its hands agree better than the reading's own (``clock_two_hands._fit``, without the
margin the consistency rules ask for), and the hand hidden under the needle lies where the new
reading's minute hand would lie against the second hand rather than where the old reading's hour
hand would (its axis measured across the ray between the ink's edges,
``clock_two_hands.minute_axis``, minus the needle ray's angle: at whole hours 0 deg against
2.5-7.5 deg). The last test keeps clocks whose minute hand is wider than the hour hand (a thin
hour line, a wide leaf minute hand, test_clock_reader_s4), where the convention fails and the
swapped reading can agree better by chance. On dev seeds 7-20 the faces where the looks' reading
was right and the other reading agreed better measured 0.41 to 0.91 (the hour hand under the
needle wider than the minute hand); the fourteen faces gained (seeds 0, 3, 4, 7-20) 1.06 to 2.8;
without the width test the rule would lose 30 of those dev faces. Pixels only; no drawer's
lengths or widths.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time import clock_two_hands as th
from chronoeval.suites.lost_in_time.answers import ClockTime

__all__ = ["hour_on_wider_ray"]

WIDER = 1.0  # the other ray's body at least this wide (times the needle ray's): the hour hand
BODY_FROM, BODY_TO = 0.1, 0.6  # a ray's body, as fractions of its length (no cap, no point)
ON_RAY_DEG = 6.0  # a hand of the reading lies on a ray within this many degrees
MINUTE_FIT = 0.25  # the other reading's minute hand this close (min) to its minute


def _body_widths(t: cr._Track) -> tuple[float, float]:
    """A ray's body widths from ``BODY_FROM`` to ``BODY_TO`` of its length: the median run
    width, and the largest of the medians over tenths of the length (0.0 where too few runs)."""
    r, _, w = t.arrays()
    keep = (r >= BODY_FROM * t.tip) & (r <= BODY_TO * t.tip)
    if keep.sum() < 3:
        return 0.0, 0.0
    widest = 0.0
    for lo in np.arange(BODY_FROM, BODY_TO - 1e-9, 0.1):
        tenth = (r >= lo * t.tip) & (r < (lo + 0.1) * t.tip)
        if tenth.sum() >= 3:
            widest = max(widest, float(np.median(w[tenth])))
    return float(np.median(w[keep])), widest


def _wider(other: cr._Track, needle: cr._Track) -> float:
    """How much wider ``other``'s body is than ``needle``'s: the smaller of the two ratios of
    :func:`_body_widths` (a counterweight's disc on the other ray widens one tenth of it; a short
    hidden hand fills only part of the needle ray's body and lowers its median)."""
    (m_o, w_o), (m_n, w_n) = _body_widths(other), _body_widths(needle)
    if min(m_n, w_n) <= 0.0:
        return 0.0
    return min(m_o / m_n, w_o / w_n)


def hour_on_wider_ray(
    rays: list[cr._Track],
    to_dial: Callable[[float], float],
    reading: ClockTime | None,
    rgb: np.ndarray | None = None,
    dial: np.ndarray | None = None,
    scene: cr._Scene | None = None,
    radius: float = cr.NORM_RADIUS,
) -> ClockTime | None:
    """``reading`` of two rays, or the reading with the hour hand on the other, wider ray and
    the minute hand under the needle (see the module's doc); None stays None."""
    swapped = _swapped(rays, to_dial, reading)
    if swapped is None or swapped[1] < WIDER or reading is None:
        return reading
    if (
        rgb is not None
        and dial is not None
        and scene is not None
        and not _hidden_hand_fits(rays, to_dial, reading, swapped[0], rgb, dial, scene, radius)
    ):
        return reading
    return swapped[0]


def _hidden_hand_fits(
    rays: list[cr._Track],
    to_dial: Callable[[float], float],
    reading: ClockTime,
    alt: ClockTime,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
) -> bool:
    """Whether the hand hidden under the needle lies where ``alt``'s minute hand would lie
    against the second hand rather than where ``reading``'s hour hand would: the hidden hand's
    axis (measured across the ray between its ink's edges, inside ``BODY_TO`` of the ray) minus
    the needle ray's angle, against each reading's minute or hour angle minus its second hand's.
    True where the axis cannot be measured."""

    a_s = 6.0 * reading.second
    k_n = min((0, 1), key=lambda k: cr._off(a_s, to_dial(cr._pivot_angle(rays[k]))))
    needle = rays[k_n]
    inner = th.wider_axis(needle, BODY_TO * needle.tip, rgb, dial, scene, radius)
    if inner is None:
        return True
    seen = cr._turn(to_dial(inner), to_dial(cr._pivot_angle(needle)))
    h, m = reading.hour % 12, reading.minute
    as_hour = cr._turn(30.0 * h + 0.5 * m + reading.second / 120.0, a_s)
    as_minute = cr._turn(6.0 * alt.minute + 0.1 * alt.second, 6.0 * alt.second)
    return abs(seen - as_minute) < abs(seen - as_hour)


def _swapped(
    rays: list[cr._Track],
    to_dial: Callable[[float], float],
    reading: ClockTime | None,
) -> tuple[ClockTime, float] | None:
    """The reading with the hand under the needle the minute hand and the other ray the hour
    hand, and the other ray's body width over the needle ray's, where ``reading`` puts the second
    and the hour hand on the longer of two rays and the minute hand on the other, and the swapped
    reading fits its minute and agrees better; else None."""
    if reading is None or len(rays) != 2:
        return None
    h, m, s = reading.hour % 12, reading.minute, reading.second
    a_s, a_m, a_h = 6.0 * s, 6.0 * m + 0.1 * s, 30.0 * h + 0.5 * m + s / 120.0
    dial = [to_dial(cr._pivot_angle(t)) for t in rays]
    k_m = min((0, 1), key=lambda k: cr._off(a_m, dial[k]))
    k_n = 1 - k_m
    if cr._off(a_m, dial[k_m]) > ON_RAY_DEG or cr._off(a_s, dial[k_n]) > ON_RAY_DEG:
        return None  # not the layout: the minute hand on one ray, the second on the other
    if cr._off(a_h, dial[k_n]) >= cr._off(a_h, dial[k_m]):
        return None  # the hour read on the minute hand's ray
    needle, other = rays[k_n], rays[k_m]
    if other.tip >= needle.tip - cr.SAME_LENGTH * cr.NORM_RADIUS:
        return None  # the other ray as long as the needle's: not an hour hand beside a minute hand
    alt, r_m = th._reading(a_s, dial[k_n], dial[k_m])
    if (alt.hour, alt.minute) == (reading.hour, reading.minute) or r_m > MINUTE_FIT:
        return None
    if th._fit(a_s, dial[k_n], dial[k_m], alt) >= th._fit(a_s, dial[k_m], dial[k_n], reading):
        return None
    return alt, _wider(other, needle)
