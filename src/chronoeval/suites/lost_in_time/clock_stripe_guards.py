"""Two checks before a line of its own colour on a hand is taken for the second hand (issue 19,
session 7, s7-19e; reader step 5 in docs/suites/lost_in_time.md).

``clock_stripes`` reads a second hand lying on or beside a wider hand from its colour: a stripe
down a ray's middle (``clock_reader._second_in_stripe``, looked for before ``_identify``'s colour
rule when two rays differ in colour) or a thin line partly inside and partly beside a ray
(``clock_stripes.second_beside_axis``). Two other things on clocks look the same:

- **A hand over a hand of another colour.** A narrower minute hand lying along a wider hour hand
  of another colour is a stripe down that ray's middle too. Where the second hand is the other
  ray, in a third colour, taking the stripe first reads the minute hand as the second hand (on
  faces drawn here: 0/48 read right). The stripe is the second hand when the hands share a colour
  and the second hand alone differs — the other ray then has the colour of the striped ray's
  sides (``stripe_on_alike_hands``). Otherwise ``_identify``'s rule (a thinner ray in a colour
  of its own is the second hand) runs first, as before session 6.
- **A luminous strip printed on a hand.** Lume (or any inlay) down a hand's middle is a straight
  line of another colour through the pivot's direction, but it stops short of the pivot: a second
  hand is a hand, mounted on the pivot and on top of the others, so its line runs into the pivot
  (``runs_into_pivot``), as ``_second_in_stripe`` already asks of a stripe.

Pixels only; no drawer's widths, lengths or colours.
"""

from __future__ import annotations

import math

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_stripes import _grid

# colours alike as directions away from the dial colour (as clock_reader._colours_differ)
ALIKE_COS = 0.9
# a second hand's line is looked for from this fraction of the ray's length ...
PIVOT_FROM = 0.1
# ... to this one, and must show on at least this fraction of the radii there
PIVOT_TO = 0.25
PIVOT_SHARE = 0.5
# a pixel this far (levels) off the line from the dial's colour to the hand's is another colour
OFF_LINE = 40.0


def _unit(v: np.ndarray) -> np.ndarray | None:
    n = float(np.linalg.norm(v))
    return v / n if n > 20 else None


def stripe_on_alike_hands(
    rays: list[cr._Track], rgb: np.ndarray, dial: np.ndarray, scene: cr._Scene
) -> bool:
    """Two rays: whether a stripe of its own colour runs down exactly one of them while that
    ray's sides have the other ray's colour (the hands share a colour, the second hand differs).
    False where there is no such stripe, or the other ray is in a third colour."""
    found = [cr._stripe(t, rgb, dial, scene) for t in rays[:2]]
    if sum(f is not None for f in found) != 1:
        return False
    k = 0 if found[0] is not None else 1
    got = _grid(rays[k], rgb, dial, scene, max(3, round(0.06 * rays[k].tip)))
    if got is None:
        return False
    cols = np.median(got[0], axis=1)
    inked = np.nonzero(np.linalg.norm(cols, axis=1) > cr.RUN_DIFF)[0]
    if len(inked) < 3:
        return False
    side = _unit(0.5 * (cols[int(inked[0]) + 1] + cols[int(inked[-1]) - 1]))
    other = _unit(cr._ray_colour(rays[1 - k], rgb, dial, scene))
    return side is not None and other is not None and float(side @ other) > ALIKE_COS


def runs_into_pivot(
    t: cr._Track,
    direction: float,
    hand: np.ndarray,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
) -> bool:
    """Whether a line of another colour than ``hand`` (the hands' colour, minus the dial colour)
    along ``direction`` (image degrees clockwise from 12) shows near the pivot: on at least
    ``PIVOT_SHARE`` of the radii from ``PIVOT_FROM`` to ``PIVOT_TO`` of ray ``t``'s length, a
    pixel in a colour unlike ``hand`` (or off the line from the dial's colour to it) within the
    band that ``clock_stripes._beside`` allows a line through the pivot (1.5 px + 2% of the
    ray's length, plus a pixel: the pivot found may be that far off where hands are drawn beside
    it)."""
    unit = _unit(hand)
    if unit is None:
        return True  # no hand colour to tell the line by: not this check's to refuse
    a = math.radians(direction)
    ux, uy = math.sin(a), -math.cos(a)
    ox, oy = scene.origin[0] + scene.pivot[0], scene.origin[1] + scene.pivot[1]
    rs = np.arange(PIVOT_FROM * t.tip, PIVOT_TO * t.tip, 1.0)
    if len(rs) < 4:
        return True
    band = math.ceil(2.5 + 0.02 * t.tip)
    offs = np.arange(-band, band + 1, dtype=np.float64)
    xs = np.rint(ox + rs[None, :] * ux - offs[:, None] * uy).astype(int)
    ys = np.rint(oy + rs[None, :] * uy + offs[:, None] * ux).astype(int)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= rgb.shape[1] or ys.max() >= rgb.shape[0]:
        return True
    grid = rgb[ys, xs].astype(np.float64) - dial
    strength = np.linalg.norm(grid, axis=2)
    along = grid @ unit
    cos = along / np.maximum(strength, 1e-9)
    # off the line from the dial's colour to the hand's: a blend of hand and dial stays on it, a
    # thin line of another colour blended into the hand (aliased, or a pixel wide) does not
    off_line = np.sqrt(np.maximum(strength**2 - along**2, 0.0))
    odd = (strength > cr.RUN_DIFF) & ((cos < ALIKE_COS) | (off_line > OFF_LINE))
    return float(odd.any(axis=0).mean()) >= PIVOT_SHARE
