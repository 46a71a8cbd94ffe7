"""Session 6 rules of the clock reader about hands that one look shows and another loses (part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader steps 3 and 5). Pixels only.

Every hand of a clock runs out of one pivot, so a look from the true pivot shows each hand whole
as a straight ray; a look from a point a few pixels beside it crosses a thin hand at a slant and
can lose it altogether.
"""

from __future__ import annotations

import math

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr


def loses_hand(old: cr._Scene, new: cr._Scene | None) -> bool:
    """Whether moving the pivot from ``old``'s to ``new``'s loses a hand: ``old`` showed three or
    more rays, ``new`` shows fewer, and its longest ray is shorter than ``old``'s. The reader
    moves its pivot to where the hands' axes meet or where opposite marks' lines cross (step
    3); a thick bar's axis leaning a few pixels (its cap, its outline), or a mark half hidden by
    a hand, can put that point beside the true pivot, and from there the thin second hand seen
    whole before (usually the longest hand) is gone: the clock read without seconds, the minute
    one up past :30. Seen from the true pivot every hand runs out to its tip, so a look that
    shows fewer hands and none as long is not taken. A first guess far off (stubs, a tail taken
    for a hand: every ray short) is still left for a look that shows longer hands."""
    if new is None or not new.rays or len(old.rays) < 3 or len(new.rays) >= 3:
        return False
    return new.rays[0].tip < old.rays[0].tip - LOSE_MARGIN


LOSE_MARGIN = 2  # px: a look's longest ray this much shorter than before has lost a hand
DROPPED_NEEDLE = 0.5  # cost of reading a clock without seconds while a long needle shows
LONG_NEEDLE = 0.8  # ... a needle ray at least this fraction of the longest ray's length


def dropped_needle(
    tips: list[int], needles: list[bool], tails: list[bool], used: set[int]
) -> float:
    """The extra cost of the hypothesis "no second hand, one ray extra" (step 5) when the ray it
    leaves unused is a needle (thin, parallel sides) at least ``LONG_NEEDLE`` as long as the
    longest ray and no counterweight tail. A straight needle-thin stroke running out of the pivot
    nearly as far as the hands is a second hand; marks and numerals are not connected to the
    pivot, and a tail is short. Without this cost the hypothesis, which has no minute residual,
    won by a few hundredths when the minute hand's ray ran on into a mark in line with it (longer
    than the second hand, so the second hand lost its "longest" convention) — the clock read at
    :00 and the minute one up past :30."""
    longest = max(tips)
    for k, tip in enumerate(tips):
        if k not in used and needles[k] and not tails[k] and tip >= LONG_NEEDLE * longest:
            return DROPPED_NEEDLE
    return 0.0


EDGE_OFF = 2 * cr.RUN_DIFF  # a pixel this far off the line from the dial's to the hand's colour
EDGE_SHARE = 0.7  # ... and such pixels show on this share of the sampled circles
EDGE_AXIS = 1.0  # degrees: the wide hand left without the stripe lies along the ray's own axis


def edge_stripe(
    t: cr._Track,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    inner: float = 0.35,
    outer: float = 0.8,
) -> tuple[np.ndarray, float, float] | None:
    """A thin hand of a colour of its own lying along a wider hand, anywhere across it — down one
    edge, half on the hand and half on the dial — rather than down its middle (what
    ``clock_reader._stripe`` looks for): (its colour minus the dial colour, the wide hand's
    direction, the stripe's direction), as ``_stripe`` returns them; None when there is none.

    Across the ray (sampled pixel by pixel from ``inner`` to ``outer`` of its length), every
    pixel that differs from the dial is a blend of the dial and what is drawn there, so the
    hand's pixels and their anti-aliased edges all lie on the line from the dial's colour to the
    hand's (the median colour of the ray's strongest ink). Pixels clearly off that line (by ``EDGE_OFF``
    levels) on most circles (``EDGE_SHARE``), all of one colour and along one straight line, are
    another hand drawn there: a second hand. The ink left without them must lie along the ray's
    own fitted axis (within ``EDGE_AXIS``, checked from ``AXIS_FROM`` of the ray out, where the
    axis is fitted): where two dark colours (a navy needle centred on a
    brown hand) were told apart the wrong way round, the "hand" left was a sliver of one side."""
    r, c, _ = t.arrays()
    keep = (r >= inner * t.tip) & (r <= outer * t.tip)
    if keep.sum() < 8:
        return None
    r, c = r[keep], c[keep]
    a = np.radians(c * cr.BIN_DEG)
    ux, uy = np.sin(a), -np.cos(a)
    ox, oy = scene.origin[0] + scene.pivot[0], scene.origin[1] + scene.pivot[1]
    half = max(3, round(0.06 * t.tip))
    offs = np.arange(-half, half + 1, dtype=np.float64)
    xs = np.rint(ox + r[None, :] * ux[None, :] - offs[:, None] * uy[None, :]).astype(int)
    ys = np.rint(oy + r[None, :] * uy[None, :] + offs[:, None] * ux[None, :]).astype(int)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= rgb.shape[1] or ys.max() >= rgb.shape[0]:
        return None
    grid = rgb[ys, xs].astype(np.float64) - dial  # offset x radius x channel
    norm = np.linalg.norm(grid, axis=2)
    inked = norm > 2 * cr.RUN_DIFF
    if inked.sum() < 8:
        return None
    core = inked & (norm >= np.percentile(norm[inked], 75))  # the hand's solid middle, mostly
    hand = np.median(grid[core], axis=0)
    for _ in range(2):  # the hand's own colour, without the other colour's pixels
        n_hand = float(np.linalg.norm(hand))
        if n_hand <= 2 * cr.RUN_DIFF:
            return None
        along = (grid @ hand) / n_hand
        off = np.sqrt(np.maximum(norm**2 - along**2, 0.0))  # distance from the dial-hand line
        other = inked & (off > EDGE_OFF)
        if (inked & ~other).sum() < 8:
            return None
        hand = np.median(grid[inked & ~other], axis=0)
    seen = other.any(axis=0)
    if seen.mean() < EDGE_SHARE or other.sum() >= 0.5 * inked.sum():
        return None  # not along most of the ray, or not thinner than the hand
    colour = np.median(grid[other], axis=0)
    n_col = float(np.linalg.norm(colour))
    cos_col = (grid[other] @ colour) / (norm[other] * max(n_col, 1e-9))
    if n_col <= 2 * cr.RUN_DIFF or float(np.median(cos_col)) < 0.95:
        return None  # not one colour
    wts = np.where(other, norm, 0.0)
    cols = np.nonzero(seen & (inked & ~other).any(axis=0))[0]  # both hands seen on the circle
    if len(cols) < 8:
        return None
    stripe_mid = (wts[:, cols] * offs[:, None]).sum(axis=0) / wts[:, cols].sum(axis=0)
    span = np.where(inked & ~other, offs[:, None], np.nan)[:, cols]
    hand_mid = 0.5 * (np.nanmin(span, axis=0) + np.nanmax(span, axis=0))
    rr, uxs, uys = r[cols], ux[cols], uy[cols]

    def direction(mid: np.ndarray) -> tuple[float, float]:
        px = ox + rr * uxs - mid * uys
        py = oy + rr * uys + mid * uxs
        pts = np.column_stack([px - px.mean(), py - py.mean()])
        _, sv, vt = np.linalg.svd(pts, full_matrices=False)
        d = vt[0]
        if d @ np.array([uxs.mean(), uys.mean()]) < 0:
            d = -d
        return math.degrees(math.atan2(d[0], -d[1])) % 360.0, float(sv[1]) / math.sqrt(len(pts))

    stripe_dir, spread = direction(stripe_mid)
    if spread > 1.0:
        return None  # not one straight line
    hand_dir = direction(hand_mid)[0]
    off_axis = abs((hand_dir - cr._track_angle(t) + 180.0) % 360.0 - 180.0)
    if inner >= cr.AXIS_FROM and off_axis > EDGE_AXIS:  # (near the pivot too short to compare)
        return None  # the "hand" left is not the ray's wide hand: the colours were mistaken
    return colour, hand_dir, stripe_dir


def blend_of(colour: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``other`` (a colour minus the dial's) lies within ``EDGE_OFF`` levels of the line
    from the dial's colour to ``colour``'s: a blend of the two, not a colour of its own. (An
    orange line and a dark hand on a pale dial point nearly the same way from the dial, cosine
    0.95, yet orange lies ~80 levels off the dial-to-dark line.)"""
    n = float(np.linalg.norm(colour))
    if n <= 1e-9:
        return False
    along = float(other @ colour) / n
    return along > 0 and float(other @ other) - along * along < EDGE_OFF * EDGE_OFF


def own_axis(t: cr._Track, contrast: float, radius: float) -> float | None:
    """The direction of a minute hand whose ray runs on into a mark in line with its tip: the
    axis fitted over the hand's own part only (from ``AXIS_FROM`` of it out to where its width
    steps down), or None where the ray shows no such end. A hand's tip that touches a tick or a
    numeral stroke lying a degree or two off its axis continues the ray by the mark's ink, and
    the axis fitted out to the ray's tip leans towards the mark (a minute hand 1.4 degrees off
    on a face with its tip on an hour tick: the minute read one up). The thin end counts as a
    mark when it is no longer than a mark is deep (``MARK_DEPTH`` of the radius), the width
    steps down by at least ``STEP_RATIO`` at least 0.6 of the way out, and the hand is not one
    narrowing all along (a sword, leaf or tapered point has no end of its own to find). Used
    for the minute hand in the choice among three or more rays (step 5). Not with two rays (no
    second hand seen there): the thin end may then be the second hand itself, lying across the
    hand's own part too, and the own part's axis is no better (an SVG clock's red line crossing
    a grey bar drawn beside the pivot: read a minute short)."""
    if cr._tapered(t, contrast):
        return None
    ratio, rho = cr._step(t)
    if ratio <= cr.STEP_RATIO or rho < 0.6 * t.tip or t.tip - rho > cr.MARK_DEPTH * radius:
        return None
    return cr._axis_angle(t, cr.AXIS_FROM * rho, rho - 2)
