"""Marks that correct hand angles on a dial whose outline is no ellipse (part of the clock
reader, :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 6; session 10).

The reader corrects the hands' angles with a smooth curve fitted to where the twelve hours' marks
are seen (:func:`clock_reader._dial_marks`, :func:`clock_reader._angle_mapper`). It looks for the
marks in a ring around the pivot, out to ``MARK_OUTER`` of the radius of the ellipse fitted to the
outline, inside the look's crop (``HAND_ZONE`` of that radius either side of the pivot). On a
round or elliptic dial the marks stand inside that ring. On a dial whose outline is no ellipse
(a bent, three-lobed face: the outline 3-8% further out or in than the fitted ellipse, by
direction) the marks stand at the same fraction of the dial's *own* edge in each direction: in
the lobes they lie beyond the ring and the crop, so an hour shows only the inner end of its mark
or none, and the hour's window wanders onto the minute ticks beside it (hours read 6-19 degrees
off on generator faces with ticks or dots, and the hands' angles 3-11 degrees off with them).

Here, where the convex hull of the dial's foreground (what differs from the border colour,
the hands left out) is lobed (:func:`_lobed`), the marks are taken from the whole normalised image (the
hands' ink removed), the reader's ring grown out to ``MARK_OUTER`` of the hull's own distance
from the outline's centre in each direction, and the hours' marks are placed by the reader's own
windows. On such faces a second loss shows: a tick that touches the rim is one blob with it,
longer than a mark, and was dropped with it (on bent generator faces with bold hour ticks, most
hours); the pixels of a ring that stand inward of the ring's own inner edge are kept as marks
(:func:`_marks_and_stubs`). Up to two marks lying more than ``OUT_DEG`` off the curve fitted to
the other marks (a mark half under a hand) are then left out (:func:`_without_outliers`).
Elsewhere (round and elliptic outlines, perspective views: a conic stays a conic) nothing
changes. Pixels only.
"""

from __future__ import annotations

import cv2
import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

LOBES = 0.02  # a lobed outline: a harmonic 3-8 of the hull's radius this large (of the radius)
FAR_OFF = 0.15  # ... and the hull nowhere further off the circle (the foreground is no dial)
N_DIRS = 720  # directions in which the hull's distance from the outline's centre is measured
RING_SPAN = 12.0  # degrees over which a ring's inner edge is the median of its innermost ink
RING_SLACK = 2.0  # px inward of that edge a tick stuck to the ring begins
OUT_DEG = 2.0  # a mark this far (deg) from the curve of the others is left out ...
MAX_OUT = 2  # ... at most this many


def _hull_radii(
    rgb: np.ndarray, scene: cr._Scene, centre: float, radius: float
) -> np.ndarray | None:
    """Distance from the outline's centre (``centre``, ``centre``) to the convex hull of the
    normalised image's foreground (what differs from the border colour by
    ``clock_reader.BACKGROUND_DIFF``) less ``scene``'s hands (a needle can reach beyond the
    numerals of a dial drawn in the background's own colour), in ``N_DIRS`` clock directions;
    None without foreground."""
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    bg = np.median(border, axis=0)
    _, fg = cv2.threshold(cr._max_channel_diff(rgb, bg), cr.BACKGROUND_DIFF, 255, cv2.THRESH_BINARY)
    x0, y0 = scene.origin
    h, w = scene.hands.shape
    fg[y0 : y0 + h, x0 : x0 + w][scene.hands > 0] = 0
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    pts = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(np.int32)
    hull = cv2.convexHull(pts)
    mask = np.zeros(fg.shape, np.uint8)
    cv2.fillConvexPoly(mask, hull, 255)
    n_r = int((1.0 + FAR_OFF) * radius) + 2  # further out a hull is no dial's (_lobed)
    polar = cv2.warpPolar(mask, (n_r, N_DIRS), (centre, centre), n_r, flags=cr.POLAR_NEAREST)
    # rows start at 3 o'clock; turn them so that row k is the clock direction k * 360 / N_DIRS
    polar = np.roll(polar, N_DIRS // 4, axis=0) > 0
    # how far each direction stays inside from the centre out: its first pixel outside
    first_out = np.where(polar.all(axis=1), n_r, np.argmin(polar, axis=1))
    return first_out.astype(np.float64)


def _marks_and_stubs(ink: np.ndarray, centre: float, radius: float) -> np.ndarray:
    """Ticks that touch the rim (or a ring): the reader drops ink blobs longer than
    ``MARK_SIZE`` of the radius as rims and rings, and a tick joined to the rim goes with it (on
    bent generator faces most hour ticks of some dials). Of each such blob, the pixels that stand
    inward of the ring's own inner edge (per direction from the outline's centre, (``centre``,
    ``centre``), the median over ``RING_SPAN`` degrees of the blob's innermost pixel: a tick is
    narrower than that) by more than ``RING_SLACK`` px are kept as marks. Returns the mark ink
    (:func:`clock_reader._mark_ink` of ``ink``, the hands already out of it) with those pixels."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    long = np.nonzero(np.maximum(stats[1:, 2], stats[1:, 3]) > cr.MARK_SIZE * radius)[0] + 1
    out = ink.copy()  # as clock_reader._mark_ink: the long blobs dropped
    if len(long):
        out[np.isin(labels, long)] = 0
    span = int(round(RING_SPAN * N_DIRS / 360.0))
    for label in long:
        x, y, w, h = stats[label, :4]
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == label)
        ys, xs = ys + y, xs + x
        dx, dy = xs - centre, ys - centre
        dist = np.hypot(dx, dy)
        k = np.floor((np.degrees(np.arctan2(dx, -dy)) % 360.0) * N_DIRS / 360.0).astype(int)
        k %= N_DIRS
        inner = np.full(N_DIRS, np.inf)
        np.minimum.at(inner, k, dist)
        if np.isinf(inner).mean() > 0.25:  # not a ring round the dial (a hand's blob, an arc)
            continue
        padded = np.concatenate([inner[-span:], inner, inner[:span]])
        windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * span + 1)
        edge = np.median(windows, axis=1)
        stub = dist < edge[k] - RING_SLACK
        out[ys[stub], xs[stub]] = 255
    return out


def _lobed(radii: np.ndarray, radius: float) -> bool:
    """Whether the hull's radius by direction (:func:`_hull_radii`) describes a lobed outline: an
    amplitude of ``LOBES`` of the radius or more in one of its harmonics 3 to 8 (an ellipse left
    after the normalisation shows in harmonic 2; the hull of twelve numerals or ticks on a dial
    of the background's own colour, a polygon, in harmonic 12), and nowhere ``FAR_OFF`` or more
    off the circle. Generator faces (dev seeds 12, 13, 600 faces): bent 0.027-0.082, others
    under 0.03 (99% under 0.017)."""
    amplitude = np.abs(np.fft.rfft(radii / radius))[3:9] * 2.0 / len(radii)
    return bool(amplitude.max() >= LOBES and np.abs(radii / radius - 1.0).max() <= FAR_OFF)


def outline_dial_marks(
    rgb: np.ndarray, full_ink: np.ndarray, scene: cr._Scene, radius: float, centre: float
) -> np.ndarray | None:
    """The hours' mark angles (as :func:`clock_reader._dial_marks` gives them, seen from
    ``scene``'s pivot) with the marks' ring following a non-elliptic outline; None where the
    outline is not lobed (round, elliptic: :func:`_lobed`) or the marks give no angles (the caller
    then keeps the reader's own)."""
    radii = _hull_radii(rgb, scene, centre, radius)
    if radii is None or not _lobed(radii, radius):
        return None
    ink = full_ink.copy()
    x0, y0 = scene.origin
    h, w = scene.hands.shape
    ink[y0 : y0 + h, x0 : x0 + w][scene.hands > 0] = 0
    marks = _marks_and_stubs(ink, centre, radius)
    ys, xs = np.nonzero(marks)
    dx, dy = xs - centre, ys - centre
    k = np.floor((np.degrees(np.arctan2(dx, -dy)) % 360.0) * N_DIRS / 360.0).astype(int) % N_DIRS
    px, py = scene.pivot[0] + x0, scene.pivot[1] + y0
    # the reader's own ring (out to MARK_OUTER of the radius from the pivot) is kept: the ring
    # only grows where the outline lies further out
    outside = (np.hypot(dx, dy) > cr.MARK_OUTER * radii[k]) & (
        np.hypot(xs - px, ys - py) > cr.MARK_OUTER * radius
    )
    marks[ys[outside], xs[outside]] = 0
    ys, xs = np.nonzero(marks)
    if len(xs) == 0:
        return None
    far = float(np.hypot(xs - px, ys - py).max())
    # _dial_marks' ring ends at MARK_OUTER of the radius it is given: give it one that takes
    # every mark kept here (its inner end, 0.45 of MARK_ZONE of that radius, moves out by as
    # much as the outline does, 3-8%: numerals and ticks stand far beyond it)
    wide = max(radius, (far + 1.0) / cr.MARK_OUTER)
    seen = cr._Scene(scene.rays, ink, marks, (px, py), (0, 0))
    return _without_outliers(cr._dial_marks(marks, seen, wide))


def _without_outliers(angles: np.ndarray | None) -> np.ndarray | None:
    """The hours' mark angles less at most ``MAX_OUT`` marks that lie more than ``OUT_DEG`` from
    the curve (constant, first and second harmonics of the angle, as
    :func:`clock_reader._angle_mapper` fits) fitted to the other marks: a mark half under a hand
    has its centroid a few degrees off, and in a fit of all twelve its own residual shrinks to
    about 0.6 of that, under the mapper's 2-degree drop (two whole hours with both hands over
    the 12 read wrong on dev faces)."""
    if angles is None:
        return None
    idx = np.nonzero(~np.isnan(angles))[0]
    if len(idx) < 10:
        return angles
    dev = (angles[idx] - 30.0 * idx + 180.0) % 360.0 - 180.0
    t = np.radians(angles[idx])
    basis = np.column_stack([np.ones_like(t), np.cos(t), np.sin(t), np.cos(2 * t), np.sin(2 * t)])
    miss = np.zeros(len(idx))
    for j in range(len(idx)):
        others = np.arange(len(idx)) != j
        coef, *_ = np.linalg.lstsq(basis[others], dev[others], rcond=None)
        miss[j] = abs(dev[j] - basis[j] @ coef)
    out = angles.copy()
    for j in np.argsort(-miss)[:MAX_OUT]:
        if miss[j] > OUT_DEG:
            out[idx[j]] = np.nan
    return out
