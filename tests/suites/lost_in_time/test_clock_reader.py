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
    sample_time,
)
from chronoeval.render.png import encode_png
from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.clock_reader import read_clock

SEEDS = (20250, 31337, 4242)  # fixed list; the accuracy test uses the first


def _as_model_sees_it(image: Image.Image) -> Image.Image:
    return Image.open(io.BytesIO(encode_png(image)))


def test_reader_takes_only_the_image() -> None:
    assert list(inspect.signature(read_clock).parameters) == ["image"]


def test_reads_600_fresh_clocks_exactly() -> None:
    rng = random.Random(SEEDS[0])
    right: Counter[str] = Counter()
    misses = []
    for style in CLOCK_STYLES:
        for _ in range(100):
            face = sample_face(style, rng)
            gold = sample_time(style, rng)
            got = read_clock(_as_model_sees_it(render_clock(gold, face)))
            if got == gold:
                right[style] += 1
            else:
                misses.append((style, str(gold), str(got)))
    total = sum(right.values())
    assert total >= 594, misses  # >= 99 %
    for style in CLOCK_STYLES:
        assert right[style] >= 97, (style, misses)


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
