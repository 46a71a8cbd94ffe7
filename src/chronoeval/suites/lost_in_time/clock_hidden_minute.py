"""The hand hidden under the needle told by its length: reaching past the other ray, the minute
hand; ending short of it, the hour hand (issue 19, session 10, s10-19i; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

With two rays, the longest a needle that steps up in width where a wider hand lying under it
ends, the looks decide which hand hides under the needle by the other ray's length alone: longer
than ``clock_reader.MINUTE_OVER_NEEDLE`` (0.71) of the needle, the other ray is taken for the
minute hand and the hidden hand for the hour hand. An hour hand can be that long (generator faces
with hands reaching into the numerals: up to ~0.75 of the needle), and at whole hours (the
second hand lying over the minute hand at 12) it was then read as the minute hand: 1:00:00 read
12:05:00, 11:00:00 read 11:55:00. ``clock_two_hands`` scores the other reading (the hidden hand
the minute hand) by the hands' consistency, but asks it to agree ``clock_two_hands.MARGIN``
better; near 12 and 6 the swap misses by only h/12 of an hour (2.5 deg at 1:00 and 11:00).

Rule (for any clock; the hour hand is shorter than the minute hand): the hidden hand's end is
where the needle's ray steps up in width (``clock_reader._step``); where that lies further out
than the other ray's tip by ``LONGER`` of the radius, the hidden hand is the longer hand, so it
cannot be the hour hand under a minute hand on the other ray. The reading with the thin end the
second hand, the wider part under it the minute hand (its axis measured across the ray,
``clock_two_hands.minute_axis``) and the other ray the hour hand is then taken when it agrees
better at all than the looks' reading (no margin), within ``clock_two_hands.AGREE`` itself, with
the minute hand within ``clock_two_hands.MINUTE_FIT`` of its minute.

The mirror rule (``hour_under_needle``): where the hidden hand ends short of the other ray's tip
by ``LONGER`` of the radius, it is the hour hand and the other ray the minute hand. A wide hour
hand under the needle makes that ray fail the needle test (its middle is the hour hand's width,
its end may lie on a tick); the looks then read no second hand and the minute on the needle's
ray (3:57:20 read 11:20:00). That reading is taken on the same conditions. Pixels only.
"""

from __future__ import annotations

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time import clock_two_hands as th
from chronoeval.suites.lost_in_time.answers import ClockTime

LONGER = 0.03  # the hidden hand reaches this much (fraction of the radius) past the other ray


def minute_under_needle(case: th.TwoRays) -> ClockTime | None:
    """Two rays read as ``reading`` with the second hand the longest ray's thin end and the
    minute hand on the other ray: the hand hidden under the needle read as the minute hand where
    it reaches past the other ray and that reading agrees better; else None."""
    second_a, minute_a, radius = case.second_a, case.minute_a, case.radius
    if second_a is None:
        return None
    step = th.needle_step(case.rays, radius)
    if step is None:
        return None
    first, other, rho, outer = step
    if rho < other.tip + LONGER * radius or second_a != outer:
        return None
    if cr._off(minute_a, cr._pivot_angle(other)) >= cr._off(minute_a, cr._pivot_angle(first)):
        return None  # the looks read the minute hand on the needle's ray already
    inner = th.wider_axis(first, rho, case.rgb, case.dial, case.scene, case.radius)
    if inner is None:
        return None
    to_dial = case.to_dial
    return _better((to_dial(outer), to_dial(inner), to_dial(cr._pivot_angle(other))), case)


def hour_under_needle(case: th.TwoRays) -> ClockTime | None:
    """The mirror of :func:`minute_under_needle`: where the hand hidden under the longest ray's
    thin end ends short of the other ray's tip by ``LONGER`` of the radius, it is the shorter
    hand, the hour hand, and the other ray the minute hand. Taken where the looks read it
    otherwise (a wide hour hand under the needle makes the ray fail the needle test: no second
    hand, the minute read on the needle's ray, 3:57:20 read 11:20:00) and that reading agrees
    better; else None."""
    second_a, minute_a, radius = case.second_a, case.minute_a, case.radius
    step = th.needle_step(case.rays, radius)
    if step is None:
        return None
    first, other, rho, outer = step
    if rho + LONGER * radius > other.tip:
        return None
    a_first, a_other = cr._pivot_angle(first), cr._pivot_angle(other)
    if second_a == outer and cr._off(minute_a, a_other) < cr._off(minute_a, a_first):
        return None  # the looks read it so already
    inner = th.wider_axis(first, rho, case.rgb, case.dial, case.scene, case.radius)
    if inner is None:
        return None
    to_dial = case.to_dial
    return _better((to_dial(outer), to_dial(a_other), to_dial(inner)), case)


def _better(alt_angles: tuple[float, float, float], case: th.TwoRays) -> ClockTime | None:
    """The reading of ``alt_angles`` (second, minute, hour on the dial) where it differs from
    the looks' reading in hours or minutes, its minute hand fits its minute, and its hands agree
    within ``AGREE`` and better than the looks' reading's; else None."""
    to_dial, reading = case.to_dial, case.reading
    second_a, minute_a, hour_a = case.second_a, case.minute_a, case.hour_a
    a_s, a_m, a_h = alt_angles
    alt, r_m = th._reading(a_s, a_m, a_h)
    if (alt.hour, alt.minute) == (reading.hour, reading.minute) or r_m > th.MINUTE_FIT:
        return None
    hours = hour_a if isinstance(hour_a, tuple) else (hour_a,)
    s_cur = None if second_a is None else to_dial(second_a)
    current = min(th._fit(s_cur, to_dial(minute_a), to_dial(h), reading) for h in hours)
    fit = th._fit(a_s, a_m, a_h, alt)
    return alt if fit <= th.AGREE and fit < current else None
