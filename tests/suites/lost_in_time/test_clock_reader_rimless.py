"""A dial without an outline whose hands' blob spans most of the picture (issue 19, session 15,
s15-19v; ``clock_rimless.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer).

The dial has the background's own colour and no rim: only its marks (hour ticks or numerals) and
its hands show. Where the hands (a second hand with a counterweight lying nearly opposite the
minute hand) span most of what differs from the background, the reader took the hands' blob for
the dial: its ellipse was too flat (no dial, no reading) or a small turned dial from which no hand
was found. Measured on main 4dc26b0 (hour:minute right of 48 faces per variant): hour ticks 41
(6 unread), hour ticks squeezed to 0.7 of the height 18 (29 unread), numerals squeezed to 0.7 of
the height 40 (8 unread); now 48, 48, 48. With the broken rim's guard alone (``OUTLINE_SHARE``,
6ff01cb) the squeezed tick faces read 43: two hands nearly in line make a blob lying on its own
thin ellipse, taken for an outline; an ellipse flatter than ``FLAT`` is no dial's. The test
asserts 46 of 48."""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageDraw, ImageFont

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, supersampled_face

GROUND = (240, 232, 222)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _face(h: int, m: int, s: int, marks: str, squeeze: float, size: int = 400) -> Image.Image:
    img, d, c, r = supersampled_face(size, GROUND, 0.46, GROUND)
    ink, mark, red = (40, 30, 30), (50, 50, 60), (170, 20, 40)
    if marks == "numerals":
        font = ImageFont.truetype(FONT, round(0.17 * r))
        for k in range(1, 13):
            a = math.radians(30 * k)
            d.text(
                (c + 0.85 * r * math.sin(a), c - 0.85 * r * math.cos(a)), str(k), mark, font, "mm"
            )
    else:
        hour_ticks(d, c, r, mark, (0.8, 0.88), 0.025)
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.55 * r, 0.06 * r, ink)
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.88 * r, 0.035 * r, ink)
    bar_hand(d, c, 6.0 * s, 0.97 * r, 0.012 * r, red)
    bar_hand(d, c, 6.0 * s + 180.0, 0.2 * r, 0.012 * r, red)  # the counterweight
    q = 0.04 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=ink)
    img = img.resize((size, size), Image.LANCZOS)
    if squeeze == 1.0:
        return img
    flat = img.resize((size, round(squeeze * size)), Image.LANCZOS)
    out = Image.new("RGB", (size, size), GROUND)
    out.paste(flat, (0, (size - flat.height) // 2))
    return out


@pytest.mark.parametrize(
    ("marks", "squeeze", "least"), [("ticks", 1.0, 46), ("ticks", 0.7, 46), ("numerals", 0.7, 46)]
)
def test_the_hands_blob_of_a_dial_without_an_outline_is_no_dial(
    marks: str, squeeze: float, least: int
) -> None:
    """The second hand within 5 minutes of opposite the minute hand, every hour."""
    times = [
        (h, m, (m + 30 + d) % 60)
        for h in range(1, 13)
        for m, d in ((8, 3), (22, -4), (37, 5), (52, -2))
    ]
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s, marks, squeeze))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= least, f"{right}/{len(times)} read right"


def _broken_rim_face(h: int, m: int, s: int, size: int = 420) -> Image.Image:
    """The study's look, drawn here: a thin lobed rim with a 60-degree gap (from 200 to 260
    degrees), minute ticks joined to it, numerals, white on white, the whole sheared by 0.35."""
    big = 3 * size
    c, rad = big / 2, 0.4 * big
    img = Image.new("RGB", (big, big), (255, 255, 255))
    d = ImageDraw.Draw(img)

    def at(t: float, f: float = 1.0) -> tuple[float, float]:
        r = f * rad * (1 + 0.12 * math.cos(math.radians(2 * (t - 20))))
        return c + r * math.sin(math.radians(t)), c - r * math.cos(math.radians(t))

    d.line([at(260 + 0.5 * k) for k in range(601)], fill=(0, 0, 0), width=3)  # 260 round to 200
    for k in range(60):
        inner = 0.92 if k % 5 == 0 else 0.97
        d.line([at(6 * k, inner), at(6 * k)], fill=(0, 0, 0), width=6 if k % 5 == 0 else 3)
    font = ImageFont.truetype(FONT.replace("-Bold", ""), round(0.09 * rad))
    for k in range(1, 13):
        d.text(at(30 * k, 0.8), str(k), (0, 0, 0), font, "mm")
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.45 * rad, 0.035 * rad, (0, 0, 0))
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.7 * rad, 0.022 * rad, (0, 0, 0))
    bar_hand(d, c, 6.0 * s, 0.75 * rad, 0.008 * rad, (230, 0, 0))
    shear = (1, 0.35, -0.35 * c, 0, 1, 0)
    img = img.transform((big, big), Image.AFFINE, shear, Image.BICUBIC, fillcolor=(255, 255, 255))
    return img.resize((size, size), Image.LANCZOS)


def test_a_rim_broken_by_a_gap_stays_the_dial() -> None:
    """Guard (``OUTLINE_SHARE``): the broken rim fills nothing, but its outline lies on its
    ellipse, so it is still the dial. 48 faces: main 4dc26b0 and now 21 read right (the
    sheared lobed outline is hard on its own), the rule without the guard (5b97a62) 4: the hull
    of all foreground, fitted through its sparse corners, replaced the rim's outline."""
    times = [(h, m, (7 * h + 3 * m) % 60) for h in range(1, 13) for m in (4, 19, 33, 48)]
    right = 0
    for h, m, s in times:
        got = read_clock(_broken_rim_face(h, m, s))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 19, f"{right}/{len(times)} read right"
