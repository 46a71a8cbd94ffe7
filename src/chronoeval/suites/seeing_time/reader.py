"""Reading a synthetic scene's date from its pixels (what the reference agents use).

The reader knows the scenes' visual conventions (as a model knows what period phones looked like)
and nothing else: it gets image bytes, never an item's target or metadata.
"""

from __future__ import annotations

import colorsys
import io
from dataclasses import dataclass

import numpy as np
from PIL import Image

from chronoeval.suites.seeing_time.grayscale import is_gray
from chronoeval.suites.seeing_time.scenes import (
    ARTIFACT,
    BAR_ROWS,
    BAR_X0,
    BUCKETS,
    HUE_RANGE,
    PATCH,
    PHOTO,
    SATURATION,
    SIZE,
    VALUE,
    Kind,
    bucket_years,
)


@dataclass(frozen=True)
class Reading:
    kind: Kind | None
    gray: bool
    bucket: int | None
    year: int | None
    """The best year estimate: from the palette in colour, the era's middle in grayscale."""
    low: float | None
    high: float | None
    """The span of years consistent with what was read (one year in colour, an era in grey)."""


def read_scene(data: bytes) -> Reading:
    with Image.open(io.BytesIO(data)) as im:
        rgb = np.asarray(im.convert("RGB"))
    gray = is_gray(rgb)
    if rgb.shape[:2] != (SIZE, SIZE):
        return Reading(None, gray, None, None, None, None)
    corner = rgb[2, 2].astype(int)
    kind = PHOTO if corner.mean() > 128 else ARTIFACT
    row = rgb[(BAR_ROWS[0] + BAR_ROWS[1]) // 2, BAR_X0 - 4 : SIZE - 8].astype(int)
    dark = (row.max(axis=1) < 70).astype(int)
    bars = int(((dark[1:] == 1) & (dark[:-1] == 0)).sum() + dark[0])
    if not 1 <= bars <= BUCKETS:
        return Reading(kind, gray, None, None, None, None)
    bucket = bars - 1
    lo, hi = bucket_years(kind, bucket)
    if gray:
        return Reading(kind, gray, bucket, int((lo + hi) // 2), lo, hi)
    y0, y1, x0, x1 = PATCH
    bg = np.median(rgb[y0:y1, x0:x1].reshape(-1, 3), axis=0) / 255.0
    hue = colorsys.rgb_to_hsv(*bg)[0]
    t = hue / HUE_RANGE
    year = int(np.floor(kind.start + t * (kind.end - kind.start)))
    year = int(min(max(year, np.ceil(lo - 0.5)), np.floor(hi - 0.5)))
    tol = resolution_years(kind)
    return Reading(kind, gray, bucket, year, year - tol, year + 1 + tol)


def resolution_years(kind: Kind) -> int:
    """How many years one 8-bit step of the palette spans (0 for photos, 1–2 for artefacts)."""
    steps = HUE_RANGE * 6 * SATURATION * VALUE * 255
    return int(np.ceil((kind.end - kind.start) / steps)) - 1
