"""Reference agent's clock reader: reads freshly generated ClockQA images from their PNG bytes only
(exactly what a model sees) and must get the exact H:MM:SS back, including hand overlaps."""

from __future__ import annotations

import inspect
import io
import random
from collections import Counter

import pytest
from PIL import Image, ImageDraw

from chronoeval.render.clock import (
    CLOCK_STYLES,
    render_clock,
    sample_face,
    sample_realistic_face,
    sample_time,
)
from chronoeval.render.png import encode_png
from chronoeval.suites.lost_in_time.answers import SECONDS_ON_DIAL, ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock
from other_clocks import draw_other_clock

SEEDS = (20250, 31337, 4242)  # fixed list; the accuracy test uses the first


def _as_model_sees_it(image: Image.Image) -> Image.Image:
    return Image.open(io.BytesIO(encode_png(image)))


def test_reader_takes_only_the_image() -> None:
    assert list(inspect.signature(read_clock).parameters) == ["image"]


def test_reads_classic_clocks_exactly() -> None:
    """Classic (generator v1) faces, 50 per style. The reader for any dial reads these at 99.56 %
    hour:minute on 1,800 faces (docs/benchmarks.md); the old classic-only reader read 100 %."""
    rng = random.Random(SEEDS[0])
    right: Counter[str] = Counter()
    misses = []
    for style in CLOCK_STYLES:
        for _ in range(50):
            face = sample_face(style, rng)
            gold = sample_time(style, rng)
            got = read_clock(_as_model_sees_it(render_clock(gold, face)))
            if got == gold:
                right[style] += 1
            else:
                misses.append((style, str(gold), str(got)))
    total = sum(right.values())
    assert total >= 288, misses  # >= 96 % exact H:MM:SS
    for style in CLOCK_STYLES:
        assert right[style] >= 46, (style, misses)


def _hm(got: ClockTime | None, gold: ClockTime) -> bool:
    return got is not None and (got.hour, got.minute) == (gold.hour, gold.minute)


def test_reads_realistic_clocks() -> None:
    """Realistic faces (hands over numerals and ticks, many hand shapes, plain and decorative
    dials, same-colour backgrounds, stretch, perspective, warp), 20 per style, as a model sees
    them. Measured on 1,800 faces: see docs/benchmarks.md; this small n only guards regressions."""
    rng = random.Random(SEEDS[1])
    right, misses = 0, []
    for style in CLOCK_STYLES:
        for _ in range(20):
            face = sample_realistic_face(style, rng)
            gold = sample_time(style, rng)
            got = read_clock(_as_model_sees_it(render_clock(gold, face)))
            right += _hm(got, gold)
            if not _hm(got, gold):
                misses.append((style, face.design, face.distortion, str(gold), str(got)))
    assert right >= 108, misses  # >= 90 % hour:minute


@pytest.mark.parametrize("distortion", ["stretch", "warp"])
def test_reads_stretched_and_warped_faces(distortion: str) -> None:
    rng = random.Random(SEEDS[2])
    right = n = 0
    while n < 24:
        style = CLOCK_STYLES[n % len(CLOCK_STYLES)]
        face = sample_realistic_face(style, rng)
        if face.distortion != distortion:
            continue
        n += 1
        gold = sample_time(style, rng)
        right += _hm(read_clock(render_clock(gold, face)), gold)
    assert right >= 20  # >= 83 %


@pytest.mark.parametrize(("hands", "at_least"), [("line", 20)])
def test_faces_from_an_independent_renderer(hands: str, at_least: int) -> None:
    """Faces drawn by tests/other_clocks.py (Pillow, other conventions).
    Measured: 41/60 with line hands; kite-shaped hands without a centre cap read 3/60, a known
    limit (docs/suites/lost_in_time.md), so they are not asserted here."""
    rng = random.Random(SEEDS[0])
    right = 0
    for _ in range(30):
        gold = ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL))
        right += _hm(read_clock(draw_other_clock(gold, rng, hands=hands)), gold)
    assert right >= at_least


OVERLAPS = ["12:00:00", "3:16:16", "9:49:49", "6:32:32", "12:59:59", "6:00:30", "1:05:05"]
OVERLAPS_NO_SECOND = ["12:00:00", "3:16:00", "9:49:00", "6:33:00", "1:05:00", "10:55:00"]


@pytest.mark.parametrize("style", [s for s in CLOCK_STYLES if s != "no_second_hand"])
def test_overlapping_hands_are_read_exactly(style: str) -> None:
    rng = random.Random(SEEDS[1])
    for _ in range(3):
        face = sample_face(style, rng)
        for text in OVERLAPS:
            gold = ClockTime.from_gold(text)
            assert read_clock(render_clock(gold, face)) == gold, (face, text)


def test_overlapping_hands_without_second_hand() -> None:
    rng = random.Random(SEEDS[2])
    for _ in range(4):
        face = sample_face("no_second_hand", rng)
        for text in OVERLAPS_NO_SECOND:
            gold = ClockTime.from_gold(text)
            assert read_clock(render_clock(gold, face)) == gold, (face, text)


def test_slightly_rotated_clocks() -> None:
    rng = random.Random(SEEDS[2])
    right = 0
    for style in CLOCK_STYLES:
        for _ in range(20):
            face = sample_face(style, rng, rotate=True)
            gold = sample_time(style, rng)
            right += read_clock(render_clock(gold, face)) == gold
    assert right >= 114  # >= 95 %


def test_other_image_sizes() -> None:
    rng = random.Random(SEEDS[0])
    right = 0
    for size in (300, 800):
        for style in CLOCK_STYLES:
            for _ in range(5):
                face = sample_face(style, rng, size=size)
                gold = sample_time(style, rng)
                right += read_clock(render_clock(gold, face)) == gold
    assert right >= 58


def test_blank_image_is_unreadable() -> None:
    assert read_clock(Image.new("RGB", (420, 420), "white")) is None
    assert read_clock(Image.new("L", (420, 420), 128)) is None


def test_dial_without_hands_is_unreadable() -> None:
    image = Image.new("RGB", (420, 420), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 20, 400, 400), fill=(245, 240, 225), outline="black", width=5)
    assert read_clock(image) is None
