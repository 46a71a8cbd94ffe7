"""Numerals outside the dial's outline, used to correct hand angles where none stand inside
(part of the clock reader, :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 6;
session 16).

The reader corrects the hands' angles with a curve fitted to where the twelve hours' marks are
seen from the pivot (:func:`clock_reader._dial_marks`, :func:`clock_reader._angle_mapper`); it
looks for the marks inside the outline. Some clocks draw their numerals outside a plain circle
(a matplotlib polar axis labelled 1-12, as in Kopfgeldjaeger's polar clock): inside the outline
there is nothing but the hands, the mapper only subtracts a turn, and under a warp (angles moved
by up to 7 degrees, more than a minute) the minute is read one off on most faces.

Here, only where the reader found no marks inside, the normalised image is made again with room
around the outline (``ROOM`` of the radius, at ``SCALE`` of the size), and the ink of a ring just outside the outline
(``RING``: from ``RING[0]`` to ``RING[1]`` of the radius, measured from the outline's centre)
against that ring's own colour is taken as the marks, without long blobs (the outline, a frame)
and without blobs that reach the ring's edges (a background's pattern, the image's border). The
twelve hours' marks are placed by windows as the reader's are (:func:`_hour_points`), seen from
the pivot; they are used only where at least ``MIN_HOURS`` hours show one, all at one distance
from the outline's centre (a ring of labels: within a range of twice ``SPREAD`` of the radius), each within
``NEAR_DEG`` of its hour once the common turn is taken out, and only where the angle mapper
they give moves some angle by ``MIN_MOVE`` (1 degree) or more (a warp, a turned dial): on a
plain, unturned dial nothing changes. Pixels only.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

ROOM = 1.5  # the outer look's half-side, in radii
SCALE = 0.5  # the outer look's scale against the normalised image (labels need no finer)
RING = (1.03, 1.45)  # the labels' ring, in radii from the outline's centre
MIN_HOURS = 10  # hours that must show a label
SPREAD = 0.08  # the labels' distances from the centre agree within this fraction of the radius
NEAR_DEG = 12.0  # each label within this many degrees of its hour (after the common turn)
MIN_MOVE = 1.0  # the labels are used only where they move some hand angle this much (deg)


def _outer_image(
    rgb: np.ndarray, ellipse: tuple[tuple[float, float], tuple[float, float], float]
) -> tuple[np.ndarray, float]:
    """``rgb`` normalised as :func:`clock_reader._normalise` does, at ``SCALE`` of its size and
    with ``ROOM`` radii either side of the outline's centre; returns the image and the outline's
    centre in it."""
    (cx, cy), (a, b), angle = ellipse
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    r = SCALE * cr.NORM_RADIUS
    lin = rot @ np.diag([2 * r / a, 2 * r / b]) @ rot.T
    side = int(2 * r * ROOM)
    c = (side - 1) / 2.0
    offset = np.array([c, c]) - lin @ np.array([cx, cy])
    m = np.hstack([lin, offset[:, None]])
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    bg = tuple(float(v) for v in np.median(border, axis=0))
    out = cv2.warpAffine(
        rgb, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg
    )
    return out, c


@functools.lru_cache(maxsize=4)
def _ring(
    side: int, c: float, radius: float
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The labels' ring in the outer look (a 0/255 mask), its pixels, and its edge pixels."""
    ys, xs = np.mgrid[0:side, 0:side]
    d = np.hypot(xs - c, ys - c)
    ring = ((d >= RING[0] * radius) & (d <= RING[1] * radius)).astype(np.uint8) * 255
    edge = cv2.subtract(ring, cv2.erode(ring, np.ones((3, 3), np.uint8)))
    return ring, np.nonzero(ring), np.nonzero(edge)


def _hour_points(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Each hour's label (x, y from the pivot): the centroid of the ink within 11 degrees of the
    hour, re-centred on itself twice, then three times within ``clock_reader.MARK_WINDOW``
    degrees (as :func:`clock_reader._dial_marks`); NaN where an hour shows fewer than 5 pixels."""
    ang = np.degrees(np.arctan2(dx, -dy)) % 360.0
    order = np.argsort(ang)
    ang, dx, dy = ang[order], dx[order], dy[order]
    # cumulative sums: a window's centroid from two look-ups
    cx, cy = np.concatenate(([0.0], np.cumsum(dx))), np.concatenate(([0.0], np.cumsum(dy)))
    n = len(ang)
    pts = np.full((12, 2), np.nan)
    for k in range(12):
        guess = 30.0 * k
        for step in range(5):
            half = 11.0 if step < 2 else cr.MARK_WINDOW
            lo, hi = (guess - half) % 360.0, (guess + half) % 360.0
            i, j = int(np.searchsorted(ang, lo)), int(np.searchsorted(ang, hi, side="right"))
            if lo <= hi:
                count, sx, sy = j - i, cx[j] - cx[i], cy[j] - cy[i]
            else:
                count = n - i + j
                sx, sy = cx[n] - cx[i] + cx[j], cy[n] - cy[i] + cy[j]
            if count < 5:
                break
            mx, my = sx / count, sy / count
            guess = math.degrees(math.atan2(mx, -my))
        else:
            pts[k] = mx, my
    return pts


def outer_dial_marks(
    pre: tuple[np.ndarray, tuple[tuple[float, float], tuple[float, float], float]],
    scene: cr._Scene,
    radius: float,
    centre: float,
) -> np.ndarray | None:
    """The hours' angles (degrees, as :func:`clock_reader._mark_angles`) shown by labels outside
    the outline, seen from ``scene``'s pivot; None where they do not form a ring of twelve.
    ``pre``: the image and outline ellipse that :func:`clock_reader._normalise` was given;
    ``centre``: the outline's centre in the normalised image."""
    big, c = _outer_image(*pre)
    radius = SCALE * radius
    ring, ring_at, edge_at = _ring(big.shape[0], c, radius)
    colour = np.median(big[ring_at[0][::7], ring_at[1][::7]], axis=0)  # the ring's own colour
    ink = cv2.bitwise_and(
        ((cr._max_channel_diff(big, colour) > cr.INK_DIFF) * 255).astype(np.uint8), ring
    )
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n < 2:
        return None
    bad = np.zeros(n, bool)
    bad[labels[edge_at]] = True  # blobs that reach the ring's edges
    bad[1:] |= np.maximum(stats[1:, 2], stats[1:, 3]) > cr.MARK_SIZE * radius
    bad[0] = True
    py, px = np.nonzero(ink)
    keep = ~bad[labels[py, px]]
    if keep.sum() < 60:
        return None
    py, px = py[keep], px[keep]
    pivot_x = c + SCALE * (scene.pivot[0] + scene.origin[0] - centre)
    pivot_y = c + SCALE * (scene.pivot[1] + scene.origin[1] - centre)
    pts = _hour_points(px - pivot_x, py - pivot_y)
    seen = ~np.isnan(pts[:, 0])
    if seen.sum() < MIN_HOURS:
        return None
    dist = np.hypot(pts[seen, 0] + pivot_x - c, pts[seen, 1] + pivot_y - c)
    if dist.max() - dist.min() > 2 * SPREAD * radius:
        return None
    angles = np.degrees(np.arctan2(pts[:, 0], -pts[:, 1])) % 360.0
    dev = (angles[seen] - 30.0 * np.nonzero(seen)[0] + 180.0) % 360.0 - 180.0
    turn = math.degrees(math.atan2(np.sin(np.radians(dev)).mean(), np.cos(np.radians(dev)).mean()))
    if np.abs((dev - turn + 180.0) % 360.0 - 180.0).max() > NEAR_DEG:
        return None
    # labels that move no angle by MIN_MOVE leave the reading as it was (a text's centroid
    # stands a few tenths of a degree off its hour)
    to_dial = cr._angle_mapper(angles, 0.0)
    if max(abs((to_dial(a) - a + 180.0) % 360.0 - 180.0) for a in range(0, 360, 5)) < MIN_MOVE:
        return None
    return angles
