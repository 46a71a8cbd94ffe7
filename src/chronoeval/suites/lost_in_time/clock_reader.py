"""Reference agent's clock reading: the time on an analogue clock image, from pixels only.

:func:`read_clock` sees exactly what a model sees (the image) and nothing else: no gold time, no
:class:`~chronoeval.render.clock.ClockFace`, no generator metadata. It uses classical computer
vision (NumPy / OpenCV) and generic clock knowledge only, and calibrates itself on every image:

1. The dial is the largest blob that differs from the border colour; a circle fitted to its
   outline gives the centre and radius. The dial colour is the most common colour near the centre.
2. "Ink" is whatever differs clearly from the dial colour. The hands are the ink component that
   contains the centre (hands pivot there and, on a readable clock, do not touch the numerals).
3. The hands component is unwrapped to polar coordinates. Walking from the rim inwards, every
   circle crosses the hands as angular runs; runs are linked into tracks (rays). A track starts at
   a hand tip, so its start radius is the hand length, its run centres give the angle and its run
   widths give the hand width.
4. Generic conventions identify the hands: the second hand is the longest, thin needle; the minute
   hand is long; the hour hand is the shortest and widest. A clock whose longest hand is not thin
   has no second hand (seconds are read as 0).
5. Overlaps (about 2 % of random times per pair of hands): when fewer rays than hands are
   visible, a hand lies under another one, and a wider hand under a narrower one shows as a step
   up in width at its tip. One visible ray: the needle part gives the second hand, the part
   between the two width steps the minute hand, the rest the hour hand. Two visible rays: the
   shorter ray's length tells which hand is hidden (a ray longer than 0.71 of the needle is the
   minute hand, so the hour hand is hidden; otherwise the minute hand hides under the needle);
   the width step and, when still ambiguous, the consistency of the continuous hand motion say
   where. A thin end whose ink breaks beyond the width step is a mark in line with a hand, not
   a second hand; a needle (or a thinner ray in a colour of its own) nearly as long as a wider
   longest ray is the second hand beside minute and hour hands lying on one another. Where the
   longest of two rays steps down to a thin end, the readings "second hand over the minute hand"
   and "a minute hand with a thin point" are scored by the hands' consistency too, and replace
   the looks' reading when clearly better (``clock_two_hands``, session 8).
6. Continuous motion turns angles into a time: seconds from the second hand (6 deg/s), minutes from
   ``(minute angle - 0.1 * s) / 6``, hours from ``(hour angle - 0.5 * m - s / 120) / 30``.
7. A slightly turned clock is straightened with the numerals and tick marks: they repeat every 30
   degrees, so the 30-degree phase of their ink gives the turn (up to +-15 degrees). Marks are
   the ink blobs not connected to the hands and no longer than 0.4 of the radius (a rim that a
   non-elliptic outline brings inside the marks' zone is not a mark).
8. Under a perspective view the pivot is the image of the dial's centre, not the outline
   ellipse's centre. Lines joining opposite hours' marks (12-6, 1-7, ...) stay straight and still
   cross there; when four or more such lines meet tightly at a point more than 3 px from the
   pivot guess (a hand's tail joined to the cap pulls the thickest-ink guess off), the hands are
   looked at again from that point.

Returns ``None`` when no dial or no hands can be found.
"""

from __future__ import annotations

import bisect
import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image

from chronoeval.suites.lost_in_time.answers import ClockTime

__all__ = ["read_clock"]

MAX_SIDE = 640  # larger images are shrunk to this many pixels first
N_THETA = 1440  # angular bins of the polar unwrap (0.25 degrees each)
POLAR_LINEAR = cv2.INTER_LINEAR | cv2.WARP_POLAR_LINEAR | cv2.WARP_FILL_OUTLIERS
POLAR_NEAREST = cv2.INTER_NEAREST | cv2.WARP_POLAR_LINEAR | cv2.WARP_FILL_OUTLIERS
"""``cv2.warpPolar`` flags. Without ``WARP_FILL_OUTLIERS`` the unwrap's samples beyond the image are
left as whatever memory the output was given (OpenCV 5.0.0: the same call on the same input gives
different arrays from call to call), so a reading depended on the process's earlier allocations;
with it they are 0, no ink."""
BIN_DEG = 360.0 / N_THETA
BIN_RAD = math.radians(BIN_DEG)
BACKGROUND_DIFF = 40  # a pixel belongs to the clock when it differs this much from the border
FAINT_DIFF = 8  # ... or this much, where no blob differing by BACKGROUND_DIFF outlines the dial
INK_DIFF = 60  # a pixel is ink when it differs this much from the dial colour
RUN_DIFF = 20  # in the polar unwrap, hand runs include the anti-aliased fringe down to this
HAND_ZONE = 0.995  # hands are searched inside this fraction of the dial radius
MARK_ZONE = 0.93  # numerals and ticks are looked for inside this fraction (the rim is outside)
NEEDLE_SLOPE = 0.06  # a needle's width changes less than this per pixel along it
MIN_HAND = 0.3  # rays shorter than this fraction of the longest ray are tails / stubs
MIN_RADII = 4  # a ray must be seen on at least this many circles
THIN_HAND = 0.0145  # a second hand is thinner than this fraction of the dial radius
MINUTE_OVER_NEEDLE = 0.71  # a minute hand is longer than this fraction of the second hand
STEP_RATIO = 1.4  # width step that reveals a wider hand hidden under a narrower one
AXIS_FROM = 0.3  # a hand's axis is fitted from this fraction of its length out to its tip
SAME_LENGTH = 0.03  # hands closer in length than this fraction of the radius are of one length
STEPPING_PRIOR = 0.1  # a stepping minute hand must fit this much better (in minutes)
STEPPING_TIGHT = 0.04  # ... and sit within this many minutes of a whole minute
EXACT_SECOND_DEG = 0.01  # a face whose second hand sits this close (deg) to a whole second ...
EXACT_MINUTE = 0.005  # ... and whose minute hand sits this close (min) to a whole minute ...
EXACT_FIT_RATIO = 5.0  # ... while the sweeping reading misses by this many times more: stepping
PRE_SHRINK_BELOW = 0.75  # a dial shrunk below this scale is averaged down before the warp
MARK_PIVOT_MIN = 3.0  # the marks' centre replaces a pivot guess further off than this (px)
MARK_CENTRE_RMS = 1.2  # opposite marks' lines must meet this tightly (px) to place the pivot
MARK_OUTER = 0.98  # marks that correct hand angles are looked for out to this fraction (session 5)
MARK_WINDOW = 8.0  # ... each hour's marks within this many degrees of it
MARK_SIZE = 0.4  # ink blobs longer than this fraction of the radius are rims or rings, not marks
MARK_DEPTH = 0.12  # numerals and ticks reach no further than this fraction of the radius
MARK_SPREAD = 0.08  # ... and a mark's strokes where a hand's tip joins them lie this close
TAIL_LENGTH = 0.3  # a counterweight tail is shorter than this fraction of the radius
GAP = 3  # a ray may vanish for this many radii and still go on
YOUNG = 4  # rays that started at most this many pixels ago may be absorbed by an older one


@dataclass
class _Track:
    """A ray of hand ink, followed from its outer end (the tip) towards the centre."""

    tip: int
    merged: bool = False  # starts where rays met or split: not a hand tip
    absorbed: bool = False  # a short stub that ran into an older ray
    radii: list[int] = field(default_factory=list)
    centres: list[float] = field(default_factory=list)  # clock angle, in bins
    sums: list[float] = field(default_factory=list)  # ink across the ray, in pixel * contrast
    peaks: list[float] = field(default_factory=list)  # strongest ink across the ray

    @property
    def contrast(self) -> float:
        """Ink strength of the solid middle of this hand (its width is sum / contrast)."""
        return max(float(np.percentile(self.peaks, 90)), 1.0)

    def arrays(self, contrast: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Radii (decreasing), angles in bins and widths in pixels."""
        r = np.asarray(self.radii, dtype=np.float64)
        widths = np.asarray(self.sums) / (contrast or self.contrast)
        return r, np.asarray(self.centres), widths


def _circ_mean_deg(values: np.ndarray) -> float:
    a = np.radians(values)
    return math.degrees(math.atan2(np.sin(a).mean(), np.cos(a).mean())) % 360.0


def _max_channel_diff(rgb: np.ndarray, color: np.ndarray) -> np.ndarray:
    """Per pixel, the largest absolute channel difference to ``color`` (uint8)."""
    diff = cv2.absdiff(rgb, (float(color[0]), float(color[1]), float(color[2]), 0.0))
    r, g, b = cv2.split(diff)
    return cv2.max(cv2.max(r, g), b)


def _find_dial(rgb: np.ndarray) -> tuple[float, float, float] | None:
    """Centre (x, y) and outer radius of the clock dial, or None."""
    h, w, _ = rgb.shape
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    bg = np.median(border, axis=0)
    fg = ((_max_channel_diff(rgb, bg) > BACKGROUND_DIFF) * 255).astype(np.uint8)
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    # the dial is the widest blob (a thin rim ring may have less area than a bold numeral)
    boxes = [cv2.boundingRect(c) for c in contours]
    k = max(range(len(boxes)), key=lambda i: boxes[i][2] + boxes[i][3])
    if min(boxes[k][2], boxes[k][3]) < 0.2 * min(h, w):
        return None
    pts = contours[k].reshape(-1, 2).astype(np.float64)
    if len(pts) < 20:
        return None
    x, y = pts[:, 0], pts[:, 1]
    a = np.column_stack([x, y, np.ones_like(x)])
    sol, *_ = np.linalg.lstsq(a, x * x + y * y, rcond=None)
    cx, cy = sol[0] / 2, sol[1] / 2
    radius = math.sqrt(max(sol[2] + cx * cx + cy * cy, 0.0))
    if radius < 20:
        return None
    # a dial is round: most outline points lie close to the fitted circle
    dist = np.hypot(x - cx, y - cy)
    if np.mean(np.abs(dist - radius) < max(2.0, 0.03 * radius)) < 0.8:
        return None
    return cx, cy, radius + 0.5  # outline pixels lie half a pixel inside the edge


def _dial_color(rgb: np.ndarray, cx: float, cy: float, radius: float) -> np.ndarray:
    """Most common colour of the face between the centre and the numerals."""
    r = 0.55 * radius
    x0, x1 = max(0, int(cx - r)), min(rgb.shape[1], int(cx + r) + 1)
    y0, y1 = max(0, int(cy - r)), min(rgb.shape[0], int(cy + r) + 1)
    patch = rgb[y0:y1:2, x0:x1:2].reshape(-1, 3).astype(np.int32)
    q = patch >> 4
    keys = (q[:, 0] << 8) | (q[:, 1] << 4) | q[:, 2]
    mode = np.argmax(np.bincount(keys, minlength=4096))
    return np.median(patch[keys == mode], axis=0)


def _bin_dist(a: float, b: float) -> float:
    d = abs(a - b) % N_THETA
    return min(d, N_THETA - d)


def _turn(a: float, b: float) -> float:
    """``a`` minus ``b``, in degrees, brought into [-180, 180)."""
    return (a - b + 180.0) % 360.0 - 180.0


def _off(a: float, b: float) -> float:
    """How far apart two directions are, in degrees (0-180)."""
    return abs(_turn(a, b))


@functools.lru_cache(maxsize=8)
def _theta_row_major(n_rows: int) -> np.ndarray:
    """Angle bin of every cell of an (n_rows, N_THETA) array, flattened, plus one trailing 0
    (shared, read-only)."""
    theta = np.append(np.tile(np.arange(N_THETA, dtype=np.float64), n_rows), 0.0)
    theta.setflags(write=False)
    return theta


def _polar_runs(
    polar: np.ndarray, r_first: int
) -> list[list[tuple[float, int, float, float]]] | None:
    """Angular runs of hand ink on every circle, outermost circle first.

    ``polar`` is (radius, clock-angle bin) ink strength. Each run is (centre bin weighted by ink,
    length in bins, ink sum * arc length, peak ink).
    """
    n_rows = polar.shape[0]
    mask = polar > RUN_DIFF
    # rotate the angles so that bin 0 is free of ink on every circle: no run wraps around
    used = mask.any(axis=0)
    free = int(np.argmin(used))
    if used[free]:
        return None
    mask = np.roll(mask, -free, axis=1)
    soft = np.roll(polar, -free, axis=1)
    # bin 0 is free, so every run starts with a 0 -> 1 step; a run may end at the last bin
    edges = np.diff(mask.view(np.int8), axis=1, append=np.zeros((n_rows, 1), np.int8))
    row_s, col_s = np.nonzero(edges == 1)
    col_s += 1
    row_e, col_e = np.nonzero(edges == -1)
    flat = np.append(soft.ravel().astype(np.float64), 0.0)
    base = row_s * N_THETA
    idx = np.empty(2 * len(row_s), dtype=np.intp)
    idx[0::2] = base + col_s
    idx[1::2] = base + col_e + 1
    if len(idx) == 0:
        return [[] for _ in range(n_rows)]
    sums = np.add.reduceat(flat, idx)[0::2]
    moments = np.add.reduceat(flat * _theta_row_major(n_rows), idx)[0::2]
    peaks = np.maximum.reduceat(flat, idx)[0::2]
    centres = np.where(sums > 0, moments / np.maximum(sums, 1e-9), (col_s + col_e) / 2.0) + free
    centres %= N_THETA
    radius = (r_first - row_s).astype(np.float64)
    arcs = sums * radius * BIN_RAD
    out: list[list[tuple[float, int, float, float]]] = [[] for _ in range(n_rows)]
    for row, c, n, a, p in zip(
        row_s.tolist(),
        centres.tolist(),
        (col_e - col_s + 1).tolist(),
        arcs.tolist(),
        peaks.tolist(),
        strict=True,
    ):
        out[row].append((c, n, a, p))
    return out


def _tracks(
    runs_by_circle: list[list[tuple[float, int, float, float]]], r_first: int
) -> list[_Track]:
    """Link the runs of every circle, from the outside in, into rays."""
    tracks: list[_Track] = []
    active: list[list] = []  # [track, centre bin, bins, last radius]
    for row, runs in enumerate(runs_by_circle):
        r = r_first - row
        # a ray survives a gap of a few radii (a faint, anti-aliased hand tip can flicker)
        active = [a for a in active if a[3] - r <= GAP]
        links = [
            [j for j, a in enumerate(active) if _bin_dist(rc, a[1]) <= (rn + a[2]) / 2 + 0.5]
            for rc, rn, _, _ in runs
        ]
        by_entry: dict[int, list[int]] = {}
        for i, js in enumerate(links):
            for j in js:
                by_entry.setdefault(j, []).append(i)
        owner: dict[int, int] = {}  # run -> entry it continues
        continued: set[int] = set()
        for j, items in by_entry.items():  # a ray splitting goes on with its closest run
            single = [i for i in items if len(links[i]) == 1]
            if single:
                i = min(single, key=lambda i: _bin_dist(runs[i][0], active[j][1]))
                owner[i] = j
                continued.add(j)
        ended: set[int] = set()
        for i, js in enumerate(links):
            if len(js) < 2:
                continue
            free = [j for j in js if j not in continued]
            if not free:
                continue
            # Several rays meet in one run. If all but one of them only started a few pixels
            # ago (the corners of a flat tip, or a shorter hand's tip appearing beside a longer
            # hand), the oldest goes on and the others are dropped; otherwise they merge.
            old = [j for j in free if active[j][0].tip - r > YOUNG]
            if len(old) <= 1:
                keep = old[0] if old else max(free, key=lambda j: active[j][0].tip)
                owner[i] = keep
                continued.add(keep)
                for j in free:
                    if j != keep:
                        active[j][0].absorbed = True
                        ended.add(j)
            else:
                ended.update(free)
        for i, (rc, rn, total, peak) in enumerate(runs):
            if i in owner:
                entry = active[owner[i]]
                entry[1:] = [rc, rn, r]
            else:
                # a run linked to rays but not continuing one (a split or a junction) is not
                # a hand tip
                entry = [_Track(tip=r, merged=bool(links[i])), rc, rn, r]
                tracks.append(entry[0])
                active.append(entry)
            track = entry[0]
            track.radii.append(r)
            track.centres.append(rc)
            track.sums.append(total)
            track.peaks.append(peak)
        if ended:
            active = [a for k, a in enumerate(active) if k not in ended]
    return tracks


def _angle(track: _Track, r_min: float, r_max: float) -> float | None:
    r, c, _ = track.arrays()
    keep = (r >= r_min) & (r <= r_max)
    if keep.sum() < 2:
        return None
    return _circ_mean_deg(c[keep] * BIN_DEG)


def _outer_width(track: _Track, contrast: float | None = None) -> float:
    r, _, w = track.arrays(contrast)
    lo, hi = 0.88 * track.tip, track.tip - max(3.0, 0.03 * track.tip)
    keep = (r >= lo) & (r <= hi)
    if keep.sum() == 0:
        keep = r >= lo
    return float(np.median(w[keep]))


def _running_medians(values: list[float]) -> list[float]:
    """Median of values[:k + 1] for every k."""
    out, seen = [], []
    for v in values:
        bisect.insort(seen, v)
        n = len(seen)
        out.append(seen[n // 2] if n % 2 else 0.5 * (seen[n // 2 - 1] + seen[n // 2]))
    return out


def _step(track: _Track) -> tuple[float, float]:
    """Largest width step along a ray, inner over outer: (ratio, radius of the step)."""
    r, _, w = track.arrays()  # r decreasing
    hi = track.tip - max(3.0, 0.04 * track.tip)
    lo = max(float(r[-1]) + 2.0, 0.15 * track.tip)
    keep = (r >= lo) & (r <= hi)
    r, w = r[keep], w[keep]
    n = len(r)
    if n < 8:
        return 1.0, 0.0
    outer = _running_medians(w.tolist())  # outer[k] = median of w[: k + 1]
    inner = _running_medians(w[::-1].tolist())[::-1]  # inner[k] = median of w[k:]
    gap = max(3, int(0.04 * track.tip))
    best, best_rho = 1.0, 0.0
    for k in range(gap, n - gap):
        ratio = inner[k] / max(outer[k - 1], 0.5)
        if ratio > best:
            best, best_rho = ratio, float(r[k])
    return best, best_rho


def _hidden_step(track: _Track, contrast: float) -> tuple[float, float]:
    """:func:`_step`, except that a hand narrowing gradually all along (a leaf, sword or tapered
    hand: :func:`_tapered`) shows no hand hidden under it, however wide its base is next to its
    point."""
    if _tapered(track, contrast):
        return 1.0, 0.0
    return _step(track)


def _first_rise(
    r: np.ndarray, w: np.ndarray, start: float, ref: float, ratio: float, window: int = 4
) -> float | None:
    """Going inwards from radius ``start``, the first radius where the width rises to ``ratio``
    times ``ref`` and stays there for ``window`` circles."""
    idx = np.nonzero(r <= start)[0]
    if len(idx) < window:
        return None
    target = ratio * max(ref, 0.5)
    wide = w >= target
    for k in idx[: len(idx) - window + 1].tolist():
        if wide[k : k + window].sum() >= window - 1:
            return float(r[k])
    return None


def _mark_ink(ink: np.ndarray, hands: np.ndarray, radius: float) -> np.ndarray:
    """Ink of the dial's marks: ink not connected to the hands, without long strokes. A numeral
    or a tick is a small blob; a rim, a ring or an arc of the outline is not, and on a dial whose
    outline is no ellipse (a warped face) the rim comes inside the marks' zone on some sides and
    would pull the marks there towards itself."""
    marks = cv2.bitwise_and(ink, cv2.bitwise_not(hands))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    long = np.nonzero(np.maximum(stats[1:, 2], stats[1:, 3]) > MARK_SIZE * radius)[0] + 1
    if len(long):
        marks[np.isin(labels, long)] = 0
    return marks


def _mark_offsets(
    marks: np.ndarray, centre: tuple[float, float], radius: float
) -> tuple[np.ndarray, np.ndarray]:
    """The marks' ink in the marks' zone (0.45 to 1 radius from ``centre``: numerals and ticks,
    not the rim), as offsets (dx, dy) from ``centre``; measured once for :func:`_rotation` and
    :func:`_mark_points`."""
    ys, xs = np.nonzero(marks)
    dx, dy = xs - centre[0], ys - centre[1]
    d2 = dx * dx + dy * dy
    far = (d2 >= (0.45 * radius) ** 2) & (d2 <= radius**2)
    return dx[far].astype(np.float64), dy[far].astype(np.float64)


def _rotation(offsets: tuple[np.ndarray, np.ndarray]) -> float:
    """Turn of the dial (degrees clockwise) from the 30-degree symmetry of numerals and ticks
    (``offsets``: :func:`_mark_offsets`)."""
    dx, dy = offsets
    if len(dx) < 10:
        return 0.0
    clock = np.arctan2(dx, -dy)
    # Marks stand all round the dial: ink in only a few hour sectors (a stray fringe, a hand's
    # loose end, a logo) or without a clear 30-degree phase says nothing about a turn.
    sectors = np.unique(np.floor((np.degrees(clock) % 360.0 + 15.0) / 30.0).astype(int) % 12)
    if len(sectors) < 8:
        return 0.0
    angle = clock * 12.0  # clock angle times 12
    s, c = float(np.sin(angle).sum()), float(np.cos(angle).sum())
    if math.hypot(s, c) < 0.15 * len(angle):
        return 0.0
    mean = math.atan2(s, c)
    return math.degrees(mean) / 12.0


def _hour_residual(hour_angle: float, minute: int, second: int) -> tuple[int, float]:
    x = ((hour_angle - 0.5 * minute - second / 120.0) % 360.0) / 30.0
    h = round(x)
    return h % 12, abs(x - h)


def _dial_ellipse(
    rgb: np.ndarray, diff: int = BACKGROUND_DIFF, whole_only: bool = False
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The dial's outline as an ellipse ((cx, cy), (axis, axis), angle), found by shape.

    Foreground is whatever differs from the border colour (no dial colour is assumed). The dial is
    the widest foreground blob; when that blob is small next to all foreground together (a white
    face on a white background without a rim: only marks and hands show), the convex hull of all
    foreground stands for the dial. An ellipse fitted to the outline undoes stretch and
    (approximately) slight perspective; a non-elliptic outline still gives its best ellipse.
    """
    h, w, _ = rgb.shape
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    bg = np.median(border, axis=0)
    fg = ((_max_channel_diff(rgb, bg) > diff) * 255).astype(np.uint8)
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contours = [c for c in contours if len(c) >= 3]
    if not contours:
        return None
    boxes = [cv2.boundingRect(c) for c in contours]
    k = max(range(len(boxes)), key=lambda i: boxes[i][2] + boxes[i][3])
    pts_all = np.concatenate([c.reshape(-1, 2) for c in contours])
    x0, y0 = pts_all.min(axis=0)
    x1, y1 = pts_all.max(axis=0)
    from chronoeval.suites.lost_in_time.clock_rimless import not_a_dial

    wide = boxes[k][2] + boxes[k][3] >= 0.75 * ((x1 - x0) + (y1 - y0))
    if wide and (whole_only or not not_a_dial(contours, k)):  # the hands' blob: hull (s15-19v)
        pts = contours[k].reshape(-1, 2)
    elif whole_only:
        return None
    else:
        pts = cv2.convexHull(pts_all.astype(np.int32)).reshape(-1, 2)
    if len(pts) < 5:
        return None
    (cx, cy), (a, b), angle = cv2.fitEllipse(pts.astype(np.float32))
    if min(a, b) < 0.2 * min(h, w) or min(a, b) < 40 or min(a, b) < 0.4 * max(a, b):
        return None
    if whole_only and not _fills_ellipse(pts, a, b):
        return None
    return (cx, cy), (a + 1.0, b + 1.0), angle  # outline pixels lie half a pixel inside


def _fills_ellipse(outline: np.ndarray, a: float, b: float) -> bool:
    """Whether a blob's outer outline encloses most of the ellipse fitted to it, as a dial's (a
    disc, or a rim ring) does; the hands' blob (a long second hand beyond the others) is thin."""
    return cv2.contourArea(outline.reshape(-1, 1, 2).astype(np.int32)) >= 0.6 * math.pi * a * b / 4


def _faint_dial_ellipse(
    rgb: np.ndarray,
) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The dial when no blob that differs clearly from the background outlines it (a cream dial
    on a pale blue ground, a faint grey rim on a dial of the background's own colour): first the
    widest blob that differs faintly (FAINT_DIFF) from the border colour, then, as before, the
    convex hull of everything that differs clearly. Without this, the hands' own blob (a long
    second hand) or their hull was taken for the dial, or no dial was found. When the hull of
    everything that differs clearly is centred on the faint outline (the marks of a dial without
    a rim), the hull is kept as before: the marks' ring is what the reader's zones were measured
    against there (taking the faint outline instead lost 5 of 3,600 dev faces)."""
    faint = _dial_ellipse(rgb, FAINT_DIFF, whole_only=True)
    hull = _dial_ellipse(rgb)
    if faint is None or hull is None:
        return faint or hull
    (fx, fy), (fa, fb), _ = faint
    (hx, hy), (ha, hb), _ = hull
    size = 0.25 * (fa + fb)
    if math.hypot(hx - fx, hy - fy) <= 0.05 * size and 0.5 * (ha + hb) >= 0.75 * (fa + fb) / 2:
        return hull
    return faint


NORM_RADIUS = 200.0  # the dial's radius after normalisation


def _normalise(
    rgb: np.ndarray, ellipse: tuple[tuple[float, float], tuple[float, float], float]
) -> np.ndarray:
    """Map the dial ellipse onto a circle of radius NORM_RADIUS in the middle of a new image.

    The map is the symmetric one (scale along the ellipse's own axes), so a clock squeezed along
    any axis comes back unturned.
    """
    (cx, cy), (a, b), angle = ellipse
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    lin = rot @ np.diag([2 * NORM_RADIUS / a, 2 * NORM_RADIUS / b]) @ rot.T
    side = int(2 * NORM_RADIUS * 1.08)
    c = (side - 1) / 2.0
    offset = np.array([c, c]) - lin @ np.array([cx, cy])
    m = np.hstack([lin, offset[:, None]])
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    bg = tuple(float(v) for v in np.median(border, axis=0))
    return cv2.warpAffine(
        rgb, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg
    )


def _pivot(ink: np.ndarray, cx: float, cy: float, radius: float) -> tuple[float, float]:
    """The hands' pivot near the dial centre: the thickest ink there (the cap, or where the
    hands meet), which under perspective is not the centre of the outline."""
    win = int(0.16 * radius)
    x0, y0 = max(0, int(cx) - win), max(0, int(cy) - win)
    patch = ink[y0 : int(cy) + win + 1, x0 : int(cx) + win + 1]
    if not patch.any():
        return cx, cy
    dist = cv2.distanceTransform(patch, cv2.DIST_L2, 5)
    ys, xs = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]]
    score = dist - 0.14 * np.hypot(xs + x0 - cx, ys + y0 - cy)
    k = int(np.argmax(score))
    py, px = divmod(k, patch.shape[1])
    if dist[py, px] < 1.5:
        return cx, cy
    # sub-pixel: centroid of the inscribed-disc centres within a pixel of the best
    top = dist >= dist[py, px] - 1.0
    near = top & (np.hypot(xs - px, ys - py) <= 3.0)
    return float(xs[near].mean() + x0), float(ys[near].mean() + y0)


def _mark_points(
    offsets: tuple[np.ndarray, np.ndarray], windows: tuple[float, ...] = (11.0,) * 4
) -> np.ndarray | None:
    """Where the dial's marks stand around each of the twelve hours, seen from the pivot: the ink
    centroid (x, y relative to the pivot) of the numerals and ticks near each hour (``offsets``:
    :func:`_mark_offsets`), re-centred a few times on its own direction (once per entry of
    ``windows``, the degrees either side taken at that step). NaN where an hour shows
    no marks (a hand covers it); None when the marks' zone holds almost no ink."""
    dx, dy = offsets
    if len(dx) < 60:
        return None
    ang = np.degrees(np.arctan2(dx, -dy)) % 360.0
    pts = np.full((12, 2), np.nan)
    for k in range(12):
        guess = 30.0 * k
        for half in windows:
            near = np.abs((ang - guess + 180.0) % 360.0 - 180.0) <= half
            if near.sum() < 5:
                break
            mx, my = dx[near].mean(), dy[near].mean()
            guess = math.degrees(math.atan2(mx, -my))
        else:
            pts[k] = mx, my
    return pts


def _mark_angles(pts: np.ndarray | None) -> np.ndarray | None:
    """Clock angles (degrees) of the twelve hour positions as the dial's marks show them, seen
    from the pivot (the directions of :func:`_mark_points`). NaN where an hour shows no marks;
    None when fewer than nine hours show marks."""
    if pts is None or np.isnan(pts[:, 0]).sum() > 3:
        return None
    return np.degrees(np.arctan2(pts[:, 0], -pts[:, 1])) % 360.0


def _line_normal_equations(
    lines: list[tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """The least-squares meeting point of lines (point, unit direction): the system m x = v."""
    m = np.zeros((2, 2))
    v = np.zeros(2)
    for p, d in lines:
        proj = np.eye(2) - np.outer(d, d)
        m += proj
        v += proj @ p
    return m, v


def _line_distances(lines: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> list[float]:
    """Each line's distance from the point ``x``."""
    return [float(np.linalg.norm((np.eye(2) - np.outer(d, d)) @ (x - p))) for p, d in lines]


def _mark_centre(
    pts: np.ndarray | None, centre: tuple[float, float], radius: float
) -> tuple[float, float] | None:
    """The image of the dial's centre as the marks show it: where the lines joining opposite
    hours' marks (12 and 6, 1 and 7, ...) cross. Straight lines stay straight under a perspective
    view (and under the affine normalisation), so every diameter still passes through the centre's
    image, which is not the outline ellipse's centre; the hands' cap can be hidden or joined by a
    hand's tail. ``pts``: :func:`_mark_points` seen from ``centre`` (the current pivot guess; a
    few pixels off moves them by well under their 22-degree window); ``radius``: the marks'
    zone. None unless four or more
    opposite pairs show and the lines meet tightly (within 1.2 px rms, the worst pair dropped
    while more than four remain)."""
    if pts is None:
        return None
    lines = []
    for k in range(6):
        a, b = pts[k], pts[k + 6]
        if np.isnan(a).any() or np.isnan(b).any():
            continue
        d = b - a
        length = float(np.hypot(*d))
        if length < 0.9 * radius:  # both marks well out from the pivot
            continue
        lines.append((a, d / length))
    while len(lines) >= 4:
        m, v = _line_normal_equations(lines)
        sol = np.linalg.solve(m, v)
        miss = _line_distances(lines, sol)
        if math.sqrt(sum(x * x for x in miss) / len(miss)) <= MARK_CENTRE_RMS:
            return float(sol[0] + centre[0]), float(sol[1] + centre[1])
        # a mark half-hidden by a hand (its ink joins the hand's) has its centroid off: drop it
        del lines[int(np.argmax(miss))]
    return None


def _angle_mapper(marks: np.ndarray | None, rotation: float):  # noqa: ANN202
    """A function from a seen hand angle to the dial angle it points at.

    Without usable marks: subtract the dial's turn. Otherwise the marks' departures from their
    hour positions are fitted, robustly, with a smooth curve (constant plus first and second
    harmonics of the angle: a turn, a tilt, a warp); when that curve explains the marks clearly
    better than a plain turn, hand angles are corrected by it."""

    def turned(a: float) -> float:
        return (a - rotation) % 360.0

    if marks is None:
        return turned
    ok = ~np.isnan(marks)
    nominal = 30.0 * np.nonzero(ok)[0]
    dev = (marks[ok] - nominal - rotation + 180.0) % 360.0 - 180.0 + rotation
    if np.abs(dev - rotation).max() > 25.0:
        return turned
    # The departures are a function of the angle seen (session 5): a warp moves each point by
    # w sin(2(a - p)) of the angle a where it is seen, so the curve is exact in that variable
    # and needs no inversion (as a function of the hour's own angle it has a 4th harmonic
    # of w^2, ~0.85 deg at w = 7 deg).
    t = np.radians(marks[ok])
    basis = np.column_stack([np.ones_like(t), np.cos(t), np.sin(t), np.cos(2 * t), np.sin(2 * t)])
    use = np.ones(len(t), bool)
    coef = np.zeros(5)
    for _ in range(3):  # drop marks that a hand half-hides (their centroid is off)
        coef, *_ = np.linalg.lstsq(basis[use], dev[use], rcond=None)
        resid = np.abs(dev - basis @ coef)
        worst = int(np.argmax(np.where(use, resid, -1.0)))
        if resid[worst] <= 2.0 or use.sum() <= 8:
            break
        use[worst] = False
    fit_rms = float(np.sqrt(np.mean((dev - basis @ coef)[use] ** 2)))
    flat_rms = float(np.sqrt(np.mean((dev[use] - np.median(dev[use])) ** 2)))
    if np.hypot(*coef[3:]) < 1.5 or fit_rms > 0.6 * flat_rms:
        turn = float(np.median(dev[use]))
        return lambda a: (a - turn) % 360.0

    def mapped(a: float) -> float:
        r = math.radians(a)
        d = coef @ np.array([1.0, math.cos(r), math.sin(r), math.cos(2 * r), math.sin(2 * r)])
        return (a - d) % 360.0

    return mapped


_add = np.add.reduce


def _dial_marks(marks: np.ndarray, scene: _Scene, radius: float) -> np.ndarray | None:
    """The hour positions as the marks show them, for correcting hand angles (session 5): as
    :func:`_mark_angles`, but with the marks out to 0.98 of the radius and a narrower window
    (``marks``: :func:`_mark_ink` of ``scene``, computed once by the caller).

    The marks' zone of the pivot search ends at ``MARK_ZONE`` (0.93) of the radius; a dial
    without a rim is the hull of its marks, so its ticks stand beyond that and none were seen
    (no correction at all under a warp). Rims and rings are already out of the mark ink (long
    blobs); the zone ends at ``MARK_OUTER`` (0.98), short of the dial's own edge, whose
    anti-aliased fringe a plain dial would otherwise show as marks towards the crop's corners.
    The window is ``MARK_WINDOW`` (8) degrees either side instead of 11 (after two steps at 11
    to centre on the mark, so a wide numeral is not cut on one side): a warp squeezes the spacing on
    one side of an hour and widens it on the other (up to 1 +- 2w, ~1 +- 0.24), so the minute
    ticks 12 degrees away fell inside the 11-degree window on one side only and pulled the
    hour's centroid by up to a degree or two."""
    ys, xs = np.nonzero(marks)
    dx, dy = xs - scene.pivot[0], ys - scene.pivot[1]
    d2 = dx * dx + dy * dy
    zone = (d2 >= (0.45 * MARK_ZONE * radius) ** 2) & (d2 <= (MARK_OUTER * radius) ** 2)
    dx, dy = dx[zone].astype(np.float64), dy[zone].astype(np.float64)
    if len(dx) < 60:
        return None
    # as _mark_points, with the points sorted by angle so that each window is a slice
    ang = np.degrees(np.arctan2(dx, -dy)) % 360.0
    order = np.argsort(ang)
    ang, dx, dy = ang[order], dx[order], dy[order]
    sorted_ang, n = ang.tolist(), len(ang)  # bisect on a list: searchsorted's indices, cheaper
    pts = np.full((12, 2), np.nan)
    for k in range(12):
        guess = 30.0 * k
        for step in range(5):
            half = 11.0 if step < 2 else MARK_WINDOW  # centre on the mark first
            lo, hi = (guess - half) % 360.0, (guess + half) % 360.0
            i, j = bisect.bisect_left(sorted_ang, lo), bisect.bisect_right(sorted_ang, hi)
            count = j - i if lo <= hi else n - i + j
            if count < 5:
                break
            # the mean as ndarray.mean takes it (the same sum, then / count), of a slice: the
            # same values in the same order as indexing them
            if lo <= hi:
                mx, my = _add(dx[i:j]) / count, _add(dy[i:j]) / count
            else:
                mx = _add(np.concatenate((dx[i:], dx[:j]))) / count
                my = _add(np.concatenate((dy[i:], dy[:j]))) / count
            guess = math.degrees(math.atan2(mx, -my))
        else:
            pts[k] = mx, my
    return _mark_angles(pts)


@dataclass
class _Scene:
    """One look at a normalised dial from a pivot: the hand rays and what the angles need."""

    rays: list[_Track]
    ink: np.ndarray  # crop around the pivot
    hands: np.ndarray  # ink connected to the pivot (crop)
    pivot: tuple[float, float]  # in the crop
    origin: tuple[int, int]  # crop offset in the normalised image
    tracks: list[_Track] = field(default_factory=list)  # every track, junctions too (s11-19l)


def _look(rgb: np.ndarray, cx: float, cy: float, radius: float) -> _Scene | None:
    dial = _dial_color(rgb, cx, cy, radius)
    half = int(HAND_ZONE * radius)
    x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
    window = (slice(y0, int(cy) + half + 1), slice(x0, int(cx) + half + 1))
    diff = np.ascontiguousarray(_max_channel_diff(np.ascontiguousarray(rgb[window]), dial))
    ink = ((diff > INK_DIFF) * 255).astype(np.uint8)
    ccx, ccy = cx - x0, cy - y0

    # the hands, roughly: the ink that is connected to the centre (for telling marks apart)
    ix, iy = round(ccx), round(ccy)
    near_centre = ink[max(0, iy - 2) : iy + 3, max(0, ix - 2) : ix + 3]
    ys, xs = np.nonzero(near_centre)
    if len(ys) == 0:
        return None
    seed = (max(0, ix - 2) + int(xs[0]), max(0, iy - 2) + int(ys[0]))
    fill = np.zeros((ink.shape[0] + 2, ink.shape[1] + 2), np.uint8)
    cv2.floodFill(ink, fill, seed, 0, 0, 0, 8 | cv2.FLOODFILL_MASK_ONLY | (255 << 8))
    hands = fill[1:-1, 1:-1]

    n_r = half
    polar = cv2.warpPolar(diff, (n_r, N_THETA), (ccx, ccy), n_r, flags=POLAR_LINEAR)
    # (angle, radius) -> (radius, clock angle): polar rows start at 3 o'clock = 90 degrees
    polar = np.roll(polar.T, N_THETA // 4, axis=1)
    on = polar > RUN_DIFF
    # the centre cap: from the pivot out, until it covers less than half of a circle
    covered = on.mean(axis=1)
    open_r = np.nonzero(covered < 0.5)[0]
    if len(open_r) == 0:
        return None
    r_stop = int(open_r[0])
    if r_stop >= n_r - 1:
        return None
    # Hands are straight runs of ink out of the pivot: keep, on every ray from the pivot, only the
    # ink that is connected along the ray to the cap (gaps of a pixel bridged). Numerals and ticks
    # that a hand crosses add only the sliver in line with the hand; marks that no hand reaches,
    # rings and labels drop out.
    bridged = cv2.morphologyEx(on.view(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 1), np.uint8))
    run = np.logical_and.accumulate(bridged[r_stop:].astype(bool), axis=0)
    polar = polar[r_stop:] * run
    r_first = n_r - 1
    runs = _polar_runs(np.ascontiguousarray(polar[::-1]), r_first)
    if runs is None:
        return None
    every = _rejoin_tips(_tracks(runs, r_first), radius)
    tracks = [t for t in every if not (t.merged or t.absorbed) and len(t.radii) >= MIN_RADII]
    if not tracks:
        return None
    longest = max(t.tip for t in tracks)
    if longest < 0.15 * radius:
        return None
    rays = sorted((t for t in tracks if t.tip >= MIN_HAND * longest), key=lambda t: -t.tip)
    return _Scene(_distinct(rays), ink, hands, (ccx, ccy), (x0, y0), every)


def _rejoin_tips(tracks: list[_Track], radius: float) -> list[_Track]:
    """A hand whose tip touches a numeral, a tick or a label: followed from the outside in, the
    mark's strokes and the hand's tip are several rays that meet where the hand goes on, and the
    hand's long inner part starts as a junction (``merged``), which is no hand tip and was
    dropped; the strokes were left as short rays whose fitted axes point anywhere. A junction
    ray that runs a long way in, all of whose parents (the rays that end where it starts) are
    short, as deep as a mark (MARK_DEPTH of the radius; a second hand's free end beyond the minute
    hand's tip is longer), and close together (within MARK_SPREAD of the radius: the strokes of
    one numeral; two hands' ends lying side by side are further apart), is such a hand: the parents' ink is joined onto it (summed per circle, its
    angle the ink-weighted mean) and the parents are dropped."""
    out = []
    for m in tracks:
        if not m.merged or m.absorbed or len(m.radii) < 8:
            out.append(m)
            continue
        extent = m.tip - m.radii[-1]
        # the parents end on the junction's run: within half its width (plus 2 px) of its centre
        reach = (0.5 * m.sums[0] / m.contrast + 2.0) / max(m.tip, 1)
        tol = max(3.0 / BIN_DEG, reach / BIN_RAD)
        parents = [
            t
            for t in tracks
            if not t.merged
            and not t.absorbed
            and t.radii
            and 0 < t.radii[-1] - m.tip <= GAP + 1
            and _bin_dist(t.centres[-1], m.centres[0]) <= tol
        ]
        if (
            extent < 0.2 * radius
            or m.radii[-1] > 0.35 * m.tip
            or not parents
            or any(t.tip - t.radii[-1] >= min(0.6 * extent, MARK_DEPTH * radius) for t in parents)
            or _spread_px(parents, m.tip) > MARK_SPREAD * radius
        ):
            out.append(m)
            continue
        by_r: dict[int, list[tuple[float, float, float]]] = {}
        for t in parents:
            for r, c, sm, pk in zip(t.radii, t.centres, t.sums, t.peaks, strict=True):
                by_r.setdefault(r, []).append((c, sm, pk))
            t.absorbed = True
        joined = _Track(tip=max(by_r))
        ref = m.centres[0]
        for r in sorted(by_r, reverse=True):
            items = by_r[r]
            total = sum(sm for _, sm, _ in items)
            off = [((c - ref + N_THETA / 2) % N_THETA) - N_THETA / 2 for c, _, _ in items]
            weights = [max(sm, 1e-9) for _, sm, _ in items]
            centre = ref + sum(o * w for o, w in zip(off, weights, strict=True)) / sum(weights)
            joined.radii.append(r)
            joined.centres.append(centre % N_THETA)
            joined.sums.append(total)
            joined.peaks.append(max(pk for _, _, pk in items))
        joined.radii += m.radii
        joined.centres += m.centres
        joined.sums += m.sums
        joined.peaks += m.peaks
        out.append(joined)
    return out


def _spread_px(parents: list[_Track], r: float) -> float:
    """How far apart (in pixels along the circle of radius ``r``) the rays' inner ends lie."""
    ends = [t.centres[-1] for t in parents]
    return max(_bin_dist(a, b) for a in ends for b in ends) * BIN_RAD * r


def _outer_hand_from(t: _Track) -> float:
    """Where the outer hand of a ray holding two hands begins: beyond a clear step up in width
    (a wider, shorter hand lying under a longer one) only the longer hand's ink is left, so only
    that part of the ray has one hand's axis. 0 where the ray shows no such step (session 5:
    with an hour hand under the minute hand, the axis fitted through both leaned towards the
    hour hand and moved the pivot 8-9 px along the second hand on small matplotlib dials)."""
    ratio, rho = _step(t)
    if ratio <= STEP_RATIO or t.tip - rho < 0.3 * t.tip:
        return 0.0
    return rho + 2.0


def _ray_lines(scene: _Scene, count: int | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The fitted axes (point, unit direction; crop coordinates) of ``scene``'s first ``count``
    rays (all: None), each over its straight middle, 0.3-0.85 of the ray (of two rays, only the
    outer hand's part: :func:`_outer_hand_from`); a ray with too few points gives none."""
    lines = []
    for t in scene.rays[:count]:
        r, c, _ = t.arrays()
        keep = (r >= 0.3 * t.tip) & (r <= 0.85 * t.tip)
        if len(scene.rays) == 2:  # one hand lies under another: fit the outer hand only
            keep &= r >= _outer_hand_from(t)
        if keep.sum() < 6:
            continue
        a = np.radians(c[keep] * BIN_DEG)
        x = scene.pivot[0] + r[keep] * np.sin(a)
        y = scene.pivot[1] - r[keep] * np.cos(a)
        pts = np.column_stack([x, y])
        mean = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - mean, full_matrices=False)
        lines.append((mean, vt[0]))
    return lines


def _axes_meet(scene: _Scene) -> tuple[float, float] | None:
    """Where the hands' axes cross (least squares over the straight middle of every ray), in
    normalised image coordinates; None unless two rays at a clear angle are seen; (nan, nan)
    when three or more axes clearly miss one common point."""
    lines = _ray_lines(scene)
    if len(lines) < 2:
        return None
    m, v = _line_normal_equations(lines)
    if np.linalg.eigvalsh(m)[0] < 0.25:  # the axes are (nearly) parallel
        return None
    sol = np.linalg.solve(m, v)
    # Three or more axes that do not pass through one point: hands drawn beside their pivot
    # (an off-centre rectangle), not a view to correct.
    miss = _line_distances(lines, sol)
    if len(lines) >= 3 and max(miss) > 0.8:
        return math.nan, math.nan
    return float(sol[0] + scene.origin[0]), float(sol[1] + scene.origin[1])


def read_clock(image: Image.Image) -> ClockTime | None:
    """Read the time shown by an analogue clock image; None when it is not readable."""
    rgb = np.ascontiguousarray(np.asarray(image.convert("RGB") if image.mode != "RGB" else image))
    if max(rgb.shape[:2]) > MAX_SIDE:  # large images carry no extra information worth the time
        scale = MAX_SIDE / max(rgb.shape[:2])
        size = (round(rgb.shape[1] * scale), round(rgb.shape[0] * scale))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
    ellipse = _dial_ellipse(rgb, whole_only=True) or _faint_dial_ellipse(rgb)
    if ellipse is None:
        return None
    (ex, ey), (ea, eb), e_angle = ellipse
    shrink = NORM_RADIUS / (0.5 * max(ea, eb))
    if shrink < PRE_SHRINK_BELOW:
        # A plain linear warp that shrinks a lot skips pixels, and a 1-pixel hand can vanish
        # between its samples; averaging first keeps its ink (as a paler, still visible line).
        # A slight shrink is left to the warp: averaging there blurs a needle's width profile.
        size = (max(1, round(rgb.shape[1] * shrink)), max(1, round(rgb.shape[0] * shrink)))
        fx, fy = size[0] / rgb.shape[1], size[1] / rgb.shape[0]
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        ellipse = (
            ((ex + 0.5) * fx - 0.5, (ey + 0.5) * fy - 0.5),
            (ea * math.sqrt(fx * fy), eb * math.sqrt(fx * fy)),
            e_angle,
        )
    pre = (rgb, ellipse)  # for labels outside the outline (clock_outer_marks, s16-19x)
    rgb = _normalise(rgb, ellipse)
    centre = (rgb.shape[0] - 1) / 2.0
    radius = NORM_RADIUS
    dial = _dial_color(rgb, centre, centre, radius)
    full_ink = ((_max_channel_diff(rgb, dial) > INK_DIFF) * 255).astype(np.uint8)
    cx, cy = _pivot(full_ink, centre, centre, radius)
    scene = _look(rgb, cx, cy, radius)
    if scene is None:
        return None
    for _ in range(2):
        # The hands pivot where their axes meet (under perspective not at the outline's centre;
        # without a cap not where the ink is thickest). Undoing the perspective from that point
        # (its polar line is the image of the line at infinity) was tried and read worse than
        # keeping the view and letting the marks' fitted curve correct the angles.
        meet = _axes_meet(scene)
        if meet is not None and math.isnan(meet[0]):
            # Hands drawn beside their pivot (off-centre rectangles, no cap): neither their
            # thickest ink nor their axes mark the pivot; the outline's centre does.
            if math.hypot(cx - centre, cy - centre) > 1.5:
                from chronoeval.suites.lost_in_time.clock_confirm import shows_less_hand

                alt = _look(rgb, centre, centre, radius)
                if alt is not None and not shows_less_hand(scene, alt, radius):  # s9-19g
                    scene = alt
            break
        if meet is None or not 1.5 < math.hypot(meet[0] - cx, meet[1] - cy) < 0.2 * radius:
            break
        cx, cy = meet
        scene = _look(rgb, cx, cy, radius) or scene
    from chronoeval.suites.lost_in_time.clock_pivot import finer_pivot

    finer = finer_pivot(rgb, scene, radius, meet)  # a thin hand cut short a pixel off the pivot
    if finer is not scene:
        scene = finer
        cx, cy = scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1]
    if len(scene.rays) < 3 and math.hypot(cx - centre, cy - centre) > 1.5:
        # A thick hand can pull the first pivot guess a few pixels along its own axis; from there
        # a thin hand's ray misses its ink. The outline's centre is then the better pivot where
        # clock_perspective.centre_look_better says so.
        alt = _look(rgb, centre, centre, radius)
        from chronoeval.suites.lost_in_time.clock_perspective import centre_look_better

        if centre_look_better(scene, alt, radius):  # not where it loses hands (s9-19g)
            scene = alt
            meet = _axes_meet(scene)
            if (
                meet is not None
                and not math.isnan(meet[0])
                and 1.5 < math.hypot(meet[0] - centre, meet[1] - centre) < 0.2 * radius
            ):
                scene = _look(rgb, meet[0], meet[1], radius) or scene
    # Under perspective the hands' pivot is the image of the dial's centre, where the lines
    # joining opposite marks cross; the thickest ink (a cap joined by a hand's tail) and two
    # hands' axes at a narrow angle can both miss it by several pixels, and a thin second hand
    # seen from a point beside it is lost.
    marks = _mark_ink(scene.ink, scene.hands, radius)
    offsets = _mark_offsets(marks, scene.pivot, MARK_ZONE * radius)
    points = _mark_points(offsets)
    mc = _mark_centre(points, scene.pivot, MARK_ZONE * radius)
    crossed = mc is not None  # the marks place the pivot (s11-19k)
    if mc is None and points is not None:  # ... seen around the outline's centre (s9-19g)
        from chronoeval.suites.lost_in_time.clock_perspective import outline_crossing_look

        alt = outline_crossing_look(rgb, full_ink, scene, radius, centre)
        if alt is not None:
            scene, crossed = alt, True
            marks = _mark_ink(scene.ink, scene.hands, radius)
            offsets = _mark_offsets(marks, scene.pivot, MARK_ZONE * radius)
            points = _mark_points(offsets)
    from chronoeval.suites.lost_in_time.clock_confirm import hands_confirm_pivot

    if mc is not None:
        mx, my = mc[0] + scene.origin[0], mc[1] + scene.origin[1]
        here = (scene.pivot[0] + scene.origin[0], scene.pivot[1] + scene.origin[1])
        near = MARK_PIVOT_MIN < math.hypot(mx - here[0], my - here[1]) < 0.2 * radius
        # three hands' axes meeting where the reader stands outweigh the marks' crossing (s. 7)
        if near and not hands_confirm_pivot(scene, radius):
            alt = _look(rgb, mx, my, radius)
            from chronoeval.suites.lost_in_time.clock_confirm import shows_less_hand

            if alt is not None and not shows_less_hand(scene, alt, radius):
                scene = alt
                marks = _mark_ink(scene.ink, scene.hands, radius)
                offsets = _mark_offsets(marks, scene.pivot, MARK_ZONE * radius)
                points = _mark_points(offsets)
    from chronoeval.suites.lost_in_time.clock_ink_axes import ink_axes_look

    # no marks' crossing: the pivot where the hands' ink lines meet (s11-19k)
    alt = None if crossed else ink_axes_look(rgb, scene, radius)
    if alt is not None:
        scene = alt
        marks = _mark_ink(scene.ink, scene.hands, radius)
        offsets = _mark_offsets(marks, scene.pivot, MARK_ZONE * radius)
    rays = scene.rays
    rotation = _rotation(offsets)
    from chronoeval.suites.lost_in_time.clock_outline_marks import outline_dial_marks

    # on a dial whose outline is no ellipse, the marks' ring follows the outline (s10-19j)
    dial_marks = outline_dial_marks(rgb, full_ink, scene, radius, centre)
    if dial_marks is None:
        from chronoeval.suites.lost_in_time.clock_rim_ticks import rim_tick_marks

        # where the marks do not lie on one curve, ticks joined to the rim kept (s12-19n)
        dial_marks = _dial_marks(marks, scene, radius)
        dial_marks = rim_tick_marks(dial_marks, full_ink, scene, radius, centre)
    if dial_marks is None:  # no marks inside: labels outside the outline (s16-19x)
        from chronoeval.suites.lost_in_time.clock_outer_marks import outer_dial_marks

        dial_marks = outer_dial_marks(pre, scene, radius, centre)
    to_dial = _angle_mapper(dial_marks, rotation)
    from chronoeval.suites.lost_in_time.clock_loose_angles import note_marks_fit

    note_marks_fit(to_dial, dial_marks)  # how loose the face's angles are (s13-19q)
    if len(rays) >= 3:
        odd = _odd_colour(rays[:4], rgb, dial, scene)
        from chronoeval.suites.lost_in_time.clock_late_minute import late_minute

        reading = _assign_by_consistency(rays, radius, to_dial, odd)
        return late_minute(reading, rays, rgb, dial, scene, radius, to_dial)
    from chronoeval.suites.lost_in_time.clock_junction import junction_reading

    met = junction_reading(scene, rgb, dial, radius, to_dial)  # tips in a junction (s11-19l)
    if met is not None:
        return met
    coloured = len(rays) == 2 and _colours_differ(rays, rgb, dial, scene)
    from chronoeval.suites.lost_in_time.clock_stripes import stripe_before_colour

    # a stripe down a ray is looked for once: before the colour rule (clock_stripes), or after
    # _identify found no second hand
    stripe_first = coloured and stripe_before_colour(rays, radius)
    if stripe_first:  # ... and where the stripe lies on a hand of the other ray's colour (s7-19e)
        from chronoeval.suites.lost_in_time.clock_stripe_guards import stripe_on_alike_hands

        stripe_first = stripe_on_alike_hands(rays, rgb, dial, scene)
    if stripe_first:
        striped = _second_in_stripe(rays, rgb, dial, scene, radius, to_dial)
        if striped is not None:
            return striped
    second_a, minute_a, hour_a = _identify(rays, radius, coloured)
    from chronoeval.suites.lost_in_time.clock_own_point import point_not_needle

    if point_not_needle(rays, rgb, dial, scene, radius, second_a, hour_a):  # s16-19w: the
        # minute hand's own point, not a needle over it
        second_a, minute_a, hour_a = None, _pivot_angle(rays[0]), _pivot_angle(rays[1])
    if second_a is None and len(rays) == 2:
        striped = None
        if not stripe_first:
            striped = _second_in_stripe(rays, rgb, dial, scene, radius, to_dial)
        if striped is None:
            from chronoeval.suites.lost_in_time.clock_stripes import second_beside_axis

            striped = second_beside_axis(rays, rgb, dial, scene, radius, to_dial)
        if striped is not None:
            from chronoeval.suites.lost_in_time import clock_wider_hour as wh

            return wh.hour_on_wider_ray(rays, to_dial, striped, rgb, dial, scene, radius)
    if (
        second_a is None
        and len(rays) == 2
        and not isinstance(hour_a, tuple)
        and hour_a != minute_a
        and rays[0].tip <= 1.05 * rays[1].tip
    ):
        # two hands of (nearly) one length, no second hand: which is the minute hand by the
        # consistency of the readings and the conventions, on the hands' fitted axes (as with
        # three rays), not by a pixel or two of length (session 5)
        return _assign_by_consistency(rays, radius, to_dial)
    if hour_a == minute_a:  # minute and hour read on one ray: two hands at a small angle?
        from chronoeval.suites.lost_in_time.clock_bars import split_bars

        split = split_bars(rays, minute_a, second_a, rgb, dial, scene, radius, to_dial)
        if split is not None:
            return split
    if len(rays) == 2 and second_a is not None and not isinstance(hour_a, tuple):
        # s9-19h: only where split_bars found no two hands on one ray
        from chronoeval.suites.lost_in_time.clock_hidden_hour import hour_under_other_ray

        hour_a = hour_under_other_ray(rays, to_dial, second_a, minute_a, hour_a)
    second = 0
    if second_a is not None:
        second = round(to_dial(second_a) / 6.0) % 60
    # Hands on top of each other: the minute angle read off a shared ray leans towards the
    # second hand, so only the sweeping reading is trusted here (no stepping hypothesis).
    minute = round(((to_dial(minute_a) - 0.1 * second) % 360.0) / 6.0) % 60
    if isinstance(hour_a, tuple):  # two candidate angles for a hidden hour hand
        cands = [_hour_residual(to_dial(a), minute, second) for a in hour_a]
        hour = min(cands, key=lambda c: c[1])[0]
    else:
        hour = _hour_residual(to_dial(hour_a), minute, second)[0]
    reading = ClockTime(hour or 12, minute, second)
    from chronoeval.suites.lost_in_time import clock_bare_needle as bn
    from chronoeval.suites.lost_in_time import clock_hidden_minute as hm
    from chronoeval.suites.lost_in_time import clock_off_line as ol
    from chronoeval.suites.lost_in_time import clock_two_hands as th

    # The two-ray rules, in order; the first that finds a better reading wins: which hands the
    # two rays hold, again by the consistency of the readings (s8-19f); a thin end off the hand's
    # axis is no point of that hand (s9-19h); the hand under the needle, longer than the other
    # ray the minute hand, shorter the hour hand (s10-19i); minute and hour hand beside a needle
    # of one width (s15-19t)
    case = th.TwoRays(rays, rgb, dial, scene, radius, to_dial, second_a, minute_a, hour_a, reading)
    alt = None
    for rule in (
        th.two_rays_by_consistency,
        ol.second_off_the_line,
        hm.minute_under_needle,
        hm.hour_under_needle,
        bn.hands_beside_needle,
    ):
        alt = alt or rule(case)
    if alt is None and second_a is None and not isinstance(hour_a, tuple):
        from chronoeval.suites.lost_in_time.clock_needle_beyond import needle_beyond_minute

        # a needle over the minute hand, seen only past its point (s13-19p)
        alt = needle_beyond_minute(rays, radius, to_dial, hour_a, reading)
    from chronoeval.suites.lost_in_time import clock_wider_hour as wh

    # the hour hand is no narrower than the minute hand (s16-19y)
    return wh.hour_on_wider_ray(rays, to_dial, alt or reading, rgb, dial, scene, radius)


def _axis_angle(t: _Track, r_min: float, r_max: float) -> float | None:
    """Direction of a ray's fitted axis (a straight line through its run centres, pointing
    outwards). A hand drawn a little beside its pivot, or a pivot found a pixel or two off,
    turns the angle seen from the pivot but not the hand's own direction."""
    line = _axis_line(t, r_min, r_max)
    if line is None:
        return None
    d = line[1]
    return math.degrees(math.atan2(d[0], -d[1])) % 360.0


def _axis_line(t: _Track, r_min: float, r_max: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The straight line through a ray's run centres between radii ``r_min`` and ``r_max``
    (image coordinates about the pivot, y up): a point on it (the centres' mean) and its unit
    direction, pointing outwards; None on fewer than 6 circles."""
    r, c, _ = t.arrays()
    keep = (r >= r_min) & (r <= r_max)
    if keep.sum() < 6:
        return None
    a = np.radians(c[keep] * BIN_DEG)
    pts = np.column_stack([r[keep] * np.sin(a), -r[keep] * np.cos(a)])
    mean = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - mean, full_matrices=False)
    return mean, (vt[0] if float(vt[0] @ mean) >= 0 else -vt[0])


def _pivot_angle(t: _Track) -> float:
    """A ray's angle seen from the pivot over its outer part (no fitted axis), or its first
    centre's bin where that part shows no ink."""
    a = _angle(t, 0.55 * t.tip, t.tip - 2)
    return a if a is not None else t.centres[0] * BIN_DEG


def _track_angle(t: _Track) -> float:
    a = _axis_angle(t, AXIS_FROM * t.tip, t.tip - 2)
    return a if a is not None else _pivot_angle(t)


def _mid_width(t: _Track, contrast: float) -> float:
    r, _, w = t.arrays(contrast)
    keep = (r >= 0.45 * t.tip) & (r <= 0.8 * t.tip)
    return float(np.median(w[keep])) if keep.any() else _outer_width(t, contrast)


def _tapered(t: _Track, contrast: float) -> bool:
    """A hand that narrows gradually all the way to its point (leaf, sword, tapered): its width
    falls from near the pivot through the middle to near the tip, and no short stretch holds
    most of that fall (a needle lying over a wider hand shows the whole rise in one step)."""
    r, _, w = t.arrays(contrast)
    outer = w[(r >= 0.8 * t.tip) & (r <= 0.88 * t.tip)]
    inner = w[(r >= 0.3 * t.tip) & (r <= 0.45 * t.tip)]
    if len(outer) < 3 or len(inner) < 3:
        return False
    w_out, w_in = float(np.median(outer)), float(np.median(inner))
    rise = w_in - w_out
    if rise < 1.0 or w_in < 1.6 * max(w_out, 0.3):
        return False
    middle = w[(r >= 0.6 * t.tip) & (r <= 0.68 * t.tip)]
    if len(middle) < 3 or not w_in >= float(np.median(middle)) >= 1.3 * max(w_out, 0.3):
        return False  # not narrowing all along: a needle over a shorter, wider hand
    # a needle's end stays parallel for a while; a point widens at once
    end = w[(r <= t.tip - 3) & (r >= t.tip - 8)]
    if len(end):
        w_end = max(float(np.median(end)), 0.3)
        wide = np.nonzero((w >= 1.5 * w_end) & (r <= t.tip - 3))[0]
        if len(wide) and t.tip - float(r[wide[0]]) >= 0.12 * t.tip:
            return False
    ws = w[(r >= 0.3 * t.tip) & (r <= 0.88 * t.tip)]  # tip side first
    if len(ws) < 12:
        return False
    ws = np.convolve(ws, np.ones(3) / 3.0, mode="valid")
    jump = float(np.max(ws[3:] - ws[:-3]))
    return jump < 0.3 * rise


def _needle(t: _Track, contrast: float, radius: float) -> bool:
    """A second hand's end: thin (below THIN_HAND of the dial radius) with parallel sides. The
    pointed end of a sword, leaf or tapered hand is as thin at its very tip but widens inwards.
    A needle that ends on a tick mark looks wide there (the mark's ink in line with it), so a ray
    whose middle is needle-thin is a needle whatever its end looks like."""
    if _tapered(t, contrast):
        return False
    if _mid_width(t, contrast) < THIN_HAND * radius:
        return True
    if _outer_width(t, contrast) >= THIN_HAND * radius:
        return False
    r, _, w = t.arrays(contrast)
    # A needle over a wider hand stays parallel from its tip to where the other hand begins; a
    # sword's, leaf's or tapered hand's point keeps widening all along its thin part.
    rho_wide = _first_rise(r, w, t.tip - 2, THIN_HAND * radius, 1.0, window=3)
    if rho_wide is not None:
        part = w[(r <= t.tip - 2) & (r > rho_wide)]  # tip first
        if len(part) >= 8:
            q = len(part) // 4
            if float(np.median(part[-q:])) > 1.8 * max(float(np.median(part[:q])), 0.4):
                return False
            if _point_into_mark(part, q):
                return False
    keep = (r >= t.tip - max(6.0, 0.06 * t.tip)) & (r <= t.tip - 2)
    if keep.sum() < 4:
        return True
    slope = np.polyfit(r[keep], w[keep], 1)[0]  # width per pixel of radius (negative: widens in)
    return bool(slope > -NEEDLE_SLOPE)


def _point_into_mark(part: np.ndarray, q: int) -> bool:
    """A pointed hand's end running into a tick or numeral (session 5): ``part`` is a ray's thin
    end, tip first, ``q`` a quarter of its length. The point narrows from where the hand is
    wide down to its narrowest stretch, and the mark at its very tip widens it again, so its
    tip is not thinner than its inner part and :func:`_needle`'s tip-against-base test passes
    it as a needle (then read as a second hand lying on the minute hand, at the minute hand's
    own angle: 11:47:00 read 11:46:47). A needle keeps its width from the other hand's end out
    to its tip; a mark at its tip widens only the tip."""
    inner = float(np.median(part[-q:]))
    runs = np.median(np.lib.stride_tricks.sliding_window_view(part, q), axis=1)
    at = int(np.argmin(runs))
    narrowest = float(runs[at])
    return at > 0 and runs[0] > 1.3 * narrowest and inner > 1.4 * max(narrowest, 0.4)


def _broken_end(t: _Track, rho: float) -> bool:
    """Whether a ray's part beyond radius ``rho`` (out to its tip) has a break: a stretch where
    its ink nearly vanishes between two inked stretches."""
    r, _, w = t.arrays()
    part = w[(r > rho + 1) & (r < t.tip - 1)]
    if len(part) < 4:
        return False
    return float(part.min()) < 0.35 * float(np.median(part))


def _colours_differ(rays: list[_Track], rgb: np.ndarray, dial: np.ndarray, scene: _Scene) -> bool:
    """Whether two rays are drawn in clearly different colours (compared as directions away from
    the dial colour, as in :func:`_odd_colour`)."""
    vecs = [_ray_colour(t, rgb, dial, scene) for t in rays[:2]]
    norms = [float(np.linalg.norm(v)) for v in vecs]
    if min(norms) <= 20:
        return False
    return float(vecs[0] @ vecs[1]) / (norms[0] * norms[1]) < 0.9


def _distinct(rays: list[_Track]) -> list[_Track]:
    """One ray per direction: a hand whose outline splits near its tip (an arrow head, a numeral
    it crosses) can leave a second, shorter track along the same direction."""
    kept: list[tuple[_Track, float]] = []
    for t in rays:  # longest first
        a = _pivot_angle(t)  # a fragment has no axis
        fragment = min(t.radii) > 0.6 * t.tip  # seen only near its own end
        if not fragment or all(abs((a - b + 180.0) % 360.0 - 180.0) > 3.0 for _, b in kept):
            kept.append((t, a))
    return [t for t, _ in kept]


def _ray_colour(t: _Track, rgb: np.ndarray, dial: np.ndarray, scene: _Scene) -> np.ndarray:
    """Median colour of a ray's middle, minus the dial colour."""
    r, c, _ = t.arrays()
    keep = (r >= 0.35 * t.tip) & (r <= 0.85 * t.tip)
    if not keep.any():
        return np.zeros(3)
    a = np.radians(c[keep] * BIN_DEG)
    x = np.rint(scene.origin[0] + scene.pivot[0] + r[keep] * np.sin(a)).astype(int)
    y = np.rint(scene.origin[1] + scene.pivot[1] - r[keep] * np.cos(a)).astype(int)
    ok = (x >= 0) & (y >= 0) & (x < rgb.shape[1]) & (y < rgb.shape[0])
    if not ok.any():
        return np.zeros(3)
    return np.median(rgb[y[ok], x[ok]].astype(np.float64), axis=0) - dial


def _odd_colour(rays: list[_Track], rgb: np.ndarray, dial: np.ndarray, scene: _Scene) -> list[bool]:
    """Per ray: drawn in a colour of its own while all other rays share one colour (a red
    second hand beside grey hands). Colours are compared as directions away from the dial
    colour, so a thin, anti-aliased needle (a paler shade of its colour) still matches itself."""
    vecs = [_ray_colour(t, rgb, dial, scene) for t in rays]
    units = [v / n if (n := float(np.linalg.norm(v))) > 20 else None for v in vecs]
    out = []
    for i, u in enumerate(units):
        others = [w for j, w in enumerate(units) if j != i]
        if u is None or len(others) < 2 or any(w is None for w in others):
            out.append(False)
            continue
        alike = all(float(a @ b) > 0.97 for k, a in enumerate(others) for b in others[k + 1 :])
        out.append(alike and all(float(u @ w) < 0.9 for w in others))
    return out


def _assign_by_consistency(
    rays: list[_Track],
    radius: float,
    to_dial,  # noqa: ANN001
    odd: list[bool] | None = None,
) -> ClockTime:
    """Second, minute and hour hands among three or more rays, chosen by how well the readings
    agree with each other (the minute hand sits 0.1 deg per second past its minute, the hour hand
    0.5 deg per minute past its hour) plus generic conventions (the second hand is the thinnest
    and needle-thin, the hour hand is shorter than the minute hand). A clock with an extra ray
    and no second hand (a tail, a crossed mark) is a hypothesis too."""
    rays = rays[:4]
    contrast = max(t.contrast for t in rays)
    info = [
        (t.tip, to_dial(_track_angle(t)), _mid_width(t, contrast), _outer_width(t, contrast))
        for t in rays
    ]
    from chronoeval.suites.lost_in_time.clock_mark_tip import mark_trimmed

    for k, t in enumerate(rays):  # a hand run into a mark at the rim ends there (s12-19o)
        cut = mark_trimmed(t, radius, rays)
        if cut is not None:
            info[k] = (cut[0], to_dial(cut[1]), info[k][2], info[k][3])
    needles = [_needle(t, contrast, radius) for t in rays]
    tails = _tails(rays, contrast, radius)
    from chronoeval.suites.lost_in_time import clock_needle_tail as nt

    tail_of = nt.needle_tails(rays, info, needles, radius, contrast)  # counterweights (s14-19s)
    hidden = nt.hidden_hours(rays, tail_of, needles, contrast, to_dial)
    odd = odd or [False] * len(rays)
    from chronoeval.suites.lost_in_time import clock_thin_second as ts  # s15-19u
    from chronoeval.suites.lost_in_time.clock_sweep import minute_reading

    # lengths closer than this are "one length" (a round cap or a wider hand's outline adds a
    # few pixels at the tip, in proportion to the dial's size)
    same = max(2.0, SAME_LENGTH * radius)
    best: tuple[float, ClockTime] | None = None
    n = len(info)
    for si in [*range(n), None]:
        for mi in range(n):
            for hi in range(n):
                if si in (mi, hi) or (mi == hi and hidden[mi] is None):
                    continue
                tip_m, a_m, w_m, _ = info[mi]
                tip_h, a_h, w_h, _ = info[hi]
                if mi == hi:  # the hour hand under the minute hand, beside a counterweight
                    a_m, a_h, tip_h, w_h = hidden[mi]
                under = nt.hour_under_needle(tail_of, si, hi)  # hi: the needle's counterweight
                if under is not None:  # ... and the hour hand lies under the needle (s14-19s)
                    a_h, (w_h, tip_h) = (a_h + 180.0) % 360.0, under
                penalty = nt.tail_penalty(tail_of, needles, si, mi, hi)
                if tip_h > 1.05 * tip_m:
                    penalty += 1.0
                elif tip_h >= tip_m - same:  # hands of (nearly) one length: the wider is the hour
                    penalty += 0.3 if w_h < 1.15 * w_m else 0.0
                if w_h < 0.8 * w_m:
                    penalty += 0.3
                if (tails[hi] and under is None) or tails[mi]:
                    penalty += 1.0  # a counterweight behind the pivot is no hour or minute hand
                if any(odd[k] for k in range(n) if k != si and (k != hi or under is None)):
                    penalty += 1.0  # a hand in a colour of its own is the second hand
                if si is None:
                    second = 0
                    sec_frac = 0.0
                    m_cont = (a_m / 6.0 + 0.5) % 60.0 - 0.5  # 59.9 past the hour is -0.1
                    minute = round(m_cont) % 60
                    penalty += 0.8 * (n - 2)
                    r_m = 0.0
                else:
                    tip_s, a_s, w_s, o_s = info[si]
                    # the thinnest hand, as long as the longest, need not be needle-thin
                    if not (needles[si] or odd[si] or ts.thin_second(info, si, tip_m, w_m, w_h)):
                        penalty += 2.0
                    if w_s > min(w_m, w_h) and not odd[si]:
                        penalty += 0.5
                    if tip_s < 0.9 * tip_m:
                        penalty += 0.3
                    if tip_s < max(tip_m, tip_h) - 2:  # a second hand is usually the longest
                        penalty += 0.4
                    penalty += 0.6 * (n - 3)
                    second = round(a_s / 6.0) % 60
                    sec_frac = second / 60.0
                    # a stepping reading must hold on the hand's inner part too (session 7)
                    minute, r_m = minute_reading(rays[mi], a_m, second, a_s, to_dial)
                    m_cont = minute + sec_frac
                hx = ((a_h - 0.5 * m_cont) % 360.0) / 30.0
                r_h = abs(hx - round(hx))
                score = 2.0 * r_m + 2.0 * r_h + penalty
                reading = ClockTime(round(hx) % 12 or 12, minute, second)
                if best is None or score < best[0]:
                    best = (score, reading)
    assert best is not None
    return best[1]


def _tails(rays: list[_Track], contrast: float, radius: float) -> list[bool]:
    """Per ray: a counterweight tail, i.e. short (under TAIL_LENGTH of the radius) and in line
    with a longer ray on the other side of the pivot (within 3 degrees of opposite) that is about
    as wide (0.75-1.33x): one bar through the pivot. An hour hand opposite the minute hand is
    longer than that, and rarely as wide."""
    angles = [_track_angle(t) for t in rays]  # fitted axes: the pivot guess may sit on the bar
    widths = [_mid_width(t, contrast) for t in rays]
    out = []
    for i, t in enumerate(rays):
        out.append(
            t.tip < TAIL_LENGTH * radius
            and any(
                j != i
                and u.tip > t.tip
                and abs((angles[i] - angles[j]) % 360.0 - 180.0) <= 3.0
                and 0.75 * widths[j] <= widths[i] <= 1.33 * widths[j]
                for j, u in enumerate(rays)
            )
        )
    return out


def _minute_reading(a_m: float, second: int, a_s: float | None = None) -> tuple[int, float]:
    """Minute and its residual (distance of the hand from where that reading puts it, in
    minutes) from the minute hand's dial angle. Most minute hands sweep (0.1 deg per second past
    the minute); some step once a minute (the hand sits on a whole minute whatever the seconds).
    The stepping reading is taken only when it fits clearly better: the two differ only when the
    seconds are past about 30, where the sweeping hand stands well past its minute."""
    x = ((a_m - 0.1 * second) % 360.0) / 6.0
    r_c = abs(x - round(x))
    y = (a_m % 360.0) / 6.0
    r_s = abs(y - round(y))
    if r_s < STEPPING_TIGHT and r_s + STEPPING_PRIOR < r_c and round(y) % 60 != round(x) % 60:
        return round(y) % 60, r_s + STEPPING_PRIOR
    if a_s is not None and round(y) % 60 != round(x) % 60 and _exact_stepping(a_s, r_s, r_c):
        return round(y) % 60, r_c
    if round(y) % 60 == round(x) % 60:
        # both readings give this minute: its residual is the better fit's (session 5; a stepping
        # hand at :27 missed the sweeping place by 0.45 min and lost the hands' choice)
        return round(x) % 60, min(r_c, r_s + STEPPING_PRIOR)
    return round(x) % 60, r_c


def _exact_stepping(
    a_s: float,
    r_s: float,
    r_c: float,
    second_deg: float = EXACT_SECOND_DEG,
    ratio: float = EXACT_FIT_RATIO,
) -> bool:
    """A stepping minute hand told from a sweeping one by a precise fit (session 4).

    Late in a minute (seconds past ~53) a sweeping minute hand stands within 0.1 min of the next
    whole minute, so the fixed prior of ``_minute_reading`` never takes the stepping reading
    there. On a face drawn precisely the pixels still tell them apart: when the second hand
    sits on a whole second to ``EXACT_SECOND_DEG`` (the face's angles are exact: no warp, no
    perspective, a clean drawing) and the minute hand on a whole minute to ``EXACT_MINUTE``,
    while the sweeping reading misses by ``EXACT_FIT_RATIO`` times as much, the hand steps.
    The returned residual stays the sweeping one, so the minute's residual in the choice of hands
    is unchanged (the minute moving by one still shifts the hour's residual slightly)."""
    second_off = abs(a_s - 6.0 * round(a_s / 6.0))
    return (
        second_off < second_deg
        and r_s < EXACT_MINUTE
        and r_c > ratio * max(r_s, 0.6 * EXACT_MINUTE)
    )


def _identify(
    rays: list[_Track], radius: float, coloured: bool = False
) -> tuple[float | None, float, float | tuple[float, float]]:
    """Angles of (second or None, minute, hour) hands; the hour may come as two candidates.
    ``coloured``: two rays whose colours differ clearly."""

    # With hands on top of each other the inner part of a ray holds two hands' ink, so here
    # the angle is the outer part's as seen from the pivot, not a fitted axis.
    full_angle = _pivot_angle

    def outer_angle(t: _Track, rho: float) -> float:
        a = _angle(t, rho + 2, t.tip - 2)
        return a if a is not None else full_angle(t)

    def inner_angle(t: _Track, rho: float) -> float:
        a = _angle(t, 0.3 * rho, rho - 2)
        return a if a is not None else full_angle(t)

    first = rays[0]
    # A needle narrower than a pixel or two never shows its full ink strength, so its width is
    # measured against the strongest hand ink of the clock rather than its own.
    contrast = max(t.contrast for t in rays)
    has_second = _needle(first, contrast, radius)
    if not has_second:  # a needle with a disc near its tip over the minute hand (s12-19m)
        from chronoeval.suites.lost_in_time.clock_disc_needle import needle_with_disc

        has_second = needle_with_disc(rays, contrast, radius)
    if not has_second:
        if len(rays) == 2:
            other = rays[1]
            ratio, rho = _step(first)
            thinner = _mid_width(other, contrast) < 0.8 * _mid_width(first, contrast)
            if (_needle(other, contrast, radius) and other.tip >= 0.9 * first.tip) or (
                coloured and thinner and other.tip >= 0.8 * first.tip
            ):
                # a needle (or a thinner hand in a colour of its own) nearly as long as the
                # longest ray, which is not thin: the second hand, and the hour hand lies under
                # the minute hand or under the needle, whichever ray shows the clearer step up
                # in width (the wider hand's end)
                o_ratio, o_rho = _step(other)
                if o_ratio > STEP_RATIO and o_ratio > ratio:
                    return outer_angle(other, o_rho), full_angle(first), inner_angle(other, o_rho)
                minute = outer_angle(first, rho) if ratio > STEP_RATIO else full_angle(first)
                hour = inner_angle(first, rho) if ratio > STEP_RATIO else minute
                return full_angle(other), minute, hour
        minute = full_angle(first)
        hour = full_angle(rays[1]) if len(rays) > 1 else minute
        return None, minute, hour
    if len(rays) >= 3:
        return full_angle(rays[0]), full_angle(rays[1]), full_angle(rays[2])
    if len(rays) == 1:  # all hands on one ray: read them where the width steps up
        r, _, w = first.arrays()
        rho_m = _first_rise(r, w, first.tip - 3, _outer_width(first), 1.8)
        if rho_m is None:
            a = full_angle(first)
            return a, a, a
        w_m = w[(r <= rho_m - 2) & (r >= rho_m - 6)]
        rho_h = None
        if len(w_m):
            rho_h = _first_rise(r, w, rho_m - 3, float(np.median(w_m)), STEP_RATIO)
        rho_h = rho_h if rho_h is not None else 0.5 * rho_m
        minute = _angle(first, max(rho_h + 2, 0.4 * rho_m), rho_m - 2)
        minute = minute if minute is not None else full_angle(first)
        hour = _angle(first, 0.3 * rho_h, rho_h - 2)
        return outer_angle(first, rho_m), minute, hour if hour is not None else minute
    other = rays[1]
    s_ratio, s_rho = _step(first)
    if other.tip / first.tip > MINUTE_OVER_NEEDLE:  # the other ray is the minute hand
        o_ratio, o_rho = _hidden_step(other, contrast)
        second = outer_angle(first, s_rho) if s_ratio > STEP_RATIO else full_angle(first)
        minute = outer_angle(other, o_rho) if o_ratio > STEP_RATIO else full_angle(other)
        hour_s = inner_angle(first, s_rho) if s_ratio > STEP_RATIO else second
        hour_o = inner_angle(other, o_rho) if o_ratio > STEP_RATIO else minute
        if s_ratio > 2 * STEP_RATIO or (s_ratio > STEP_RATIO and o_ratio < STEP_RATIO):
            return second, minute, hour_s
        if o_ratio > STEP_RATIO and s_ratio < STEP_RATIO:
            return second, minute, hour_o
        from chronoeval.suites.lost_in_time.clock_bare_needle import bare_needle

        if bare_needle(first, s_ratio):  # a needle of one width hides no hour hand (s15-19t);
            return second, minute, (hour_o, hour_o)  # still a hidden hour: no split_bars
        return second, minute, (hour_s, hour_o)
    # the other ray is the hour hand: the minute hand hides under the second hand, or there is
    # no second hand and the thin end beyond the width step is a tick or numeral stroke lined
    # up with the minute hand (a needle's end is one unbroken stroke; a mark beyond a hand's tip
    # leaves a break in the ink along the ray).
    if s_ratio > STEP_RATIO and _broken_end(first, s_rho):
        return None, full_angle(first), full_angle(other)
    from chronoeval.suites.lost_in_time.clock_one_width import one_hand

    if one_hand(first, s_ratio):  # no width step: one hand, no needle over it (s14-19r)
        return None, full_angle(first), full_angle(other)
    second = outer_angle(first, s_rho) if s_ratio > STEP_RATIO else full_angle(first)
    minute = inner_angle(first, s_rho) if s_ratio > STEP_RATIO else second
    return second, minute, full_angle(other)


def _stripe(
    t: _Track,
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: _Scene,
    inner: float = 0.35,
    outer: float = 0.8,
) -> tuple[np.ndarray, float, float] | None:
    """A stripe along a ray's axis drawn in another colour than both of the ray's sides (a thin
    second hand lying along a wider hand, drawn over it): (its colour minus the dial colour,
    the wide hand's direction, the stripe's direction), the directions in image degrees
    clockwise from 12, each a line fitted through the hand's and the stripe's centres across the
    ray; None when there is no such stripe. Sampled across the ray pixel by pixel from
    ``inner`` to ``outer`` of its length."""
    r, c, _ = t.arrays()
    keep = (r >= inner * t.tip) & (r <= outer * t.tip)
    if keep.sum() < 8:
        return None
    r, c = r[keep], c[keep]
    a = np.radians(c * BIN_DEG)
    ux, uy = np.sin(a), -np.cos(a)
    ox, oy = scene.origin[0] + scene.pivot[0], scene.origin[1] + scene.pivot[1]
    half = max(3, round(0.06 * t.tip))
    offs = np.arange(-half, half + 1, dtype=np.float64)
    xs = np.rint(ox + r[None, :] * ux[None, :] - offs[:, None] * uy[None, :]).astype(int)
    ys = np.rint(oy + r[None, :] * uy[None, :] + offs[:, None] * ux[None, :]).astype(int)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= rgb.shape[1] or ys.max() >= rgb.shape[0]:
        return None
    grid = rgb[ys, xs].astype(np.float64) - dial  # offset x radius x channel
    cols = np.median(grid, axis=1)
    strength = np.linalg.norm(cols, axis=1)
    inked = np.nonzero(strength > RUN_DIFF)[0]
    if len(inked) < 7 or strength[half] <= RUN_DIFF:
        return None
    lo, hi = int(inked[0]) + 1, int(inked[-1]) - 1  # one pixel in from the anti-aliased edges
    if hi - lo < 4 or not lo < half < hi:
        return None
    middle, side_a, side_b = cols[half], cols[lo], cols[hi]
    norms = [float(np.linalg.norm(v)) for v in (middle, side_a, side_b)]
    if min(norms) <= RUN_DIFF:
        return None
    cos_sides = float(side_a @ side_b) / (norms[1] * norms[2])
    cos_mid = max(
        float(middle @ side_a) / (norms[0] * norms[1]),
        float(middle @ side_b) / (norms[0] * norms[2]),
    )
    if cos_sides <= 0.97 or cos_mid >= 0.9:
        return None
    # per radius: the hand's centre (the middle of its ink across the ray) and the stripe's
    # centre (where the colour leans towards the stripe's rather than the sides')
    side = 0.5 * (side_a + side_b)
    ink = np.linalg.norm(grid, axis=2) > RUN_DIFF
    span = np.where(ink, offs[:, None], np.nan)
    hand_mid = 0.5 * (np.nanmin(span, axis=0) + np.nanmax(span, axis=0))
    toward = (grid - side) @ (middle - side) / float((middle - side) @ (middle - side))
    wts = np.clip(toward, 0.0, None)
    stripe_mid = (wts * offs[:, None]).sum(axis=0) / np.maximum(wts.sum(axis=0), 1e-9)

    def direction(mid: np.ndarray) -> float:
        px = ox + r * ux - mid * uy
        py = oy + r * uy + mid * ux
        return _line_through(px, py, float(ux.mean()), float(uy.mean()))[0]

    return middle, direction(hand_mid), direction(stripe_mid)


def _line_through(
    px: np.ndarray, py: np.ndarray, ux: float, uy: float
) -> tuple[float, float, float]:
    """A straight line through points: (its direction in image degrees clockwise from 12,
    pointing along (ux, uy); the rms distance of the points from it; the distance of the point
    (0, 0) from it)."""
    mx, my = float(px.mean()), float(py.mean())
    pts = np.column_stack([px - mx, py - my])
    _, sv, vt = np.linalg.svd(pts, full_matrices=False)
    d = vt[0]
    if d[0] * ux + d[1] * uy < 0:
        d = -d
    rms = float(sv[1]) / math.sqrt(len(px)) if len(sv) > 1 else 0.0
    through_origin = abs(-mx * d[1] + my * d[0])
    return math.degrees(math.atan2(d[0], -d[1])) % 360.0, rms, through_origin


def _pair_reading(
    a_m: float, a_h: float, second: int, a_s: float | None
) -> tuple[float, ClockTime]:
    """The reading with the minute hand at dial angle ``a_m`` and the hour hand at ``a_h`` (the
    second known), and how badly the two agree (the minute's and the hour's residuals summed):
    the score by which two candidate hands are told apart (:func:`_second_in_stripe`,
    ``clock_bars.split_bars``)."""
    minute, r_m = _minute_reading(a_m, second, a_s)
    hour, r_h = _hour_residual(a_h, minute, second)
    return r_m + r_h, ClockTime(hour or 12, minute, second)


def _second_in_stripe(
    rays: list[_Track],
    rgb: np.ndarray,
    dial: np.ndarray,
    scene: _Scene,
    radius: float,
    to_dial,  # noqa: ANN001
) -> ClockTime | None:
    """Two rays and no second hand seen: a second hand drawn along one hand, over it, shows as
    a stripe of a colour of its own down that ray's middle (session 4). The second hand is then
    read on that ray, and minute and hour are the two rays, assigned by the consistency of the
    readings (as in :func:`_assign_by_consistency`), the wider ray being the hour hand."""
    found = [_stripe(t, rgb, dial, scene) for t in rays]
    if sum(v is not None for v in found) != 1:
        return None
    k = 0 if found[0] is not None else 1
    if _stripe(rays[k], rgb, dial, scene, 0.12, 0.3) is None:
        return None  # a second hand runs into the pivot; a luminous strip on a hand stops short
    other = _ray_colour(rays[1 - k], rgb, dial, scene)
    stripe, hand_dir, stripe_dir = found[k]  # type: ignore[misc]
    n_o, n_s = float(np.linalg.norm(other)), float(np.linalg.norm(stripe))
    if n_o > 20 and float(other @ stripe) / (n_o * n_s) > 0.9:
        return None  # the stripe has the other hand's colour: not a hand of its own
    contrast = max(t.contrast for t in rays)
    a_s = to_dial(stripe_dir)
    second = round(a_s / 6.0) % 60
    angles = [to_dial(_track_angle(t)) for t in rays]
    angles[k] = to_dial(hand_dir)
    best: tuple[float, ClockTime] | None = None
    for mi in (0, 1):
        hi = 1 - mi
        fit, reading = _pair_reading(angles[mi], angles[hi], second, a_s)
        narrow = _mid_width(rays[hi], contrast) < 0.8 * _mid_width(rays[mi], contrast)
        penalty = 0.3 if narrow else 0.0
        if rays[hi].tip > 1.05 * rays[mi].tip:  # the hour hand is the shorter (as in
            penalty += 1.0  # _assign_by_consistency)
        score = 2.0 * fit + penalty  # 2 r_m + 2 r_h, exactly
        if best is None or score < best[0]:
            best = (score, reading)
    assert best is not None
    return best[1]
