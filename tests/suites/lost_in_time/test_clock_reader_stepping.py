"""A minute hand that steps once a minute, late in the minute (issue 19, session 4), on faces
drawn here with PIL (not the project's renderer): the minute bar sits exactly on its whole
minute and a thin red second line stands at 54–58 s. A sweeping minute hand would stand 0.9–
0.97 of a minute further on, within 0.1 min of the *next* whole minute, so the reader's fixed
stepping prior (0.1 min) kept the sweeping reading and read the minute one short. On a face
drawn this precisely the second hand sits on a whole second to a hundredth of a degree and the
minute hand on a whole minute to a few thousandths of a minute, while the sweeping reading
misses by 0.03–0.1 min: the pixels decide for the stepping hand.

The faces are drawn with matplotlib, precisely (the rule needs a face whose angles are exact:
PIL faces drawn large and resized read the second hand only to 0.01–0.07 deg, and the rule does
not fire there). Measured: the reader before this session (main 0c9684a) reads 0/12 of these
faces' hour:minute right; after, 9/12 (the other three keep the sweeping reading: the fit is not
5x better). The same clocks with sweeping hands: 11/12 before and after (10:48:54 has the second
line on the hour bar and is read 10:47 by both) — none is taken for a stepping hand."""

from __future__ import annotations

import io
import math

from PIL import Image

from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock

TIMES = [(h, m, s) for (h, m) in ((2, 37), (7, 12), (10, 48), (5, 3)) for s in (54, 56, 58)]


def _face(h: int, m: int, s: int, stepping: bool) -> Image.Image:
    """Drawn with matplotlib (Agg), 360 px: a white face with a black rim, dark grey bars for the
    hour and minute hands, a thin red second line, no marks."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon

    fig = plt.figure(figsize=(3.6, 3.6), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-1.1, 1.1)
    ax.set_ylim(-1.1, 1.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Circle((0, 0), 1.0, facecolor="white", edgecolor="black", linewidth=3))
    minute = 6.0 * m if stepping else 6.0 * m + 0.1 * s
    hour = 30.0 * (h % 12) + 0.5 * m + (0.0 if stepping else s / 120.0)
    for angle, length, width in ((hour, 0.5, 0.07), (minute, 0.78, 0.04)):
        a = math.radians(angle)
        ux, uy, px, py = math.sin(a), math.cos(a), math.cos(a), -math.sin(a)
        corners = [
            (-0.05 * ux + k * width / 2 * px, -0.05 * uy + k * width / 2 * py) for k in (-1, 1)
        ] + [(length * ux + k * width / 2 * px, length * uy + k * width / 2 * py) for k in (1, -1)]
        ax.add_patch(Polygon(corners, closed=True, facecolor="#3c3c3c", edgecolor="none"))
    a = math.radians(6.0 * s)
    ax.plot([0, 0.88 * math.sin(a)], [0, 0.88 * math.cos(a)], color="#e02828", linewidth=1.2)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def _hm(got: ClockTime | None, h: int, m: int) -> bool:
    return got is not None and (got.hour, got.minute) == (h, m)


def test_stepping_minute_hand_late_in_the_minute() -> None:
    right = sum(_hm(read_clock(_face(h, m, s, True)), h, m) for h, m, s in TIMES)
    assert right >= 9  # the reader of main 0c9684a: 0


def test_sweeping_minute_hand_late_in_the_minute_stays_sweeping() -> None:
    right = sum(_hm(read_clock(_face(h, m, s, False)), h, m) for h, m, s in TIMES)
    assert right >= 11  # as before
