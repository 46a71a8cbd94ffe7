"""ClockQA generator: determinism, sizes, styles, gold-time rules, readability conventions, PNG
encoding, and hand positions checked by pixel probes at hand-computed angles (independent of the
generator's own angle formula)."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import random

import numpy as np
import pytest
from PIL import Image, ImageFont

from chronoeval.render import clock
from chronoeval.render.clock import (
    CLOCK_STYLES,
    ClockFace,
    hand_angles,
    render_clock,
    sample_face,
    sample_time,
)
from chronoeval.render.fonts import FONT_DIR
from chronoeval.render.png import encode_png
from chronoeval.suites.lost_in_time.answers import ClockTime

RED, GREEN, BLUE, WHITE, BLACK = (255, 0, 0), (0, 160, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)


def _generate(style: str, seed: int, size: int = 420) -> bytes:
    rng = random.Random(seed)
    face = sample_face(style, rng, size=size)
    return encode_png(render_clock(sample_time(style, rng), face))


def test_styles_are_the_papers_plus_easy() -> None:
    assert CLOCK_STYLES == (
        "easy",
        "basic",
        "black_dial",
        "no_second_hand",
        "roman",
        "arrow_hands",
    )


@pytest.mark.parametrize("style", CLOCK_STYLES)
def test_same_seed_gives_identical_png_bytes(style: str) -> None:
    first = _generate(style, 123)
    clock._DIAL_CACHE.clear()  # a cold cache must not change a single byte
    assert _generate(style, 123) == first
    assert _generate(style, 124) != first


@pytest.mark.parametrize("style", CLOCK_STYLES)
@pytest.mark.parametrize("size", [256, 420])
def test_every_style_renders_at_the_requested_size(style: str, size: int) -> None:
    rng = random.Random(size)
    face = sample_face(style, rng, size=size)
    image = render_clock(sample_time(style, rng), face)
    assert image.mode == "RGB"
    assert image.size == (size, size)
    pixels = np.asarray(image)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20  # not a blank canvas


def test_unknown_style_is_rejected() -> None:
    with pytest.raises(ValueError):
        sample_face("cuckoo", random.Random(0))
    with pytest.raises(ValueError):
        sample_time("cuckoo", random.Random(0))


def test_easy_times_are_whole_hours() -> None:
    rng = random.Random(1)
    times = [sample_time("easy", rng) for _ in range(300)]
    assert all(t.minute == 0 and t.second == 0 for t in times)
    assert {t.hour for t in times} == set(range(1, 13))


def test_no_second_hand_times_have_zero_seconds() -> None:
    rng = random.Random(2)
    times = [sample_time("no_second_hand", rng) for _ in range(300)]
    assert all(t.second == 0 for t in times)
    assert len({t.minute for t in times}) > 40
    faces = [sample_face("no_second_hand", rng) for _ in range(20)]
    assert not any(f.has_second_hand for f in faces)


@pytest.mark.parametrize("style", ["basic", "black_dial", "roman", "arrow_hands"])
def test_other_styles_use_the_whole_dial(style: str) -> None:
    rng = random.Random(3)
    times = [sample_time(style, rng) for _ in range(400)]
    assert len({t.second for t in times}) > 45
    assert len({t.minute for t in times}) > 45
    assert {t.hour for t in times} == set(range(1, 13))


def test_faces_are_json_serialisable_and_round_trip() -> None:
    rng = random.Random(4)
    for style in CLOCK_STYLES:
        for rotate in (False, True):
            face = sample_face(style, rng, rotate=rotate)
            data = dataclasses.asdict(face)
            for value in data.values():
                assert isinstance(value, str | int | float | bool | tuple)
            loaded = json.loads(json.dumps(data))
            back = ClockFace(
                **{k: tuple(v) if isinstance(v, list) else v for k, v in loaded.items()}
            )
            assert back == face
            assert (face.rotation_deg != 0) == rotate


def _numeral_inner_radius(face: ClockFace) -> float:
    """Closest distance from the centre to any numeral's ink box, measured with Pillow directly."""
    font = ImageFont.truetype(f"{FONT_DIR}/{face.numeral_font}", face.numeral_size)
    labels = clock.ROMAN_NUMERALS if face.numeral_style == "roman" else clock.ARABIC_NUMERALS
    c = (face.size - 1) / 2
    best = math.inf
    for k, label in enumerate(labels, start=1):
        a = math.radians(30 * k)
        x = round(c + face.numeral_radius * math.sin(a))
        y = round(c - face.numeral_radius * math.cos(a))
        left, top, right, bottom = font.getbbox(label, anchor="mm")
        nx = min(max(c, x + left), x + right)  # closest point of the box to the centre
        ny = min(max(c, y + top), y + bottom)
        best = min(best, math.hypot(nx - c, ny - c))
    return best


def _contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("style", CLOCK_STYLES)
def test_faces_keep_real_clock_readability_conventions(style: str) -> None:
    rng = random.Random(5)
    for _ in range(60):
        face = sample_face(style, rng)
        assert face.hour_length < face.minute_length
        assert face.hour_width > face.minute_width
        tips = [face.hour_length, face.minute_length]
        if face.has_second_hand:
            assert face.minute_length < face.second_length
            assert face.second_width < face.minute_width
            tips.append(face.second_length)
        assert max(tips) < _numeral_inner_radius(face)
        for color in (face.hour_color, face.minute_color, face.second_color):
            assert _contrast(color, face.dial_color) >= 150
        assert (
            _contrast(face.rim_color, face.background) >= 70
            or _contrast(face.dial_color, face.background) >= 70
        )
        if style == "black_dial":
            assert max(face.dial_color) < 80
        else:
            assert min(face.dial_color) > 200
        assert face.numeral_style == ("roman" if style == "roman" else "arabic")
        assert (face.hand_shape == "arrow") == (style == "arrow_hands")
        assert face.has_second_hand == (style != "no_second_hand")


def test_hand_angle_formula() -> None:
    assert hand_angles(ClockTime(12, 0, 0)) == (0.0, 0.0, 0.0)
    assert hand_angles(ClockTime(3, 0, 0)) == (90.0, 0.0, 0.0)
    assert hand_angles(ClockTime(6, 30, 0)) == (195.0, 180.0, 0.0)
    assert hand_angles(ClockTime(9, 45, 30)) == pytest.approx((292.75, 273.0, 180.0))


def _probe_face(rotation: float = 0.0) -> ClockFace:
    base = sample_face("basic", random.Random(0))
    return dataclasses.replace(
        base,
        size=420,
        background=WHITE,
        dial_color=WHITE,
        dial_radius=200.0,
        rim_color=BLACK,
        rim_width=4.0,
        tick_style="none",
        numeral_style="arabic",
        numeral_font="DejaVuSans.ttf",
        numeral_size=22,
        numeral_color=BLACK,
        numeral_radius=170.0,
        hand_shape="bar",
        hour_color=RED,
        minute_color=GREEN,
        second_color=BLUE,
        hour_length=60.0,
        minute_length=100.0,
        second_length=120.0,
        hour_width=12.0,
        minute_width=6.0,
        second_width=2.0,
        hand_overhang=0.0,
        has_second_hand=True,
        second_tail=0.0,
        cap_radius=3.0,
        cap_color=BLACK,
        rotation_deg=rotation,
    )


def _colour_at(image: Image.Image, angle: float, radius: float, across: float = 0.0) -> tuple:
    """Nearest probe colour at a clock angle (degrees clockwise from 12) and radius from the
    image centre, optionally shifted ``across`` pixels perpendicular to that direction."""
    c = (image.width - 1) / 2
    a = math.radians(angle)
    x = c + radius * math.sin(a) + across * math.cos(a)
    y = c - radius * math.cos(a) + across * math.sin(a)
    pixel = np.asarray(image)[round(y), round(x)].astype(int)
    palette = (RED, GREEN, BLUE, WHITE, BLACK)
    return min(palette, key=lambda p: int(np.abs(pixel - np.array(p)).sum()))


# (time, [(angle, radius, across, expected colour)]); angles worked out by hand:
# 3:00:00 -> hour 90, minute 0, second 0; 6:30:00 -> hour 195, minute 180, second 0;
# 9:45:30 -> hour 270 + 22.5 + 0.25 = 292.75, minute 270 + 3 = 273, second 180.
PROBES = [
    (
        ClockTime(3, 0, 0),
        [
            (90, 40, 0, RED),
            (90, 80, 0, WHITE),  # beyond the hour hand's tip
            (0, 80, 2, GREEN),  # beside the second hand, still on the minute hand
            (0, 80, 0, BLUE),  # the second hand lies on top
            (0, 110, 0, BLUE),  # beyond the minute hand's tip
            (0, 110, 3, WHITE),
            (180, 40, 0, WHITE),
            (270, 40, 0, WHITE),
        ],
    ),
    (
        ClockTime(6, 30, 0),
        [
            (195, 50, 0, RED),  # halfway between 6 and 7
            (210, 50, 0, WHITE),
            (180, 80, 0, GREEN),
            (0, 110, 0, BLUE),
            (90, 40, 0, WHITE),
        ],
    ),
    (
        ClockTime(9, 45, 30),
        [
            (292.75, 45, 0, RED),
            (273, 90, 0, GREEN),
            (270, 90, 0, WHITE),  # 30 s moved the minute hand 3 degrees past the 45
            (180, 110, 0, BLUE),
            (0, 110, 0, WHITE),
        ],
    ),
]


@pytest.mark.parametrize(("time", "probes"), PROBES, ids=[str(t) for t, _ in PROBES])
def test_hands_are_where_hand_computed_angles_say(time: ClockTime, probes: list) -> None:
    image = render_clock(time, _probe_face())
    for angle, radius, across, expected in probes:
        assert _colour_at(image, angle, radius, across) == expected, (angle, radius, across)


def test_rotation_turns_the_whole_clock() -> None:
    image = render_clock(ClockTime(3, 0, 0), _probe_face(rotation=5.0))
    assert _colour_at(image, 5, 110) == BLUE
    assert _colour_at(image, 0, 110) == WHITE
    assert _colour_at(image, 95, 50) == RED
    # the numeral 12 turned with the dial: its ink centre sits right of the vertical axis
    pixels = np.asarray(image).astype(int)
    c = (image.width - 1) / 2
    ys, xs = np.nonzero(pixels.sum(axis=2) < 200)
    numeral = (np.abs(ys - (c - 170)) < 20) & (np.abs(xs - c) < 40)  # the numeral 12 only
    assert xs[numeral].mean() == pytest.approx(c + 170 * math.sin(math.radians(5)), abs=2)


def test_thin_second_hand_keeps_its_width() -> None:
    """Anti-aliasing must not fatten hands: the ink across the second hand is its width."""
    image = render_clock(ClockTime(3, 0, 15), _probe_face())  # second hand pointing right
    c = (image.width - 1) / 2
    rows = slice(round(c) - 8, round(c) + 9)  # only near the hand, away from numerals and rim
    column = np.asarray(image)[rows, round(c + 110)].astype(float)
    ink = (255.0 - column[:, 0]) / 255.0  # blue hand on white: red channel drops
    assert ink.sum() == pytest.approx(2.0, abs=0.15)


def test_encode_png_is_lossless_and_compact() -> None:
    rng = random.Random(6)
    for style in CLOCK_STYLES:
        image = render_clock(sample_time(style, rng), sample_face(style, rng, rotate=True))
        data = encode_png(image)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(data) < 150_000
        decoded = Image.open(io.BytesIO(data))
        assert decoded.mode == "RGB"
        assert np.array_equal(np.asarray(decoded), np.asarray(image))


# --- realistic looks (issue 19) ---------------------------------------------------------------


def test_realistic_faces_cover_every_named_feature_and_keep_the_paper_styles() -> None:
    rng = random.Random(7)
    seen: dict[str, set[str]] = {"design": set(), "distortion": set(), "hand_shape": set()}
    for i in range(300):
        style = CLOCK_STYLES[i % len(CLOCK_STYLES)]
        face = clock.sample_realistic_face(style, rng)
        for key in seen:
            seen[key].add(getattr(face, key))
        assert face.look == "realistic"
        assert face.hour_length < face.minute_length
        if face.has_second_hand:
            assert face.second_width < min(face.minute_width, face.hour_width)
        assert (face.numeral_style == "roman") == (style == "roman")
        assert (face.hand_shape == "arrow") == (style == "arrow_hands")
        assert face.has_second_hand == (style != "no_second_hand")
        if face.distortion == "warp":
            assert face.design not in ("plain", "minimal")  # a warped face keeps its marks
        json.dumps(dataclasses.asdict(face))
    assert seen["design"] == set(clock.DESIGNS)
    assert seen["distortion"] == set(clock.DISTORTIONS)
    assert seen["hand_shape"] == set(clock.REALISTIC_HAND_SHAPES)


def test_realistic_faces_let_hands_reach_numerals_and_ticks() -> None:
    rng = random.Random(8)
    faces = [clock.sample_realistic_face("basic", rng) for _ in range(60)]
    crossing = [f for f in faces if f.second_length >= 0.96 * f.tick_outer]
    assert len(crossing) >= 20  # second hands that end on the tick ring


@pytest.mark.parametrize("distortion", ["stretch", "perspective", "warp"])
def test_distorted_faces_render_deterministically(distortion: str) -> None:
    rng = random.Random(9)
    face = clock.sample_realistic_face("basic", rng)
    while face.distortion != distortion:
        face = clock.sample_realistic_face("basic", rng)
    first = encode_png(render_clock(ClockTime(4, 20, 30), face))
    clock._DIAL_CACHE.clear()
    assert encode_png(render_clock(ClockTime(4, 20, 30), face)) == first
    image = Image.open(io.BytesIO(first))
    assert image.size == (face.size, face.size)


def test_stretch_squeezes_the_dial_into_an_ellipse() -> None:
    base = dataclasses.replace(_probe_face(), look="realistic")
    flat = dataclasses.replace(base, distortion="stretch", stretch=0.7, stretch_axis_deg=90.0)
    pixels = np.asarray(render_clock(ClockTime(3, 0, 0), flat)).astype(int)
    background = np.asarray(base.background)
    clock_px = np.abs(pixels - background).max(axis=2) > 40
    ys, xs = np.nonzero(clock_px)
    height, width = ys.max() - ys.min(), xs.max() - xs.min()
    assert height / width == pytest.approx(0.7, abs=0.03)  # squeezed along y only


def test_sample_look_dispatches_and_rejects_unknown_looks() -> None:
    assert clock.sample_look("classic", "basic", random.Random(1)) == sample_face(
        "basic", random.Random(1)
    )
    assert clock.sample_look("realistic", "basic", random.Random(1)).look == "realistic"
    with pytest.raises(ValueError):
        clock.sample_look("baroque", "basic", random.Random(1))
