"""ClockQA image generator: analogue clock faces in the styles of the Lost in Time paper.

The paper's ClockQA subset has standard ("basic") clocks, black-dial clocks, clocks without a
second hand, Roman-numeral clocks and arrow-hand clocks, plus an easy whole-hour set. This module
renders such clocks procedurally:

* :func:`sample_face` draws one appearance (:class:`ClockFace`) of a style: dial, background and
  rim colours, tick marks, numeral font and size, hand colours, lengths, widths and shape, an
  optional second-hand tail, the centre cap and (only with ``rotate=True``) a small rotation of
  the whole clock.
* :func:`sample_time` draws the gold time of a style.
* :func:`render_clock` draws a time on a face; :func:`chronoeval.render.png.encode_png` turns the image into PNG bytes.

Decisions
---------
* Hands move continuously as on a real clock: hour angle ``30*(h % 12) + 0.5*m + s/120``, minute
  angle ``6*m + 0.1*s``, second angle ``6*s`` (degrees clockwise from 12).
* ``no_second_hand`` clocks only get whole-minute times (seconds 0): a clock without a second hand
  cannot show seconds, so the gold answer is what is visible. ``easy`` clocks show whole hours.
* Readability conventions of real clocks are kept on every face: the hour hand is the shortest and
  widest, the minute hand is longer and narrower, the second hand (when present) is the longest
  and thinnest needle, and no hand tip reaches into the numeral ring. Hand colours always contrast
  strongly with the dial, and the dial is always outlined by a rim that contrasts with the
  background.
* Numerals are upright (not turned radially); Roman numerals use ``IV``.
* Speed (about 300-450 images/s on one core at 420 px, sample + render + PNG): the dial is drawn
  at 1x with OpenCV's anti-aliased primitives and cached numeral glyph masks (numeral sizes are
  even pixel counts so the glyph cache warms fast); the face without hands is cached, keyed by
  every appearance field except the hands. Hands are convex polygons filled with exact-coverage
  anti-aliasing (a distance field): OpenCV's anti-aliased ``fillPoly`` grows shapes by ~1.3 px,
  which would make a thin second hand as wide as a minute hand. PNG bytes come from the shared
  writer in :mod:`chronoeval.render.png`. Rendering raises Pillow's freed-block cache to 16 blocks
  (``Image.core.set_blocks_max``), which avoids re-faulting image memory on every call.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from dataclasses import dataclass, fields
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from chronoeval.render.fonts import truetype
from chronoeval.suites.lost_in_time.answers import CLOCK_STYLES, SECONDS_ON_DIAL, ClockTime

__all__ = [
    "CLOCK_STYLES",
    "ClockFace",
    "hand_angles",
    "render_clock",
    "sample_face",
    "sample_look",
    "sample_realistic_face",
    "sample_time",
]


RGB = tuple[int, int, int]

ARABIC_FONTS: tuple[str, ...] = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSansMono-Bold.ttf",
    "STIXGeneral.ttf",
    "STIXGeneralBol.ttf",
)
ROMAN_FONTS: tuple[str, ...] = (
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "STIXGeneral.ttf",
    "STIXGeneralBol.ttf",
    "DejaVuSans.ttf",
)
ARABIC_NUMERALS: tuple[str, ...] = tuple(str(k) for k in range(1, 13))
ROMAN_NUMERALS: tuple[str, ...] = (
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
)

# Palettes. Light dials take dark ink, dark dials take light ink; every hand colour differs from
# every dial colour of its palette by at least 150 in some channel.
LIGHT_DIALS: tuple[RGB, ...] = (
    (255, 255, 255),
    (250, 247, 238),
    (245, 240, 225),
    (236, 238, 240),
    (232, 240, 250),
    (252, 250, 230),
    (236, 245, 236),
)
DARK_DIALS: tuple[RGB, ...] = (
    (12, 12, 12),
    (30, 30, 34),
    (18, 24, 52),
    (18, 40, 30),
    (45, 20, 20),
)
BACKGROUNDS: tuple[RGB, ...] = (
    (255, 255, 255),
    (242, 242, 242),
    (225, 225, 225),
    (200, 200, 200),
    (245, 238, 225),
    (220, 230, 240),
    (60, 64, 72),
    (30, 30, 30),
)
LIGHT_RIMS: tuple[RGB, ...] = (
    (20, 20, 20),
    (70, 70, 70),
    (25, 35, 90),
    (110, 70, 40),
    (170, 170, 178),
    (190, 150, 60),
    (120, 20, 30),
)
DARK_RIMS: tuple[RGB, ...] = (
    (200, 200, 205),
    (190, 150, 60),
    (240, 240, 240),
    (20, 20, 20),
    (120, 120, 125),
)
DARK_INK: tuple[RGB, ...] = (
    (0, 0, 0),
    (30, 30, 30),
    (55, 55, 60),
    (20, 30, 80),
    (60, 40, 25),
)
LIGHT_INK: tuple[RGB, ...] = (
    (255, 255, 255),
    (235, 235, 235),
    (245, 235, 210),
    (220, 225, 235),
)
LIGHT_NUMERALS: tuple[RGB, ...] = (*LIGHT_INK, (225, 190, 110))
SECOND_ON_LIGHT: tuple[RGB, ...] = (
    (210, 25, 25),
    (180, 0, 40),
    (230, 90, 20),
    (0, 0, 0),
    (30, 30, 30),
    (20, 30, 80),
)
SECOND_ON_DARK: tuple[RGB, ...] = (
    (240, 60, 50),
    (255, 140, 0),
    (250, 210, 40),
    (255, 255, 255),
    (235, 235, 235),
)


@dataclass(frozen=True)
class ClockFace:
    """Every appearance parameter of one rendered clock (lengths and widths in pixels).

    Only str/int/float/bool/tuple fields, so ``dataclasses.asdict`` gives JSON-ready data. The
    clock centre is the image centre. Hand lengths are measured from the centre to the tip.
    """

    style: str
    size: int
    background: RGB
    dial_color: RGB
    dial_radius: float  # outer radius, rim included
    rim_color: RGB
    rim_width: float
    tick_style: str  # "none" | "hours" | "minutes" | "dots"
    tick_color: RGB
    tick_outer: float  # radius where the tick marks end
    numeral_style: str  # "arabic" | "roman"
    numeral_font: str  # file name inside matplotlib's mpl-data/fonts/ttf
    numeral_size: int
    numeral_color: RGB
    numeral_radius: float  # radius of the numeral centres
    hand_shape: str  # "bar" | "tapered" | "arrow" (hour and minute hands)
    hour_color: RGB
    minute_color: RGB
    second_color: RGB
    hour_length: float
    minute_length: float
    second_length: float
    hour_width: float  # base / shaft width
    minute_width: float
    second_width: float
    hand_taper: float  # tip width / base width of tapered hands
    arrow_head_width: float  # arrow head width / shaft width
    arrow_head_length: float  # arrow head length / hand length
    hand_overhang: float  # hour and minute hands stick out behind the centre by this much
    has_second_hand: bool
    second_tail: float  # second-hand counterweight length behind the centre (0 = none)
    cap_radius: float
    cap_color: RGB
    rotation_deg: float = 0.0  # whole clock turned clockwise by this many degrees
    # --- realistic looks (issue 19); the defaults give the classic faces, byte for byte ---
    look: str = "classic"  # "classic" | "realistic": which sampler drew this face
    design: str = "classic"  # dial design, see DESIGNS
    decor: str = "none"  # "none" | "rings" | "double_rim" | "sunburst" | "label"
    decor_color: RGB = (0, 0, 0)
    second_shape: str = "needle"  # "needle" | "lollipop" | "disc_tail"
    second_disc: float = 0.0  # radius of the lollipop ring / tail disc
    distortion: str = "none"  # see DISTORTIONS
    stretch: float = 1.0  # minor/major axis ratio of a stretched face
    stretch_axis_deg: float = 0.0  # direction of the squeezed axis (degrees from the x axis)
    tilt: tuple[float, float] = (0.0, 0.0)  # perspective terms (x, y) per image size
    warp_deg: float = 0.0  # angular warp amplitude: a point at angle a moves by warp*sin(2(a-p))
    warp_phase_deg: float = 0.0
    warp_radial: float = 0.0  # non-elliptic radial warp: r * (1 + k cos(3(a - p)))


_HAND_FIELDS = frozenset(
    {
        "hand_shape",
        "hour_color",
        "minute_color",
        "second_color",
        "hour_length",
        "minute_length",
        "second_length",
        "hour_width",
        "minute_width",
        "second_width",
        "hand_taper",
        "arrow_head_width",
        "arrow_head_length",
        "hand_overhang",
        "has_second_hand",
        "second_tail",
        "cap_radius",
        "cap_color",
        "second_shape",
        "second_disc",
        "distortion",
        "stretch",
        "stretch_axis_deg",
        "tilt",
        "warp_deg",
        "warp_phase_deg",
        "warp_radial",
    }
)
_DIAL_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(ClockFace) if f.name not in _HAND_FIELDS
)


# --------------------------------------------------------------------------------------------
# fonts and numeral layout


_font = truetype


def _labels(numeral_style: str) -> tuple[str, ...]:
    if numeral_style == "arabic":
        return ARABIC_NUMERALS
    if numeral_style == "roman":
        return ROMAN_NUMERALS
    if numeral_style == "none":
        return ()
    raise ValueError(f"unknown numeral style {numeral_style!r}")


@lru_cache(maxsize=256)
def _numeral_extents(
    numeral_style: str, font_name: str, size: int
) -> tuple[tuple[float, float], ...]:
    """For numeral k (1..12): (outward extent, inward extent) of its ink box along the radius."""
    font = _font(font_name, size)
    out = []
    for k, label in enumerate(_labels(numeral_style), start=1):
        left, top, right, bottom = font.getbbox(label, anchor="mm")
        a = math.radians(30 * k)
        ux, uy = math.sin(a), -math.cos(a)
        dots = [x * ux + y * uy for x in (left, right) for y in (top, bottom)]
        out.append((max(dots), -min(dots)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _glyph(font_name: str, size: int, label: str) -> tuple[np.ndarray, int, int]:
    """Anti-aliased coverage mask (float32, 0..1) of a label and its offset from the anchor."""
    font = _font(font_name, size)
    left, top, right, bottom = font.getbbox(label, anchor="mm")
    canvas = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(canvas).text((-left, -top), label, font=font, fill=255, anchor="mm")
    mask = np.asarray(canvas, dtype=np.float32)[:, :, None] / 255.0
    mask.setflags(write=False)
    return mask, left, top


# --------------------------------------------------------------------------------------------
# sampling


def _pick(rng: random.Random, options: tuple[RGB, ...], *, avoid: RGB | None = None) -> RGB:
    choices = [c for c in options if avoid is None or _contrast(c, avoid) >= 70]
    return rng.choice(choices or list(options))


def _contrast(a: RGB, b: RGB) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def sample_face(style: str, rng: random.Random, size: int = 420, rotate: bool = False) -> ClockFace:
    """Draw one appearance of ``style``; a small whole-clock rotation only when ``rotate``."""
    if style not in CLOCK_STYLES:
        raise ValueError(f"unknown clock style {style!r}; expected one of {CLOCK_STYLES}")
    dark = style == "black_dial"
    dial_color = rng.choice(DARK_DIALS if dark else LIGHT_DIALS)
    background = rng.choice(BACKGROUNDS)
    rim_color = _pick(rng, DARK_RIMS if dark else LIGHT_RIMS, avoid=background)
    if dark:
        ink = rng.choice(LIGHT_INK)
        numeral_color = rng.choice(LIGHT_NUMERALS)
        second_color = rng.choice(SECOND_ON_DARK)
    else:
        ink = rng.choice(DARK_INK)
        numeral_color = rng.choice(DARK_INK) if rng.random() < 0.7 else ink
        second_color = rng.choice(SECOND_ON_LIGHT)
    hour_color = ink
    minute_color = ink if rng.random() < 0.8 else rng.choice(LIGHT_INK if dark else DARK_INK)
    tick_color = numeral_color if rng.random() < 0.7 else ink

    dial_radius = size / 2 * rng.uniform(0.88, 0.96)
    rim_width = max(2.0, dial_radius * rng.uniform(0.012, 0.05))
    inner = dial_radius - rim_width  # radius of the dial face
    tick_style = rng.choice(("none", "hours", "minutes", "minutes", "dots"))
    tick_outer = inner - max(1.5, inner * rng.uniform(0.015, 0.035))
    tick_inner = tick_outer - inner * (0.11 if tick_style != "none" else 0.0)

    numeral_style = "roman" if style == "roman" else "arabic"
    if numeral_style == "roman":
        font_name = rng.choice(ROMAN_FONTS)
        numeral_size = 2 * round(inner * rng.uniform(0.10, 0.13) / 2)
    else:
        font_name = rng.choice(ARABIC_FONTS)
        numeral_size = 2 * round(inner * rng.uniform(0.12, 0.17) / 2)
    extents = _numeral_extents(numeral_style, font_name, numeral_size)
    margin = max(2.0, inner * 0.015)
    numeral_radius = min(tick_inner - margin - out for out, _ in extents)
    numeral_inner = min(numeral_radius - inward for _, inward in extents)
    reach = numeral_inner - max(3.0, inner * 0.025)  # no hand tip goes beyond this radius

    has_second = style != "no_second_hand"
    shape_draw = rng.random()
    hand_shape = "arrow" if style == "arrow_hands" else ("tapered" if shape_draw < 0.35 else "bar")
    unit = inner
    if hand_shape == "arrow":
        hour_width = unit * rng.uniform(0.036, 0.046)
        minute_width = min(unit * rng.uniform(0.019, 0.025), hour_width / 1.6)
    else:
        minute_width = unit * rng.uniform(0.027, 0.036)
        hour_width = max(minute_width * 1.6, unit * rng.uniform(0.048, 0.064))
    second_width = unit * rng.uniform(0.008, 0.0105)
    if has_second:
        second_length = reach * rng.uniform(0.92, 0.99)
        minute_length = min(reach * rng.uniform(0.76, 0.86), second_length - 0.09 * reach)
    else:
        second_length = 0.0
        minute_length = reach * rng.uniform(0.82, 0.97)
    hour_length = min(reach * rng.uniform(0.48, 0.6), minute_length * 0.72)
    second_tail = (
        second_length * rng.uniform(0.15, 0.25) if has_second and rng.random() < 0.7 else 0.0
    )
    cap_radius = max(hour_width * 0.6, unit * rng.uniform(0.025, 0.045))
    cap_color = second_color if has_second and rng.random() < 0.5 else ink

    rotation = 0.0
    if rotate:
        rotation = rng.choice((-1, 1)) * rng.uniform(1.5, 6.0)

    return ClockFace(
        style=style,
        size=size,
        background=background,
        dial_color=dial_color,
        dial_radius=round(dial_radius, 2),
        rim_color=rim_color,
        rim_width=round(rim_width, 2),
        tick_style=tick_style,
        tick_color=tick_color,
        tick_outer=round(tick_outer, 2),
        numeral_style=numeral_style,
        numeral_font=font_name,
        numeral_size=numeral_size,
        numeral_color=numeral_color,
        numeral_radius=round(numeral_radius, 2),
        hand_shape=hand_shape,
        hour_color=hour_color,
        minute_color=minute_color,
        second_color=second_color if has_second else ink,
        hour_length=round(hour_length, 2),
        minute_length=round(minute_length, 2),
        second_length=round(second_length, 2),
        hour_width=round(hour_width, 2),
        minute_width=round(minute_width, 2),
        second_width=round(second_width, 2),
        hand_taper=round(rng.uniform(0.72, 0.82), 3),
        arrow_head_width=round(rng.uniform(2.0, 2.6), 3),
        arrow_head_length=round(rng.uniform(0.13, 0.18), 3),
        hand_overhang=round(hour_length * rng.uniform(0.0, 0.2), 2),
        has_second_hand=has_second,
        second_tail=round(second_tail, 2),
        cap_radius=round(cap_radius, 2),
        cap_color=cap_color,
        rotation_deg=round(rotation, 2),
    )


# --------------------------------------------------------------------------------------------
# realistic looks (issue 19)

LOOKS: tuple[str, ...] = ("realistic", "classic")
"""``classic``: the clean faces of generator v1 (hands never touch numerals or ticks, round,
upright, contrasting rim). ``realistic``: the variety of real clocks, every feature named below."""

DESIGNS: tuple[str, ...] = (
    "classic",  # numerals and ticks
    "numerals_only",  # numerals, no ticks
    "ticks_only",  # ticks (bars, minute marks or dots), no numerals
    "minimal",  # twelve thin hour marks only
    "plain",  # no marks at all: only the hands and the dial edge
    "decorative",  # numerals and ticks plus rings, a double rim, or a brand label
)
"""Dial designs of realistic faces."""

DISTORTIONS: tuple[str, ...] = ("none", "stretch", "perspective", "warp")
"""Views of realistic faces: ``stretch`` squeezes the whole clock along a random axis (an elliptic
face, minor/major 0.62-0.9); ``perspective`` tilts it (a homography, up to ~10% scale change across
the face); ``warp`` bends it non-linearly: every point's angle around the centre moves by up to
7 degrees (``warp_deg * sin(2 (a - phase))``) and the outline becomes a three-lobed, non-elliptic
shape (``warp_radial``). Gold is the time of the undistorted clock; a warp keeps dial marks."""

REALISTIC_HAND_SHAPES: tuple[str, ...] = ("bar", "tapered", "arrow", "line", "leaf", "sword")
SECOND_SHAPES: tuple[str, ...] = ("needle", "lollipop", "disc_tail")
EXTRA_BACKGROUNDS: tuple[RGB, ...] = (
    (40, 90, 150),
    (150, 45, 40),
    (45, 110, 65),
    (120, 82, 45),
    (200, 170, 120),
    (90, 90, 100),
)
PASTEL_DIALS: tuple[RGB, ...] = ((250, 235, 215), (225, 240, 250), (240, 225, 240), (230, 245, 225))
LABELS: tuple[str, ...] = ("QUARTZ", "LONDON", "Chrono", "1887", "AUTOMATIC", "MADE IN SWISS")


def _weighted(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    x = rng.random() * sum(w for _, w in table)
    for name, w in table:
        x -= w
        if x < 0:
            return name
    return table[-1][0]


def sample_realistic_face(style: str, rng: random.Random, size: int = 420) -> ClockFace:
    """Draw one realistic appearance of ``style``.

    Every feature is a named field of :class:`ClockFace`: ``design`` (:data:`DESIGNS`), ``decor``,
    ``hand_shape`` (:data:`REALISTIC_HAND_SHAPES`), ``second_shape`` (:data:`SECOND_SHAPES`),
    hand lengths that reach into the numerals and onto the tick marks (a second hand on a
    minute-tick dial always lies on a tick), hand widths from hairline to broad, hour and minute
    hands of equal width, non-white backgrounds including the dial's own colour (white face on a
    white background, with a faint rim or none), and ``distortion`` (:data:`DISTORTIONS`).
    The paper's style stays what it says: Roman numerals on ``roman``, arrow hands on
    ``arrow_hands``, a dark dial on ``black_dial``, no second hand on ``no_second_hand``.
    Kept from real clocks: the hour hand is shorter than the minute hand, the second hand (when
    present) is the thinnest, and a face always has an outline or marks.
    """
    if style not in CLOCK_STYLES:
        raise ValueError(f"unknown clock style {style!r}; expected one of {CLOCK_STYLES}")
    dark = style == "black_dial"
    distortion = _weighted(
        rng, (("none", 0.4), ("stretch", 0.2), ("perspective", 0.2), ("warp", 0.2))
    )
    designs = (
        ("classic", 0.3),
        ("numerals_only", 0.15),
        ("ticks_only", 0.15),
        ("minimal", 0.1),
        ("plain", 0.1),
        ("decorative", 0.2),
    )
    if style == "roman":
        designs = (("classic", 0.5), ("numerals_only", 0.25), ("decorative", 0.25))
    if distortion == "warp":  # a warped face is read against its marks: keep enough of them
        designs = tuple((d, w) for d, w in designs if d not in ("plain", "minimal"))
    design = _weighted(rng, designs)

    dial_color = rng.choice(DARK_DIALS if dark else LIGHT_DIALS + PASTEL_DIALS)
    bg_kind = _weighted(rng, (("palette", 0.55), ("same", 0.25), ("colour", 0.2)))
    if bg_kind == "same":
        background = dial_color
    elif bg_kind == "colour":
        background = rng.choice(EXTRA_BACKGROUNDS)
    else:
        background = rng.choice(BACKGROUNDS)

    rim_kind = _weighted(rng, (("bold", 0.55), ("thin", 0.25), ("none", 0.2)))
    if rim_kind == "none" and design == "plain" and _contrast(background, dial_color) < 60:
        rim_kind = "thin"  # nothing would show where the dial is
    if rim_kind == "thin" and _contrast(background, dial_color) < 60:
        rim_color = rng.choice(((200, 200, 200), (170, 170, 170), (120, 120, 120)))
        if dark:
            rim_color = rng.choice(((70, 70, 70), (110, 110, 110)))
    else:
        rim_color = _pick(rng, DARK_RIMS if dark else LIGHT_RIMS, avoid=background)

    if dark:
        ink = rng.choice(LIGHT_INK)
        numeral_color = rng.choice(LIGHT_NUMERALS)
        second_color = rng.choice(SECOND_ON_DARK)
    else:
        ink = rng.choice(DARK_INK)
        numeral_color = rng.choice(DARK_INK) if rng.random() < 0.7 else ink
        second_color = rng.choice(SECOND_ON_LIGHT)
    hour_color = ink
    minute_color = ink if rng.random() < 0.8 else rng.choice(LIGHT_INK if dark else DARK_INK)
    tick_color = numeral_color if rng.random() < 0.7 else ink

    dial_radius = size / 2 * rng.uniform(0.86, 0.96)
    rim_width = {
        "bold": max(2.0, dial_radius * rng.uniform(0.015, 0.07)),
        "thin": rng.uniform(1.0, 2.5),
        "none": 0.0,
    }[rim_kind]
    if rim_kind == "none":
        rim_color = dial_color
    inner = dial_radius - rim_width

    if design in ("classic", "decorative"):
        tick_style = rng.choice(("hours", "minutes", "minutes", "dots"))
    elif design == "ticks_only":
        tick_style = rng.choice(("hours", "minutes", "dots"))
    elif design == "minimal":
        tick_style = "hours"
    else:
        tick_style = "none"
    tick_outer = inner - max(1.5, inner * rng.uniform(0.01, 0.04))
    tick_inner = tick_outer - inner * (0.11 if tick_style != "none" else 0.0)

    if design in ("ticks_only", "minimal", "plain"):
        numeral_style = "none"
        font_name = ARABIC_FONTS[0]
        numeral_size = 2
        numeral_radius = tick_inner
        numeral_inner = tick_inner
    else:
        numeral_style = "roman" if style == "roman" else "arabic"
        if numeral_style == "roman":
            font_name = rng.choice(ROMAN_FONTS)
            numeral_size = 2 * round(inner * rng.uniform(0.09, 0.15) / 2)
        else:
            font_name = rng.choice(ARABIC_FONTS)
            numeral_size = 2 * round(inner * rng.uniform(0.11, 0.2) / 2)
        extents = _numeral_extents(numeral_style, font_name, numeral_size)
        margin = max(2.0, inner * rng.uniform(0.0, 0.03))
        numeral_radius = min(tick_inner - margin - out for out, _ in extents)
        numeral_inner = min(numeral_radius - inward for _, inward in extents)

    has_second = style != "no_second_hand"
    if style == "arrow_hands":
        hand_shape = "arrow"
    else:
        hand_shape = rng.choice(tuple(h for h in REALISTIC_HAND_SHAPES if h != "arrow"))
    unit = inner
    crossing = rng.random() < 0.7  # hands reach into the numerals and onto the ticks
    if hand_shape == "line":
        minute_width = unit * rng.uniform(0.018, 0.03)
    elif hand_shape == "arrow":
        minute_width = unit * rng.uniform(0.018, 0.028)
    else:
        minute_width = unit * rng.uniform(0.022, 0.05)
    hour_width = min(minute_width * rng.uniform(1.0, 2.2), unit * 0.09)
    second_width = unit * rng.uniform(0.006, 0.012)
    mark_ring = numeral_radius if numeral_style != "none" else tick_inner
    if crossing:
        second_length = tick_outer * rng.uniform(0.96, 1.0) if has_second else 0.0
        minute_length = rng.uniform(min(mark_ring, tick_inner), tick_outer * 0.97)
        if has_second:
            minute_length = min(minute_length, second_length * 0.95)
        hour_length = min(minute_length * rng.uniform(0.55, 0.75), mark_ring)
    else:
        reach = min(numeral_inner, tick_inner) - max(3.0, inner * 0.025)
        second_length = reach * rng.uniform(0.92, 0.99) if has_second else 0.0
        minute_length = reach * rng.uniform(0.76, 0.9)
        if has_second:
            minute_length = min(minute_length, second_length - 0.06 * reach)
        hour_length = minute_length * rng.uniform(0.55, 0.72)
    second_shape = rng.choice(SECOND_SHAPES) if has_second else "needle"
    second_disc = unit * rng.uniform(0.02, 0.035) if second_shape != "needle" else 0.0
    second_tail = (
        second_length * rng.uniform(0.12, 0.25)
        if has_second and (second_shape == "disc_tail" or rng.random() < 0.6)
        else 0.0
    )
    cap_radius = max(hour_width * 0.55, unit * rng.uniform(0.02, 0.06))
    cap_color = second_color if has_second and rng.random() < 0.5 else ink

    decor = "none"
    if design == "decorative":
        decor = rng.choice(("rings", "double_rim", "label"))

    stretch, axis, tilt, warp, phase, radial = 1.0, 0.0, (0.0, 0.0), 0.0, 0.0, 0.0
    if distortion == "stretch":
        stretch = rng.uniform(0.62, 0.9)
        axis = rng.uniform(0.0, 180.0)
    elif distortion == "perspective":
        tilt = (rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2))
    elif distortion == "warp":
        warp = rng.choice((-1, 1)) * rng.uniform(3.0, 7.0)
        phase = rng.uniform(0.0, 180.0)
        radial = rng.uniform(0.03, 0.08)

    return ClockFace(
        style=style,
        size=size,
        background=background,
        dial_color=dial_color,
        dial_radius=round(dial_radius, 2),
        rim_color=rim_color,
        rim_width=round(rim_width, 2),
        tick_style=tick_style,
        tick_color=tick_color,
        tick_outer=round(tick_outer, 2),
        numeral_style=numeral_style,
        numeral_font=font_name,
        numeral_size=numeral_size,
        numeral_color=numeral_color,
        numeral_radius=round(numeral_radius, 2),
        hand_shape=hand_shape,
        hour_color=hour_color,
        minute_color=minute_color,
        second_color=second_color if has_second else ink,
        hour_length=round(hour_length, 2),
        minute_length=round(minute_length, 2),
        second_length=round(second_length, 2),
        hour_width=round(hour_width, 2),
        minute_width=round(minute_width, 2),
        second_width=round(second_width, 2),
        hand_taper=round(rng.uniform(0.5, 0.85), 3),
        arrow_head_width=round(rng.uniform(2.0, 2.8), 3),
        arrow_head_length=round(rng.uniform(0.12, 0.2), 3),
        hand_overhang=round(hour_length * rng.uniform(0.0, 0.25), 2),
        has_second_hand=has_second,
        second_tail=round(second_tail, 2),
        cap_radius=round(cap_radius, 2),
        cap_color=cap_color,
        look="realistic",
        design=design,
        decor=decor,
        decor_color=numeral_color if numeral_style != "none" else tick_color,
        second_shape=second_shape,
        second_disc=round(second_disc, 2),
        distortion=distortion,
        stretch=round(stretch, 3),
        stretch_axis_deg=round(axis, 1),
        tilt=(round(tilt[0], 3), round(tilt[1], 3)),
        warp_deg=round(warp, 2),
        warp_phase_deg=round(phase, 1),
        warp_radial=round(radial, 3),
    )


def sample_look(look: str, style: str, rng: random.Random, size: int = 420) -> ClockFace:
    """A face of ``look`` (:data:`LOOKS`): the realistic sampler or the classic one."""
    if look == "realistic":
        return sample_realistic_face(style, rng, size=size)
    if look == "classic":
        return sample_face(style, rng, size=size)
    raise ValueError(f"unknown clock look {look!r}; expected one of {LOOKS}")


def sample_time(style: str, rng: random.Random) -> ClockTime:
    """Gold time for ``style``: whole hours (easy), whole minutes (no second hand), else any."""
    if style not in CLOCK_STYLES:
        raise ValueError(f"unknown clock style {style!r}; expected one of {CLOCK_STYLES}")
    if style == "easy":
        return ClockTime(rng.randint(1, 12), 0, 0)
    if style == "no_second_hand":
        return ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL // 60) * 60)
    return ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL))


def hand_angles(time: ClockTime) -> tuple[float, float, float]:
    """(hour, minute, second) hand angles in degrees clockwise from 12, continuous motion."""
    h, m, s = time.hour % 12, time.minute, time.second
    return 30.0 * h + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s, 6.0 * s


# --------------------------------------------------------------------------------------------
# rendering

_SHIFT = 4
_SCALE = 1 << _SHIFT
_PIL_BLOCKS = 16


def _keep_pillow_blocks() -> None:
    """Let Pillow keep a few freed image blocks instead of returning them to the OS.

    Fresh memory is slow to fault in on small VMs; with the default (0) every new 420 px image
    costs a round of page faults. This only raises Pillow's own block cache (``PILLOW_BLOCKS_MAX``).
    """
    if Image.core.get_blocks_max() < _PIL_BLOCKS:
        Image.core.set_blocks_max(_PIL_BLOCKS)


_DIAL_CACHE: OrderedDict[tuple[object, ...], np.ndarray] = OrderedDict()
_DIAL_CACHE_SIZE = 32


def _centre(face: ClockFace) -> float:
    return (face.size - 1) / 2.0


def _fixed(points: np.ndarray) -> np.ndarray:
    return np.round(points * _SCALE).astype(np.int32)


def _circle(img: np.ndarray, c: float, radius: float, color: RGB) -> None:
    cv2.circle(
        img,
        (round(c * _SCALE), round(c * _SCALE)),
        round(radius * _SCALE),
        color,
        -1,
        cv2.LINE_AA,
        _SHIFT,
    )


def _draw_dial(face: ClockFace) -> np.ndarray:
    size, c = face.size, _centre(face)
    img = np.empty((size, size, 3), np.uint8)
    cv2.rectangle(img, (0, 0), (size - 1, size - 1), face.background, -1)
    _circle(img, c, face.dial_radius, face.rim_color)
    _circle(img, c, face.dial_radius - face.rim_width, face.dial_color)
    inner = face.dial_radius - face.rim_width
    if face.decor != "none":
        _draw_decor(img, face, c, inner)

    if face.tick_style in ("hours", "minutes"):
        idx = np.arange(0, 60, 5 if face.tick_style == "hours" else 1)
        hour_tick = idx % 5 == 0
        length = np.where(hour_tick, inner * 0.11, inner * 0.05)
        half = np.maximum(1.2, np.where(hour_tick, inner * 0.022, inner * 0.008)) / 2
        if face.design == "minimal":
            length, half = length * 0.6, np.maximum(1.0, half * 0.6)
        a = np.radians(6.0 * idx)
        u = np.stack([np.sin(a), -np.cos(a)], axis=1)[:, None, :]
        v = np.stack([np.cos(a), np.sin(a)], axis=1)[:, None, :]
        r1 = np.full_like(length, face.tick_outer)
        r0 = r1 - length
        along = np.stack([r0, r1, r1, r0], axis=1)[:, :, None]
        across = np.stack([-half, -half, half, half], axis=1)[:, :, None]
        quads = _fixed(c + along * u + across * v)
        cv2.fillPoly(img, list(quads), face.tick_color, cv2.LINE_AA, _SHIFT)
    elif face.tick_style == "dots":
        r = face.tick_outer - inner * 0.03
        for i in range(60):
            radius = max(1.0, inner * (0.022 if i % 5 == 0 else 0.009))
            a = math.radians(6 * i)
            centre = (round((c + r * math.sin(a)) * _SCALE), round((c - r * math.cos(a)) * _SCALE))
            cv2.circle(
                img, centre, round(radius * _SCALE), face.tick_color, -1, cv2.LINE_AA, _SHIFT
            )

    color = np.asarray(face.numeral_color, np.float32)
    for k, label in enumerate(_labels(face.numeral_style), start=1):
        mask, left, top = _glyph(face.numeral_font, face.numeral_size, label)
        a = math.radians(30 * k)
        x0 = round(c + face.numeral_radius * math.sin(a)) + left
        y0 = round(c - face.numeral_radius * math.cos(a)) + top
        region = img[y0 : y0 + mask.shape[0], x0 : x0 + mask.shape[1]]
        region[:] = region + (color - region) * mask + 0.5

    if face.rotation_deg:
        matrix = cv2.getRotationMatrix2D((c, c), -face.rotation_deg, 1.0)
        img = cv2.warpAffine(
            img,
            matrix,
            (size, size),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=face.background,
        )
    img.setflags(write=False)
    return img


def _draw_decor(img: np.ndarray, face: ClockFace, c: float, inner: float) -> None:
    """Decorations of ``decorative`` dials, drawn under the marks."""
    centre = (round(c * _SCALE), round(c * _SCALE))
    color = face.decor_color
    if face.decor == "rings":
        for frac in (0.28, 0.52):
            cv2.circle(img, centre, round(inner * frac * _SCALE), color, 1, cv2.LINE_AA, _SHIFT)
    elif face.decor == "double_rim":
        r = round((inner - max(2.0, inner * 0.015)) * _SCALE)
        cv2.circle(img, centre, r, color, 2, cv2.LINE_AA, _SHIFT)
    elif face.decor == "label":
        font = _font(face.numeral_font, max(8, 2 * round(inner * 0.035)))
        label = LABELS[int(face.dial_radius * 7) % len(LABELS)]
        layer = Image.fromarray(img)
        ImageDraw.Draw(layer).text((c, c - inner * 0.35), label, font=font, fill=color, anchor="mm")
        img[:] = np.asarray(layer)


def _dial(face: ClockFace) -> np.ndarray:
    key = tuple(getattr(face, name) for name in _DIAL_FIELDS)
    img = _DIAL_CACHE.get(key)
    if img is None:
        img = _draw_dial(face)
        _DIAL_CACHE[key] = img
        if len(_DIAL_CACHE) > _DIAL_CACHE_SIZE:
            _DIAL_CACHE.popitem(last=False)
    else:
        _DIAL_CACHE.move_to_end(key)
    return img


def _hand_parts(face: ClockFace, which: str) -> list[list[tuple[float, float]]]:
    """Convex pieces of a hand in hand coordinates: u along the hand (tip at +length), v across."""
    if which == "second":
        hw = face.second_width / 2
        parts = [
            [
                (-face.second_tail, -hw),
                (face.second_length, -hw),
                (face.second_length, hw),
                (-face.second_tail, hw),
            ]
        ]
        if face.second_shape == "disc_tail" and face.second_tail > 0:
            parts.append(_disc(-face.second_tail, face.second_disc))
        elif face.second_shape == "lollipop":
            parts.append(_disc(face.second_length * 0.78, face.second_disc))
        return parts
    length = face.hour_length if which == "hour" else face.minute_length
    width = face.hour_width if which == "hour" else face.minute_width
    back, hw = face.hand_overhang, width / 2
    if face.hand_shape == "bar":
        return [[(-back, -hw), (length, -hw), (length, hw), (-back, hw)]]
    if face.hand_shape == "tapered":
        tw = hw * face.hand_taper
        point = min(2.0 * tw, 0.1 * length)
        return [
            [(-back, -hw), (length - point, -tw), (length, 0.0), (length - point, tw), (-back, hw)]
        ]
    if face.hand_shape == "line":
        return [[(-back, -hw), (length, -hw), (length, hw), (-back, hw)]]
    if face.hand_shape == "leaf":  # widest at 40 %, pointed tip, narrow base
        return [
            [
                (-back, -0.55 * hw),
                (0.4 * length, -hw),
                (length, 0.0),
                (0.4 * length, hw),
                (-back, 0.55 * hw),
            ]
        ]
    if face.hand_shape == "sword":  # straight taper to a long point
        tw = hw * face.hand_taper
        return [
            [(-back, -hw), (0.82 * length, -tw), (length, 0.0), (0.82 * length, tw), (-back, hw)]
        ]
    if face.hand_shape == "arrow":
        head_len = face.arrow_head_length * length
        head_hw = hw * face.arrow_head_width
        neck = length - head_len
        shaft = [(-back, -hw), (neck + 0.5, -hw), (neck + 0.5, hw), (-back, hw)]
        return [shaft, [(neck, -head_hw), (length, 0.0), (neck, head_hw)]]
    raise ValueError(f"unknown hand shape {face.hand_shape!r}")


def _disc(u: float, radius: float, n: int = 24) -> list[tuple[float, float]]:
    return [
        (u + radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n))
        for k in range(n)
    ]


def _place(face: ClockFace, outline: list[tuple[float, float]], angle_deg: float) -> np.ndarray:
    """Hand outline in image coordinates (pixel centres at integers)."""
    c = _centre(face)
    a = math.radians(angle_deg + face.rotation_deg)
    ux, uy, vx, vy = math.sin(a), -math.cos(a), math.cos(a), math.sin(a)
    local = np.asarray(outline, dtype=np.float64)
    return np.stack(
        [c + local[:, 0] * ux + local[:, 1] * vx, c + local[:, 0] * uy + local[:, 1] * vy], axis=1
    )


def _fill_convex(img: np.ndarray, pts: np.ndarray, color: RGB) -> None:
    """Fill a convex polygon with exact-width anti-aliasing: coverage is
    ``clip(0.5 - signed distance, 0, 1)``, the distance being the largest over the edges."""
    h, w, _ = img.shape
    x0, y0 = (max(0, int(math.floor(v)) - 1) for v in pts.min(axis=0))
    x1 = min(w, int(math.ceil(pts[:, 0].max())) + 2)
    y1 = min(h, int(math.ceil(pts[:, 1].max())) + 2)
    if x0 >= x1 or y0 >= y1:
        return
    xs = np.arange(x0, x1, dtype=np.float32)
    ys = np.arange(y0, y1, dtype=np.float32)
    plist = pts.tolist()
    nxt = plist[1:] + plist[:1]
    area2 = sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(plist, nxt, strict=True))
    sign = 1.0 if area2 > 0 else -1.0  # outward normals for either winding
    normals = []
    for (px, py), (qx, qy) in zip(plist, nxt, strict=True):
        length = math.hypot(qx - px, qy - py)
        if length > 1e-9:
            nx, ny = sign * (qy - py) / length, -sign * (qx - px) / length
            normals.append((np.float32(nx), np.float32(ny), np.float32(px * nx + py * ny + 0.5)))
    nx, ny, offset = normals[0]
    # 0.5 - signed distance to the outline, as the minimum over the edges' half-planes
    cover = np.subtract.outer(offset - ys * ny, xs * nx)
    for nx, ny, offset in normals[1:]:
        np.minimum(cover, np.subtract.outer(offset - ys * ny, xs * nx), out=cover)
    np.clip(cover, 0.0, 1.0, out=cover)
    region = img[y0:y1, x0:x1]
    paint = np.empty_like(region)
    cv2.rectangle(paint, (0, 0), (x1 - x0 - 1, y1 - y0 - 1), color, -1)
    region[:] = cv2.blendLinear(region, paint, 1.0 - cover, cover)


def render_clock(time: ClockTime, face: ClockFace) -> Image.Image:
    """Draw ``time`` on ``face``: an RGB image of ``face.size`` x ``face.size`` pixels."""
    _keep_pillow_blocks()
    img = _dial(face).copy()
    hour_a, minute_a, second_a = hand_angles(time)
    hands = [("hour", hour_a, face.hour_color), ("minute", minute_a, face.minute_color)]
    if face.has_second_hand:
        hands.append(("second", second_a, face.second_color))
    for which, angle, color in hands:
        for part in _hand_parts(face, which):
            _fill_convex(img, _place(face, part, angle), color)
    _circle(img, _centre(face), face.cap_radius, face.cap_color)
    if face.distortion != "none":
        img = _distort(img, face)
    return Image.fromarray(img, "RGB")


def _distort(img: np.ndarray, face: ClockFace) -> np.ndarray:
    """The whole clock seen stretched, tilted or warped (see :data:`DISTORTIONS`)."""
    size, c = face.size, _centre(face)
    border = face.background
    if face.distortion in ("stretch", "perspective"):
        if face.distortion == "stretch":
            a = math.radians(face.stretch_axis_deg)
            u = np.array([math.cos(a), math.sin(a)])
            lin = np.eye(2) - (1.0 - face.stretch) * np.outer(u, u)  # squeeze along u
            m = np.eye(3)
            m[:2, :2] = lin
        else:
            px, py = face.tilt[0] / size, face.tilt[1] / size
            m = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [px, py, 1.0]])
            m = m / (1.0 + 0.5 * (abs(face.tilt[0]) + abs(face.tilt[1])))
            m[2] = [px, py, 1.0]
        shift = np.array([[1.0, 0.0, c], [0.0, 1.0, c], [0.0, 0.0, 1.0]])
        back = np.array([[1.0, 0.0, -c], [0.0, 1.0, -c], [0.0, 0.0, 1.0]])
        h = shift @ m @ back
        # keep the distorted clock centred in the frame
        p = h @ np.array([c, c, 1.0])
        h = np.array([[1.0, 0.0, c - p[0] / p[2]], [0.0, 1.0, c - p[1] / p[2]], [0, 0, 1.0]]) @ h
        return cv2.warpPerspective(img, h, (size, size), flags=cv2.INTER_LINEAR, borderValue=border)
    # warp: output point at angle a, radius r shows the source point at angle
    # a - warp sin(2(a - phase)) and radius r (1 + k) / (1 + k cos(3(a - phase)))
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    dx, dy = xs - c, ys - c
    r = np.hypot(dx, dy)
    a = np.arctan2(dx, -dy)
    ph = math.radians(face.warp_phase_deg)
    k = face.warp_radial
    a_src = a - math.radians(face.warp_deg) * np.sin(2 * (a - ph))
    r_src = r * (1 + k) / (1 + k * np.cos(3 * (a - ph)))
    map_x = (c + r_src * np.sin(a_src)).astype(np.float32)
    map_y = (c - r_src * np.cos(a_src)).astype(np.float32)
    return cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderValue=border)
