"""Pivots under a perspective view (part of the clock reader,
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 3; session 9).

When fewer than three hands show from the first pivot guess (the thickest ink near the
outline's centre), the reader looks again from the outline's centre, which it takes when more
rays show from there: a thick hand can pull the first guess a few pixels along its own axis, and
from there a thin hand's ray misses its ink. Under a perspective view the outline's centre is not
the dial centre's image: on a tilted plain dial (no marks to place the centre) it lay 8-20 px (of
a 200 px radius) from the cap, where the first guess had been right. Seen from there the long
hands are no longer straight rays out of the pivot; they were lost, and the extra "rays" were a
tail and stubs (whole hours read six hours off: 11:00 read 5:55).

The true pivot shows every hand out to its tip, and every hand's axis passes through it. The look
from the outline's centre is now taken only where it does not show clearly less hand than the
first look (:func:`clock_confirm.shows_less_hand`, the three longest rays together ``LESS_HAND``
of the radius shorter, the test the reader already applies to a move to the marks' crossing) and
either shows clearly more hand (a thin hand the first guess cut short: the look's purpose) or its
rays' fitted axes pass its pivot no worse than the first look's pass theirs (:func:`axes_miss`;
on a plain tilted dial the outline's centre can lie on the minute hand, which then shows as two
rays, more "hand" than from the cap). Where three hands' axes miss one point (hands drawn beside
their pivot) the outline's centre is likewise taken only where it shows no clearly less hand
(a test written inline in :func:`clock_reader.read_clock`).

The marks' crossing seen from the outline's centre. The reader places the pivot where the lines
joining opposite hours' marks cross, with the marks taken around its pivot guess (the ink within
``MARK_ZONE`` of the radius of it, inside the look's crop). When that guess sits on a wide hand
11-45 px from the cap (a wide bar hand is thicker than the cap; a tilt moves the cap up to ~25 px
from the outline's centre; the pivots the reader before session 9 read from on six generator
faces: 3:541 10.8, 3:200 13.7, 0:2636 19.3, 4:126 19.7, 0:1183 32.0, 4:1909 45.0 px), the marks
on the far side lie beyond that zone, only one side's hours show, no four opposite pairs form
and the pivot is not corrected (ticks-only dials read with the hands seen from a point on the
hour hand: 7:41 read 7:42, 4:56 read 4:57). Where that happens the marks are taken again around
the outline's centre, over the whole normalised dial (:func:`outline_mark_centre`), each hour's
centroid in a window narrowed to ``NARROW`` degrees once centred on its mark (on those faces the
reader's 11-degree window took the neighbouring minute ticks, which a tilt spaces unevenly, and
put the crossing 3-7 px off the cap). The 4-degree window is checked on generator faces only: on
the sixty-ticks dial drawn in ``test_clock_reader_perspective_s9`` 11 and 4 degrees read alike.
The crossing is moved to as the reader moves to its own (where the hands do not confirm the
guess and the look from there does not show clearly less hand), however far the guess was, and
only where the hands' axes pass the crossing no worse than they pass the guess
(:func:`outline_crossing_look`).
Pixels only.
"""

from __future__ import annotations

import math

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_confirm import hands_confirm_pivot, shows_less_hand

NARROW = 4.0  # degrees either side of an hour's mark, once centred on it
# :func:`clock_reader._mark_points`' windows: two steps at the reader's 11 degrees, then NARROW
HOUR_WINDOWS = (11.0, 11.0, NARROW, NARROW, NARROW)
FAR = 0.2  # the crossing seen around the outline's centre lies this close to it (of the radius)


def axes_miss(scene: cr._Scene) -> float:
    """How far (px) the fitted axes of ``scene``'s three longest rays pass from the pivot they
    were seen from, the worst of them; inf where no ray has enough points. The axes are
    :func:`clock_reader._axes_meet`'s (:func:`clock_reader._ray_lines`: each ray's straight
    middle, and of two rays only the outer hand's part)."""
    lines = cr._ray_lines(scene, 3)
    if not lines:
        return float("inf")
    return max(cr._line_distances(lines, np.asarray(scene.pivot, dtype=float)))


def centre_look_better(scene: cr._Scene, alt: cr._Scene | None, radius: float) -> bool:
    """Whether the look ``alt`` from the outline's centre replaces ``scene`` (the look from the
    first pivot guess, fewer than three rays): it shows more rays and not clearly less hand."""
    if alt is None or len(alt.rays) <= len(scene.rays) or shows_less_hand(scene, alt, radius):
        return False
    # clearly more hand from there (a thin hand the first guess cut short), or hands whose axes
    # pass the centre no worse than the first look's pass the first guess
    return shows_less_hand(alt, scene, radius) or axes_miss(alt) <= axes_miss(scene)


def outline_mark_centre(
    full_ink: np.ndarray, scene: cr._Scene, radius: float, centre: float
) -> tuple[float, float] | None:
    """The marks' crossing (:func:`clock_reader._mark_centre`) with the marks taken around the
    outline's centre (``centre``, ``centre`` in the normalised image; the ink from 0.45 of MARK_ZONE
    to MARK_ZONE of the ``radius``, :func:`clock_reader._mark_offsets`) from ``full_ink`` (the
    normalised image's ink) less the hands of ``scene``, each hour's centroid re-centred in
    windows of 11, 11, then NARROW degrees (``HOUR_WINDOWS``); in ``scene``'s crop coordinates, as
    the reader's own crossing is. None where it is not found or lies FAR of the radius or further from the
    outline's centre (a tilt moves the dial centre's image up to ~0.15 of the radius from it)."""
    ink = full_ink.copy()
    x0, y0 = scene.origin
    h, w = scene.hands.shape
    ink[y0 : y0 + h, x0 : x0 + w][scene.hands > 0] = 0
    marks = cr._mark_ink(ink, np.zeros_like(ink), radius)
    offsets = cr._mark_offsets(marks, (centre, centre), cr.MARK_ZONE * radius)
    points = cr._mark_points(offsets, HOUR_WINDOWS)
    mc = cr._mark_centre(points, (centre, centre), cr.MARK_ZONE * radius)
    if mc is None or math.hypot(mc[0] - centre, mc[1] - centre) >= FAR * radius:
        return None
    return mc[0] - x0, mc[1] - y0


def outline_crossing_look(
    rgb: np.ndarray, full_ink: np.ndarray, scene: cr._Scene, radius: float, centre: float
) -> cr._Scene | None:
    """The look from the marks' crossing seen around the outline's centre
    (:func:`outline_mark_centre`), where it replaces ``scene``: the crossing lies more than
    ``MARK_PIVOT_MIN`` px from ``scene``'s pivot, the hands do not confirm that pivot
    (:func:`clock_confirm.hands_confirm_pivot`), and the look from the crossing does not show
    clearly less hand and its rays' axes pass its pivot no worse than ``scene``'s pass theirs
    (:func:`axes_miss`). The axes condition was needed with 11-degree hour windows, whose
    crossings lay 3-7 px beside the cap and took a right first guess away; with ``HOUR_WINDOWS``
    the crossings looked at lay within 0.2 px, and it is kept as a guard. None otherwise."""
    if hands_confirm_pivot(scene, radius):  # the cheap test first
        return None
    mc = outline_mark_centre(full_ink, scene, radius, centre)
    if (
        mc is None
        or math.hypot(mc[0] - scene.pivot[0], mc[1] - scene.pivot[1]) <= cr.MARK_PIVOT_MIN
    ):
        return None
    alt = cr._look(rgb, mc[0] + scene.origin[0], mc[1] + scene.origin[1], radius)
    if alt is None or shows_less_hand(scene, alt, radius) or axes_miss(alt) > axes_miss(scene):
        return None
    return alt
