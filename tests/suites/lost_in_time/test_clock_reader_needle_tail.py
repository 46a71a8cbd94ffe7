"""A second hand's counterweight is no hour hand (issue 19, session 14, s14-19s;
``clock_needle_tail.py``). Faces drawn here with PIL (not the project's renderer, not a
third-party drawer): short hands, a second hand with a counterweight behind the pivot (a thin
tail, with or without a disc at its end).

The first test puts the second hand over the hour hand (seconds within a second of the hour
hand's place): the reader sees the second hand (the hour hand's ink along its inner part), the
minute hand, and the counterweight straight opposite. The hands' consistency cannot tell an hour
angle from the angle half a turn away, and main 6f39ec2 read the counterweight as the hour hand,
six hours off (4:33:23 read 10:33:23). Measured, hour:minute right of the 37 faces of each
variant (disc, plain, red, tilted): main 6f39ec2 9, 9, 9, 3; this rule 36, 36, 36, 33 (the
assertion asks 85 %, 32 of 37).

The second test keeps what must not change: a short hour hand lying straight opposite the second
hand, over its counterweight, is the hour hand (no hand lies under the second hand there).

The third test puts the hour hand under the minute hand (the second hand elsewhere, with its
counterweight): without the counterweight these are two rays, and the two-ray reading tries the
hour hand under either; the counterweight made them three rays, and the choice by consistency had
no hypothesis with the hour hand hidden (1:05:45 read 12:45:00). Measured, hour:minute right of
the 64 faces of each variant (disc, plain): main 6f39ec2 6, 6; now 58, 58 (the assertion asks
80 %); without a counterweight main reads all 64.

The fourth test keeps a short hour hand pointing straight away from a needle-thin minute hand,
the second hand elsewhere with its counterweight: the hour ray lies opposite a needle, but another
needle is the second hand, so it is the hour hand (the rule's first form read 10 of 22 of these
right, main 21)."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, supersampled_face, tilted

INK = (30, 30, 30)
RED = (200, 30, 30)
GREY = (200, 205, 215)


def _face(
    h: int,
    m: int,
    s: int,
    disc: float = 0.03,
    second: tuple[int, int, int] = INK,
    hour_length: float = 0.3,
    minute_width: float = 0.032,
    tilt: tuple[float, float] | None = None,
    size: int = 400,
) -> Image.Image:
    img, d, c, r = supersampled_face(size, GREY, 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.025 * r))
    hour_ticks(d, c, r, INK, (0.8, 0.93))
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + s / 120.0, hour_length * r, 0.05 * r, INK)
    bar_hand(d, c, 6.0 * m + 0.1 * s, 0.45 * r, minute_width * r, INK)
    bar_hand(d, c, 6.0 * s, 0.55 * r, 0.008 * r, second)
    tail = 0.19 * r  # the counterweight: a thin bar behind the pivot, a disc near its end
    bar_hand(d, c, 6.0 * s + 180.0, tail, 0.008 * r, second)
    if disc:
        a = math.radians(6.0 * s + 180.0)
        x, y, q = c + 0.8 * tail * math.sin(a), c - 0.8 * tail * math.cos(a), disc * r
        d.ellipse((x - q, y - q, x + q, y + q), fill=second)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    out = img.resize((size, size), Image.LANCZOS)
    return tilted(out, tilt, GREY) if tilt else out


def _times(opposite: bool) -> list[tuple[int, int, int]]:
    """The second hand over the hour hand (or straight opposite it), the minute hand 30 degrees
    or more from both."""
    out = []
    for h in range(1, 13):
        for m in (7, 33):
            hour = 30 * (h % 12) + 0.5 * m
            base = round(((hour + (180.0 if opposite else 0.0)) % 360.0) / 6.0)
            for s in (base % 60, (base + 1) % 60):
                if min(abs((6 * m - a + 180) % 360 - 180) for a in (hour, 6 * s)) > 30:
                    out.append((h, m, s))
    return out


@pytest.mark.parametrize(
    "variant",
    [{}, {"disc": 0.0}, {"second": RED}, {"tilt": (0.1, -0.12)}],
    ids=["disc", "plain", "red", "tilted"],
)
def test_the_hour_hand_under_the_second_hand_is_read_on_the_pointing_side(
    variant: dict,
) -> None:
    times = _times(opposite=False)
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s, **variant))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 0.85 * len(times), f"{right}/{len(times)} read right"


def _hour_on_minute() -> list[tuple[int, int, int]]:
    """The hour hand under the minute hand (within about 5.5 degrees), the second hand 30 degrees
    or more from them and 20 or more from straight opposite (where its counterweight would lie
    over them)."""
    out = []
    for h in range(1, 12):
        m0 = round(60 * h / 11) % 60
        for m in (m0 - 1, m0, m0 + 1):
            if not 0 <= m < 60:
                continue
            hour = 30 * h + 0.5 * m
            for s in ((m + 20) % 60, (m + 40) % 60):
                off = abs((6 * s - hour + 180) % 360 - 180)
                if 30 < off < 160:
                    out.append((h, m, s))
    return out


@pytest.mark.parametrize("disc", [0.03, 0.0], ids=["disc", "plain"])
def test_the_hour_hand_under_the_minute_hand_beside_a_counterweight(disc: float) -> None:
    times = _hour_on_minute()
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s, disc=disc))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 0.8 * len(times), f"{right}/{len(times)} read right"


@pytest.mark.parametrize("hour_length", [0.2, 0.25])
def test_a_short_hour_hand_opposite_the_second_hand_stays_the_hour_hand(
    hour_length: float,
) -> None:
    wrong = []
    for h, m, s in _times(opposite=True):
        got = read_clock(_face(h, m, s, hour_length=hour_length))
        if got is None or (got.hour, got.minute) != (h, m):
            wrong.append((h, m, s, str(got)))
    assert not wrong, wrong


def _hour_opposite_minute() -> list[tuple[int, int, int]]:
    """The hour hand within 3 degrees of straight opposite the minute hand, the second hand 30
    degrees or more from both."""
    out = []
    for h in range(1, 13):
        for m in range(60):
            hour = 30 * (h % 12) + 0.5 * m
            if abs((6 * m - hour) % 360 - 180) < 3:
                for s in ((m + 20) % 60, (m + 40) % 60):
                    if min(abs((6 * s - a + 180) % 360 - 180) for a in (hour, 6 * m)) > 30:
                        out.append((h, m, s))
    return out


def test_a_short_hour_hand_opposite_a_needle_thin_minute_hand_stays_the_hour_hand() -> None:
    times = _hour_opposite_minute()
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s, hour_length=0.25, minute_width=0.01))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 0.9 * len(times), f"{right}/{len(times)} read right"
