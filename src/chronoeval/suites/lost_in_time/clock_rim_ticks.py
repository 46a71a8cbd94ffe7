"""Ticks joined to the rim, kept as marks (part of the clock reader,
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 6; session 12).

The reader corrects the hands' angles with a curve fitted to where the twelve hours' marks are
seen from the pivot (:func:`clock_reader._dial_marks`, :func:`clock_reader._angle_mapper`). Its
mark ink leaves out every blob longer than ``MARK_SIZE`` of the radius (a rim, a ring), and a
tick that touches the rim is one blob with it and goes too. Where some ticks touch the rim and
others do not (under a perspective or a stretch the rim comes closer to the ticks on one side; a
bold hour tick reaches further out than the minute ticks), an hour's window holds the ticks left
free on one side of the hour only, and its mark is read up to a minute tick or two (6-14
degrees) off; the curve fitted to such marks turns the hands by several degrees, and the minute
is read one off with the pivot right.

Here, where the reader's marks do not lie on one smooth curve (a mark ``SUSPECT_DEG`` or more
off the curve fitted to the others), the pixels of a ring that stand inward of
the ring's own inner edge (the ticks' stubs, :func:`clock_outline_marks._marks_and_stubs`) are
added to the marks (where there are any) and the hours' marks are placed again by the reader's
own windows; the new marks replace the reader's where they fit the curve more closely. Pixels
only.
"""

from __future__ import annotations

import cv2
import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_outline_marks import _marks_and_stubs

# a mark this far (deg) off the curve fitted to the other marks makes the marks suspect
SUSPECT_DEG = 2.0


def _residuals(angles: np.ndarray) -> np.ndarray:
    """Each mark's distance (deg) from the curve (constant, first and second harmonics, as
    :func:`clock_reader._angle_mapper` fits) fitted to the other marks (leave-one-out)."""
    idx = np.nonzero(~np.isnan(angles))[0]
    dev = (angles[idx] - 30.0 * idx + 180.0) % 360.0 - 180.0
    t = np.radians(angles[idx])
    basis = np.column_stack([np.ones_like(t), np.cos(t), np.sin(t), np.cos(2 * t), np.sin(2 * t)])
    coef, *_ = np.linalg.lstsq(basis, dev, rcond=None)
    hat = np.einsum("ij,jk,ik->i", basis, np.linalg.pinv(basis.T @ basis), basis)
    return np.abs(dev - basis @ coef) / np.maximum(1.0 - hat, 1e-3)


def rim_tick_marks(
    marks: np.ndarray | None,
    full_ink: np.ndarray,
    scene: cr._Scene,
    radius: float,
    centre: float,
) -> np.ndarray | None:
    """The hours' mark angles to correct the hands by: the reader's ``marks``
    (:func:`clock_reader._dial_marks`), or where those are suspect the marks with the ticks
    joined to the rim kept, if they fit the curve more closely (``centre``: the normalised
    image's centre, the outline's)."""
    if marks is None or _residuals(marks).max() < SUSPECT_DEG:
        return marks  # no marks to judge the stubs against, or marks on one curve
    ink = full_ink.copy()
    x0, y0 = scene.origin
    h, w = scene.hands.shape
    ink[y0 : y0 + h, x0 : x0 + w][scene.hands > 0] = 0
    stubbed = _marks_and_stubs(ink, centre, radius)
    if not cv2.subtract(stubbed, cr._mark_ink(ink, np.zeros_like(ink), radius)).any():
        return marks  # no tick joined to a ring
    px, py = scene.pivot[0] + x0, scene.pivot[1] + y0
    seen = cr._Scene(scene.rays, ink, stubbed, (px, py), (0, 0))
    new = cr._dial_marks(stubbed, seen, radius)
    if new is None:
        return marks
    r_old, r_new = _residuals(marks), _residuals(new)
    return new if float(np.sqrt(np.mean(r_new**2))) < float(np.sqrt(np.mean(r_old**2))) else marks
