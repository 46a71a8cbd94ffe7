"""A pivot the hands themselves confirm (part of the clock reader,
:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 3; session 7).

Under a perspective view the dial's centre is not the outline's centre, so the reader also
places the pivot where the lines joining opposite hours' marks cross, and moves there when that
point lies more than 3 px from its guess. Those lines join *ink centroids*, and a numeral's ink
centroid is not where the numeral stands: ``VIII`` and ``VII`` carry their ink left of their
middle, ``IX`` right of it, and a font's capitals sit above the middle of the line they were
centred on. When hands hide a few numerals, four or five such lines can still meet tightly at a
point 4-6 px from the pivot (Roman faces of the generator, no distortion), and seen from there a
one-pixel second hand is lost: the clock is read at :00 and the minute one past.

The hands' own axes are better evidence where they are seen: straight lines stay straight under
any view, and every hand passes through the pivot. When three or more hands show (rays at least
``CONFIRM_LENGTH`` of the radius long: a short stub seen from a wrong pivot runs out of that
very point, and its axis with it) and their fitted axes (:func:`clock_reader._axes_meet`, each
within 0.8 px of one point) meet within ``CONFIRM_PX`` of the pivot the reader looks from, the
marks' crossing does not move it.

Where the hands do not confirm the pivot, the move is still not taken when the look from the
marks' crossing shows clearly less hand (:func:`shows_less_hand`): the three longest rays
together ``LESS_HAND`` of the radius shorter. Seen from the true pivot every hand runs out to its
tip; seen from a point beside it a thin hand's rays leave its ink, and a hand is cut short or
lost. A move that shows as much hand or more (the right pivot under perspective, where a tail
or a cap had pulled the first guess) is taken as before. Pixels only.
"""

from __future__ import annotations

import math

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_pivot import _hand_length  # a look's rays: longest first

CONFIRM_PX = 1.0  # three hands' axes meeting this close (px, normalised dial) confirm the pivot
CONFIRM_LENGTH = 0.35  # ... hands at least this long (fraction of the radius), not stubs
LESS_HAND = 0.25  # a move to the marks' crossing that loses this much hand (radius) is not taken


def hands_confirm_pivot(scene: cr._Scene, radius: float) -> bool:
    """True when ``scene`` shows three or more rays at least CONFIRM_LENGTH of the ``radius``
    long and its rays' fitted axes meet within CONFIRM_PX of its pivot."""
    if sum(t.tip >= CONFIRM_LENGTH * radius for t in scene.rays) < 3:
        return False
    meet = cr._axes_meet(scene)
    if meet is None or math.isnan(meet[0]):
        return False
    px, py = scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1]
    return math.hypot(meet[0] - px, meet[1] - py) <= CONFIRM_PX


def shows_less_hand(here: cr._Scene, there: cr._Scene, radius: float) -> bool:
    """True when the look ``there`` (from the marks' crossing) shows clearly less hand than the
    look ``here``: its three longest rays together at least LESS_HAND of ``radius`` shorter."""
    return _hand_length(there) < _hand_length(here) - LESS_HAND * radius
