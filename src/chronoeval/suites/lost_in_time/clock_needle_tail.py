"""A second hand's counterweight is no hour hand (issue 19, session 14, s14-19s; part of
:mod:`chronoeval.suites.lost_in_time.clock_reader`, the choice of hands by the consistency of the
readings among three or more rays).

Many second hands go on a short way behind the pivot (a counterweight: a thin tail, often ending
in a disc). Where the hour hand lies under the second hand, the reader sees three rays: the
second hand (with the hour hand's ink along its inner part), the minute hand, and the short
counterweight straight opposite the second hand (with the hour hand's own short tail). The
hands' consistency cannot tell the hour hand from the ray opposite it: an angle and the angle
half a turn away give the same hour residual (six hours are 180 degrees exactly). So the short
ray was read as the hour hand, six hours off (12:39:03 read 6:39:03), and where the hour hand
had a ray of its own the counterweight with a needle taken as the minute hand could still fit
best (7:35:28 read 11:28:00).

Rule (for any clock): a ray shorter than ``clock_reader.TAIL_LENGTH`` of the radius that lies
within ``OPPOSITE_DEG`` of straight opposite a needle (a ray at least ``LONGER`` times as long
that ``clock_reader._needle`` calls needle-thin at its end) is that needle's counterweight.
Read as the hour hand of a hypothesis whose second hand is that needle, and where the needle's
ray shows a wider hand under its inner part (a width step, ``clock_reader._step``, above
``clock_reader.STEP_RATIO``), the hour hand is the one under the needle: its angle is the
counterweight's turned by half a turn (the same hour residual, the pointing end's side). Read as
the hour or minute hand in any other way (no wider hand under the needle; the needle itself taken
as the minute hand), the hypothesis pays ``TAIL_PENALTY``, as a counterweight of a hand's own
width does (``clock_reader._tails``). Pixels only.
"""

from __future__ import annotations

import numpy as np

from chronoeval.suites.lost_in_time import clock_reader as cr

OPPOSITE_DEG = 6.0  # a counterweight lies this close (dial degrees) to straight opposite its needle
LONGER = 1.5  # ... whose ray is at least this many times as long
BEYOND = 0.15  # the needle's ray is measured from the counterweight's length out this much further
WIDER = 2.0  # ... where a hand under the needle is this many times the needle's width (>= 1 px)
TAIL_PENALTY = 1.0  # a needle's counterweight read as the hour hand, the needle not as the second
HIDDEN_FROM = 0.3  # an hour hand hidden under a ray ends (a width step) beyond this share of it
HIDDEN_TO = 0.85  # ... and inside this share


def needle_tails(
    rays: list[cr._Track],
    info: list[tuple[float, float, float, float]],
    needles: list[bool],
    radius: float,
    contrast: float,
) -> list[tuple[int, tuple[float, float] | None] | None]:
    """Per ray: None, or (the index of the needle whose counterweight it is, (width, length) of a
    wider hand lying under that needle beyond the counterweight's length, or None). ``info`` holds
    per ray (tip, dial angle, mid width, outer width) as in ``_assign_by_consistency``."""
    out: list[tuple[int, tuple[float, float] | None] | None] = []
    for k, (tip, angle, _, _) in enumerate(info):
        of = None
        if tip < cr.TAIL_LENGTH * radius:
            for j, (tip_j, angle_j, _, _) in enumerate(info):
                if (
                    j != k
                    and needles[j]
                    and tip_j >= LONGER * tip
                    and abs((angle - angle_j) % 360.0 - 180.0) <= OPPOSITE_DEG
                ):
                    of = (j, _width_beyond(rays[j], tip, contrast))
                    break
        out.append(of)
    return out


def _width_beyond(t: cr._Track, length: float, contrast: float) -> tuple[float, float] | None:
    """(width, length) of a hand under the ray ``t`` (a needle), seen just beyond ``length`` from
    the pivot, where the ray is clearly wider there than at its end; else None. A hand's pointing
    end reaches further than its tail, so an hour hand under the needle whose counterweight is
    ``length`` long shows there. Its length: where the ray, followed in from its tip, first turns
    that much wider."""
    r, _, w = t.arrays(contrast)
    keep = (r >= length) & (r <= length + max(4.0, BEYOND * length))
    if keep.sum() < 3:
        return None
    width = float(np.median(w[keep]))
    needle = max(cr._outer_width(t, contrast), 1.0)
    if width < WIDER * needle:
        return None
    reach = cr._first_rise(r, w, t.tip - 2, needle, WIDER)
    return width, reach if reach is not None else length


def hour_under_needle(
    tail_of: list[tuple[int, tuple[float, float] | None] | None], si: int | None, hi: int
) -> tuple[float, float] | None:
    """Where the hypothesis reads ray ``hi`` as the hour hand and ``si`` as the second hand, and
    ``hi`` is the counterweight of ``si`` with a wider hand under ``si``: that hand's (width,
    length) (the hour hand is the one under the needle, at the counterweight's angle turned by
    half a turn). Else None."""
    of = tail_of[hi]
    if of is not None and of[0] == si:
        return of[1]
    return None


def tail_penalty(
    tail_of: list[tuple[int, tuple[float, float] | None] | None],
    needles: list[bool],
    si: int | None,
    mi: int,
    hi: int,
) -> float:
    """``TAIL_PENALTY`` where the hypothesis (second ``si``, minute ``mi``, hour ``hi``) reads a
    needle's counterweight as the hour hand, with no hand under the needle, and either reads no
    needle at all as the second hand (a needle-thin minute hand whose hour hand points the other
    way is read with another needle as the second hand), or leaves a ray that is no counterweight
    over (a clock has three hands: the extra ray is the counterweight); else 0."""
    of = tail_of[hi]
    if of is None or (of[0] == si and of[1] is not None):
        return 0.0
    if of[0] != si:
        return TAIL_PENALTY if si is None or not needles[si] else 0.0
    spare = [k for k in range(len(tail_of)) if k not in (si, mi, hi) and tail_of[k] is None]
    return TAIL_PENALTY if spare else 0.0


def hidden_hours(
    rays: list[cr._Track],
    tail_of: list[tuple[int, tuple[float, float] | None] | None],
    needles: list[bool],
    contrast: float,
    to_dial,  # noqa: ANN001
) -> list[tuple[float, float, float, float] | None]:
    """Per ray, where the rays hold a needle's counterweight (so the extra ray is accounted for)
    and this ray (no needle, no counterweight) steps up in width between ``HIDDEN_FROM`` and
    ``HIDDEN_TO`` of its length (a wider hand under it, ``clock_reader._hidden_step``): the
    hypothesis that the hour hand lies under this ray, as (minute dial angle of the part beyond
    the step, hour dial angle of the part inside it, the step's radius, the inner part's width).
    Else None. Without a counterweight two such rays go the two-ray way
    (``clock_reader._identify``), which tries the hour under either ray; the counterweight made
    them three rays, and the choice by consistency had no hypothesis with the hour hidden."""
    out: list[tuple[float, float, float, float] | None] = [None] * len(rays)
    if all(of is None for of in tail_of):
        return out
    for k, t in enumerate(rays):
        if needles[k] or tail_of[k] is not None:
            continue
        ratio, rho = cr._hidden_step(t, contrast)
        if ratio <= cr.STEP_RATIO or not HIDDEN_FROM * t.tip <= rho <= HIDDEN_TO * t.tip:
            continue
        outer = cr._angle(t, rho + 2, t.tip - 2)
        inner = cr._angle(t, 0.3 * rho, rho - 2)
        if outer is None or inner is None:
            continue
        r, _, w = t.arrays(contrast)
        part = w[(r >= 0.3 * rho) & (r <= rho - 2)]
        out[k] = (to_dial(outer), to_dial(inner), rho, float(np.median(part)))
    return out
