"""Synthetic dated scenes: small colour images whose date is visible in designed features.

Every scene is drawn for a (year, category, kind) and carries three features that evolve with the
year, each readable from the pixels alone:

- **palette** (fine, colour only): the background hue moves linearly with the year across the
  kind's span (hue 0 → 0.8 of the HSV circle), so a colour scene dates to the year;
- **technology motif** (coarse, survives grayscale): a row of ``k + 1`` antenna bars, where ``k`` is
  the year's eighth of the span (0–7);
- **object shape** (coarse, survives grayscale): a central polygon with ``3 + k`` sides.

Turning a scene grey removes the palette, so only the era (an eighth of the span) stays readable:
grayscale removes real information, which is what the shortcut test needs. The frame tells the kind
apart (white print border for photos, dark plinth frame for artefacts), and a small glyph in the
lower-left corner names the category. Clutter dots and the polygon's rotation come from the seed.
"""

from __future__ import annotations

import colorsys
import io
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw

SIZE = 128
FRAME = 6
BUCKETS = 8
HUE_RANGE = 0.8
SATURATION, VALUE = 0.6, 0.9
BAR_ROWS = (12, 28)
BAR_X0, BAR_W, BAR_GAP = 14, 6, 6
PATCH = (34, 46, 10, 118)
"""Rows y0..y1, columns x0..x1 of clean background (no motif, object or clutter)."""
DARK = (40, 40, 40)


@dataclass(frozen=True)
class Kind:
    name: str
    start: int
    end: int
    frame: tuple[int, int, int]
    categories: tuple[str, ...]


PHOTO = Kind(
    "photo",
    1940,
    2030,
    (255, 255, 255),
    ("sports", "politics", "electronics", "emergency", "diversity"),
)
ARTIFACT = Kind(
    "artifact",
    600,
    1920,
    (16, 16, 16),
    ("carving", "jade", "china", "coin", "fan", "lacquerware"),
)
KINDS = {k.name: k for k in (PHOTO, ARTIFACT)}


def position(kind: Kind, year: int) -> float:
    """Where the middle of ``year`` lies in the kind's span, in [0, 1)."""
    t = (year + 0.5 - kind.start) / (kind.end - kind.start)
    if not 0.0 <= t < 1.0:
        raise ValueError(f"year {year} outside the {kind.name} span {kind.start}–{kind.end - 1}")
    return t


def bucket_of(kind: Kind, year: int) -> int:
    return min(BUCKETS - 1, int(position(kind, year) * BUCKETS))


def bucket_years(kind: Kind, bucket: int) -> tuple[float, float]:
    width = (kind.end - kind.start) / BUCKETS
    return kind.start + bucket * width, kind.start + (bucket + 1) * width


def palette(t: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hsv_to_rgb(HUE_RANGE * t, SATURATION, VALUE)
    return round(r * 255), round(g * 255), round(b * 255)


def _glyph(draw: ImageDraw.ImageDraw, index: int) -> None:
    box = (10, 100, 28, 118)
    shape = index % 6
    if shape == 0:
        draw.ellipse(box, outline=DARK, width=2)
    elif shape == 1:
        draw.rectangle(box, outline=DARK, width=2)
    elif shape == 2:
        draw.polygon([(19, 100), (10, 118), (28, 118)], outline=DARK)
    elif shape == 3:
        draw.line([(10, 109), (28, 109)], fill=DARK, width=3)
        draw.line([(19, 100), (19, 118)], fill=DARK, width=3)
    elif shape == 4:
        draw.arc(box, 180, 360, fill=DARK, width=3)
    else:
        draw.rectangle((13, 103, 25, 115), fill=DARK)


def render_scene(year: int, category: str, kind: Kind, rng: random.Random) -> bytes:
    """A PNG of the scene for ``year`` (see the module docstring for the encoding)."""
    import math

    t = position(kind, year)
    k = min(BUCKETS - 1, int(t * BUCKETS))
    bg = palette(t)
    obj = palette((t + 0.5) % 1.0)
    im = Image.new("RGB", (SIZE, SIZE), kind.frame)
    draw = ImageDraw.Draw(im)
    draw.rectangle((FRAME, FRAME, SIZE - FRAME - 1, SIZE - FRAME - 1), fill=bg)
    for i in range(k + 1):
        x = BAR_X0 + i * (BAR_W + BAR_GAP)
        draw.rectangle((x, BAR_ROWS[0], x + BAR_W - 1, BAR_ROWS[1]), fill=DARK)
    sides = 3 + k
    rot = rng.uniform(0, 2 * math.pi)
    cx, cy, rad = 66, 80, 26
    pts = [
        (
            cx + rad * math.cos(rot + 2 * math.pi * j / sides),
            cy + rad * math.sin(rot + 2 * math.pi * j / sides),
        )
        for j in range(sides)
    ]
    draw.polygon(pts, fill=obj, outline=DARK)
    cats = kind.categories
    _glyph(draw, cats.index(category) if category in cats else sum(map(ord, category)))
    for _ in range(12):
        x, y = rng.randrange(40, 118), rng.randrange(54, 118)
        c = rng.randrange(60, 230)
        draw.point((x, y), fill=(c, (c * 3) % 256, (c * 7) % 256))
    out = io.BytesIO()
    im.save(out, format="PNG", optimize=False)
    return out.getvalue()
