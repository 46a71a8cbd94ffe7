"""A dial without an outline: the widest blob is the hands, not the dial (issue 19, s15-19v).

A dial of the background's own colour without a rim shows only its marks (numerals, ticks) and
its hands. Where the hands' blob, long hands reaching far out, spans most of what differs from the
background, ``_dial_ellipse`` took that blob for the dial: its ellipse, fitted to a fan of bars,
is either rejected as too flat (no dial found) or accepted as a small, turned dial, from which
no hand is found. Either way the reader returned no reading. A dial fills the ellipse its outline
makes (a disc, or a rim ring whose outer outline encloses it); a blob that does not is no dial,
and the convex hull of everything that differs from the background (the marks' ring and the
hands) stands for the dial, as it already does where the marks' ring is wider than any blob.
"""

from __future__ import annotations

import cv2
import numpy as np


def not_a_dial(contours: list[np.ndarray], k: int) -> bool:
    """Whether the widest foreground blob, ``contours[k]`` (outer outlines, OpenCV's points), is
    no dial: other blobs show beside it and it does not fill the ellipse fitted to it, as the
    hands' blob (a fan of bars) does not."""
    from chronoeval.suites.lost_in_time.clock_reader import _fills_ellipse

    pts = contours[k].reshape(-1, 2)
    if len(contours) < 2 or len(pts) < 5:
        return False
    _, (a, b), _ = cv2.fitEllipse(pts.astype(np.float32))
    return not _fills_ellipse(pts, a, b)
