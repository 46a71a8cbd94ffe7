"""Which hands a ray with a width step holds, chosen by consistency (issue 19, session 8,
s8-19f; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

When the reader sees only two rays, one ray holds two hands, and which two was decided by the
rays' looks alone: the longest ray a needle or not (``_needle``), and with a needle, the length
of the other ray (longer than 0.71 of the needle: the minute hand, the hour hand hidden). Two
misreadings follow, common to every style (dev seeds 0, 3, 4, 7 of the generator, 14,400 faces:
23 of the 29 misses of ``no_second_hand`` faces; ``easy`` faces: 24 misses at whole hours):

- a minute hand that ends in a thin point (sword, leaf, tapered, a bar with a thin end) passes
  the needle test, and a clock *without* a second hand is read with one lying along the minute
  hand: seconds equal to the minute, and past the half hour the minute one short
  (11:36:00 read 11:35:36), or the minute hand is taken for the second hand and the hour hand
  for the minute hand (10:37:00 read 10:52:37);
- at whole hours the second hand lies over the minute hand at 12, and an hour hand longer than
  0.71 of the needle (under perspective, stretch or warp) is taken for the minute hand
  (10:00:00 read 9:50:00).

Rule (for any clock): the hands move together — the minute hand 0.1 deg per second past its
minute, the hour hand 0.5 deg per minute past its hour. When the longest of two rays steps down
in width to a thin end, two readings of it are scored by how well the hands then agree (the
minute's and the hour's residuals, 2 r_m + 2 r_h, as in ``_assign_by_consistency``), the other
ray being the hour hand: (a) the thin end is the second hand and the wider part the minute hand
under it; (b) the ray is the minute hand alone, its thin end its own point — only where the thin
end lies in line with the wider part's axis (within ``IN_LINE_DEG``: a hand is straight; a second
hand lying along the minute hand leaves that axis by its own angle, on dev faces 1.3-3 deg). The
better one replaces the looks' reading when it agrees by ``MARGIN`` better, agrees within
``AGREE`` itself and puts the minute hand within ``MINUTE_FIT`` of its minute. The wider part's
axis is measured across the ray, between the ink's two edges (``minute_axis``), so a thin hand
lying over it does not pull it.
Not used: a ray of one width out to its tip (a needle alone, read as the looks say: without that
limit, 11 dev faces whose needle-thin second hand was the longest ray were read with the needle as
the minute hand), and an other ray that is itself a needle (no hour hand). Pixels only; no
drawer's lengths or widths.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from chronoeval.suites.lost_in_time import clock_bars as cb
from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime

MARGIN = 0.3  # the other reading must agree this much better (2 r_m + 2 r_h, as in the choice
# of hands among three rays: 0.3 is 0.15 min of the minute hand, or 4.5 deg of the hour hand)
MINUTE_FIT = 0.1  # ... and place the minute hand within this many minutes of its reading
AGREE = 0.25  # ... and agree this well itself (a face read badly either way keeps its reading)
WIDTH_SLACK = 1.0  # cuts wider or narrower than the median by this (px) hold other ink
EDGE_RMS = 0.5  # the middles of the cuts must lie this close (rms, px) to one straight line
MIN_CUTS = 8
AXIS_FROM, AXIS_TO = 0.3, 0.75  # cuts between these fractions of the wider part's length (the
# numerals and ticks a hand's point runs into lie further out)
IN_LINE_DEG = 0.5  # a thin end this close to the wider part's axis may be its own point


class TwoRays(NamedTuple):
    """What ``read_clock``'s two-ray rules see (each takes one of these and returns a better
    reading or None): the two rays, the face (``rgb``, its ``dial`` colour, the ``scene``), the
    normalised ``radius``, the image-to-dial angle map, and the looks' reading ``reading`` with
    its image angles (``second_a`` None: no second hand; the hour may be two candidates)."""

    rays: list[cr._Track]
    rgb: np.ndarray
    dial: np.ndarray
    scene: cr._Scene
    radius: float
    to_dial: Callable[[float], float]
    second_a: float | None
    minute_a: float
    hour_a: float | tuple[float, float]
    reading: ClockTime


def needle_step(
    rays: list[cr._Track], radius: float
) -> tuple[cr._Track, cr._Track, float, float] | None:
    """What the two-ray rules start from: two rays, the first stepping up in width at ``rho`` (a
    wider hand under a needle's thin end), the other no needle; the first ray, the other,
    ``rho`` and the thin end's angle beyond the step. None otherwise."""
    if len(rays) != 2:
        return None
    first, other = rays
    ratio, rho = cr._step(first)
    if ratio <= cr.STEP_RATIO or cr._needle(other, max(t.contrast for t in rays), radius):
        return None
    outer = cr._angle(first, rho + 2, first.tip - 2)
    return None if outer is None else (first, other, rho, outer)


def wider_axis(
    first: cr._Track,
    rho: float,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
) -> float | None:
    """The axis of the wider hand inside ``first``'s width step at ``rho``, measured across the
    ray (:func:`minute_axis`) on the ink's difference from the dial, only around the ray (the
    cuts reach 0.25 radius aside)."""
    px, py = scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1]
    reach = first.tip + 0.25 * radius + 2.0
    x0, y0 = max(0, int(px - reach)), max(0, int(py - reach))
    x1, y1 = int(px + reach) + 2, int(py + reach) + 2
    diff = cr._max_channel_diff(np.ascontiguousarray(rgb[y0:y1, x0:x1]), dial)
    return minute_axis(first, rho, diff.astype(np.float32), (px - x0, py - y0), radius)


def _fit(a_s: float | None, a_m: float, a_h: float, reading: ClockTime) -> float:
    """How badly a reading's hands agree: 2 r_m + 2 r_h (minutes and hours off the places the
    reading puts the minute and hour hands; ``a_s`` None: no second hand)."""
    s = reading.second if a_s is not None else 0
    x = ((a_m - 0.1 * s) % 360.0) / 6.0
    r_m = abs((x - reading.minute + 30.0) % 60.0 - 30.0)
    y = ((a_h - 0.5 * reading.minute - s / 120.0) % 360.0) / 30.0
    r_h = abs((y - reading.hour + 6.0) % 12.0 - 6.0)
    return 2.0 * r_m + 2.0 * r_h


def minute_axis(
    t: cr._Track, rho: float, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> float | None:
    """Direction (clock degrees) of the wider hand inside a ray's width step at ``rho``: the
    middle between the ink's two edges on straight cuts across the ray (``clock_bars._across``)
    from ``AXIS_FROM`` to ``AXIS_TO`` of ``rho``, fitted by a straight line. A thin hand lying over
    the wide one, inside its ink, moves neither edge (an ink-weighted centre leans towards it);
    where it pokes out at one side the cut is wider than the rest and left out."""
    across = cb._across(t, diff, pivot, radius)
    if across is None:
        return None
    a0, rs, us, prof, thr, _, runs = across
    r_kept, mids, widths = [], [], []
    for k, lo, hi in runs:
        if not AXIS_FROM * rho <= float(rs[k]) <= min(AXIS_TO * rho, rho - 3.0):
            continue
        left, right = cb._edges(prof[k], us, lo, hi, thr)  # sub-pixel, where ink begins and ends
        r_kept.append(float(rs[k]))
        mids.append(0.5 * float(left + right))
        widths.append(float(right - left))
    if len(r_kept) < MIN_CUTS:
        return None
    w = np.asarray(widths)
    keep = np.abs(w - np.median(w)) <= WIDTH_SLACK
    if keep.sum() < MIN_CUTS:
        return None
    slope, _, rms = cb._line(np.asarray(r_kept)[keep], np.asarray(mids)[keep])
    if rms > EDGE_RMS:
        return None
    return (math.degrees(a0) + math.degrees(math.atan(slope))) % 360.0


def _reading(a_s: float | None, a_m: float, a_h: float) -> tuple[ClockTime, float]:
    """The reading of hands at dial angles ``a_s`` (None: no second hand), ``a_m``, ``a_h`` (the
    minute sweeping), and the minute's residual."""
    second = 0 if a_s is None else round(a_s / 6.0) % 60
    x = ((a_m - 0.1 * second) % 360.0) / 6.0
    minute = round(x) % 60
    hour, _ = cr._hour_residual(a_h, minute, second)
    return ClockTime(hour or 12, minute, second), abs(x - round(x))


def two_rays_by_consistency(case: TwoRays) -> ClockTime | None:
    """Two rays read as ``reading`` from the angles ``second_a`` (None: no second hand),
    ``minute_a`` and ``hour_a`` (image angles; the hour may be two candidates): the longest ray
    read as the minute hand alone, or as the second hand's thin end over the minute hand, with the
    other ray the hour hand, when one of these readings agrees clearly better; else None."""
    to_dial, reading = case.to_dial, case.reading
    second_a, minute_a, hour_a = case.second_a, case.minute_a, case.hour_a
    step = needle_step(case.rays, case.radius)
    if step is None:
        return None  # one width out to the tip (one hand, as the looks said), or the other
        # ray a needle (no hour hand)
    first, other, rho, outer = step
    if second_a is not None and second_a != outer:
        # the looks read the second hand elsewhere (e.g. the other ray, a thinner hand in a
        # colour of its own): not the layout this rule reads again (a thin end on the longest ray)
        return None
    hours = hour_a if isinstance(hour_a, tuple) else (hour_a,)
    if second_a is not None:  # the looks' fit needs no pixels here: nothing can agree clearly
        # better than a reading within MARGIN
        s_cur, m_cur = to_dial(second_a), to_dial(minute_a)
        if min(_fit(s_cur, m_cur, to_dial(h), reading) for h in hours) <= MARGIN:
            return None
    inner = wider_axis(first, rho, case.rgb, case.dial, case.scene, case.radius)
    if inner is None:
        return None
    a_m, a_h, a_s = to_dial(inner), to_dial(cr._pivot_angle(other)), to_dial(outer)
    candidates = [(a_s, *_reading(a_s, a_m, a_h))]
    if abs((a_s - a_m + 180.0) % 360.0 - 180.0) < IN_LINE_DEG:
        # a thin end in line with the wider part may be that hand's own point (a straight hand)
        candidates.append((None, *_reading(None, a_m, a_h)))
    s_cur = None if second_a is None else to_dial(second_a)
    # read without a second hand, the minute hand is the longest ray: its wider part's axis, as
    # for the other readings (the whole ray's angle leans towards what lies beyond the step)
    m_cur = a_m if second_a is None else to_dial(minute_a)
    current = min(_fit(s_cur, m_cur, to_dial(h), reading) for h in hours)
    best: tuple[float, ClockTime] | None = None
    for a_s, alt, r_m in candidates:
        if (alt.hour, alt.minute) == (reading.hour, reading.minute) or r_m > MINUTE_FIT:
            continue
        fit = _fit(a_s, a_m, a_h, alt)
        if fit <= AGREE and fit + MARGIN < current and (best is None or fit < best[0]):
            best = (fit, alt)
    return None if best is None else best[1]
