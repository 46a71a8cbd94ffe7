"""The clock reader's pivot under a perspective view (issue 19, session 9, s9-19g), on faces
drawn here with PIL and tilted with the homography of ``test_clock_reader_perspective`` (not the
project's renderer or its distortion; the homography is ``helpers.tilted``). A tilt moves the
dial centre's image (the cap) 8-25 px (of a 200 px radius) from the outline's centre, towards the
side seen compressed.

- A plain dial at whole hours near 12 (minute and second hand on one ray, hour hand near it):
  the first look, from the cap, shows two rays; the reader looked again from the outline's
  centre, which lies on the minute hand there, and took that look for its three "rays" (the
  minute hand cut in two at a point beside the pivot): 11:00 read 6:00 here (on the generator's
  face 0:3048, 11:00 read 5:55). Now that look is taken
  only where it does not show clearly less hand and either shows clearly more or its rays' axes
  pass its pivot no worse than the first look's (``clock_perspective.centre_look_better``).
- A dial with twelve ticks and a wide hour bar pointing past the outline's centre: the first
  pivot guess (the thickest ink) lies on the bar, away from the cap (11-45 px on six generator
  faces, ``clock_perspective``'s docstring); the marks taken around it miss the far side's
  ticks, and no crossing of opposite marks corrected it (11:27 read 5:27). Now the marks are
  taken again around the outline's centre (``clock_perspective.outline_mark_centre``). The
  sixty-ticks variant shows that the rule holds where minute ticks stand beside the hours'; it
  does not tell its 4-degree hour windows from 11-degree ones (both read it alike).
- Hands drawn a few pixels beside their pivot (their axes miss one point): the reader took the
  outline's centre for the pivot, which under a tilt lies 8-25 px from the cap; now only where
  the look from there does not show clearly less hand (``clock_confirm.shows_less_hand``, the
  hook in ``clock_reader.read_clock``).

Each test's docstring gives the count measured with the reader before this round (main 042ac7a)
and after it; each threshold is the count measured after it on this machine less one (a margin
for a resampling change in PIL or cv2), and above the count before."""

from __future__ import annotations

import math
import random

from PIL import Image

from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock
from helpers import bar_hand, supersampled_face, tilted

BORDER = (70, 110, 160)


def _hm(got: ClockTime | None, gold: ClockTime) -> bool:
    return got is not None and (got.hour, got.minute) == (gold.hour, gold.minute)


def _clock(
    time: ClockTime,
    size: int,
    ticks: int,
    hour_width: float,
    cap: float,
    minute_width: float = 0.035,
    second_width: float = 0.01,
    tail: bool = True,
    beside: float = 0.0,
) -> Image.Image:
    """Cream dial with a brown rim, ``ticks`` ticks (0: none; 60: the hours' ticks long and bold,
    the minutes' short and thin), dark bar hands (the second hand with a counterweight tail where
    ``tail``; the hour and minute bars drawn ``beside`` px of the 3x canvas to either side of the
    pivot) and a dark cap of ``cap`` of the radius."""
    img, d, c, r = supersampled_face(size, (70, 110, 160), 0.42, (90, 70, 50))
    inner = 0.96 * r
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(246, 240, 226))
    for k in range(ticks):
        a = math.radians(360 * k / ticks)
        ux, uy = math.sin(a), -math.cos(a)
        r0, w = (0.8 * r, 0.03 * r) if ticks != 60 or k % 5 == 0 else (0.86 * r, 0.012 * r)
        d.line(
            (c + r0 * ux, c + r0 * uy, c + 0.9 * r * ux, c + 0.9 * r * uy), (30, 30, 30), round(w)
        )
    hour = 30 * (time.hour % 12) + 0.5 * time.minute + time.second / 120.0
    minute = 6 * time.minute + 0.1 * time.second
    ink = (40, 35, 45)
    bar_hand(d, c, hour, 0.5 * r, hour_width * r, ink, beside=beside)
    bar_hand(d, c, minute, 0.78 * r, minute_width * r, ink, beside=-beside)
    bar_hand(d, c, 6 * time.second, 0.88 * r, second_width * r, ink)
    if tail:
        bar_hand(d, c, 6 * time.second + 180.0, 0.2 * r, 0.012 * r, ink)
    d.ellipse((c - cap * r, c - cap * r, c + cap * r, c + cap * r), fill=ink)
    return img.resize((size, size), Image.LANCZOS)


def test_whole_hours_on_a_tilted_plain_dial() -> None:
    """Hours 10, 11, 1 and 2 on the hour, no marks; tilted 0.10-0.15 per half-width towards the
    bottom (the cap below the outline's centre, the minute hand through it). Measured 24/24
    after; 21/24 with the reader before (main 042ac7a: 11:00 read 6:00, 1:00 read 6:00, 1:00
    read 12:59). The threshold, 23, is the measured count less one."""
    rng = random.Random(919)
    right = 0
    for _ in range(24):
        gold = ClockTime(rng.choice((10, 11, 1, 2)), 0, 0)
        img = _clock(gold, 420, ticks=0, hour_width=0.06, cap=0.04)
        tilt = (rng.uniform(-0.05, 0.05), rng.uniform(0.1, 0.15))
        right += _hm(read_clock(tilted(img, tilt, BORDER)), gold)
    assert right >= 23, right


def test_ticks_dial_with_a_wide_hour_bar_over_the_outline_centre() -> None:
    """Twelve ticks, an hour bar 0.1 of the radius wide at 11, 12 or 1 (past the outline's
    centre), a small cap; tilted 0.13-0.18 per half-width towards the bottom. Measured 24/24
    after; 19/24 with the reader before (main 042ac7a). The threshold, 23, is the measured count
    less one; this test sees one tick per hour window, so it does not check ``NARROW``."""
    rng = random.Random(919)
    right = 0
    for _ in range(24):
        gold = ClockTime(rng.choice((11, 12, 1)), rng.randrange(15, 45), rng.randrange(60))
        img = _clock(gold, 420, ticks=12, hour_width=0.1, cap=0.03)
        tilt = (rng.uniform(-0.05, 0.05), rng.uniform(0.13, 0.18))
        right += _hm(read_clock(tilted(img, tilt, BORDER)), gold)
    assert right >= 23, right


def test_sixty_ticks_dial_with_a_wide_hour_bar_over_the_outline_centre() -> None:
    """As the twelve-ticks test, with sixty ticks (the hours' long and bold, the minutes' short
    and thin): the hours' windows of ``clock_perspective.outline_mark_centre`` now see minute
    ticks beside each hour's. Measured 23/24 with its 4-degree windows (``NARROW``) and 23/24
    with 11-degree windows throughout (``HOUR_WINDOWS`` patched; the same face wrong, 12:34:34
    read 12:36:34), so 4 degrees do not beat 11 here; 18/24 with the reader before (main
    042ac7a). The threshold, 23, is the measured count."""
    rng = random.Random(919)
    right = 0
    for _ in range(24):
        gold = ClockTime(rng.choice((11, 12, 1)), rng.randrange(15, 45), rng.randrange(60))
        img = _clock(gold, 420, ticks=60, hour_width=0.1, cap=0.03)
        tilt = (rng.uniform(-0.05, 0.05), rng.uniform(0.13, 0.18))
        right += _hm(read_clock(tilted(img, tilt, BORDER)), gold)
    assert right >= 23, right


def test_hands_beside_their_pivot_on_a_tilted_dial() -> None:
    """Hour and minute bars drawn 3.3 px to either side of the pivot (their axes miss one point
    by more than the reader's 0.8 px), a cap, no marks; tilted 0.10-0.15 per half-width along
    either axis. Measured 17/24 after (13/24 without this rule); 13/24 with the reader before
    (main 042ac7a). The threshold, 16, is the measured count less one: a regression pin, not a
    solved case. 7/24 stay wrong (measured): 2:15:09 read 2:16, 8:44:00 read 8:43, 12:10:43 read
    12:11 (minute one off, the second hand lost), 1:30:43 read 1:42:43, 12:15:24 read 6:01,
    4:04:51 read 10:20, 12:18:37 read 7:00:35 (hands confused). The rule only chooses between
    the first guess and the outline's centre; with the bars beside the pivot and a tilt, it finds
    no third point (not diagnosed further)."""
    rng = random.Random(1919)
    right = 0
    for _ in range(24):
        gold = ClockTime(rng.randint(1, 12), rng.randrange(60), rng.randrange(60))
        tilt = (rng.uniform(-0.05, 0.05), rng.choice((-1, 1)) * rng.uniform(0.1, 0.15))
        if rng.random() < 0.5:
            tilt = (tilt[1], tilt[0])
        img = _clock(gold, 420, 0, 0.07, 0.035, 0.04, 0.012, tail=False, beside=10.0)
        right += _hm(read_clock(tilted(img, tilt, BORDER)), gold)
    assert right >= 16, right
