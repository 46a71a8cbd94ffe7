"""Yearly calendar images for CalendarQA (Lost in Time).

A page shows a title with the year at the top and twelve month grids (3 x 4 or 4 x 3) with the month
name, a weekday header row and the day numbers in the right weekday columns. Dates follow the
proleptic Gregorian calendar of Python's :mod:`calendar` module, so any year 1..9999 can be drawn.

Speed: the grid part of a page depends only on the style, the weekday of 1 January and whether the
year is a leap year, so it is built once per (style, weekday, leap) from pre-rendered glyph masks
and cached; a page is a copy of that body plus the title. The PNG writer
(:mod:`chronoeval.render.png`) compresses a repeated body only once.
"""

from __future__ import annotations

import calendar as _calendar
import datetime as _dt
import os
import random
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from chronoeval.core.names import MONTH_NAMES
from chronoeval.render.fonts import FONT_DIR, truetype
from chronoeval.render.png import clear_cache as clear_png_cache
from chronoeval.suites.lost_in_time.calendar_questions import check_year

_DAY_ABBR_SUNDAY_FIRST: tuple[str, ...] = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")

TITLE_FORMATS: tuple[str, ...] = ("{year}", "Calendar {year}", "{year} Calendar", "Year {year}")
FONT_PAIRS: tuple[tuple[str, str], ...] = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
    ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"),
    ("STIXGeneral.ttf", "STIXGeneralBol.ttf"),
)
# (background, text, title, accent, weekend) -- all with strong contrast against the background.
PALETTES: tuple[tuple[str, str, str, str, str], ...] = (
    ("#ffffff", "#222222", "#111111", "#c0392b", "#c0392b"),
    ("#ffffff", "#1f2d3d", "#1f2d3d", "#1f5fa8", "#1f5fa8"),
    ("#fbfbf5", "#263238", "#1b5e20", "#2e7d32", "#2e7d32"),
    ("#f5efe0", "#3b2f2f", "#3b2f2f", "#8b4513", "#8b4513"),
    ("#ffffff", "#000000", "#000000", "#000000", "#555555"),
    ("#1e1e24", "#eeeeee", "#ffffff", "#f4b942", "#f4b942"),
)


@dataclass(frozen=True)
class CalendarStyle:
    """Appearance of a yearly calendar page; every field is JSON-serialisable.

    ``width`` is the page width in pixels; the height follows from the width and the layout (see
    :func:`calendar_size`). ``columns`` is 3 (3 columns x 4 rows of months) or 4 (4 x 3).
    ``week_start`` is ``"sunday"`` or ``"monday"``; ``header_letters`` is 2 (Su Mo ...) or 3
    (Sun Mon ...). Fonts are file names in matplotlib's bundled TTF folder. ``title_format`` must
    contain ``{year}``; the year is written without leading zeros.
    """

    width: int = 1200
    columns: int = 4
    week_start: str = "sunday"
    header_letters: int = 2
    background: str = "#ffffff"
    text_color: str = "#222222"
    title_color: str = "#111111"
    accent_color: str = "#c0392b"
    weekend_color: str = "#c0392b"
    grid_color: str = "#d0d0d0"
    font: str = "DejaVuSans.ttf"
    bold_font: str = "DejaVuSans-Bold.ttf"
    title_format: str = "{year}"
    month_upper: bool = False
    month_band: bool = False
    grid_lines: bool = False

    def __post_init__(self) -> None:
        if self.columns not in (3, 4):
            raise ValueError(f"columns must be 3 or 4, got {self.columns}")
        if self.week_start not in ("sunday", "monday"):
            raise ValueError(f"week_start must be 'sunday' or 'monday', got {self.week_start!r}")
        if self.header_letters not in (2, 3):
            raise ValueError(f"header_letters must be 2 or 3, got {self.header_letters}")
        if not 600 <= self.width <= 4000:
            raise ValueError(f"width must be in 600..4000 px, got {self.width}")
        if "{year}" not in self.title_format:
            raise ValueError(f"title_format must contain '{{year}}', got {self.title_format!r}")
        for name in (self.font, self.bold_font):
            if os.path.basename(name) != name:
                raise ValueError(f"font must be a file name in {FONT_DIR}, got {name!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CalendarStyle:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown CalendarStyle fields: {sorted(unknown)}")
        return cls(**data)

    @property
    def firstweekday(self) -> int:
        """First column as a Python weekday number (Monday = 0, Sunday = 6)."""
        return 6 if self.week_start == "sunday" else 0


def sample_calendar_style(rng: random.Random, week_start: str = "sunday") -> CalendarStyle:
    """Draw a varied, always legible style: palette, fonts, layout, title wording, decorations."""
    columns = rng.choice((3, 4))
    width = rng.randrange(1100, 1401, 20) if columns == 4 else rng.randrange(900, 1101, 20)
    background, text, title, accent, weekend = rng.choice(PALETTES)
    font, bold = rng.choice(FONT_PAIRS)
    dark = _luma(background) < 128
    return CalendarStyle(
        width=width,
        columns=columns,
        week_start=week_start,
        header_letters=rng.choice((2, 3)),
        background=background,
        text_color=text,
        title_color=title,
        accent_color=accent,
        weekend_color=rng.choice((weekend, text)),
        grid_color="#4a4a52" if dark else "#d0d0d0",
        font=font,
        bold_font=bold,
        title_format=rng.choice(TITLE_FORMATS),
        month_upper=rng.random() < 0.3,
        month_band=rng.random() < 0.35,
        grid_lines=rng.random() < 0.35,
    )


# --------------------------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class _Geometry:
    width: int
    height: int
    margin: int
    title_h: int
    block_w: int
    block_h: int
    gap_x: int
    gap_y: int
    cell_w: int
    cell_h: int
    name_h: int
    rows: int
    left: int


@lru_cache(maxsize=256)
def _geometry(width: int, columns: int) -> _Geometry:
    rows = 12 // columns
    margin = round(width * 0.03)
    gap_x = round(width * 0.025)
    block_w0 = (width - 2 * margin - (columns - 1) * gap_x) // columns
    cell_w = block_w0 // 7
    block_w = cell_w * 7
    used = columns * block_w + (columns - 1) * gap_x
    left = (width - used) // 2
    cell_h = max(12, round(cell_w * 0.75))
    name_h = round(cell_h * 1.5)
    block_h = name_h + 7 * cell_h
    gap_y = round(cell_h * 0.8)
    title_h = round(width * 0.08)
    height = title_h + margin + rows * block_h + (rows - 1) * gap_y + margin
    return _Geometry(
        width=width,
        height=height,
        margin=margin,
        title_h=title_h,
        block_w=block_w,
        block_h=block_h,
        gap_x=gap_x,
        gap_y=gap_y,
        cell_w=cell_w,
        cell_h=cell_h,
        name_h=name_h,
        rows=rows,
        left=left,
    )


def calendar_size(style: CalendarStyle) -> tuple[int, int]:
    """(width, height) in pixels of a page drawn in ``style``."""
    g = _geometry(style.width, style.columns)
    return g.width, g.height


def month_grid_origin(style: CalendarStyle, month: int) -> tuple[int, int, int, int]:
    """(x, y, cell_w, cell_h) of the top-left day cell (first week, first column) of ``month``.

    Exposed for tests and for agents that are allowed to know the layout; the reference agent does
    not use it.
    """
    g = _geometry(style.width, style.columns)
    r, c = divmod(month - 1, style.columns)
    x0 = g.left + c * (g.block_w + g.gap_x)
    y0 = g.title_h + g.margin + r * (g.block_h + g.gap_y)
    return x0, y0 + g.name_h + g.cell_h, g.cell_w, g.cell_h


# --------------------------------------------------------------------------------------------
# Fonts and glyphs


def _luma(color: str) -> float:
    r, gg, b = _rgb(color)
    return 0.299 * r + 0.587 * gg + 0.114 * b


@lru_cache(maxsize=64)
def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"colours must be #rrggbb, got {color!r}")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


_font = truetype


@dataclass(frozen=True)
class _Glyph:
    """Grey-level mask of a text cropped to its ink box; ``top`` is the ink top minus baseline."""

    mask: Image.Image
    top: int


def _text_mask(text: str, font: ImageFont.FreeTypeFont) -> _Glyph:
    left, top, right, bottom = font.getbbox(text, anchor="ls")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor="ls")
    return _Glyph(mask, top)


def _paste(
    canvas: Image.Image, glyph: _Glyph, color: tuple[int, int, int], cx: float, baseline: int
) -> None:
    """Paste ``glyph`` horizontally centred on ``cx`` with its baseline on row ``baseline``."""
    mask = glyph.mask
    x = round(cx - mask.width / 2)
    y = baseline + glyph.top
    canvas.paste(color, (x, y, x + mask.width, y + mask.height), mask)


def _baseline(font_cap_h: int, cy: float) -> int:
    """Baseline row that vertically centres capitals / digits of height ``font_cap_h`` on ``cy``."""
    return round(cy + font_cap_h / 2)


@dataclass(frozen=True)
class _Glyphs:
    days: tuple[_Glyph, ...]  # index 1..31 (index 0 unused)
    digit_h: int
    headers: tuple[_Glyph, ...]  # one per column, in column order
    header_h: int
    months: tuple[_Glyph, ...]
    month_h: int


@lru_cache(maxsize=8192)
def _mask(text: str, font_name: str, size: int) -> _Glyph:
    """A glyph mask per (text, font, size): shared by every style that uses them (colours,
    layout flags and title wording do not change a mask), so a fresh style per page re-renders
    only the texts of a font size not seen before. Masks are never mutated (pasted only)."""
    return _text_mask(text, _font(font_name, size))


@lru_cache(maxsize=32)
def _glyphs(style: CalendarStyle) -> _Glyphs:
    g = _geometry(style.width, style.columns)
    day = (style.font, max(8, round(g.cell_h * 0.56)))
    head = (style.bold_font, max(8, round(g.cell_h * (0.48 if style.header_letters == 2
                                                       else 0.42))))  # fmt: skip
    name = (style.bold_font, max(9, round(g.name_h * 0.52)))
    days = (_mask("0", *day),) + tuple(_mask(str(d), *day) for d in range(1, 32))
    digit_h = days[0].mask.height  # numbers are centred on the height of "0"
    order = [(style.firstweekday + i) % 7 for i in range(7)]  # Python weekday numbers per column
    headers = tuple(
        _mask(_DAY_ABBR_SUNDAY_FIRST[(wd + 1) % 7][: style.header_letters], *head) for wd in order
    )
    header_h = _mask("M", *head).mask.height
    months = tuple(_mask(m.upper() if style.month_upper else m, *name) for m in MONTH_NAMES)
    month_h = _mask("M", *name).mask.height
    return _Glyphs(days, digit_h, headers, header_h, months, month_h)


# --------------------------------------------------------------------------------------------
# Page body (everything but the title), cached per (style, weekday of 1 Jan, leap)


def _draw_body(style: CalendarStyle, year: int) -> Image.Image:
    g = _geometry(style.width, style.columns)
    glyphs = _glyphs(style)
    bg = _rgb(style.background)
    text = _rgb(style.text_color)
    accent = _rgb(style.accent_color)
    weekend = _rgb(style.weekend_color)
    grid = _rgb(style.grid_color)
    canvas = Image.new("RGB", (g.width, g.height), bg)
    draw = ImageDraw.Draw(canvas)
    cal = _calendar.Calendar(firstweekday=style.firstweekday)
    weekend_cols = {
        c for c in range(7) if (style.firstweekday + c) % 7 in (5, 6)
    }  # Saturday, Sunday
    for month in range(1, 13):
        r, c = divmod(month - 1, style.columns)
        x0 = g.left + c * (g.block_w + g.gap_x)
        y0 = g.title_h + g.margin + r * (g.block_h + g.gap_y)
        name = glyphs.months[month - 1]
        if style.month_band:
            draw.rectangle((x0, y0, x0 + g.block_w - 1, y0 + g.name_h - 3), fill=accent)
            base = _baseline(glyphs.month_h, y0 + (g.name_h - 2) / 2)
            _paste(canvas, name, bg, x0 + g.block_w / 2, base)
        else:
            _paste(
                canvas,
                name,
                accent,
                x0 + g.block_w / 2,
                _baseline(glyphs.month_h, y0 + g.name_h / 2),
            )
        hy = y0 + g.name_h
        base = _baseline(glyphs.header_h, hy + g.cell_h / 2)
        for col in range(7):
            color = weekend if col in weekend_cols else text
            _paste(canvas, glyphs.headers[col], color, x0 + (col + 0.5) * g.cell_w, base)
        draw.line((x0, hy + g.cell_h - 1, x0 + g.block_w - 1, hy + g.cell_h - 1), fill=accent)
        gy = hy + g.cell_h
        if style.grid_lines:
            for k in range(8):
                x = x0 + k * g.cell_w
                draw.line((x, gy, x, gy + 6 * g.cell_h), fill=grid)
            for k in range(1, 7):
                y = gy + k * g.cell_h
                draw.line((x0, y, x0 + g.block_w, y), fill=grid)
        for w, week in enumerate(cal.monthdayscalendar(year, month)):
            for col, day in enumerate(week):
                if day == 0:
                    continue
                color = weekend if col in weekend_cols else text
                cx = x0 + (col + 0.5) * g.cell_w
                base = _baseline(glyphs.digit_h, gy + (w + 0.5) * g.cell_h)
                _paste(canvas, glyphs.days[day], color, cx, base)
    return canvas


_BODY_CACHE: OrderedDict[tuple[CalendarStyle, int, bool], Image.Image] = OrderedDict()
_BODY_CACHE_SIZE = 16  # page bodies (about 3 MB each at 1200 px); 14 cover every year of a style


_CACHE_LOCK = threading.Lock()


def _body(style: CalendarStyle, year: int) -> Image.Image:
    key = (style, _dt.date(year, 1, 1).weekday(), _calendar.isleap(year))
    with _CACHE_LOCK:
        body = _BODY_CACHE.get(key)
        if body is not None:
            _BODY_CACHE.move_to_end(key)
            return body
    body = _draw_body(style, year)
    with _CACHE_LOCK:
        _BODY_CACHE[key] = body
        if len(_BODY_CACHE) > _BODY_CACHE_SIZE:
            _BODY_CACHE.popitem(last=False)
    return body


@lru_cache(maxsize=128)
def _cap_height(font_name: str, size: int) -> int:
    return _text_mask("0", _font(font_name, size)).mask.height


def render_year_calendar(year: int, style: CalendarStyle | None = None) -> Image.Image:
    """Draw the yearly calendar of ``year`` (1..9999) as an RGB image."""
    check_year(year)
    style = style or CalendarStyle()
    g = _geometry(style.width, style.columns)
    page = _body(style, year).copy()
    title = style.title_format.format(year=year)
    size = max(12, round(g.title_h * 0.55))
    font = _font(style.bold_font, size)
    draw = ImageDraw.Draw(page)
    if style.month_band:  # a title banner in the accent colour goes with banded month names
        draw.rectangle(
            (g.left, round(g.title_h * 0.15), g.width - g.left - 1, g.title_h + g.margin // 3),
            fill=_rgb(style.accent_color),
        )
        color = _rgb(style.background)
    else:
        color = _rgb(style.title_color)
    cap_h = _cap_height(style.bold_font, size)
    baseline = round((g.title_h * 0.15 + g.title_h + g.margin / 3) / 2 + cap_h / 2)
    draw.text((g.width / 2, baseline), title, fill=color, font=font, anchor="ms")
    return page


# --------------------------------------------------------------------------------------------
# caches


def clear_caches() -> None:
    """Drop the cached page bodies and compressed PNG stripes (fonts and glyphs stay)."""
    with _CACHE_LOCK:
        _BODY_CACHE.clear()
    clear_png_cache()
