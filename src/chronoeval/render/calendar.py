"""Yearly calendar images for CalendarQA (Lost in Time).

A page shows a title with the year at the top and twelve month grids (3 x 4 or 4 x 3) with the month
name, a weekday header row and the day numbers in the right weekday columns. Dates follow the
proleptic Gregorian calendar of Python's :mod:`calendar` module, so any year 1..9999 can be drawn.

Pages are drawn as 8-bit palette indices, never as colours (see "Colours" below): text coverage is
quantised to 16 levels per ink, so a page has 3 + 5 x 16 palette entries and the colours live only
in the PNG's palette. Every part is cached per layout component, independent of the colours and of
the rest of the style: glyph coverage per (text, font, size), day-cell tiles per (font, size, cell,
grid lines), weekday header rows per (font, size, letters, week start, cell), month-name rows per
(name, font, size, width, band). A page with a style never seen before is assembled from these with
numpy and written by :func:`chronoeval.render.png.encode_indexed_rows` (what the CalendarQA
generator calls, via :func:`render_year_calendar_png`). :func:`render_year_calendar` gives the same
pixels as an RGB image.
"""

from __future__ import annotations

import calendar as _calendar
import math
import os
import random
import threading
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageFont

from chronoeval.core.names import MONTH_NAMES
from chronoeval.render.fonts import FONT_DIR, truetype
from chronoeval.render.glyph_store import GlyphStore
from chronoeval.render.png import clear_cache as clear_png_cache
from chronoeval.render.png import encode_indexed_rows
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
# Colours: an indexed-colour page
#
# A page is drawn as 8-bit palette indices, never as colours: index 0 is the background, 1 the
# accent colour (solid: month bands, title banner, the rule under the weekday header), 2 the grid
# colour, and then _LEVELS indices for each "ink" (a foreground colour anti-aliased over an
# underlying colour). Glyph coverage is quantised to _LEVELS levels. The indices depend only on the
# layout components (geometry, fonts, flags, year), never on the colours, so every cached part is
# shared by all palettes; the colours live only in the PNG's PLTE chunk.

_LEVELS = 16  # coverage levels of anti-aliased text (1/16 steps)
_BG, _ACCENT, _GRID = 0, 1, 2
_TEXT, _WEEKEND, _ACCENT_TEXT, _ON_ACCENT, _TITLE = range(5)  # inks
_N_INKS = 5
PALETTE_SIZE = 3 + _N_INKS * _LEVELS  # entries in a page's palette
_QUANT = ((np.arange(256, dtype=np.int32) * _LEVELS + 127) // 255).astype(np.uint8)


def _luma(color: str) -> float:
    r, gg, b = _rgb(color)
    return 0.299 * r + 0.587 * gg + 0.114 * b


@lru_cache(maxsize=64)
def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"colours must be #rrggbb, got {color!r}")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


_STEPS = np.arange(1, _LEVELS + 1, dtype=np.float64)[None, :, None] / _LEVELS


@lru_cache(maxsize=256)
def _palette(style: CalendarStyle) -> bytes:
    """PLTE payload: background, accent, grid, then each ink's coverage levels 1.._LEVELS."""
    bg, accent, grid = _rgb(style.background), _rgb(style.accent_color), _rgb(style.grid_color)
    text, weekend, title = (
        _rgb(style.text_color),
        _rgb(style.weekend_color),
        _rgb(style.title_color),
    )
    fg = np.array((text, weekend, accent, bg, title), np.float64)[:, None, :]  # in _TEXT.. order
    under = np.array((bg, bg, bg, accent, bg), np.float64)[:, None, :]
    inks = np.floor(under + (fg - under) * _STEPS + 0.5).astype(np.uint8)  # (inks, levels, rgb)
    return bytes(bg + accent + grid) + inks.tobytes()


def _palette_array(style: CalendarStyle) -> np.ndarray:
    return np.frombuffer(_palette(style), np.uint8).reshape(-1, 3)


# --------------------------------------------------------------------------------------------
# Glyphs: coverage masks per (text, font, size), shared by every style that uses them

_font = truetype


@dataclass(frozen=True)
class _Glyph:
    """Coverage of a text cropped to its ink box, quantised to 0.._LEVELS; ``top`` and ``left`` are
    the ink box's offsets from the pen on the baseline. Never mutated."""

    levels: np.ndarray
    top: int
    left: int


def _text_mask(text: str, font: ImageFont.FreeTypeFont) -> _Glyph:
    """The text's coverage as FreeType renders it for ``ImageDraw.text`` (anchor "ls"): the same
    pixels as drawing it on a canvas, without the canvas."""
    core, (left, top) = font.getmask2(text, "L", anchor="ls")
    mask = np.asarray(Image.Image()._new(core))
    if mask.size == 0:  # no ink (spaces)
        mask = np.zeros((1, 1), np.uint8)
    return _Glyph(_QUANT[mask], top, left)


# What a stored mask is: getmask2 in mode "L" with anchor "ls", quantised to _LEVELS levels.
_STORE = GlyphStore(f"calendar:getmask2-L-ls:q{_LEVELS}")


@lru_cache(maxsize=8192)
def _mask(text: str, font_name: str, size: int) -> _Glyph:
    """A glyph per (text, font, size): colours, layout flags and title wording do not change it.
    Kept on disk between processes (:mod:`chronoeval.render.glyph_store`), keyed by the font
    file's bytes and the Pillow / FreeType / Raqm versions, so a stored mask is the rendered one."""
    path = os.path.join(FONT_DIR, font_name)
    stored = _STORE.get(path, size, text)
    if stored is not None:
        return _Glyph(*stored)
    glyph = _text_mask(text, _font(font_name, size))
    glyph.levels.flags.writeable = False
    _STORE.put(path, size, text, (glyph.levels, glyph.top, glyph.left))
    return glyph


@lru_cache(maxsize=4096)
def _advance(text: str, font_name: str, size: int) -> float:
    """Pen advance of ``text`` in pixels."""
    return _font(font_name, size).getlength(text)


def _ink(region: np.ndarray, levels: np.ndarray, ink: int, only_on: int | None = None) -> None:
    """Write ``ink`` at its coverage level wherever ``levels`` > 0 (and ``region`` == ``only_on``
    when given: bg-coloured text on a band is invisible where it leaves the band)."""
    hit = levels > 0
    if only_on is not None:
        hit &= region == only_on
    np.copyto(region, levels + np.uint8(2 + ink * _LEVELS), where=hit)


def _place(canvas: np.ndarray, glyph: _Glyph, cx: float, baseline: int, ink: int,
           only_on: int | None = None) -> None:  # fmt: skip
    """Draw ``glyph`` horizontally centred on ``cx`` with its baseline on row ``baseline``."""
    h, w = glyph.levels.shape
    x, y = math.floor(cx - w / 2 + 0.5), baseline + glyph.top
    x1, y1 = max(0, x), max(0, y)
    x2, y2 = min(canvas.shape[1], x + w), min(canvas.shape[0], y + h)
    if x2 > x1 and y2 > y1:
        _ink(canvas[y1:y2, x1:x2], glyph.levels[y1 - y : y2 - y, x1 - x : x2 - x], ink, only_on)


def _baseline(cap_h: int, cy: float) -> int:
    """Baseline row that vertically centres capitals / digits of height ``cap_h`` on ``cy``."""
    return math.floor(cy + cap_h / 2 + 0.5)


# --------------------------------------------------------------------------------------------
# Layout components, cached per component (not per style)


def _sizes(style: CalendarStyle) -> tuple[int, int, int]:
    """Font sizes of the day numbers, the weekday header and the month names."""
    g = _geometry(style.width, style.columns)
    head = 0.48 if style.header_letters == 2 else 0.42
    return (
        max(8, round(g.cell_h * 0.56)),
        max(8, round(g.cell_h * head)),
        max(9, round(g.name_h * 0.52)),
    )


def _weekend_columns(firstweekday: int) -> tuple[bool, ...]:
    return tuple((firstweekday + c) % 7 in (5, 6) for c in range(7))  # Saturday, Sunday


@lru_cache(maxsize=256)
def _day_tiles(font: str, size: int, cell_w: int, cell_h: int, grid_lines: bool) -> np.ndarray:
    """Cell tiles, shape (2 * 2 * 32, cell_h, cell_w), indexed by ``_tile_id``: with / without the
    grid line on top, plain / weekend ink, day 0 (empty) .. 31."""
    cover = np.zeros((32, cell_h, cell_w), np.uint8)  # coverage level of each day's number
    digit_h = _mask("0", font, size).levels.shape[0]  # numbers are centred on the height of "0"
    base = _baseline(digit_h, cell_h / 2)
    for day in range(1, 32):
        glyph = _mask(str(day), font, size)
        h, w = glyph.levels.shape
        x, y = math.floor(cell_w / 2 - w / 2 + 0.5), base + glyph.top
        x1, y1, x2, y2 = max(0, x), max(0, y), min(cell_w, x + w), min(cell_h, y + h)
        cover[day, y1:y2, x1:x2] = glyph.levels[y1 - y : y2 - y, x1 - x : x2 - x]
    under = np.zeros((2, 1, 1, cell_h, cell_w), np.uint8)  # without / with the line above
    if grid_lines:
        under[:, :, :, :, 0] = _GRID  # the line on the cell's left
        under[1, :, :, 0, :] = _GRID  # the line above the cell (weeks 2..6)
    first_index = np.array((2 + _TEXT * _LEVELS, 2 + _WEEKEND * _LEVELS), np.uint8)
    inked = cover[None, None] + first_index[None, :, None, None, None]
    tiles = np.where(cover[None, None] > 0, inked, under).reshape(2 * 2 * 32, cell_h, cell_w)
    tiles.flags.writeable = False
    return tiles


def _tile_id(top: int, weekend: bool, day: int) -> int:
    return (top * 2 + int(weekend)) * 32 + day


@lru_cache(maxsize=256)
def _month_tile_ids(first_col: int, days: int, firstweekday: int) -> np.ndarray:
    """(6, 7) tile ids of a month whose day 1 is in column ``first_col``."""
    weekend = _weekend_columns(firstweekday)
    ids = np.empty((6, 7), np.intp)
    for w in range(6):
        for c in range(7):
            day = w * 7 + c - first_col + 1
            ids[w, c] = _tile_id(int(w > 0), weekend[c], day if 1 <= day <= days else 0)
    ids.flags.writeable = False
    return ids


@lru_cache(maxsize=256)
def _header_strip(
    bold: str, size: int, letters: int, firstweekday: int, cell_w: int, cell_h: int
) -> np.ndarray:
    """The weekday header row of a month (cell_h x 7 cells) with the accent rule under it."""
    strip = np.zeros((cell_h, 7 * cell_w), np.uint8)
    weekend = _weekend_columns(firstweekday)
    base = _baseline(_mask("M", bold, size).levels.shape[0], cell_h / 2)
    for col in range(7):
        wd = (firstweekday + col) % 7  # Python weekday number
        glyph = _mask(_DAY_ABBR_SUNDAY_FIRST[(wd + 1) % 7][:letters], bold, size)
        _place(strip, glyph, (col + 0.5) * cell_w, base, _WEEKEND if weekend[col] else _TEXT)
    strip[-1, :] = _ACCENT
    strip.flags.writeable = False
    return strip


@lru_cache(maxsize=2048)
def _name_strip(
    text: str, bold: str, size: int, block_w: int, name_h: int, band: bool
) -> np.ndarray:
    """A month's name row (name_h x block_w), on an accent band or in the accent colour."""
    strip = np.zeros((name_h, block_w), np.uint8)
    glyph = _mask(text, bold, size)
    cap_h = _mask("M", bold, size).levels.shape[0]
    if band:
        strip[: name_h - 2, :] = _ACCENT
        _place(strip, glyph, block_w / 2, _baseline(cap_h, (name_h - 2) / 2), _ON_ACCENT, _ACCENT)
    else:
        _place(strip, glyph, block_w / 2, _baseline(cap_h, name_h / 2), _ACCENT_TEXT)
    strip.flags.writeable = False
    return strip


@lru_cache(maxsize=128)
def _cap_height(font_name: str, size: int) -> int:
    return _mask("0", font_name, size).levels.shape[0]


# --------------------------------------------------------------------------------------------
# A page


_SCRATCH = threading.local()  # one reusable page buffer per thread (see _page_rows)


def _scratch_rows(height: int, stride: int) -> np.ndarray:
    """A zeroed (height, stride) uint8 array in this thread's reusable buffer: memset of pages
    already mapped instead of a fresh allocation whose pages fault in on first write."""
    need = height * stride
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < need:
        buf = _SCRATCH.buf = np.empty(max(need, 1 << 21), np.uint8)
    rows = buf[:need].reshape(height, stride)
    rows.fill(0)
    return rows


def _page_rows(year: int, style: CalendarStyle, scratch: bool = False) -> np.ndarray:
    """The page as PNG rows of palette indices: shape (height, stride), column 0 the filter byte
    (0), columns 1..width the pixels, the rest padding (see :func:`encode_indexed_rows`).

    With ``scratch`` the rows live in this thread's reusable buffer and are only valid until the
    thread's next call with ``scratch`` (for a caller that consumes them at once)."""
    check_year(year)
    g = _geometry(style.width, style.columns)
    shape = (g.height, (g.width + 8) // 8 * 8)
    rows = _scratch_rows(*shape) if scratch else np.zeros(shape, np.uint8)
    page = rows[:, 1 : g.width + 1]
    day_size, head_size, name_size = _sizes(style)
    fw = style.firstweekday
    tiles = _day_tiles(style.font, day_size, g.cell_w, g.cell_h, style.grid_lines)
    header = _header_strip(style.bold_font, head_size, style.header_letters, fw, g.cell_w, g.cell_h)
    ch, cw = g.cell_h, g.cell_w
    for month in range(1, 13):
        r, c = divmod(month - 1, style.columns)
        x0 = g.left + c * (g.block_w + g.gap_x)
        y0 = g.title_h + g.margin + r * (g.block_h + g.gap_y)
        name = MONTH_NAMES[month - 1]
        page[y0 : y0 + g.name_h, x0 : x0 + g.block_w] = _name_strip(
            name.upper() if style.month_upper else name,
            style.bold_font,
            name_size,
            g.block_w,
            g.name_h,
            style.month_band,
        )
        hy = y0 + g.name_h
        page[hy : hy + ch, x0 : x0 + g.block_w] = header
        gy = hy + ch
        first, days = _calendar.monthrange(year, month)  # Python weekday of day 1, length
        ids = _month_tile_ids((first - fw) % 7, days, fw)
        cells = page[gy : gy + 6 * ch, x0 : x0 + 7 * cw].reshape(6, ch, 7, cw)
        cells[...] = tiles[ids].transpose(0, 2, 1, 3)
        if style.grid_lines:
            page[gy : gy + 6 * ch + 1, x0 + 7 * cw] = _GRID  # right edge
            page[gy + 6 * ch, x0 : x0 + 7 * cw + 1] = _GRID  # bottom edge
    size = max(12, round(g.title_h * 0.55))
    top_area = page[: g.title_h + g.margin]
    if style.month_band:  # a title banner in the accent colour goes with banded month names
        y1, y2 = round(g.title_h * 0.15), g.title_h + g.margin // 3 + 1
        top_area[y1:y2, g.left : g.width - g.left] = _ACCENT
    cap_h = _cap_height(style.bold_font, size)
    baseline = round((g.title_h * 0.15 + g.title_h + g.margin / 3) / 2 + cap_h / 2)
    # The title is set from cached pieces (the wording around the year, then each digit) at their
    # pen advances, centred on the page like anchor "ms" would centre the whole string.
    prefix, _, suffix = style.title_format.partition("{year}")
    pieces = [t for t in (prefix, *str(year), suffix) if t]
    pen = g.width / 2 - sum(_advance(t, style.bold_font, size) for t in pieces) / 2
    ink, only_on = (_ON_ACCENT, _ACCENT) if style.month_band else (_TITLE, None)
    for text in pieces:
        if text.strip():
            glyph = _mask(text, style.bold_font, size)
            w = glyph.levels.shape[1]
            _place(top_area, glyph, pen + glyph.left + w / 2, baseline, ink, only_on)
        pen += _advance(text, style.bold_font, size)
    return rows


def render_year_calendar_png(year: int, style: CalendarStyle | None = None) -> bytes:
    """The yearly calendar of ``year`` (1..9999) as PNG bytes: 8-bit indexed colour with a
    palette of :data:`PALETTE_SIZE` entries (what the CalendarQA generator writes)."""
    style = style or CalendarStyle()
    return encode_indexed_rows(_page_rows(year, style, scratch=True), style.width, _palette(style))


def render_year_calendar_indexed(year: int, style: CalendarStyle | None = None) -> Image.Image:
    """The yearly calendar of ``year`` as a palette ("P") image, the pixels of the PNG."""
    style = style or CalendarStyle()
    rows = _page_rows(year, style)
    pixels = np.ascontiguousarray(rows[:, 1 : style.width + 1])
    image = Image.frombytes("P", (style.width, rows.shape[0]), pixels.tobytes())
    image.putpalette(_palette(style), "RGB")
    return image


def render_year_calendar(year: int, style: CalendarStyle | None = None) -> Image.Image:
    """Draw the yearly calendar of ``year`` (1..9999) as an RGB image (the PNG's pixels)."""
    style = style or CalendarStyle()
    rows = _page_rows(year, style)
    return Image.fromarray(_palette_array(style)[rows[:, 1 : style.width + 1]])


# --------------------------------------------------------------------------------------------
# caches


def clear_caches() -> None:
    """Drop the cached layout components and compressed PNG stripes (fonts and glyphs stay)."""
    for cached in (_day_tiles, _month_tile_ids, _header_strip, _name_strip, _palette):
        cached.cache_clear()
    clear_png_cache()
