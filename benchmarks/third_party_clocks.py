"""Clock images from drawers this project did not design, for ``bench_clock_reader.py --images``.

Each source below re-implements, from its published description, the drawing of a public
clock-drawing program (none of these repositories states a licence, so no code is copied; the
design — what is drawn, where, how wide, in which colours — follows the cited file). The
drawing engines are not the project's either: matplotlib (Agg) and cairo (through cairosvg).

    python benchmarks/third_party_clocks.py --out /tmp/clocks3p --n 150 --seed 0
    python benchmarks/bench_clock_reader.py --images /tmp/clocks3p --labels /tmp/clocks3p/labels.csv

Sources (group names in labels.csv):

- ``mpl_polar`` — github.com/Kopfgeldjaeger/Clock_project, ``wall_clock_v3.0.py`` (a clock
  image-dataset generator): matplotlib polar axes 2.5 in at 100 dpi, numerals 1–12 as the
  angular tick labels outside the circle, no ticks, no grid, three black lines from the centre
  (second 0.9 of the radius, 1 pt; minute 0.7, 2 pt; hour 0.3, 4 pt), saved with a tight box.
- ``svg_rect`` — github.com/Symars/tomatoplans, ``countdown/clock.php`` (the "SVG analog clock
  in 6 lines of JavaScript" design): a 100×100 viewBox, a circle r=45 with no fill set (so
  black) and a white 2 px stroke, hour and minute hands as rounded rectangles of the same
  length (40) rotated about (50, 50) — hour 5 wide, minute 3 wide, fill #333, stroke #555 —
  and a #f55 line as second hand (length 34). Dark grey hands on a black face.
- ``pyde_disc`` — github.com/OliveiraNt/CG-Projects, ``Clock/Clock.pyde`` (Processing): black
  background, a disc of a random colour (diameter 1.8 R), numerals 12/3/6/9 at 0.72 R and 5 px
  dots at the other hours on the same circle, round-capped hands of one random colour —
  second 0.72 R 1 px (it reaches the numerals), minute 0.60 R 2 px, hour 0.50 R 4 px. Random
  colour pairs closer than 60 levels (max channel) are drawn again (a deviation: such pairs are
  unreadable to anyone).
- ``tk_ticks`` — github.com/TyagiAmrit271/Analog-clock-using-python, ``clock.py`` (tkinter, added
  in session 4): a 400×400 white canvas, the outline oval (2, 2)–(400, 400) in black 2 px (its
  right and bottom edges run into the canvas border), numerals 1–12 in Helvetica 12 at 0.7 of
  the half-width (the 12 raised 10 px), 60 black ticks from 0.8 to 0.9 (3 px every fifth, else
  1 px), butt-ended black hands from the centre — hour 0.5 R 6 px, minute 0.7 R 4 px (it ends
  on the numerals' circle) — and a red 2 px second hand 0.6 R, *shorter* than the minute hand.
  Drawn with PIL's ImageDraw, aliased like Tk's X11 canvas (Liberation Sans, Helvetica's
  metric twin, 16 px for 12 pt); the minute and second hands sweep, the hour hand moves with
  the minutes only, as in the source.
- ``study_plain`` — github.com/aMa2210/LLM_analog_clocks, ``Generate_Clocks.py`` (the plain
  faces of a study of how multimodal LLMs read clocks; added in session 4): matplotlib, a 6×6 in
  figure, a white disc of radius 1 with a black 3 pt edge, 60 black ticks reaching the rim (0.1
  long and 3 pt every fifth, else 0.05 and 1 pt), bold numerals 1–12 (16 pt) at 0.8, black hour
  (0.5, 6 pt) and minute (0.75, 4 pt) lines and a red second line (0.85, 2 pt) from the centre,
  a 0.02 black centre dot, axes hidden, limits ±1.05, saved with a tight box and 0.1 in padding.
  All three hands sweep. The study's own faces of this set are not released as images.
- ``mpl_nodial`` — github.com/yitinghan/cs107_yiting_han, ``homework/HW2/HW2-final/P4.py``:
  three matplotlib lines in the default colour cycle on square axes [-10, 10]², no dial, no
  marks (hour length 2, width 6; minute 5, width 4; second 10, width 1 — the second hand
  reaches the frame). Not a regular dial: reported on its own.

Perturbations written here (not by the sources), each its own group:

- ``<source>+stretch``: the SVG sources rendered into a non-square box with
  ``preserveAspectRatio="none"`` (aspect 0.6–0.85, either axis); ``mpl_polar`` squeezed by an
  affine map along a random axis (0.6–0.85) with OpenCV.
- ``<source>+warp``: every pixel's angle about the image centre moved by
  ``7°·sin(2(a − phase))`` (OpenCV remap) — non-elliptic, like the generator's ``warp``.

The gold in labels.csv is the time drawn on the undistorted clock (H:MM:SS; ``mpl_polar`` and
``mpl_nodial`` draw the hour hand with the exact continuous-motion angle; ``svg_rect`` moves
its hour hand with minutes only, its minute hand with whole minutes, as its source does).
"""

from __future__ import annotations

import argparse
import csv
import functools
import io
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image


def _mpl_polar(h: int, m: int, s: int, rng: random.Random) -> Image.Image:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pi = math.pi
    a_h = 2 * pi * h / 12 + 2 * pi * m / 720 + 2 * pi * s / 43200 - pi / 6
    a_m = 2 * pi * m / 60 + 2 * pi * s / 3600 - pi / 6
    a_s = 2 * pi * s / 60 - pi / 6
    fig = plt.figure(figsize=(2.5, 2.5))
    ax = fig.add_subplot(111, polar=True)
    for a, r, w in ((a_s, 0.9, 1), (a_m, 0.7, 2), (a_h, 0.3, 4)):
        ax.plot([a, a], [0, r], color="black", linewidth=w)
    plt.setp(ax.get_yticklabels(), visible=False)
    ax.set_xticks(np.linspace(0, 2 * pi, 12, endpoint=False))
    ax.set_xticklabels(range(1, 13))
    ax.set_theta_direction(-1)
    ax.set_theta_offset(pi / 3)
    ax.grid(False)
    ax.set_ylim(0, 1)
    buf = io.BytesIO()
    fig.savefig(buf, dpi=100, bbox_inches="tight", format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def _study_plain(h: int, m: int, s: int) -> Image.Image:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 6))
    ax.set_aspect("equal")
    ax.add_patch(plt.Circle((0, 0), radius=1, fc="#ffffff", ec="black", lw=3))
    for k in range(60):
        a = math.pi / 30 * k
        inner, width = (0.9, 3) if k % 5 == 0 else (0.95, 1)
        ax.plot(
            [inner * math.cos(a), math.cos(a)],
            [inner * math.sin(a), math.sin(a)],
            lw=width,
            color="black",
        )
    for numeral in range(1, 13):
        a = math.pi / 6 * (3 - numeral)
        ax.text(
            0.8 * math.cos(a),
            0.8 * math.sin(a),
            str(numeral),
            ha="center",
            va="center",
            fontsize=16,
            fontweight="bold",
        )
    for turns, length, width, colour in (  # angles counter-clockwise from 3 o'clock, in hours
        (3 - h % 12 - m / 60 - s / 3600, 0.5, 6, "black"),
        ((15 - m - s / 60) / 5, 0.75, 4, "black"),
        ((15 - s) / 5, 0.85, 2, "red"),
    ):
        a = math.pi / 6 * turns
        ax.plot([0, length * math.cos(a)], [0, length * math.sin(a)], lw=width, color=colour)
    ax.add_patch(plt.Circle((0, 0), radius=0.02, fc="black"))
    plt.axis("off")
    plt.xlim(-1.05, 1.05)
    plt.ylim(-1.05, 1.05)
    buf = io.BytesIO()
    fig.savefig(buf, bbox_inches="tight", pad_inches=0.1, format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def _mpl_nodial(h: int, m: int, s: int, rng: random.Random) -> Image.Image:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure()
    for theta, length, width in (
        (90 - 30 * h - m / 2, 2, 6),
        (90 - 6 * m, 5, 4),
        (90 - 6 * s, 10, 1),
    ):
        x = length * math.cos(math.radians(theta))
        y = length * math.sin(math.radians(theta))
        plt.plot([0, x], [0, y], linewidth=width)
    plt.xticks([])
    plt.yticks([])
    plt.axis([-10, 10, -10, 10])
    buf = io.BytesIO()
    fig.savefig(buf, dpi=80, format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def _svg_to_image(svg: str, width: int, height: int) -> Image.Image:
    import cairosvg

    png = cairosvg.svg2png(bytestring=svg.encode(), output_width=width, output_height=height)
    return Image.open(io.BytesIO(png)).convert("RGB")


def _svg_rect(h: int, m: int, s: int, box: tuple[int, int]) -> Image.Image:
    hour = 30 * (h % 12) + m / 2
    rot = "rotate({:.4f} 50 50)"
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"
 width="{box[0]}" height="{box[1]}" preserveAspectRatio="none">
<rect width="100" height="100" fill="#ffffff"/>
<circle cx="50" cy="50" r="45" style="stroke-width:2px;stroke:#fff"/>
<rect x="48.5" y="12.5" width="5" height="40" rx="2.5" ry="2.55" transform="{rot.format(hour)}"
 style="stroke-width:1px;fill:#333;stroke:#555"/>
<rect x="48" y="12.5" width="3" height="40" rx="2" ry="2" transform="{rot.format(6 * m)}"
 style="stroke-width:1px;fill:#333;stroke:#555"/>
<line x1="50" y1="50" x2="50" y2="16" transform="{rot.format(6 * s)}"
 style="stroke-width:1px;stroke:#f55"/>
</svg>"""
    return _svg_to_image(svg, *box)


@functools.lru_cache(maxsize=1)
def _tk_font() -> Any:
    """Liberation Sans 16 px (Helvetica 12 pt's metric twin): a system font (Debian package
    fonts-liberation), not one of matplotlib's, so the group's figures depend on its version."""
    from PIL import ImageFont

    return ImageFont.truetype("LiberationSans-Regular.ttf", 16)


def _tk_ticks(h: int, m: int, s: int) -> Image.Image:
    from PIL import ImageDraw

    size = 400
    img = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(img)
    half = size / 2
    draw.ellipse((2, 2, size, size), outline="black", width=2)
    font = _tk_font()
    for i in range(12):
        a = i * math.pi / 6 - math.pi / 2
        x, y = half + 0.7 * half * math.cos(a), half + 0.7 * half * math.sin(a)
        draw.text((x, y - 10 if i == 0 else y), str(i or 12), fill="black", font=font, anchor="mm")
    for i in range(60):
        a = i * math.pi / 30 - math.pi / 2
        p1 = (half + 0.8 * half * math.cos(a), half + 0.8 * half * math.sin(a))
        p2 = (half + 0.9 * half * math.cos(a), half + 0.9 * half * math.sin(a))
        draw.line((p1, p2), fill="black", width=3 if i % 5 == 0 else 1)
    for a, r, colour, w in (
        ((h % 12 + m / 60) * math.pi / 6 - math.pi / 2, 0.5, "black", 6),
        ((m + s / 60) * math.pi / 30 - math.pi / 2, 0.7, "black", 4),
        (s * math.pi / 30 - math.pi / 2, 0.6, "red", 2),
    ):
        tip = (half + r * half * math.cos(a), half + r * half * math.sin(a))
        draw.line(((half, half), tip), fill=colour, width=w)
    return img


def _colour(rng: random.Random) -> tuple[int, int, int]:
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


def _far(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) >= 60


def _pyde_disc(h: int, m: int, s: int, rng: random.Random, box: tuple[int, int]) -> Image.Image:
    size = 640
    c1 = _colour(rng)
    c2 = _colour(rng)
    while not _far(c1, c2):
        c2 = _colour(rng)
    c3 = _colour(rng)
    while not _far(c1, c3):
        c3 = _colour(rng)
    radius = size / 2
    cx = cy = size / 2
    r_s, r_m, r_h, diameter = 0.72 * radius, 0.60 * radius, 0.50 * radius, 1.8 * radius

    def hexc(c: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*c)

    # Processing's map(): seconds and minutes over a full turn, hours over two turns per day
    a_s = 2 * math.pi * s / 60 - math.pi / 2
    a_m = 2 * math.pi * (m + s / 60) / 60 - math.pi / 2
    a_h = 4 * math.pi * (h + m / 60) / 24 - math.pi / 2
    parts = [
        f'<rect width="{size}" height="{size}" fill="#000"/>',
        f'<circle cx="{cx}" cy="{cy}" r="{diameter / 2}" fill="{hexc(c1)}"/>',
    ]
    for text, x, y in (
        ("9", cx - r_s, cy),
        ("12", cx, cy - r_s),
        ("3", cx + r_s, cy),
        ("6", cx, cy + r_s),
    ):
        parts.append(
            f'<text x="{x}" y="{y + 11}" font-family="DejaVu Sans" font-size="32" '
            f'text-anchor="middle" fill="{hexc(c3)}">{text}</text>'
        )
    for a, r, w in ((a_s, r_s, 1), (a_m, r_m, 2), (a_h, r_h, 4)):
        x2, y2 = cx + math.cos(a) * r, cy + math.sin(a) * r
        parts.append(
            f'<line x1="{cx}" y1="{cy}" x2="{x2:.3f}" y2="{y2:.3f}" stroke="{hexc(c2)}" '
            f'stroke-width="{w}" stroke-linecap="round"/>'
        )
    for deg in range(0, 360, 30):
        if deg not in (0, 90, 180, 270):
            x, y = cx + math.cos(math.radians(deg)) * r_s, cy + math.sin(math.radians(deg)) * r_s
            parts.append(f'<circle cx="{x:.3f}" cy="{y:.3f}" r="2.5" fill="{hexc(c2)}"/>')
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'width="{box[0]}" height="{box[1]}" preserveAspectRatio="none">'
        + "".join(parts)
        + "</svg>"
    )
    return _svg_to_image(svg, *box)


def _squeeze(img: Image.Image, rng: random.Random) -> Image.Image:
    import cv2

    a = np.asarray(img)
    h, w = a.shape[:2]
    k = rng.uniform(0.6, 0.85)
    phi = rng.uniform(0, math.pi)
    u = np.array([math.cos(phi), math.sin(phi)])
    m2 = np.eye(2) - (1 - k) * np.outer(u, u)  # squeeze by k along u
    c = np.array([w / 2, h / 2])
    mat = np.hstack([m2, (c - m2 @ c)[:, None]])
    border = tuple(int(v) for v in a[0, 0])
    out = cv2.warpAffine(a, mat, (w, h), flags=cv2.INTER_LINEAR, borderValue=border)
    return Image.fromarray(out)


def _warp(img: Image.Image, rng: random.Random) -> Image.Image:
    import cv2

    a = np.asarray(img)
    h, w = a.shape[:2]
    phase = rng.uniform(0, math.pi)
    amp = math.radians(7)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - w / 2, yy - h / 2
    r = np.hypot(dx, dy)
    ang = np.arctan2(dy, dx)
    # output pixel at angle a shows the source at a - amp*sin(2(a - phase)) (approximate inverse)
    src = ang - amp * np.sin(2 * (ang - phase))
    map_x = (w / 2 + r * np.cos(src)).astype(np.float32)
    map_y = (h / 2 + r * np.sin(src)).astype(np.float32)
    border = tuple(int(v) for v in a[0, 0])
    out = cv2.remap(a, map_x, map_y, cv2.INTER_LINEAR, borderValue=border)
    return Image.fromarray(out)


def _stretch_box(rng: random.Random, side: int) -> tuple[int, int]:
    k = rng.uniform(0.6, 0.85)
    return (side, round(side * k)) if rng.random() < 0.5 else (round(side * k), side)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=150, help="faces per group")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--groups", nargs="+", help="draw only these groups (default: all)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    def draw(group: str, rng: random.Random, h: int, m: int, s: int) -> Image.Image:
        side = 360
        if group == "mpl_polar":
            return _mpl_polar(h, m, s, rng)
        if group == "mpl_polar+stretch":
            return _squeeze(_mpl_polar(h, m, s, rng), rng)
        if group == "mpl_polar+warp":
            return _warp(_mpl_polar(h, m, s, rng), rng)
        if group == "mpl_nodial":
            return _mpl_nodial(h, m, s, rng)
        if group == "svg_rect":
            return _svg_rect(h, m, s, (side, side))
        if group == "svg_rect+stretch":
            return _svg_rect(h, m, s, _stretch_box(rng, side))
        if group == "pyde_disc":  # the source's 640 px canvas
            return _pyde_disc(h, m, s, rng, (640, 640))
        if group == "pyde_disc+stretch":
            return _pyde_disc(h, m, s, rng, _stretch_box(rng, 640))
        if group == "tk_ticks":
            return _tk_ticks(h, m, s)
        if group == "study_plain":
            return _study_plain(h, m, s)
        if group == "pyde_disc+warp":
            return _warp(_pyde_disc(h, m, s, rng, (640, 640)), rng)
        raise ValueError(group)

    groups = (
        "mpl_polar",
        "svg_rect",
        "pyde_disc",
        "mpl_nodial",
        "mpl_polar+stretch",
        "svg_rect+stretch",
        "pyde_disc+stretch",
        "mpl_polar+warp",
        "pyde_disc+warp",
        "tk_ticks",
        "study_plain",
    )
    if args.groups:
        unknown = sorted(set(args.groups) - set(groups))
        if unknown:
            ap.error(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(groups)}")
        groups = tuple(g for g in groups if g in args.groups)
    if "tk_ticks" in groups:
        try:  # before anything is written: a missing font must not leave half a set behind
            _tk_font()
        except OSError:
            ap.error("group tk_ticks needs the Liberation Sans font (Debian: fonts-liberation)")
    with (args.out / "labels.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["file", "time", "group"])
        for group in groups:
            for i in range(args.n):
                rng = random.Random(f"third-party:{args.seed}:{group}:{i}")
                h, m, s = rng.randint(1, 12), rng.randrange(60), rng.randrange(60)
                name = f"{group.replace('+', '_')}_{i:04d}.png"
                draw(group, rng, h, m, s).save(args.out / name)
                writer.writerow([name, f"{h}:{m:02d}:{s:02d}", group])


if __name__ == "__main__":
    main()
