"""A second hand drawn along a wider hand, told before the hands' colours (session 6, s6-19b).

Two rays in clearly different colours usually mean a second hand in a colour of its own beside
the hands lying on one another, and ``clock_reader._identify`` then takes the thinner ray for
the second hand. But a second hand drawn *over* a wider hand, along it, also makes the two rays'
colours differ: that ray's middle is the second hand's colour. Its contrast-weighted width then
counts the second hand's strong ink as the hand's, so the other ray (a hand of its own, wider
but in a paler colour) measures as the thinner one and is read as the second hand.

Rule (for any clock): when neither of the two rays is needle-thin, a stripe of a colour of its
own down one ray's middle (``clock_reader._stripe``, as in ``_second_in_stripe``) is the second
hand, and the two rays are the minute and hour hands. A needle among the two rays is a second
hand of its own and this rule does not apply.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime


def stripe_before_colour(
    rays: list,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: object,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """The reading with the second hand as a stripe down one of two non-needle rays, or None
    (then the colour rule of ``_identify`` reads the clock as before)."""
    contrast = max(t.contrast for t in rays)
    if any(cr._needle(t, contrast, radius) for t in rays):
        return None
    return cr._second_in_stripe(rays, rgb, dial, scene, radius, to_dial)
