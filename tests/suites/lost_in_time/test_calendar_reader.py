"""CalendarQA reference agent: year OCR from pixels, question understanding, end-to-end accuracy."""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from PIL import Image

from chronoeval.render.calendar import (
    CalendarStyle,
    render_year_calendar,
    sample_calendar_style,
)
from chronoeval.render.png import encode_png
from chronoeval.suites.lost_in_time.calendar_questions import make_questions
from chronoeval.suites.lost_in_time.calendar_reader import (
    answer_calendar,
    parse_word_ordinal,
    read_year,
    resolve_question,
)


def _as_delivered(image: Image.Image) -> Image.Image:
    """The pixels a model would get: PNG bytes decoded again."""
    return Image.open(io.BytesIO(encode_png(image))).convert("RGB")


def test_sixty_fresh_questions_at_least_99_percent() -> None:
    seed = random.SystemRandom().randrange(2**32)  # fresh every run; printed on failure
    rng = random.Random(seed)
    years = [rng.randint(1600, 2400) for _ in range(7)] + [
        rng.randint(1, 999),
        rng.randint(1, 120),
        rng.randint(2401, 9999),
    ]
    correct, total, failures = 0, 0, []
    for year in years:
        style = sample_calendar_style(rng, week_start=rng.choice(("sunday", "monday")))
        image = _as_delivered(render_year_calendar(year, style))
        for q in make_questions(year, rng):
            answer = answer_calendar(image, q.text)
            total += 1
            if answer == q.weekday:
                correct += 1
            else:
                failures.append((year, q.qtype, answer, q.weekday))
    assert total == 60
    assert correct / total >= 0.99, (seed, failures)


@pytest.mark.parametrize("year", [1, 5, 88, 999, 1000, 1600, 2000, 2400, 9999])
def test_read_year_small_and_big(year: int) -> None:
    rng = random.Random(year)
    for _ in range(2):
        style = sample_calendar_style(rng, week_start=rng.choice(("sunday", "monday")))
        assert read_year(_as_delivered(render_year_calendar(year, style))) == year


def test_read_year_with_banner_and_dark_styles() -> None:
    for year, style in [
        (1776, CalendarStyle(month_band=True, title_format="{year} Calendar")),
        (42, CalendarStyle(month_band=True, accent_color="#1f5fa8", title_format="Year {year}")),
        (
            2061,
            CalendarStyle(
                background="#1e1e24",
                text_color="#eeeeee",
                title_color="#ffffff",
                accent_color="#f4b942",
                font="DejaVuSerif.ttf",
                bold_font="DejaVuSerif-Bold.ttf",
            ),
        ),
    ]:
        assert read_year(render_year_calendar(year, style)) == year


def test_blank_and_textless_images_give_none() -> None:
    blank = Image.new("RGB", (1200, 900), "white")
    assert read_year(blank) is None
    assert answer_calendar(blank, "What day of the week is Christmas Day?") is None
    assert read_year(Image.new("RGB", (4, 4), "black")) is None
    boxes = Image.new("RGB", (800, 600), "white")
    boxes.paste((0, 0, 0), (100, 40, 700, 60))  # a bar, no text
    assert read_year(boxes) is None


def test_unintelligible_question_gives_none() -> None:
    image = render_year_calendar(2025, CalendarStyle())
    assert answer_calendar(image, "What colour is the calendar?") is None


_Y = 2024  # a leap year


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "According to the calendar, on what day of the week does New Year's Day fall in "
            "this year?",
            (1, 1),
        ),
        ("What weekday is New Year’s Day?", (1, 1)),
        ("new years day", (1, 1)),
        ("On which day does New Year's Eve fall?", (12, 31)),
        ("What day of the week is Christmas Day in this calendar?", (12, 25)),
        ("Christmas?", (12, 25)),
        ("What day is Christmas Eve?", (12, 24)),
        ("Xmas", (12, 25)),
        ("What day of the week is March 14 in the year shown in the calendar?", (3, 14)),
        ("March 14th", (3, 14)),
        ("Mar. 14", (3, 14)),
        ("14 March", (3, 14)),
        ("the 14th of March", (3, 14)),
        ("March the fourteenth", (3, 14)),
        ("the fourteenth of march", (3, 14)),
        ("the first of May", (5, 1)),
        ("Sept 3", (9, 3)),
        ("What day of the week may it be on 5 May?", (5, 5)),
        ("What day is 3/14?", (3, 14)),
        ("What day is 14/3?", (3, 14)),
        ("What day is 2024-03-14?", (3, 14)),
        ("February 29", (2, 29)),
        ("What day of the week is the 100th day of the year shown in the calendar?", (4, 9)),
        ("the 153rd day of the year", (6, 1)),
        ("the one hundredth day of the year", (4, 9)),
        ("the one hundred and fifty-third day of the year", (6, 1)),
        ("the hundredth day of this year", (4, 9)),
        ("the first day of the year", (1, 1)),
        ("the 1st day in the year", (1, 1)),
        ("the 22nd day of the year", (1, 22)),
        ("the twenty-second day of the year", (1, 22)),
        ("day 42 of the year", (2, 11)),
        ("day number 60 of the year", (2, 29)),
        ("the 366th day of the year", (12, 31)),
        ("the three hundred sixty-sixth day of the year", (12, 31)),
        ("the last day of the year", (12, 31)),
        ("What day is the 100th day?", (4, 9)),
        ("the 14th day of March", (3, 14)),
        (
            "What day of the week is the 153rd day of the year shown in the calendar? Answer "
            "with the name of the weekday only. Answer with the name of the weekday.",
            (6, 1),
        ),
    ],
)
def test_question_wordings(text: str, expected: tuple[int, int]) -> None:
    assert resolve_question(text, _Y) == dt.date(_Y, *expected)


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("February 30", 2024),
        ("February 29", 1900),
        ("the 366th day of the year", 2023),
        ("the 367th day of the year", 2024),
        ("the 0th day of the year", 2024),
        ("What is the capital of France?", 2024),
        ("What day of the week is it?", 2024),
        ("Christmas", 0),
        ("Christmas", 10000),
    ],
)
def test_question_not_understood(text: str, year: int) -> None:
    assert resolve_question(text, year) is None


def test_year_comes_from_the_image_not_the_text() -> None:
    assert resolve_question("What day of the week is March 14, 1999?", 2024) == dt.date(2024, 3, 14)


@pytest.mark.parametrize(
    ("words", "n"),
    [
        ("first", 1),
        ("twelfth", 12),
        ("twenty-first", 21),
        ("hundredth", 100),
        ("one hundredth", 100),
        ("one hundred fifty-third", 153),
        ("one hundred and fifty third", 153),
        ("three hundred sixty-sixth", 366),
        ("one", None),
        ("first hundred", None),
    ],
)
def test_word_ordinals(words: str, n: int | None) -> None:
    assert parse_word_ordinal(words) == n
