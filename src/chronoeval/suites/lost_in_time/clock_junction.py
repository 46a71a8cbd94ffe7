"""Two hands' tips meeting in a junction (session 11, s11-19l).

Followed from the rim inwards, a needle lying a degree or three beside the minute hand and
running past its tip shows as two rays: the needle's free end, and the minute hand's point
beside it. Where the minute hand widens enough to touch the needle, the two meet in one run,
and :func:`clock_reader._tracks` ends both and starts a new, ``merged`` track there, which runs
on to the pivot. A merged track is no hand tip, so it is dropped; the minute hand's point, seen
only near its own end, is then dropped by :func:`clock_reader._distinct` as a fragment of the
needle's ray. The reader is left with the needle's free end and the hour hand, reads no minute
hand beside the needle, and puts the seconds at 0 (9:39:40 read 9:40:00).

The same happens with the hour hand's tip beside the needle (the hour then read on the minute
hand's ray), and through a second junction where the needle's disc splits the ink once more.

Where a merged track runs in from the junction to the cap, and two or more hand tips end on its
first run (or on a junction ending there), one of them a ray of the scene, each tip that the
scene lost (within ``IN_LINE_DEG`` of the merged track's direction) is joined to the merged
track as a ray of its own: its outer part is its own ink, its inner part the ink the hands share,
less the free end's ink where that still lies beside it. The joined ray is kept where its fitted
axis lies within ``IN_LINE_DEG`` of the tip's own direction seen from the pivot (one straight
hand; an anti-aliased sliver beside a needle over the minute hand gave an axis 30 degrees off).
Where the scene then shows three rays and a free end beyond the junction is a needle or
needle-thin where it meets the junction, the hands are chosen among the rays by their
consistency, as wherever three hands show (``clock_reader._assign_by_consistency``). Where no
other ray passes the reader's needle test, the thin free end is passed as the ray "in a colour
of its own" (the second hand): its outer end may lie on a tick, which fails the needle test
there.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime

__all__ = ["hands_meeting", "junction_reading"]

IN_LINE_DEG = 3.0  # a lost tip lies within this of the merged track's direction


def _join(parts: list[cr._Track], others: list[cr._Track]) -> cr._Track:
    """One ray from tracks that follow each other inwards (outermost first): a lost tip, then
    the junctions it runs into. On a junction's runs the ``others`` (the free ends that meet it
    there) lie too; where one of them lies beyond the edge of this hand's ink (near the junction
    the two hands still lie side by side; nearer the pivot the thinner one lies on the wider
    one and adds no ink), its ink, as much per circle as on its own inner part and at its own
    angle, is taken out of the run's ink and centre, so the ray keeps its own hand's direction
    (a needle's ink left in turns it by up to a degree or two)."""
    tip = parts[0]
    t = cr._Track(tip=tip.tip)
    t.radii, t.centres, t.sums, t.peaks = [*tip.radii], [*tip.centres], [*tip.sums], [*tip.peaks]
    shared = [(float(np.median(o.sums[-8:])), float(np.median(o.centres[-8:]))) for o in others]
    half = cr.N_THETA / 2
    for p in parts[1:]:
        contrast = p.contrast
        for r, c, sm, pk in zip(p.radii, p.centres, p.sums, p.peaks, strict=True):
            own, pull = sm, 0.0
            for s_k, a_k in shared:
                if s_k > 0.4 * sm:
                    continue  # not a thin hand beside this one: most of the run's ink
                d = ((a_k - c + half) % cr.N_THETA) - half  # bins from the run's centre
                apart = abs(d) * cr.BIN_RAD * r  # px
                w_k, w_own = s_k / contrast, max(sm - s_k, 0.0) / contrast
                seen = min(max((apart + 0.5 * w_k - 0.5 * w_own) / max(w_k, 0.5), 0.0), 1.0)
                own -= seen * s_k
                pull += seen * s_k * d
            if own >= 0.3 * sm:
                c, sm = (c - pull / own) % cr.N_THETA, own
            t.radii.append(r)
            t.centres.append(c)
            t.sums.append(sm)
            t.peaks.append(pk)
    return t


def _ends_on(t: cr._Track, m: cr._Track) -> bool:
    """Whether track ``t`` ends on the first run of track ``m`` (within half its width)."""
    reach = (0.5 * m.sums[0] / m.contrast + 2.0) / max(m.tip, 1)
    tol = max(3.0 / cr.BIN_DEG, reach / cr.BIN_RAD)
    return (
        0 < t.radii[-1] - m.tip <= cr.GAP + 1 and cr._bin_dist(t.centres[-1], m.centres[0]) <= tol
    )


def _tips_into(
    m: cr._Track, tracks: list[cr._Track], depth: int = 0
) -> list[tuple[cr._Track, list[cr._Track]]]:
    """The tips (tracks that start free) whose ink runs into junction ``m``, each with the
    junctions between it and ``m`` (a needle's disc or ring splits the ink once more)."""
    out: list[tuple[cr._Track, list[cr._Track]]] = []
    for t in tracks:
        if t is m or t.absorbed or not t.radii or not _ends_on(t, m):
            continue
        if not t.merged:
            out.append((t, []))
        elif depth < 2 and len(t.radii) >= 2:
            out += [(tip, [*chain, t]) for tip, chain in _tips_into(t, tracks, depth + 1)]
    return out


def hands_meeting(scene: cr._Scene, radius: float) -> tuple[list[cr._Track], list[cr._Track]]:
    """The hand tips lost in a junction with another hand, each joined to the junction's
    track, and the scene's rays that end in such a junction (a free end beyond it)."""
    in_rays = {id(t) for t in scene.rays}
    added: list[cr._Track] = []
    free: list[cr._Track] = []
    for m in scene.tracks:
        if not m.merged or m.absorbed or len(m.radii) < 8:
            continue
        if m.tip - m.radii[-1] < 0.2 * radius or m.radii[-1] > 0.35 * m.tip:
            continue  # not a junction running in to the cap
        tips = _tips_into(m, scene.tracks)
        if len({id(t) for t, _ in tips}) < 2 or not any(id(t) in in_rays for t, _ in tips):
            continue  # one tip (a hand's outline splitting), or no hand of the scene ends here
        m_angle = cr._angle(m, m.radii[-1], m.tip) or m.centres[0] * cr.BIN_DEG
        ends = []  # the scene's rays that end here: free ends beyond the junction
        for t, _ in tips:
            if id(t) in in_rays and all(t is not e for e in ends):
                ends.append(t)
        lost, seen = [], set()
        for t, chain in tips:
            if id(t) in in_rays or id(t) in seen or len(t.radii) < cr.MIN_RADII:
                continue
            seen.add(id(t))
            own = cr._pivot_angle(t)
            if cr._off(own, m_angle) > IN_LINE_DEG:
                continue
            joined = _join([t, *chain, m], ends)
            if cr._off(cr._track_angle(joined), own) <= IN_LINE_DEG:  # one straight hand
                lost.append(joined)
        if lost:
            added += lost
            free += [t for t in ends if all(t is not f for f in free)]
    return added, free


def _thin(t: cr._Track, contrast: float, radius: float) -> bool:
    """A free end of needle width where it meets the junction (its outer end may lie on a tick
    or a numeral; a pointed hand is widest there)."""
    _, _, w = t.arrays(contrast)
    return bool(len(w) >= 6 and float(np.median(w[-6:])) < cr.THIN_HAND * radius)


def junction_reading(
    scene: cr._Scene,
    rgb: np.ndarray,
    dial: np.ndarray,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """With fewer than three rays: where a hand's tip was lost in a junction with another hand,
    the reading among the rays with that hand restored (chosen by the hands' consistency, as
    among three rays; a needle-thin free end beyond the junction counts as a needle); None
    where no tip was lost, or where no free end beyond the junction is a needle or needle-thin
    where it meets the junction (the lost "tip" is then a sliver of a tick beside the hands)."""
    if len(scene.rays) >= 3 or not scene.tracks:
        return None
    added, free = hands_meeting(scene, radius)
    if not added:
        return None
    rays = sorted([*scene.rays, *added], key=lambda t: -t.tip)
    if len(rays) < 3:
        return None  # hands are chosen among three rays or more
    contrast = max(t.contrast for t in rays)
    if not any(cr._needle(f, contrast, radius) or _thin(f, contrast, radius) for f in free):
        return None  # no thin hand runs on past the junction: a sliver of a tick, not a hand
    odd = [False] * len(rays[:4])
    if not any(cr._needle(t, contrast, radius) for t in rays[:4] if all(t is not f for f in free)):
        # no other ray is the second hand's: a thin free end is, whatever its outer end shows
        odd = [any(t is f for f in free) and _thin(t, contrast, radius) for t in rays[:4]]
    from chronoeval.suites.lost_in_time.clock_late_minute import late_minute

    reading = cr._assign_by_consistency(rays, radius, to_dial, odd)
    return late_minute(reading, rays, rgb, dial, scene, radius, to_dial)
