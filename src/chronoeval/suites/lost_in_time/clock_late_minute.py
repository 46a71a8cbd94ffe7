"""A stepping minute hand late in the minute, decided on the hand's axis measured across it.

Part of the clock reader (:mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5,
"a precise fit decides late in the minute"). Late in a minute (seconds past ~50) a minute hand
that steps once a minute stands on the next whole minute, while a sweeping one stands 0.1 deg per
missing second short of it: 0.1-1 deg apart, and the hour hand (geared to the minute hand) only
1/12 of that. The reader tells them apart only on a precisely drawn face, by how near a whole
minute the minute hand's fitted axis sits (``clock_reader._exact_stepping``).

That axis is fitted through the centres of the hand's ink on circles round the pivot. For a
hand drawn beside its pivot (a bar whose middle line misses the pivot by a fraction of its
width, as SVG and CSS clocks draw them) the centre of a straight band's ink along an arc is not
on the band's middle line — the arc cuts the band at a slant that grows towards the pivot — so
the fitted direction leans by a few hundredths of a degree, as much as a stepping and a sweeping
hand differ at :58. Across a straight cut at right angles to the hand the middle of a band's
ink *is* on its middle line, wherever the pivot lies. So when the reading has a second hand and
the sweeping and stepping readings of its minute hand differ, the minute hand's axis is measured
again across the hand, and the minute is read again from that axis with the same rules. Pixels
only; no drawer's widths, lengths or colours.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from chronoeval.suites.lost_in_time import clock_bars as cb
from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_sweep import minute_reading

# with the axis measured across the hand, the sweeping reading must miss by this many times
# more than the stepping one (clock_reader.EXACT_FIT_RATIO is 5 for the axis fitted on circles)
ACROSS_RATIO = 3.0
# ... and the second hand sit this close (deg) to a whole second (clock_reader.EXACT_SECOND_DEG
# is 0.01)
ACROSS_SECOND_DEG = 0.03
# the sweeping and stepping readings differ only from about 30 s on (3 s of margin for a hand
# read a little off)
LATE_FROM = 27
# the ray taken as the second hand must lie this close (deg) to where the reading puts it
MATCH_DEG = 0.5
# the axis measured across the hand must agree with the fitted one this closely (deg); further
# off, another hand's ink or a mark got into the cuts
AGREE_DEG = 0.25
# only a minute hand this close (min) to a whole minute is measured again (EXACT_MINUTE plus
# AGREE_DEG in minutes, rounded up)
NEAR_MINUTE = 0.05
# cuts whose run of ink is wider or narrower than the median by more than this (px) hold other
# ink (a crossing hand, a mark) and are left out
WIDTH_SLACK = 1.0
# the centres across the hand must lie this close (rms, px) to one straight line
CENTRE_RMS = 0.3


def axis_across(
    t: cr._Track, diff: np.ndarray, pivot: tuple[float, float], radius: float
) -> float | None:
    """Direction (clock degrees) of a hand's middle line: the ink's centre on straight cuts at
    right angles to the ray (sampled as in ``clock_bars._across``), fitted by a straight line.
    None where too few clean cuts show or the centres do not lie on a line."""
    across = cb._across(t, diff, pivot, radius)
    if across is None:
        return None
    a0, rs, us, prof, _, _, runs = across
    if len(runs) < max(12, 0.6 * len(rs)):
        return None
    widths = np.array([hi - lo for _, lo, hi in runs], dtype=np.float64) * 0.5
    median = float(np.median(widths))
    r_kept, u_kept = [], []
    for (k, lo, hi), w in zip(runs, widths, strict=True):
        if abs(w - median) > WIDTH_SLACK:
            continue
        weight = prof[k, lo - 1 : hi + 2].astype(np.float64)
        total = float(weight.sum())
        if total <= 0:
            continue
        r_kept.append(float(rs[k]))
        u_kept.append(float((weight * us[lo - 1 : hi + 2]).sum()) / total)
    if len(r_kept) < max(12, 0.5 * len(rs)):
        return None
    r = np.asarray(r_kept)
    u = np.asarray(u_kept)
    slope, offset = np.polyfit(r, u, 1)
    if float(np.sqrt(np.mean((u - (offset + slope * r)) ** 2))) > CENTRE_RMS:
        return None
    return (math.degrees(a0) + math.degrees(math.atan(slope))) % 360.0


def late_minute(
    reading: ClockTime | None,
    rays: list[cr._Track],
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: cr._Scene,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """``reading`` (three or more rays, a second hand read), with its minute read again from the
    minute hand's axis measured across the hand where the sweeping and stepping readings of that
    hand differ (seconds past 30); the hour is then read again for that minute. Unchanged where
    the hands cannot be matched one to one or the two measures of the axis disagree."""
    if reading is None or len(rays) < 3:
        return reading
    from chronoeval.suites.lost_in_time.clock_loose_angles import loose

    if loose(to_dial):  # angles too loose for a precise fit (s13-19q)
        return reading
    second, minute = reading.second, reading.minute
    if second < LATE_FROM:
        return reading  # a hand under half a minute past its minute: one reading either way
    angles = [to_dial(cr._track_angle(t)) for t in rays[:4]]
    sec = [k for k, a in enumerate(angles) if cr._off(a, 6.0 * second) < MATCH_DEG]
    if len(sec) != 1:
        return reading
    # the minute hand: the ray whose sweeping or stepping reading is the minute read
    mins = [k for k, a in enumerate(angles) if k != sec[0] and minute in _readings(a, second)]
    if len(mins) != 1 or len(set(_readings(angles[mins[0]], second))) < 2:
        return reading  # no one minute hand, or early in the minute (one reading)
    k = mins[0]
    if _off_whole(angles[k]) > NEAR_MINUTE:
        return reading  # no measure within AGREE_DEG can put the hand on a whole minute
    diff = cr._max_channel_diff(rgb, dial).astype(np.float32)
    pivot = (scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1])
    a_m = axis_across(rays[k], diff, pivot, radius)
    if a_m is None or cr._off(to_dial(a_m), angles[k]) > AGREE_DEG:
        return reading
    a_m = to_dial(a_m)
    a_s = angles[sec[0]]
    new_minute = _minute_across(rays[k], a_m, second, a_s, to_dial)
    if new_minute == minute:
        return reading
    a_hour = 30.0 * (reading.hour % 12) + 0.5 * (minute + second / 60.0)
    others = [j for j in range(len(angles)) if j not in (sec[0], k)]
    h = min(others, key=lambda j: cr._off(angles[j], a_hour))
    hour, _ = cr._hour_residual(angles[h], new_minute, second)
    return ClockTime(hour or 12, new_minute, second)


def _off_whole(a: float) -> float:
    """How far (minutes) the dial angle ``a`` lies from a whole minute."""
    x = (a % 360.0) / 6.0
    return abs(x - round(x))


def _readings(a_m: float, second: int) -> tuple[int, int]:
    """The minute read from a minute hand at dial angle ``a_m``: sweeping, stepping."""
    return round(((a_m - 0.1 * second) % 360.0) / 6.0) % 60, round((a_m % 360.0) / 6.0) % 60


def _minute_across(
    t: cr._Track, a_m: float, second: int, a_s: float, to_dial: Callable[[float], float]
) -> int:
    """The minute from an axis measured across the hand ``t``: stepping where the face is exact
    (``clock_reader._exact_stepping`` with the second hand on a whole second to
    ``ACROSS_SECOND_DEG`` and the sweeping reading missing by ``ACROSS_RATIO`` times as much);
    else the reader's own rules, with a stepping reading kept only where the hand's inner part
    steps too (``clock_sweep.minute_reading``)."""
    sweep, step = _readings(a_m, second)
    r_c, r_s = _off_whole(a_m - 0.1 * second), _off_whole(a_m)
    if sweep != step and cr._exact_stepping(a_s, r_s, r_c, ACROSS_SECOND_DEG, ACROSS_RATIO):
        return step
    return minute_reading(t, a_m, second, a_s, to_dial)[0]
