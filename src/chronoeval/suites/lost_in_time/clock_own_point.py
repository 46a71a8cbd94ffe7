"""A minute hand's own point is no needle lying over it (issue 19, session 16, s16-19w; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 4).

With two rays, the longest one a needle by its looks (``clock_reader._needle`` or
``clock_disc_needle``) and the other no longer than ``MINUTE_OVER_NEEDLE`` of it (the hour hand),
``_identify`` reads "the minute hand hides under the second hand": the seconds from the ray's
thin outer part, the minute from its wider inner part, split where the width steps up
(``_step``). On a clock without a second hand whose minute hand narrows to a point (leaf, sword,
tapered), or whose point runs into a tick or a numeral's stroke, that thin end is the hand's own
point, and the second hand is put on the minute hand: past the half hour the minute is then read
one short (11:58:59 for 11:59:00). On dev seeds 7-20 of the generator (50,400 faces) 39 of main
af3b308's 247 misses read a second hand along the minute hand on a face without one; 21 of them
came from this reading, 13 of those with a width step on the ray (the rest: no step, 8, left to
``clock_one_width``; other paths, 18).

Rule (for any clock): a second hand is a needle, parallel-sided, drawn over the minute hand and
running on past its point. Where it lies over the minute hand, the part of the ray beyond the
width step is the needle's free end, and it keeps one width over a stretch of ``FLAT_SPAN`` of
the ray's length (the flattest such stretch varies by ``FLAT_VARIATION`` of its width or less:
0.01-0.26 on 67 of the 69 needles over a minute hand, with a width step, of dev seeds 7-13 with
the minute past the half hour; 0.35 on one drawn black over a black arrow hand and crossing a
numeral, and 0.42 on one in a colour of its own). A hand's point widens all along it, and a
point run into a mark changes width where the mark begins (0.36-1.6 on 6 of the 7 such misses of
seeds 7-13; the seventh, and one of seed 20, tapered points run into a numeral, measure 0.26
and 0.23 and stay misread). Where the thin end shows no such stretch, and it is not in
a colour of its own (a second hand drawn in another colour than the other ray's is kept whatever
its width profile), the ray holds one hand, the minute hand, and there is no second hand: minute
and hour are read on the two rays' whole lengths, as ``_identify`` does without a needle
(:func:`point_not_needle`). Only where the ray shows a width step (``STEP_RATIO``): without one,
``clock_one_width`` decides. Pixels only; no drawer's lengths, widths or colours.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

__all__ = ["point_not_needle"]

FLAT_SPAN = 0.05  # a needle's free end keeps one width over this fraction of the ray's length
MIN_SPAN = 5  # ... and over at least this many circles
FLAT_VARIATION = 0.3  # ... varying by at most this fraction of its width there
OWN_COLOUR = 0.95  # a thin end whose colour's cosine with the other ray's is below this is a hand
MIN_INK = 20.0  # colours weaker than this (off the dial colour) tell nothing


def _flattest(t: cr._Track, rho: float, contrast: float) -> float:
    """How much the ray's width varies (max - min over the median) on its flattest stretch of
    ``FLAT_SPAN`` of its length between the width step at ``rho`` and its tip; infinite where
    the thin end is shorter than that stretch."""
    r, _, w = t.arrays(contrast)  # tip first
    part = w[(r <= t.tip - 1) & (r >= rho + 1)]
    span = max(MIN_SPAN, round(FLAT_SPAN * t.tip))
    if len(part) < span:
        return float("inf")
    runs = np.lib.stride_tricks.sliding_window_view(part, span)
    spread = runs.max(axis=1) - runs.min(axis=1)
    k = int(np.argmin(spread))
    return float(spread[k]) / max(float(np.median(runs[k])), 0.5)


def _colour(
    t: cr._Track, lo: float, hi: float, rgb: np.ndarray, dial: np.ndarray, scene: cr._Scene
) -> np.ndarray | None:
    """Median colour (minus the dial colour) on the ray's centre line between radii lo and hi."""
    r, c, _ = t.arrays()
    keep = (r >= lo) & (r <= hi)
    if keep.sum() < 2:
        return None
    a = np.radians(c[keep] * cr.BIN_DEG)
    x = np.rint(scene.origin[0] + scene.pivot[0] + r[keep] * np.sin(a)).astype(int)
    y = np.rint(scene.origin[1] + scene.pivot[1] - r[keep] * np.cos(a)).astype(int)
    ok = (x >= 0) & (y >= 0) & (x < rgb.shape[1]) & (y < rgb.shape[0])
    if ok.sum() < 2:
        return None
    return np.median(rgb[y[ok], x[ok]].astype(np.float64), axis=0) - dial


def _own_colour(
    first: cr._Track,
    other: cr._Track,
    rho: float,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
) -> bool:
    """Whether the thin end of ``first`` (beyond ``rho``) is drawn in another colour than the
    ``other`` ray."""
    end = _colour(first, rho + 2, first.tip - 2, rgb, dial, scene)
    hand = _colour(other, 0.3 * other.tip, 0.8 * other.tip, rgb, dial, scene)
    if end is None or hand is None:
        return False
    n_e, n_h = float(np.linalg.norm(end)), float(np.linalg.norm(hand))
    if min(n_e, n_h) <= MIN_INK:
        return False
    return float(end @ hand) / (n_e * n_h) < OWN_COLOUR


def point_not_needle(
    rays: list[cr._Track],
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
    second_a: float | None,
    hour_a: float | tuple[float, float],
) -> bool:
    """Whether ``_identify``'s reading "a needle over the minute hand, the hour hand the other
    ray" (two rays, a second angle, the other ray at most ``MINUTE_OVER_NEEDLE`` of the longest)
    rests only on the minute hand's own point: a width step, a thin end without a parallel
    stretch, in the colour of the other ray."""
    if second_a is None or len(rays) != 2 or isinstance(hour_a, tuple):
        return False
    first, other = rays
    if other.tip / first.tip > cr.MINUTE_OVER_NEEDLE:
        return False
    ratio, rho = cr._step(first)
    if ratio <= cr.STEP_RATIO:
        return False
    contrast = max(t.contrast for t in rays)
    if _flattest(first, rho, contrast) <= FLAT_VARIATION:
        return False
    return not _own_colour(first, other, rho, rgb, dial, scene)
