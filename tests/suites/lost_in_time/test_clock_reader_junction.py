"""Two hands' tips meeting in a junction (issue 19, session 11, s11-19l; ``clock_junction.py``).
Faces drawn here with PIL (not the project's renderer, not a third-party drawer).

A needle (0.95 of the radius, with a round disc at 0.78 of its length) lies 1.2-3.5 degrees
beside a leaf minute hand (0.84) and runs past its point. Followed from the rim inwards, the
needle's free end and the minute hand's point are two rays until the leaf widens enough to touch
the needle; there they meet in one run, and the track from there to the pivot starts as a
junction (no hand tip). The reader dropped that track, and the minute hand's point with it (a
fragment of the needle's ray), and read the minute from the needle's ray: the needle's disc
makes its ray step in width, and the seconds were lost or the minute came out one off (1:36:37
read 1:37:00, 7:30:30 read 7:29:30). The minute hand's point, joined to the junction's track, is a ray of its own, and the
hands are chosen among three rays. Measured, hour:minute of 86 faces: 72 with main f61dff6,
86 now."""

from __future__ import annotations

import math

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, minute_ticks, supersampled_face


def _leaf(d, c: float, angle: float, length: float, width: float, fill) -> None:  # noqa: ANN001
    """A leaf hand (widest at 0.4 of its length, pointed) from its outline in hand coordinates."""
    hw, back = width / 2, 0.1 * length
    outline = [(-back, -0.55 * hw), (0.4 * length, -hw), (length, 0.0), (0.4 * length, hw)]
    outline.append((-back, 0.55 * hw))
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)
    d.polygon([(c + u * ux - v * uy, c + u * uy + v * ux) for u, v in outline], fill=fill)


def _face(h: int, m: int, s: int, size: int = 400) -> Image.Image:
    img, d, c, r = supersampled_face(size, (190, 200, 210), 0.46, (250, 248, 240))
    minute_ticks(d, c, r, (70, 70, 70))
    ink = (30, 30, 30)
    _leaf(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.45 * r, 0.08 * r, ink)
    _leaf(d, c, 6.0 * m + 0.1 * s, 0.84 * r, 0.06 * r, ink)
    bar_hand(d, c, 6.0 * s, 0.95 * r, 0.009 * r, ink)
    a = math.radians(6.0 * s)
    x, y, q = c + 0.78 * 0.95 * r * math.sin(a), c - 0.78 * 0.95 * r * math.cos(a), 0.03 * r
    d.ellipse((x - q, y - q, x + q, y + q), fill=ink)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=ink)
    return img.resize((size, size), Image.LANCZOS)


def _needle_beside_minute() -> list[tuple[int, int, int]]:
    """Times whose needle lies 1.2-3.5 degrees ahead of (s = m + 1, m = 24-45) or behind (s = m,
    m = 12-33) the minute hand, at odd hours whose hour hand lies more than 20 degrees from it."""
    pairs = [(m, m + 1) for m in range(24, 48, 3)] + [(m, m) for m in range(12, 36, 3)]
    times = []
    for m, s in pairs:
        for h in range(1, 13, 2):
            hour = 30 * (h % 12) + 0.5 * m + s / 120
            if abs((hour - 6 * s + 180) % 360 - 180) > 20:
                times.append((h, m, s))
    return times


def test_a_minute_hands_point_lost_in_a_junction_with_the_needle_is_a_ray() -> None:
    times = _needle_beside_minute()
    assert len(times) == 86
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 82, f"{right}/86 read right (72/86 with main f61dff6)"
