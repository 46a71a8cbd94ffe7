"""Reference agent for CalendarQA: read the year off the calendar image, understand the question.

The agent uses nothing but the pixels and the question text. It finds the first band of ink at the
top of the page (the title) by row projections, runs RapidOCR (ONNX models shipped in the wheel, no
network) on that band only, and takes the first 1-4 digit number in the title as the year. The
question text is parsed into a date of that year (holidays, month-day dates in several wordings,
"the Nth day of the year" with numeric or spelled-out ordinals) and the weekday follows from
Python's proleptic Gregorian date arithmetic.

Conventions where the paper is silent: Christmas = Christmas Day = 25 December (Christmas Eve = 24
December); New Year's Day = 1 January (New Year's Eve = 31 December); numeric dates ``3/14`` are
read month-first (US), falling back to day-first only when the first number cannot be a month;
ISO ``YYYY-MM-DD`` is read as month and day; a year written in the question is ignored (the year
always comes from the image).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import re
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
from PIL import Image

from chronoeval.suites.lost_in_time.answers import WEEKDAYS

MIN_YEAR = 1
MAX_YEAR = 9999

# --------------------------------------------------------------------------------------------
# OCR of the title

_ENGINE: Any = None
_ENGINE_PID: int | None = None
_ENGINE_LOCK = threading.Lock()
_OCR_LOCK = threading.Lock()  # RapidOCR keeps per-call state on the engine: one call at a time


def _engine() -> Any:
    """One RapidOCR engine per process, created on first use (re-created after a fork)."""
    global _ENGINE, _ENGINE_PID
    with _ENGINE_LOCK:
        if _ENGINE is None or os.getpid() != _ENGINE_PID:
            from rapidocr_onnxruntime import RapidOCR

            from chronoeval.models.agent_pool import native_threads

            threads = native_threads()  # 1 in an agent worker (one core each); else ORT's own
            extra = {} if threads is None else {"intra_op_num_threads": threads}
            _ENGINE = RapidOCR(det_limit_type="max", det_limit_side_len=960, **extra)
            _ENGINE_PID = os.getpid()
        return _ENGINE


_INK_THRESHOLD = 48  # max channel difference from the background that counts as ink
_MIN_INK_PIXELS = 2


def _ink(block: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Pixels of an (h, w, 3) int16 block that differ from ``bg`` by more than the threshold in
    some channel (channel-wise ORs: much faster than a max over the short last axis)."""
    diff = np.abs(block - bg)
    return (
        (diff[..., 0] > _INK_THRESHOLD)
        | (diff[..., 1] > _INK_THRESHOLD)
        | (diff[..., 2] > _INK_THRESHOLD)
    )


def _first_ink_band(
    rgb: Image.Image, top: int, bottom: int, left: int, right: int, bg: np.ndarray | None
) -> tuple[int, int, int, int] | None:
    """First run of ink rows in rgb[top:bottom, left:right] (scanned in chunks), as a box."""
    chunk = 64
    start: int | None = None
    ink_rows: list[np.ndarray] = []
    end = bottom
    y = top
    while y < bottom:
        block = np.asarray(rgb.crop((left, y, right, min(bottom, y + chunk))), dtype=np.int16)
        if bg is None:
            bg = np.median(block[0], axis=0)
        ink = _ink(block, bg)
        has_ink = ink.sum(axis=1) >= _MIN_INK_PIXELS
        if start is None:
            rows = np.flatnonzero(has_ink)
            if rows.size == 0:
                y += chunk
                continue
            start = y + int(rows[0])
        first = max(0, start - y)
        blank = np.flatnonzero(~has_ink[first:])
        if blank.size:
            stop = first + int(blank[0])
            ink_rows.append(ink[first:stop])
            end = y + stop
            break
        ink_rows.append(ink[first:])
        y += chunk
    if start is None or not ink_rows:
        return None
    cols = np.flatnonzero(np.concatenate(ink_rows).any(axis=0))
    if cols.size == 0:
        return None
    return left + int(cols[0]), start, left + int(cols[-1]) + 1, end


def find_title_band(image: Image.Image) -> tuple[int, int, int, int] | None:
    """Box (left, top, right, bottom) around the title text: the first band of ink from the top.

    The background colour is the median of the top row; a pixel is ink when a channel differs
    from it by more than a threshold, and a band is a run of rows that each hold at least two ink
    pixels. Only the top of the page is read (top-down in chunks, at most the upper half). When
    the band is a filled banner (mostly ink), the text is looked for again inside the banner,
    against the banner's own colour. Returns None when the upper half of the page holds no ink.
    """
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    w, h = rgb.size
    if w < 8 or h < 8:
        return None
    band = _first_ink_band(rgb, 0, max(1, h // 2), 0, w, None)
    if band is None:
        return None
    left, top, right, bottom = band
    inner = np.asarray(rgb.crop(band), dtype=np.int16)
    bg = np.median(inner[0], axis=0)
    if bottom - top >= 6 and right - left >= 6:
        border = np.concatenate([inner[0], inner[-1], inner[:, 0], inner[:, -1]])
        if (~_ink(border[None], bg)).mean() > 0.9:  # a filled banner
            text = _first_ink_band(rgb, top + 1, bottom - 1, left + 1, right - 1, bg)
            if text is not None:
                return text
    return band


_DIGIT_LIKE = str.maketrans({"O": "0", "o": "0", "D": "0", "I": "1", "l": "1", "|": "1"})
_NUMBER_RE = re.compile(r"\d+")
_MIN_REC_SCORE = 0.8


def _normalise_digits(text: str) -> list[str]:
    """Whitespace tokens, with letter-for-digit confusions fixed in mostly-digit tokens."""
    tokens = []
    for token in text.split():
        digits = sum(ch.isdigit() for ch in token)
        if digits and digits * 2 >= len(token):
            token = token.translate(_DIGIT_LIKE)
        tokens.append(token)
    return tokens


def _clean_year(text: str) -> int | None:
    """The year if ``text`` holds exactly one standalone 1-4 digit number and no other digits."""
    tokens = _normalise_digits(text)
    numbers = [t.strip(".,:;!?()[]'\"") for t in tokens if any(ch.isdigit() for ch in t)]
    if len(numbers) != 1 or not re.fullmatch(r"\d{1,4}", numbers[0]):
        return None
    year = int(numbers[0])
    return year if MIN_YEAR <= year <= MAX_YEAR else None


def _longest_number(texts: list[str]) -> int | None:
    """The longest digit run (1-4 digits) over the boxes, leftmost on ties."""
    best: str | None = None
    for text in texts:
        for match in _NUMBER_RE.finditer(" ".join(_normalise_digits(text))):
            run = match.group(0)
            if len(run) <= 4 and (best is None or len(run) > len(best)):
                best = run
    if best is None:
        return None
    year = int(best)
    return year if MIN_YEAR <= year <= MAX_YEAR else None


def title_crop(image: Image.Image) -> Image.Image | None:
    """The title text cut out of the page with a margin, or None if no title band is found."""
    box = find_title_band(image)
    if box is None:
        return None
    left, top, right, bottom = box
    w, h = image.size
    band_h = bottom - top
    if band_h > 0.4 * h or band_h < 4:  # not a title line
        return None
    pad = max(6, band_h // 3)
    crop = image.crop(
        (max(0, left - 2 * pad), max(0, top - pad), min(w, right + 2 * pad), min(h, bottom + pad))
    )
    return crop if crop.mode == "RGB" else crop.convert("RGB")


def ocr_title(crop: Image.Image, detect: bool) -> list[tuple[str, float]]:
    """OCR a title crop: recognition only (one text line), or detection + recognition with the
    boxes of the top line returned left to right. Each entry is (text, score)."""
    engine = _engine()
    if not detect:
        with _OCR_LOCK:
            result, _ = engine(crop, use_det=False, use_cls=False)
        return [(str(text), float(score)) for text, score in (result or [])]
    with _OCR_LOCK:
        result, _ = engine(crop, use_cls=False)  # titles are upright: no angle classifier
    if not result:
        return []
    boxes = []
    for points, text, score in result:
        ys = [p[1] for p in points]
        xs = [p[0] for p in points]
        boxes.append((min(ys), max(ys), min(xs), str(text), float(score)))
    boxes.sort(key=lambda b: (b[0], b[2]))
    first_top, first_bottom = boxes[0][0], boxes[0][1]
    line = [b for b in boxes if first_top <= (b[0] + b[1]) / 2 <= first_bottom]
    line.sort(key=lambda b: b[2])
    return [(b[3], b[4]) for b in line]


_YEAR_CACHE: OrderedDict[tuple[tuple[int, int], bytes], int | None] = OrderedDict()
_YEAR_CACHE_SIZE = 512


def read_year(image: Image.Image) -> int | None:
    """The year printed in the calendar's title, or None.

    The title line is cut out by row projections and read with the recogniser alone; that reading
    is accepted when it holds exactly one standalone 1-4 digit number (and no other digits) with a
    confident score. Otherwise text detection + recognition runs on the crop and the longest
    1-4 digit run in the top line's boxes (leftmost on ties) is taken: detection can split a title
    into overlapping boxes, and the longest run is then the whole year.
    """
    crop = title_crop(image)
    if crop is None:
        return None
    # The OCR result is a pure function of the crop's pixels: memoise it on them (a page's six
    # questions then cost one OCR run).
    key = (crop.size, hashlib.sha1(crop.tobytes()).digest())
    with _ENGINE_LOCK:
        if key in _YEAR_CACHE:
            _YEAR_CACHE.move_to_end(key)
            return _YEAR_CACHE[key]
    year = _read_title(crop)
    with _ENGINE_LOCK:
        _YEAR_CACHE[key] = year
        if len(_YEAR_CACHE) > _YEAR_CACHE_SIZE:
            _YEAR_CACHE.popitem(last=False)
    return year


def _read_title(crop: Image.Image) -> int | None:
    line = ocr_title(crop, detect=False)
    if len(line) == 1 and line[0][1] >= _MIN_REC_SCORE:
        year = _clean_year(line[0][0])
        if year is not None:
            return year
    boxes = ocr_title(crop, detect=True)
    return _longest_number([text for text, _ in boxes]) if boxes else None


# --------------------------------------------------------------------------------------------
# Question understanding

_MONTHS: dict[str, int] = {}
for _i, (_full, _abbrs) in enumerate(
    (
        ("january", ("jan",)),
        ("february", ("feb",)),
        ("march", ("mar",)),
        ("april", ("apr",)),
        ("may", ()),
        ("june", ("jun",)),
        ("july", ("jul",)),
        ("august", ("aug",)),
        ("september", ("sept", "sep")),
        ("october", ("oct",)),
        ("november", ("nov",)),
        ("december", ("dec",)),
    ),
    start=1,
):
    _MONTHS[_full] = _i
    for _a in _abbrs:
        _MONTHS[_a] = _i
_MONTH_RE = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90,
}  # fmt: skip
_NUMBER_WORDS = set(_UNITS) | set(_ORDINAL_WORDS) | {"hundred", "hundredth", "and"}
_WORD_ORDINAL_RE = (
    r"((?:(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")[\s-]+)*"
    r"(?:" + "|".join(sorted([*_ORDINAL_WORDS, "hundredth"], key=len, reverse=True)) + r"))"
)
_NUM_ORDINAL_RE = r"(\d{1,3})(?:st|nd|rd|th)?"
_OF_YEAR = r"\s+(?:of|in)\s+(?:the\s+|this\s+|that\s+|a\s+)?(?:calendar\s+)?year"

_NTH_DAY_PATTERNS = (
    re.compile(r"\b" + _NUM_ORDINAL_RE + r"\s+day" + _OF_YEAR),
    re.compile(r"\b" + _WORD_ORDINAL_RE + r"\s+day" + _OF_YEAR),
    re.compile(r"\bday\s+(?:number\s+|no\.?\s*|#\s*)?(\d{1,3})" + _OF_YEAR),
)
_LAST_DAY_RE = re.compile(r"\blast\s+day" + _OF_YEAR)
_BARE_NTH_DAY_RE = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\s+day\b(?!\s+of\s+(?:the\s+)?week)")
_MONTH_DAY_RES = (
    re.compile(r"\b" + _MONTH_RE + r"\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b"),
    re.compile(r"\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+)?(?:of\s+)?" + _MONTH_RE + r"\b"),
)  # fmt: skip
_MONTH_WORD_DAY_RES = (
    re.compile(r"\b" + _MONTH_RE + r"\s+(?:the\s+)?" + _WORD_ORDINAL_RE + r"\b"),
    re.compile(r"\b(?:the\s+)?" + _WORD_ORDINAL_RE + r"\s+(?:day\s+)?of\s+" + _MONTH_RE + r"\b"),
)  # fmt: skip
_ISO_RE = re.compile(r"\b\d{1,4}-(\d{1,2})-(\d{1,2})\b")
_SLASH_RE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/\d{1,4})?\b")
_HOLIDAYS: tuple[tuple[re.Pattern[str], int, int], ...] = (
    (re.compile(r"\bnew\s+year(?:'s|s)?\s+eve\b"), 12, 31),
    (re.compile(r"\bnew\s+year(?:'s|s)?\s+day\b|\bnew\s+year's\b"), 1, 1),
    (re.compile(r"\b(?:christmas|xmas)\s+eve\b"), 12, 24),
    (re.compile(r"\b(?:christmas|xmas)\b"), 12, 25),
    (re.compile(r"\bboxing\s+day\b"), 12, 26),
)


def parse_word_ordinal(text: str) -> int | None:
    """``'one hundred and fifty-third' -> 153``, ``'hundredth' -> 100``, ``'first' -> 1``."""
    tokens = [t for t in re.split(r"[\s-]+", text.lower().strip()) if t and t != "and"]
    if not tokens:
        return None
    total = 0
    for i, token in enumerate(tokens):
        last = i == len(tokens) - 1
        if token in ("hundred", "hundredth"):
            if token == "hundredth" and not last:
                return None
            total = max(total, 1) * 100
        elif token in _ORDINAL_WORDS:
            if not last:
                return None
            total += _ORDINAL_WORDS[token]
        elif token in _UNITS and not last:
            total += _UNITS[token]
        else:
            return None
    return total


def _date(year: int, month: int, day: int) -> _dt.date | None:
    try:
        return _dt.date(year, month, day)
    except ValueError:
        return None


def _nth_day(year: int, n: int) -> _dt.date | None:
    start = _dt.date(year, 1, 1)
    if n < 1:
        return None
    day = start + _dt.timedelta(days=n - 1) if n <= 366 else None
    return day if day is not None and day.year == year else None


def resolve_question(text: str, year: int) -> _dt.date | None:
    """The date a CalendarQA question asks about, in ``year``; None if not understood.

    Understands (case-insensitive): New Year's Day / New Year's Eve, Christmas (Day) / Christmas
    Eve, Boxing Day; "the 100th / 153rd / one hundredth / first / last day of the year", "day 42
    of the year"; "March 14", "March 14th", "Mar. 14", "March the fourteenth", "14 March", "14th
    of March", "the fourteenth of March"; "3/14" (month first, day first only when the first
    number exceeds 12) and "2025-03-14"; as a last resort a bare "the 100th day". Impossible dates
    (30 February, day 366 of a common year) give None.
    """
    if not MIN_YEAR <= year <= MAX_YEAR:
        return None
    t = " ".join(text.lower().replace("’", "'").split())

    for pattern, month, day in _HOLIDAYS:
        if pattern.search(t):
            return _dt.date(year, month, day)

    match = _NTH_DAY_PATTERNS[0].search(t) or _NTH_DAY_PATTERNS[2].search(t)
    if match:
        return _nth_day(year, int(match.group(1)))
    match = _NTH_DAY_PATTERNS[1].search(t)
    if match:
        n = parse_word_ordinal(match.group(1))
        return _nth_day(year, n) if n is not None else None
    if _LAST_DAY_RE.search(t):
        return _dt.date(year, 12, 31)

    match = _MONTH_DAY_RES[0].search(t)
    if match:
        return _date(year, _MONTHS[match.group(1)], int(match.group(2)))
    match = _MONTH_DAY_RES[1].search(t)
    if match:
        return _date(year, _MONTHS[match.group(2)], int(match.group(1)))
    match = _MONTH_WORD_DAY_RES[0].search(t)
    if match:
        n = parse_word_ordinal(match.group(2))
        return _date(year, _MONTHS[match.group(1)], n) if n is not None else None
    match = _MONTH_WORD_DAY_RES[1].search(t)
    if match:
        n = parse_word_ordinal(match.group(1))
        return _date(year, _MONTHS[match.group(2)], n) if n is not None else None

    match = _ISO_RE.search(t)
    if match:
        return _date(year, int(match.group(1)), int(match.group(2)))
    match = _SLASH_RE.search(t)
    if match:
        first, second = int(match.group(1)), int(match.group(2))
        if first > 12 and second <= 12:
            first, second = second, first
        return _date(year, first, second)
    match = _BARE_NTH_DAY_RE.search(t)  # "the 100th day" without "of the year"
    if match:
        return _nth_day(year, int(match.group(1)))
    return None


def answer_calendar(image: Image.Image, text: str) -> str | None:
    """Weekday name answering ``text`` about the calendar ``image``, or None if unsure."""
    year = read_year(image)
    if year is None:
        return None
    day = resolve_question(text, year)
    return WEEKDAYS[day.weekday()] if day is not None else None
