"""A hand hidden under the needle that reaches past the other ray (issue 19, session 10, s10-19i;
``clock_hidden_minute.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer).

``long_hour``: the second hand (0.92 of the radius) lying over the minute hand (0.82), an hour
hand 0.68 of the radius (0.74 of the needle: longer than ``MINUTE_OVER_NEEDLE``), bar, tapered
and leaf hands. By the other ray's length alone the reader took the hour hand for the minute
hand and hid the hour hand under the needle: 1:00:00 read 12:05:00, 11:00:00 read 11:55:00
(``clock_two_hands`` scores the right reading better, but near 12 and 6 by less than its
margin). The hand under the needle ends past the hour hand's tip: it is the minute hand.
Measured, hour:minute of 12 faces (1:00, 2:00, 10:00, 11:00; bar, tapered, sword hands): 6 with
main 1beea27, 12 now.

``needle_over_hour``: the same hands with the second hand lying over the hour hand (the mirror
rule ``hour_under_needle``): 34/90 with main 1beea27, 38/90 now."""

from __future__ import annotations

import math

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, minute_ticks, supersampled_face


def _hand(d, c: float, angle: float, length: float, width: float, fill, shape: str) -> None:  # noqa: ANN001
    """A hand from its outline in hand coordinates (u along the hand, v across)."""
    hw, back = width / 2, 0.1 * length
    if shape == "bar":
        outline = [(-back, -hw), (length, -hw), (length, hw), (-back, hw)]
    elif shape == "tapered":
        tw = 0.75 * hw
        point = min(2 * tw, 0.1 * length)
        outline = [(-back, -hw), (length - point, -tw), (length, 0.0), (length - point, tw)]
        outline.append((-back, hw))
    else:  # sword: parallel sides, then a long point
        outline = [(-back, -hw), (0.75 * length, -hw), (length, 0.0), (0.75 * length, hw)]
        outline.append((-back, hw))
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)
    d.polygon([(c + u * ux - v * uy, c + u * uy + v * ux) for u, v in outline], fill=fill)


def _long_hour_face(h: int, m: int, s: int, shape: str, size: int = 360) -> Image.Image:
    img, d, c, r = supersampled_face(size, (200, 200, 200), 0.46, (250, 248, 240))
    minute_ticks(d, c, r, (60, 60, 60))
    ink = (25, 25, 25)
    _hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, 0.74 * r, 0.06 * r, ink, shape)
    _hand(d, c, 6.0 * m + 0.1 * s, 0.84 * r, 0.045 * r, ink, shape)
    bar_hand(d, c, 6.0 * s, 0.92 * r, 0.009 * r, (200, 30, 30))
    q = 0.035 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=ink)
    return img.resize((size, size), Image.LANCZOS)


def _right(times: list[tuple[int, int, int]], shapes: tuple[str, ...]) -> int:
    right = 0
    for shape in shapes:
        for h, m, s in times:
            got = read_clock(_long_hour_face(h, m, s, shape))
            right += got is not None and (got.hour, got.minute) == (h, m)
    return right


def test_a_hand_under_the_needle_longer_than_the_hour_hand_is_the_minute_hand() -> None:
    times = [(h, 0, 0) for h in (1, 2, 10, 11)]
    right = _right(times, ("bar", "tapered", "sword"))
    assert right >= 11, f"{right}/12 read right (6/12 before session 10)"


def _needle_over_hour() -> list[tuple[int, int, int]]:
    """Per hour, the first time whose second hand lies within 1 degree of the hour hand, the
    minute hand more than 30 degrees away: the hand hidden under the needle is the hour hand."""
    times = []
    for h in range(1, 13):
        for m in range(0, 60, 7):
            for s in range(60):
                hour, minute = 30.0 * (h % 12) + 0.5 * m + s / 120.0, 6.0 * m + 0.1 * s
                if abs((6 * s - hour + 180) % 360 - 180) <= 1.0:
                    if abs((minute - hour + 180) % 360 - 180) > 30:
                        times.append((h, m, s))
                    break
    return times


def test_a_hand_under_the_needle_shorter_than_the_other_ray_is_the_hour_hand() -> None:
    """The same faces with the needle over the hour hand (30 times, three hand shapes). Where
    the needle's ray fails the needle test the looks read no second hand and the minute on the
    needle's ray; ``hour_under_needle`` reads the hidden hand as the hour hand where it ends
    short of the other ray. Most of these faces stay misread on both trees: the needle runs onto
    the tick ring, whose width step masks the hour hand's end (the rule then does not fire)."""
    times = _needle_over_hour()
    assert len(times) == 30
    right = _right(times, ("bar", "tapered", "sword"))
    assert right >= 38, f"{right}/90 read right (34/90 before session 10)"
