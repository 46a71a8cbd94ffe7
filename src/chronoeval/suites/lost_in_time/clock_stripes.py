"""A thin second line on or beside a wider hand, told by its colour (issue 19, session 6, s6-19b).

Two rules for clocks read as two rays (docs/suites/lost_in_time.md, reader step 5):
``stripe_before_colour`` (below) and ``second_beside_axis`` (a second hand a few degrees off a
wider hand, partly inside its ink and partly beside it, found anywhere across the ray).

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


def stripe_before_colour(rays: list[cr._Track], radius: float) -> bool:
    """Whether a stripe down one of two rays in different colours is looked for before the
    colour rule of ``_identify`` (``clock_reader._second_in_stripe``): where neither ray is a
    needle."""
    contrast = max(t.contrast for t in rays)
    return not any(cr._needle(t, contrast, radius) for t in rays)


def _grid(
    t: cr._Track, rgb: np.ndarray, dial: np.ndarray, scene: cr._Scene, half: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Colours minus the dial colour across a ray, ``half`` pixels either side of its centre,
    from 0.2 to 0.9 of its length: (grid offset x radius x channel, radii, unit vectors)."""
    r, c, _ = t.arrays()
    keep = (r >= 0.2 * t.tip) & (r <= 0.9 * t.tip)
    if keep.sum() < 8:
        return None
    r, c = r[keep], c[keep]
    a = np.radians(c * cr.BIN_DEG)
    ux, uy = np.sin(a), -np.cos(a)
    ox, oy = scene.origin[0] + scene.pivot[0], scene.origin[1] + scene.pivot[1]
    offs = np.arange(-half, half + 1, dtype=np.float64)
    xs = np.rint(ox + r[None, :] * ux[None, :] - offs[:, None] * uy[None, :]).astype(int)
    ys = np.rint(oy + r[None, :] * uy[None, :] + offs[:, None] * ux[None, :]).astype(int)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= rgb.shape[1] or ys.max() >= rgb.shape[0]:
        return None
    return rgb[ys, xs].astype(np.float64) - dial, r, ux, uy


def _beside(
    t: cr._Track, hand: np.ndarray, rgb: np.ndarray, dial: np.ndarray, scene: cr._Scene
) -> tuple[float, float, float] | None:
    """A thin line of another colour than ``hand`` (the hands' colour) running inside or along
    one ray, anywhere across it, and through the pivot: (the line's direction, the direction of
    the ray's hand-coloured ink, the hand-coloured width); None when there is none."""
    half = max(4, round(0.15 * t.tip))
    got = _grid(t, rgb, dial, scene, half)
    if got is None:
        return None
    grid, r, ux, uy = got
    strength = np.linalg.norm(grid, axis=2)
    ink = strength > cr.RUN_DIFF
    n_hand = float(np.linalg.norm(hand))
    cos = (grid @ hand) / np.maximum(strength * n_hand, 1e-9)
    odd = ink & (cos < 0.9)
    own = ink & ~odd
    cols = odd.any(axis=0) & own.any(axis=0)
    if cols.sum() < 0.6 * len(r) or cols.sum() < 8:
        return None
    offs = np.arange(-half, half + 1, dtype=np.float64)[:, None]
    n_odd = odd.sum(axis=0)[cols]
    w_own = own.sum(axis=0)[cols]
    if np.median(n_odd) > 0.5 * np.median(w_own):  # a line, thinner than the hand beside it
        return None
    ox, oy = scene.origin[0] + scene.pivot[0], scene.origin[1] + scene.pivot[1]
    wts = np.where(odd, strength, 0.0)
    mid = (wts * offs).sum(axis=0) / np.maximum(wts.sum(axis=0), 1e-9)
    # per radius, the run of ink that holds the line: the hand it lies on or beside (other ink
    # across the ray, a numeral or a tick, is not the hand)
    sel = cols.copy()
    hand_mid = np.zeros(len(r))
    for j in np.nonzero(cols)[0]:
        i = int(round(mid[j])) + half
        a, b = i, i
        while a > 0 and ink[a - 1, j]:
            a -= 1
        while b < 2 * half and ink[b + 1, j]:
            b += 1
        own_ij = np.nonzero(own[a : b + 1, j])[0] + a
        if len(own_ij) == 0:
            sel[j] = False
            continue
        if own_ij[0] < i < own_ij[-1]:  # the line inside the hand: the hand is the whole run
            hand_mid[j] = 0.5 * (a + b) - half
        else:  # the line along one side: the hand is its own colour's ink
            hand_mid[j] = 0.5 * (own_ij[0] + own_ij[-1]) - half
    if sel.sum() < 8:
        return None
    rr, vx, vy = r[sel], ux[sel], uy[sel]
    sx, sy = rr * vx - mid[sel] * vy, rr * vy + mid[sel] * vx  # relative to the pivot
    s_dir, s_rms, s_off = cr._line_through(sx, sy, float(vx.mean()), float(vy.mean()))
    if s_rms > 1.0 or s_off > 1.5 + 0.02 * t.tip:  # straight, and through the pivot
        return None
    edge = hand_mid[sel]
    hx, hy = rr * vx - edge * vy, rr * vy + edge * vx
    h_dir, _, _ = cr._line_through(hx + ox, hy + oy, float(vx.mean()), float(vy.mean()))
    return s_dir, h_dir, float(np.median(w_own))


def _own_width(
    t: cr._Track, hand: np.ndarray, rgb: np.ndarray, dial: np.ndarray, scene: cr._Scene
) -> float:
    """Median count of hand-coloured ink pixels across a ray (comparable with ``_beside``'s)."""
    got = _grid(t, rgb, dial, scene, max(4, round(0.15 * t.tip)))
    if got is None:
        return 0.0
    grid = got[0]
    strength = np.linalg.norm(grid, axis=2)
    cos = (grid @ hand) / np.maximum(strength * float(np.linalg.norm(hand)), 1e-9)
    return float(np.median(((strength > cr.RUN_DIFF) & (cos >= 0.9)).sum(axis=0)))


def second_beside_axis(
    rays: list[cr._Track],
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """Two rays, no second hand seen and no stripe down a ray's middle: a second hand a few
    degrees off a wider hand runs partly inside its ink and partly beside it, a thin line of a
    colour of its own through the pivot. Read the second there; the two rays are the minute and
    hour hands, chosen by the consistency of the readings (``_pair_reading``) and the hour hand
    being the wider in the hands' own colour (the line's ink is not counted: it would make the
    ray it joins look wider)."""
    if len(rays) != 2:
        return None
    found = []
    for k in (0, 1):
        hand = cr._ray_colour(rays[1 - k], rgb, dial, scene)
        if float(np.linalg.norm(hand)) <= 20:
            return None
        found.append((_beside(rays[k], hand, rgb, dial, scene), hand))
    hits = [k for k in (0, 1) if found[k][0] is not None]
    if len(hits) != 1:
        return None
    k = hits[0]
    s_dir, h_dir, w_k = found[k][0]  # type: ignore[misc]
    from chronoeval.suites.lost_in_time.clock_stripe_guards import runs_into_pivot

    if not runs_into_pivot(rays[k], s_dir, found[k][1], rgb, dial, scene):
        return None  # a strip printed on a hand (lume) stops short of the pivot (s7-19e)
    w_o = _own_width(rays[1 - k], found[k][1], rgb, dial, scene)
    a_s = to_dial(s_dir)
    second = round(a_s / 6.0) % 60
    angles = [0.0, 0.0]
    angles[k] = to_dial(h_dir)
    angles[1 - k] = to_dial(cr._track_angle(rays[1 - k]))
    widths = [0.0, 0.0]
    widths[k], widths[1 - k] = w_k, w_o
    best: tuple[float, ClockTime] | None = None
    for mi in (0, 1):
        hi = 1 - mi
        fit, reading = cr._pair_reading(angles[mi], angles[hi], second, a_s)
        score = 2.0 * fit + (0.3 if widths[hi] < 0.8 * widths[mi] else 0.0)
        if best is None or score < best[0]:
            best = (score, reading)
    assert best is not None
    return best[1]
