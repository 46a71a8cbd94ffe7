"""A small clock renderer written for the tests, with conventions deliberately unlike
``chronoeval.render.clock``: drawn with Pillow's ``ImageDraw`` at 2x and downsampled, round-capped
line hands or kite-shaped hands, numerals placed on the rim ring that hands run into, coloured
faces on coloured backgrounds (sometimes the same colour), no cap, an optional red second hand,
and optionally an elliptic (squeezed) face. The reader must never have seen these faces.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw, ImageFont

from chronoeval.render.fonts import FONT_DIR
from chronoeval.suites.lost_in_time.answers import ClockTime

FACES = ((255, 250, 205), (200, 230, 255), (255, 255, 255), (235, 220, 200), (40, 40, 48))
BACKS = ((255, 255, 255), (120, 60, 30), (30, 60, 110), (210, 210, 210))


def draw_other_clock(
    time: ClockTime, rng: random.Random, size: int = 360, hands: str = "line"
) -> Image.Image:
    """One clock showing ``time``; appearance from ``rng``; ``hands`` is "line" or "kite"."""
    k = 2  # supersampling
    s = size * k
    face = rng.choice(FACES)
    back = face if rng.random() < 0.25 else rng.choice(BACKS)
    ink = (235, 235, 235) if sum(face) < 300 else (20, 20, 20)
    img = Image.new("RGB", (s, s), back)
    d = ImageDraw.Draw(img)
    cx = cy = s / 2
    rx = s * 0.44
    ry = rx * (rng.uniform(0.75, 0.95) if rng.random() < 0.3 else 1.0)  # squeezed face
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=face, outline=ink, width=k * 2)

    def at(angle_deg: float, frac: float) -> tuple[float, float]:
        a = math.radians(angle_deg)
        return cx + frac * rx * math.sin(a), cy - frac * ry * math.cos(a)

    font = ImageFont.truetype(f"{FONT_DIR}/DejaVuSans-Bold.ttf", int(s * 0.075))
    for h in range(1, 13):
        d.text(at(30 * h, 0.8), str(h), fill=ink, font=font, anchor="mm")
    for m in range(60):
        if m % 5 == 0:
            d.line((at(6 * m, 0.93), at(6 * m, 0.99)), fill=ink, width=k * 3)
    hour = 30 * (time.hour % 12) + 0.5 * time.minute + time.second / 120
    minute = 6 * time.minute + 0.1 * time.second
    second = 6 * time.second
    kite = hands == "kite"
    for angle, frac, width in ((hour, 0.5, 0.05), (minute, 0.85, 0.03)):
        w = width * rx
        if kite:
            a = math.radians(angle)
            nx, ny = math.cos(a) * w / 2, math.sin(a) * w / 2
            bx, by = at(angle, 0.25 * frac)
            d.polygon([(cx, cy), (bx + nx, by + ny), at(angle, frac), (bx - nx, by - ny)], fill=ink)
        else:
            d.line(((cx, cy), at(angle, frac)), fill=ink, width=max(2, round(w)))
            tx, ty = at(angle, frac)
            d.ellipse((tx - w / 2, ty - w / 2, tx + w / 2, ty + w / 2), fill=ink)
    if rng.random() < 0.7:
        d.line((at(second + 180, 0.15), at(second, 0.95)), fill=(220, 30, 30), width=k * 2)
    return img.resize((size, size), Image.LANCZOS)
