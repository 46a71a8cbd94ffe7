"""The pivot where the hands' own ink lines meet (part of the clock reader,
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 3; session 11, s11-19k).

Under a perspective view the pivot is the image of the dial's centre, not the outline's centre,
and on a dial with no marks (plain and minimal designs) no marks' crossing places it. The reader
then keeps its first guess (the thickest ink near the outline's centre, pulled towards it), which
under a tilt can lie on a wide hour bar 5-31 px from the cap. Seen from there the bar is a full
ray (the guess lies on its axis), but the other hands leave every ray out of the guess after a
stretch: they are cut short or lost, and the reader's own meeting of the rays' axes
(:func:`clock_reader._axes_meet`) finds them too close to parallel (the bar and its own
overhang, or two hands 20-30 degrees apart) to place the pivot (11:00 read 5:55, 12:04 read 7:00
on generator faces).

The hands' ink itself does not depend on the guess. Beyond a hole of ``HOLE`` of the radius
around the guess, the ink connected to the pivot (the look's ``hands``) falls apart into one
piece per hand (hands lying on one another make one straight piece; an overhang or a tail is a
piece on its hand's line). A line is fitted to each piece, twice, the second time without the
pixels far across it (``TRIM``: a mark or numeral a tip touches, a tail joined at a small angle);
a piece is left out where that drops more than ``MAX_OFF`` of it, where the rest is shorter than
``MIN_EXTENT`` of the radius, or where it spreads across its line more than a bar of its mean
width (``STRAIGHT`` plus ``SLACK`` px: two hands joined at a small angle spread far more). Where
two or more lines meet at one point (each within ``MEET_PX`` of it, the worst dropped while more
than two remain; not nearly parallel, ``MIN_EIGEN``) that lies more than ``cr.MARK_PIVOT_MIN``
px and less than ``HOLE`` of the radius from the guess, the hands are looked at again from there,
and that look is kept where it shows no clearly less hand (:func:`clock_confirm.shows_less_hand`)
and either clearly more hand or rays whose axes pass its pivot no worse than the first look's
pass theirs (:func:`clock_perspective.axes_miss`; a guess on the hour bar's axis sees the bar and
its overhang pass it within a pixel, and the other hands cut short). The reader asks only where
no marks' crossing placed the pivot (on faces with marks, two lines moved right pivots 2.5-7.7
px on dev faces) and the hands do not already confirm it
(:func:`clock_confirm.hands_confirm_pivot`). Pixels only.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_confirm import hands_confirm_pivot, shows_less_hand
from chronoeval.suites.lost_in_time.clock_perspective import axes_miss

HOLE = 0.2  # the ink within this fraction of the radius of the pivot guess is left out
MIN_EXTENT = 0.15  # a piece at least this long (fraction of the radius) along its line
MIN_AREA = 15  # ... and of at least this many pixels
STRAIGHT = 0.4  # rms spread across the line at most this fraction of the piece's mean width ...
SLACK = 0.6  # ... plus this many px (a bar of width w spreads w / sqrt(12) = 0.29 w)
TRIM = 2.0  # a fit keeps the pixels within this many times their median distance (+ SLACK)
MAX_OFF = 0.2  # ... and is no hand's where it leaves out more than this fraction of the piece
MEET_PX = 1.5  # every line passes the meeting point this close (px)
MIN_EIGEN = 0.07  # the lines' normal matrix's smaller eigenvalue: at least ~22 degrees apart


def ink_lines(scene: cr._Scene, radius: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Lines (point, unit direction; crop coordinates) fitted to the straight, long pieces of
    ``scene``'s hand ink beyond ``HOLE`` of the radius from its pivot."""
    px, py = scene.pivot
    h, w = scene.hands.shape
    hole = HOLE * radius
    keep = (scene.hands > 0).view(np.uint8)
    x0, x1 = max(0, math.floor(px - hole)), min(w, math.ceil(px + hole) + 1)
    y0, y1 = max(0, math.floor(py - hole)), min(h, math.ceil(py + hole) + 1)
    ys, xs = np.ogrid[y0:y1, x0:x1]
    keep[y0:y1, x0:x1][(xs - px) ** 2 + (ys - py) ** 2 <= hole**2] = 0
    bx, by, bw, bh = cv2.boundingRect(keep)  # the pieces' box: labelling it is cheaper
    if bw == 0 or bh == 0:  # no ink beyond the hole (OpenCV 5.0 crashes labelling a 0 x 0 image)
        return []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        keep[by : by + bh, bx : bx + bw], connectivity=8
    )
    lines = []
    for k in range(1, n):
        area = int(stats[k, cv2.CC_STAT_AREA])
        if area < MIN_AREA or max(stats[k, 2], stats[k, 3]) < MIN_EXTENT * radius * 0.7:
            continue
        x0, y0 = stats[k, 0], stats[k, 1]
        sub = labels[y0 : y0 + stats[k, 3], x0 : x0 + stats[k, 2]] == k
        yy, xx = np.nonzero(sub)
        x0, y0 = x0 + bx, y0 + by
        line = _straight_line(np.column_stack([xx + x0, yy + y0]).astype(np.float64), radius)
        if line is not None:
            lines.append(line)
    return lines


def _straight_line(pts: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The axis (point, unit direction) of a piece of hand ink ``pts`` (x, y rows), fitted
    twice, the second time without the pixels further across it than ``TRIM`` times their median
    distance plus ``SLACK`` px (a mark or a numeral a hand's tip touches, a tail joined at a small
    angle); None where those are more than ``MAX_OFF`` of the piece, or the rest is shorter than
    ``MIN_EXTENT`` of the radius or spreads more across its line than a bar of its mean width."""
    keep = np.ones(len(pts), bool)
    for _ in range(2):
        mean, along_dir, across = _axis(pts[keep])
        off = np.abs((pts - mean) @ across)
        keep = off <= TRIM * float(np.median(off[keep])) + SLACK
        if keep.sum() < (1.0 - MAX_OFF) * len(pts):
            return None
    mean, along_dir, across = _axis(pts[keep])
    along = (pts[keep] - mean) @ along_dir
    extent = float(along.max() - along.min() + 1.0)
    spread = float(np.sqrt(np.mean(((pts[keep] - mean) @ across) ** 2)))
    if extent < MIN_EXTENT * radius or spread > STRAIGHT * keep.sum() / extent + SLACK:
        return None
    return mean, along_dir


def _axis(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points' mean, and the unit directions along and across their principal axis (the
    eigenvectors of their 2 x 2 scatter matrix)."""
    mean = pts.mean(axis=0)
    d = pts - mean
    _, vecs = np.linalg.eigh(d.T @ d)  # eigenvalues ascending: across, then along
    return mean, vecs[:, 1], vecs[:, 0]


def ink_meet(scene: cr._Scene, radius: float) -> tuple[float, float] | None:
    """Where :func:`ink_lines` meet (crop coordinates), or None (fewer than two lines, lines
    nearly parallel, or no two of them within ``MEET_PX`` of one point)."""
    lines = ink_lines(scene, radius)
    while len(lines) >= 2:
        m, v = cr._line_normal_equations(lines)
        if np.linalg.eigvalsh(m)[0] < MIN_EIGEN:
            return None
        sol = np.linalg.solve(m, v)
        miss = cr._line_distances(lines, sol)
        if max(miss) <= MEET_PX:
            return float(sol[0]), float(sol[1])
        if len(lines) == 2:
            return None
        del lines[int(np.argmax(miss))]
    return None


def ink_axes_look(rgb: np.ndarray, scene: cr._Scene, radius: float) -> cr._Scene | None:
    """The look from where the hands' ink lines meet (:func:`ink_meet`), where it replaces
    ``scene`` (see the module docstring); None otherwise. The reader asks only where no marks'
    crossing placed the pivot."""
    if hands_confirm_pivot(scene, radius):
        return None
    meet = ink_meet(scene, radius)
    if meet is None:
        return None
    d = math.hypot(meet[0] - scene.pivot[0], meet[1] - scene.pivot[1])
    if not cr.MARK_PIVOT_MIN < d < HOLE * radius:
        return None
    alt = cr._look(rgb, meet[0] + scene.origin[0], meet[1] + scene.origin[1], radius)
    if alt is None or shows_less_hand(scene, alt, radius):
        return None
    # clearly more hand from there, or axes that pass it no worse than the first look's
    if shows_less_hand(alt, scene, radius) or axes_miss(alt) <= axes_miss(scene):
        return alt
    return None
