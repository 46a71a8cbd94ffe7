"""A second hand over the minute hand, seen only past the minute hand's end (issue 19, session 13,
s13-19p; ``clock_needle_beyond.py``). Faces drawn here with PIL (not the project's renderer, not
a third-party drawer).

The seconds are one more than the minutes (5:38:39, 10:47:48): the needle lies about a degree or
two from the minute hand, over it, and runs on past its end. Followed from the rim in, the two are
one ray, whose last few pixels only are thin; the reader read no second hand and rounded the
minute hand's place (38.65) up: 5:39:00. Measured, hour:minute of the first test's faces: see the
assertion (main 3ebf8b4 reads none of them).

The second test keeps what must not change: on clocks without a second hand, a thin end on the
minute hand's own line is no second hand."""

from __future__ import annotations

from PIL import Image

from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, hour_ticks, supersampled_face

INK = (30, 30, 30)


def _face(h: int, m: int, s: int | None, pin: bool = False, size: int = 400) -> Image.Image:
    img, d, c, r = supersampled_face(size, (200, 205, 215), 0.46, (252, 250, 244))
    d.ellipse((c - r, c - r, c + r, c + r), outline=INK, width=int(0.025 * r))
    hour_ticks(d, c, r, INK, (0.8, 0.93))
    sec = s or 0
    bar_hand(d, c, 30.0 * (h % 12) + 0.5 * m + sec / 120.0, 0.5 * r, 0.05 * r, INK)
    bar_hand(d, c, 6.0 * m + 0.1 * sec, 0.8 * r, 0.032 * r, INK)
    if pin:  # a thin pin on the minute hand's own line, as long as a needle's free end
        bar_hand(d, c, 6.0 * m, 0.86 * r, 0.008 * r, INK)
    if s is not None:
        bar_hand(d, c, 6.0 * s, 0.86 * r, 0.008 * r, INK)
    q = 0.03 * r
    d.ellipse((c - q, c - q, c + q, c + q), fill=INK)
    return img.resize((size, size), Image.LANCZOS)


def _needle_along() -> list[tuple[int, int, int]]:
    """Seconds one past the minutes, late in the minute (30-55 s: the minute hand past half a
    minute), the hour hand 20 degrees or more from the other two."""
    times = []
    for m in range(30, 55, 2):
        for h in (2, 5, 10):
            hour = 30 * (h % 12) + 0.5 * m + (m + 1) / 120
            if abs((hour - 6 * m + 180) % 360 - 180) > 20:
                times.append((h, m, m + 1))
    return times


def test_a_needle_along_the_minute_hand_is_read_from_its_end() -> None:
    times = _needle_along()
    right = 0
    for h, m, s in times:
        got = read_clock(_face(h, m, s))
        right += got is not None and (got.hour, got.minute) == (h, m)
    assert right >= 0.9 * len(times), f"{right}/{len(times)} read right"


def test_a_pin_on_the_minute_hand_s_own_line_is_no_second_hand() -> None:
    """Clocks without a second hand whose minute hand, on a whole minute past the half hour,
    ends in a thin pin on its own line (the shape of a needle's free end, or of a mark beyond
    the hand): the thin end lies on the hand's axis, not ahead of it, and the whole minute fits
    the hand better than any reading with seconds, so they stay read on the whole minute."""
    wrong = []
    for m in range(30, 58, 3):
        for h in (1, 4, 9):
            if abs((30 * (h % 12) + 0.5 * m - 6 * m + 180) % 360 - 180) <= 20:
                continue
            got = read_clock(_face(h, m, None, pin=True))
            if got is None or (got.hour, got.minute) != (h, m):
                wrong.append((h, m, str(got)))
    assert not wrong, wrong
