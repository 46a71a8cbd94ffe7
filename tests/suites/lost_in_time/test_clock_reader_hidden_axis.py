"""A minute hand hidden under the second hand, read with the pivot guess a few pixels off (issue
19, session 13, s13-19q; ``clock_hidden_axis.py``). Faces drawn here with PIL (not the project's
renderer, not a third-party drawer).

A plain dial without marks; an hour bar with a wide counterweight tail behind the pivot (the tail
and the cap make one thick blob, so the thickest ink no longer marks the pivot); a bar minute
hand; a needle in the same ink lying 2.4-3.6 degrees beside the minute hand and running past it.
The two rays are the hour hand and the needle with the minute hand under it. The reader read the
minute on the needle ray's inner part as the mean angle seen from the pivot guess, which a pivot
1-3 px off turns by degrees at 30-60 px; with the needle about half a minute from the minute
hand's place that put the minute one off with the seconds right (11:32:33 read 11:33:33). Where
the needle's own line misses the pivot guess clearly, the minute is read on the fitted line of
the ray's inner part, which turns with the hand and not with the pivot. Measured, hour:minute of
128 faces: 123 with main 3ebf8b4, 127 now."""

from __future__ import annotations

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face


def _face(h: int, m: int, s: int, size: int = 400) -> Image.Image:
    img, d, c, r = supersampled_face(size, (40, 90, 60), 0.42, (60, 50, 40))
    inner = 0.95 * r
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(248, 244, 232))
    ink = (45, 45, 55)
    hour = 30 * (h % 12) + 0.5 * m + s / 120.0
    bar_hand(d, c, hour, 0.5 * r, 0.07 * r, ink)
    bar_hand(d, c, hour + 180.0, 0.16 * r, 0.12 * r, ink)  # the counterweight tail
    bar_hand(d, c, 6 * m + 0.1 * s, 0.74 * r, 0.045 * r, ink)
    bar_hand(d, c, 6 * s, 0.88 * r, 0.009 * r, ink)
    cap = 0.035 * r
    d.ellipse((c - cap, c - cap, c + cap, c + cap), fill=ink)
    return img.resize((size, size), Image.LANCZOS)


def _needle_beside_minute() -> list[tuple[int, int, int]]:
    """Times whose needle lies 2.4-3.5 degrees ahead of (s = m + 1, m = 24-35) or 2.5-3.6 degrees
    behind (s = m, m = 25-36) the minute hand, at odd hours whose hour hand lies more than 20
    degrees from it."""
    pairs = [(m, m + 1) for m in range(24, 36)] + [(m, m) for m in range(25, 37)]
    times = []
    for m, s in pairs:
        for h in range(1, 13, 2):
            hour = 30 * (h % 12) + 0.5 * m + s / 120
            if abs((hour - 6 * s + 180) % 360 - 180) > 20:
                times.append((h, m, s))
    return times


def test_a_minute_hand_under_the_needle_is_read_on_its_own_axis() -> None:
    times = _needle_beside_minute()
    assert len(times) == 128
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s))
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, m)
    assert right >= 126, f"{right}/128 read right (123/128 with main 3ebf8b4)"
