"""A dial without an outline: the widest blob is the hands, not the dial (issue 19, s15-19v).

A dial of the background's own colour without a rim shows only its marks (numerals, ticks) and
its hands. Where the hands' blob, long hands reaching far out, spans most of what differs from the
background, ``_dial_ellipse`` took that blob for the dial: its ellipse, fitted to a fan of bars,
is either rejected as too flat (no dial found) or accepted as a small, turned dial, from which
no hand is found. Either way the reader returned no reading. A dial fills the ellipse its outline
makes (a disc, or a rim ring whose outer outline encloses it), or at least lies on it (a rim
broken by a gap: its outline is a thin band along the ellipse), and that ellipse is round
enough for a dial; a blob that does neither (or lies on a flat ellipse: two hands nearly in
line) is no dial, and the convex hull of everything that differs from the background (the marks' ring and
the hands) stands for the dial, as it already does where the marks' ring is wider than any blob.

The broken rim's guard (``OUTLINE_SHARE``) came from the study's distorted faces (a lobed rim with
a gap, white on white): without it the hull was taken there and 155 of 600 read right fell to 122;
with it the rule fires on none of them. On generator faces the hands' blobs measured 0.00-0.22 of
their points on their ellipse, the study's broken rims 0.69-0.93.
"""

from __future__ import annotations

import cv2
import numpy as np

ON_OUTLINE = 0.08  # an outline's points lie within this fraction of the radius of its ellipse
OUTLINE_SHARE = 0.5  # ... half of them at least (a rim broken by a gap is still an outline)
FLAT = 0.4  # an ellipse flatter than this (minor / major axis) is no dial's


def not_a_dial(contours: list[np.ndarray], k: int) -> bool:
    """Whether the widest foreground blob, ``contours[k]`` (outer outlines, OpenCV's points), is
    no dial: other blobs show beside it, it does not fill the ellipse fitted to it and its points
    do not lie on that ellipse (or it is too flat for a dial), as the hands' blob (a fan of bars
    out of the pivot) does not. A rim broken by a gap fills nothing either, but its points lie on
    its ellipse."""
    from chronoeval.suites.lost_in_time.clock_reader import _fills_ellipse

    pts = contours[k].reshape(-1, 2)
    if len(contours) < 2 or len(pts) < 5:
        return False
    (cx, cy), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
    if _fills_ellipse(pts, a, b) or min(a, b) <= 0:
        return False
    if min(a, b) < FLAT * max(a, b):  # too flat for a dial (``_dial_ellipse``'s own limit)
        return True
    t = np.radians(angle)
    dx, dy = pts[:, 0] - cx, pts[:, 1] - cy
    u = (dx * np.cos(t) + dy * np.sin(t)) / (a / 2)
    v = (-dx * np.sin(t) + dy * np.cos(t)) / (b / 2)
    on = np.abs(np.hypot(u, v) - 1.0) < ON_OUTLINE
    return float(on.mean()) < OUTLINE_SHARE
