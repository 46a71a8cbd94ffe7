"""Yearly calendar renderer: determinism, year range, week start, and the layout checked against an
independent weekday computation (Sakamoto's method) and against OCR of a month grid."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest
from PIL import Image

from chronoeval.render.calendar import (
    CalendarStyle,
    calendar_size,
    clear_caches,
    month_grid_origin,
    render_year_calendar,
    sample_calendar_style,
)
from chronoeval.render.png import encode_png

_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def sakamoto(year: int, month: int, day: int) -> int:
    """Day of the week, Sunday = 0 (Tomohiko Sakamoto's method, proleptic Gregorian)."""
    t = (0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4)
    if month < 3:
        year -= 1
    return (year + year // 4 - year // 100 + year // 400 + t[month - 1] + day) % 7


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_length(year: int, month: int) -> int:
    return 29 if month == 2 and is_leap(year) else _MONTH_DAYS[month - 1]


def expected_cells(year: int, month: int, week_start: str) -> set[tuple[int, int]]:
    """(week row, column) of every day of the month, computed without Python's calendar."""
    first_col = sakamoto(year, month, 1)  # Sunday-first column of day 1
    if week_start == "monday":
        first_col = (first_col + 6) % 7
    return {divmod(first_col + d, 7) for d in range(month_length(year, month))}


def inked_cells(image: Image.Image, style: CalendarStyle, month: int) -> set[tuple[int, int]]:
    """Grid cells whose centre region holds ink (differs from the page background)."""
    arr = np.asarray(image, dtype=np.int16)
    bg = np.array(Image.new("RGB", (1, 1), style.background).getpixel((0, 0)), dtype=np.int16)
    x0, y0, cw, ch = month_grid_origin(style, month)
    cells = set()
    for row in range(6):
        for col in range(7):
            # inner box only: grid lines lie on the cell borders
            x1, y1 = x0 + col * cw + cw // 4, y0 + row * ch + ch // 5
            patch = arr[y1 : y1 + ch * 3 // 5, x1 : x1 + cw // 2]
            if (np.abs(patch - bg).max(axis=2) > 80).sum() >= 3:
                cells.add((row, col))
    return cells


def test_same_style_and_year_give_identical_png_bytes() -> None:
    style = sample_calendar_style(random.Random(7))
    first = encode_png(render_year_calendar(1987, style))
    assert encode_png(render_year_calendar(1987, style)) == first
    clear_caches()  # the cold path (fresh body, no cached stripes) must give the same bytes
    assert encode_png(render_year_calendar(1987, style)) == first
    assert encode_png(render_year_calendar(1988, style)) != first


def test_png_round_trip_is_lossless_and_sized() -> None:
    for seed in range(4):
        style = sample_calendar_style(random.Random(seed), week_start="monday")
        image = render_year_calendar(2000 + seed, style)
        assert image.mode == "RGB"
        assert image.size == calendar_size(style)
        for _ in range(2):  # second time through the stripe cache
            decoded = Image.open(io.BytesIO(encode_png(image)))
            decoded.load()
            assert decoded.mode == "RGB"
            assert np.array_equal(np.asarray(decoded), np.asarray(image))
    grey = Image.new("L", (37, 5), 200)
    decoded = Image.open(io.BytesIO(encode_png(grey)))
    assert decoded.mode == "L" and np.array_equal(np.asarray(decoded), np.asarray(grey))


@pytest.mark.parametrize("year", [0, -5, 10000, 123456])
def test_year_out_of_range(year: int) -> None:
    with pytest.raises(ValueError, match="1..9999"):
        render_year_calendar(year, CalendarStyle())


def test_extreme_years_render() -> None:
    for year in (1, 9999):
        assert render_year_calendar(year, CalendarStyle()).size == calendar_size(CalendarStyle())


def test_style_validation_and_json_round_trip() -> None:
    with pytest.raises(ValueError):
        CalendarStyle(week_start="tuesday")
    with pytest.raises(ValueError):
        CalendarStyle(columns=5)
    with pytest.raises(ValueError):
        CalendarStyle(title_format="Calendar")
    rng = random.Random(3)
    styles = [sample_calendar_style(rng) for _ in range(30)]
    assert len({s.columns for s in styles}) == 2 and len({s.font for s in styles}) > 1
    for style in styles:
        assert CalendarStyle.from_dict(json.loads(json.dumps(style.to_dict()))) == style
    assert sample_calendar_style(random.Random(5)) == sample_calendar_style(random.Random(5))


def test_week_start_changes_the_layout() -> None:
    sunday = CalendarStyle(week_start="sunday")
    monday = CalendarStyle(week_start="monday")
    a = np.asarray(render_year_calendar(2025, sunday))
    b = np.asarray(render_year_calendar(2025, monday))
    assert a.shape == b.shape and not np.array_equal(a, b)
    # 1 Jan 2025 is a Wednesday: column 3 when weeks start on Sunday, column 2 on Monday.
    assert (0, 3) in inked_cells(Image.fromarray(a), sunday, 1)
    assert (0, 2) not in inked_cells(Image.fromarray(a), sunday, 1)
    assert (0, 2) in inked_cells(Image.fromarray(b), monday, 1)
    assert (0, 1) not in inked_cells(Image.fromarray(b), monday, 1)


@pytest.mark.parametrize("year", [1, 1600, 1900, 2000, 2025, 2024, 9999])
@pytest.mark.parametrize("week_start", ["sunday", "monday"])
def test_every_month_grid_matches_independent_weekdays(year: int, week_start: str) -> None:
    style = sample_calendar_style(random.Random(year), week_start=week_start)
    image = render_year_calendar(year, style)
    for month in range(1, 13):
        assert inked_cells(image, style, month) == expected_cells(year, month, week_start), (
            year,
            month,
        )


def test_known_date_positions() -> None:
    assert sakamoto(2025, 1, 1) == 3  # Wednesday, the test's own reference
    assert sakamoto(2000, 1, 1) == 6  # Saturday
    assert expected_cells(2025, 1, "sunday") >= {(0, 3), (4, 5)}  # Jan 31 2025: Friday
    assert (4, 6) not in expected_cells(2025, 1, "sunday")


def test_ocr_of_january_2025_puts_day_1_under_wednesday() -> None:
    from rapidocr_onnxruntime import RapidOCR

    for week_start in ("sunday", "monday"):
        style = CalendarStyle(week_start=week_start)
        image = render_year_calendar(2025, style)
        x, y, cw, ch = month_grid_origin(style, 1)
        crop = image.crop((x - 10, y - ch - 10, x + 7 * cw + 10, y + ch + 10))
        result, _ = RapidOCR(det_limit_type="max")(crop, use_cls=False)
        boxes = {text: (pts[0][0] + pts[2][0]) / 2 for pts, text, _ in result}
        assert "1" in boxes and "We" in boxes, boxes
        header = min((t for t in boxes if t.isalpha()), key=lambda t: abs(boxes[t] - boxes["1"]))
        assert header == "We"


def test_generator_png_is_indexed_and_holds_the_rendered_pixels() -> None:
    import cv2

    from chronoeval.render.calendar import (
        PALETTE_SIZE,
        render_year_calendar_indexed,
        render_year_calendar_png,
    )

    for seed in range(3):
        style = sample_calendar_style(random.Random(100 + seed), week_start="monday")
        year = (1, 1987, 9999)[seed]
        png = render_year_calendar_png(year, style)
        assert png == render_year_calendar_png(year, style)
        assert png[25] == 3 and png[24] == 8  # IHDR: bit depth 8, colour type 3 (indexed)
        plte = png.index(b"PLTE")
        assert int.from_bytes(png[plte - 4 : plte], "big") == 3 * PALETTE_SIZE <= 768
        decoded = Image.open(io.BytesIO(png))
        assert decoded.mode == "P" and decoded.size == calendar_size(style)
        rgb = np.asarray(decoded.convert("RGB"))
        assert np.array_equal(rgb, np.asarray(render_year_calendar(year, style)))
        assert np.array_equal(
            np.asarray(decoded), np.asarray(render_year_calendar_indexed(year, style))
        )
        bgr = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        assert np.array_equal(bgr[..., ::-1], rgb)


@pytest.mark.parametrize("year", [4, 1700, 2100, 2024])
def test_delivered_png_grid_matches_independent_weekdays(year: int) -> None:
    """The bytes the generator writes, decoded by Pillow, against Sakamoto's weekdays."""
    from chronoeval.render.calendar import render_year_calendar_png

    for week_start in ("sunday", "monday"):
        style = sample_calendar_style(random.Random(year * 7), week_start=week_start)
        image = Image.open(io.BytesIO(render_year_calendar_png(year, style))).convert("RGB")
        for month in range(1, 13):
            assert inked_cells(image, style, month) == expected_cells(year, month, week_start)


def test_text_keeps_its_colours_and_anti_aliasing() -> None:
    """Ink in the text, weekend and title colours, with intermediate levels at glyph edges."""
    style = CalendarStyle(
        text_color="#000000", weekend_color="#ff0000", title_color="#0000ff", accent_color="#00ff00"
    )
    rgb = np.asarray(render_year_calendar(2025, style)).reshape(-1, 3)
    colours = {tuple(c) for c in np.unique(rgb, axis=0)}
    for ink in ((0, 0, 0), (255, 0, 0), (0, 0, 255), (0, 255, 0)):
        assert ink in colours
    greys = {c for c in colours if c[0] == c[1] == c[2]}
    assert len(greys) >= 12  # black text anti-aliased on white in ~16 levels


def test_reused_page_buffer_leaves_nothing_of_the_previous_page() -> None:
    """The PNG writer's pages are drawn in a per-thread buffer: a large page, then a small one,
    then threads drawing at once give the same pixels as drawing each page alone."""
    from concurrent.futures import ThreadPoolExecutor

    from chronoeval.render.calendar import render_year_calendar_indexed, render_year_calendar_png

    big = CalendarStyle(width=1400, columns=3, month_band=True, grid_lines=True)
    small = CalendarStyle(width=900, columns=4, title_format="Year {year}")
    jobs = [(2024, big), (1901, small), (7, big), (9999, small), (1600, big), (2000, small)]
    for year, style in jobs:
        png = render_year_calendar_png(year, style)
        decoded = np.asarray(Image.open(io.BytesIO(png)))
        assert np.array_equal(decoded, np.asarray(render_year_calendar_indexed(year, style)))
    alone = [render_year_calendar_png(y, s) for y, s in jobs]
    with ThreadPoolExecutor(3) as pool:
        for _ in range(3):
            assert list(pool.map(lambda job: render_year_calendar_png(*job), jobs)) == alone
