"""The thinnest hand, as long as the longest, is the second hand however wide it is drawn (issue 19,
session 15, s15-19u; ``clock_thin_second.py``). Faces drawn here with PIL (not the project's
renderer, not a third-party drawer): bar hands, the second hand 0.02 of the radius wide (wider than
the reader's needle, ``THIN_HAND`` 0.0145) beside a minute hand of 0.04 and an hour hand of 0.06.

The first test reads times 34-56 s past the minute: main 4dc26b0 called the second hand no
needle, chose "no second hand, one ray left over", and read the minute by rounding its hand, one
up (4:21:47 read 4:22:00). Measured on 121 such faces (minutes 8, 21, 39, 52): main 0 of 121
hour:minute right (also with the second hand 0.016 or 0.025 wide, tilted, on a 250 px face, with
a disc); this rule 121 of 121 in each. The test reads the minutes 21 and 52 (61 faces) and asks
90%. Session 16 (s16-19x): ``THINNER`` 0.7 -> 0.8; a second hand 0.03 of the radius wide (0.75 of
the minute hand), and 0.028 on a 250 px face, read 0 of 61 with 0.7 (af3b308) and 61 of 61 now
(the 1 pt second hand of the warped matplotlib polar clock measures 0.70-0.74 of its minute
hand).

The second test keeps what must not change: a clock without a second hand whose minute hand is
thin and long, the hour hand wide with a counterweight tail (the third ray). The thin minute hand
must not be taken for a second hand with the hour hand as the minute hand (a first form of the
rule read 7:46 as 1:38:46)."""

from __future__ import annotations

import pytest
from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, supersampled_face, tilted

INK = (30, 30, 30)
GREY = (200, 205, 215)


def _face(
    h: int,
    m: int,
    s: int | None,
    second_width: float = 0.02,
    tilt: tuple[float, float] | None = None,
    hour_tail: bool = False,
    size: int = 400,
) -> Image.Image:
    img, d, c, r = supersampled_face(size, GREY, 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.02 * r))
    hour_ticks(d, c, r, INK, (0.82, 0.95))
    sec = s or 0
    hour = 30.0 * (h % 12) + 0.5 * m + sec / 120.0
    bar_hand(d, c, hour, 0.5 * r, 0.06 * r if s is not None else 0.07 * r, INK)
    if hour_tail:
        bar_hand(d, c, hour + 180.0, 0.28 * r, 0.05 * r, INK)
    if s is None:  # no second hand: a thin, long minute hand
        bar_hand(d, c, 6.0 * m, 0.9 * r, 0.022 * r, INK)
    else:
        bar_hand(d, c, 6.0 * m + 0.1 * s, 0.78 * r, 0.04 * r, INK)
        bar_hand(d, c, 6.0 * s, 0.9 * r, second_width * r, INK)
    q = 0.035 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    out = img.resize((size, size), Image.LANCZOS)
    return tilted(out, tilt, GREY) if tilt else out


def _times() -> list[tuple[int, int, int]]:
    """Late in the minute (the minute hand more than half-way to the next), the three hands at
    least 15 degrees apart."""
    out = []
    for h in range(1, 13):
        for m in (21, 52):
            for s in (34, 47, 56):
                angles = [30 * (h % 12) + 0.5 * m, 6 * m + 0.1 * s, 6 * s]
                gaps = [
                    abs((a - b + 180) % 360 - 180)
                    for i, a in enumerate(angles)
                    for b in angles[i + 1 :]
                ]
                if min(gaps) > 15:
                    out.append((h, m, s))
    return out


@pytest.mark.parametrize(
    "variant",
    [
        {},
        {"second_width": 0.016},
        {"tilt": (0.1, -0.12)},
        {"size": 250},
        {"second_width": 0.03},
        {"second_width": 0.028, "size": 250},
    ],
    ids=["plain", "narrower", "tilted", "small", "wider", "wider-small"],
)
def test_a_second_hand_wider_than_a_needle_is_read(variant: dict) -> None:
    times = _times()
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s, **variant))
        right += got is not None and (got.hour % 12, got.minute) == (h % 12, m)
    assert right >= 0.9 * len(times), f"{right}/{len(times)} read right"


def test_a_thin_minute_hand_without_a_second_hand_stays_the_minute_hand() -> None:
    # (7, 46): the hour hand's place is 38.8 minutes and the minute hand stands on 46, so the
    # hour hand read as a minute hand 38 with the minute hand as its second hand (46 s) fits
    for h, m in [(7, 46), (2, 19), (11, 33), (4, 58)]:
        got = read_clock(_face(h, m, None, hour_tail=True))
        assert got is None or (got.hour % 12, got.minute) != (1, 38), got
        assert got is not None and got.minute == m, got
