"""A needle of one width from the pivot to its tip hides no other hand (issue 19, session 15,
s15-19t; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 4/5).

With three hands and only two rays, one ray holds two hands. Where the longest ray is a needle
(``clock_reader._needle``) and the other ray is long enough to be the minute hand, ``_identify``
hides the hour hand under the ray that steps up in width where the hour hand ends; where neither
ray steps clearly (a leaf, sword or tapered minute hand narrows all along and its shape is no
step, ``_hidden_step``), it offers both rays' angles and the hour is read on the one whose angle
fits the minute better. That choice is a coin toss where the needle happens to lie near an hour's
place for the minute read: on dev seeds 7-13 of the generator seven faces (9:49:19 read 3:49:19,
the needle at 114 deg, 3:49's hour place at 114.5 deg) — the largest group of the two-ray misses.
Where the needle is shorter than the other ray by more than ``MINUTE_OVER_NEEDLE`` would allow
(perspective, a long needle), ``_identify`` reads the minute hand hidden under the needle; where
the needle's ray shows no step, the minute and the hour hand are both in the other ray.

Rule (for any clock: an hour or minute hand is wider than the second hand): a needle-thin ray of
one width, seen from near the pivot (its innermost circle within ``SEEN_FROM`` of its length)
and without a width step (``_step`` at most ``ONE_WIDTH``) hides no hand. (1) In the choice of
the hour between the two rays, the hour hand is under the other ray (:func:`bare_needle`). (2)
Where the looks hid the minute hand under such a needle (or, by ``clock_one_width``, read it as
the minute hand), the other ray holding the minute hand's outer part and the hour hand's inner
part (its width step) is read as well, and kept where its hands agree clearly better
(:func:`hands_beside_needle`, the consistency test of ``clock_two_hands``). Pixels only; no
drawer's lengths or widths.
"""

from __future__ import annotations

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time import clock_two_hands as th
from chronoeval.suites.lost_in_time.answers import ClockTime

__all__ = ["bare_needle", "hands_beside_needle"]

SEEN_FROM = 0.2  # the ray's innermost circle lies within this fraction of its length
ONE_WIDTH = 1.15  # ... and its width steps by less than this (``_step``; bare needles on dev
# faces 1.00-1.06; a needle over a thin tapered hour hand 0.02 of the radius wide 1.24-1.39)


def bare_needle(t: cr._Track, ratio: float) -> bool:
    """Whether the needle ``t`` (``ratio``: its ``_step``) is seen from near the pivot with no
    width step: no wider hand lies under it."""
    return ratio <= ONE_WIDTH and bool(t.radii) and min(t.radii) <= SEEN_FROM * t.tip


def hands_beside_needle(case: th.TwoRays) -> ClockTime | None:
    """Two rays, the longest a bare needle read as holding the minute hand (``minute_a`` on it):
    one of ``read_clock``'s two-ray rules (``case``'s ``rgb``, ``dial`` and ``scene`` unused
    here). The reading with the needle the second hand and the other ray's
    outer part the minute hand, its inner part the hour hand, where that agrees clearly better;
    else None."""
    rays, radius, to_dial, reading = case.rays, case.radius, case.to_dial, case.reading
    second_a, minute_a, hour_a = case.second_a, case.minute_a, case.hour_a
    if len(rays) != 2 or isinstance(hour_a, tuple):
        return None
    first, other = rays
    if minute_a != cr._pivot_angle(first) or hour_a != cr._pivot_angle(other):
        return None  # not the layout "minute hand on (or under) the needle, hour the other ray"
    contrast = max(t.contrast for t in rays)
    if not cr._needle(first, contrast, radius) or not bare_needle(first, cr._step(first)[0]):
        return None
    o_ratio, o_rho = cr._step(other)
    if o_ratio <= cr.STEP_RATIO:
        return None  # one hand in the other ray
    outer = cr._angle(other, o_rho + 2, other.tip - 2)
    inner = cr._angle(other, 0.3 * o_rho, o_rho - 2)
    if outer is None or inner is None:
        return None
    a_s, a_m, a_h = to_dial(cr._pivot_angle(first)), to_dial(outer), to_dial(inner)
    alt, r_m = th._reading(a_s, a_m, a_h)
    if r_m > th.MINUTE_FIT or (alt.hour, alt.minute) == (reading.hour, reading.minute):
        return None
    s_cur = None if second_a is None else to_dial(second_a)
    current = th._fit(s_cur, to_dial(minute_a), to_dial(hour_a), reading)
    fit = th._fit(a_s, a_m, a_h, alt)
    return alt if fit <= th.AGREE and fit + th.MARGIN < current else None
