"""SPAN answer parsing: dates as models write them in each calendar, and yes/no."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.suites.span.parsing import ParsedDate, parse_date_answer, parse_yes_no


@pytest.mark.parametrize(
    ("text", "family", "expected"),
    [
        ("Answer: 2000-05-30", "chinese", ParsedDate(2000, 5, 30)),
        ("Answer: 1990-L05-09", "chinese", ParsedDate(1990, 5, 9, True)),
        (
            "day 9 of the leap 5th month of Chinese lunar year 1990",
            "chinese",
            ParsedDate(1990, 5, 9, True),
        ),
        ("闰五月初九", "chinese", ParsedDate(None, 5, 9, True)),
        ("1990年闰5月9日", "chinese", ParsedDate(1990, 5, 9, True)),
        ("It falls on 正月十五.", "chinese", ParsedDate(None, 1, 15)),
        ("the first month, day 1, 2001", "chinese", ParsedDate(2001, 1, 1)),
        ('{"year": 1990, "month": "L5", "day": 9}', "chinese", ParsedDate(1990, 5, 9, True)),
        ("It is 28 Sivan 5760.", "hebrew", ParsedDate(5760, 3, 28)),
        ("Tishri 1, 5761", "hebrew", ParsedDate(5761, 7, 1)),
        ("15 Nissan 5760", "hebrew", ParsedDate(5760, 1, 15)),
        ("The date is 14 Adar II 5784", "hebrew", ParsedDate(5784, 13, 14)),
        ("1 Moharram 1421 AH", "islamic", ParsedDate(1421, 1, 1)),
        ("Rabi al-Thani 29, 1421", "islamic", ParsedDate(1421, 4, 29)),
        ("so 10 Dhul Hijjah 1420", "islamic", ParsedDate(1420, 12, 10)),
        ("So: 10 Tir 1379", "persian", ParsedDate(1379, 4, 10)),
        ("1 Farvardin", "persian", ParsedDate(None, 1, 1)),
        ("10 Ashadha 1922 Saka", "shaka", ParsedDate(1922, 4, 10)),
        ("Vaisakha 3, 1922", "shaka", ParsedDate(1922, 2, 3)),
        ("July 1, 2000", "gregorian", ParsedDate(2000, 7, 1)),
        (
            "I think 2000/07/01, no wait, the answer is 2000-07-02.",
            "gregorian",
            ParsedDate(2000, 7, 2),
        ),
        ('```json\n{"answer": "2001-06-19"}\n```', "gregorian", ParsedDate(2001, 6, 19)),
    ],
)
def test_dates(text: str, family: str, expected: ParsedDate) -> None:
    assert parse_date_answer(text, family) == expected


@pytest.mark.parametrize("text", ["", "I don't know.", "The month is unclear"])
def test_no_date_is_no_answer(text: str) -> None:
    assert isinstance(parse_date_answer(text, "hebrew"), NoAnswer)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: yes", True),
        ("No, it is not.", False),
        ("Let me think.\nAnswer: no", False),
        ("True", True),
    ],
)
def test_yes_no(text: str, expected: bool) -> None:
    assert parse_yes_no(text) is expected


def test_yes_no_unreadable() -> None:
    assert isinstance(parse_yes_no("It depends."), NoAnswer)


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("Answer: 1990-L05-09", "chinese"),
        ("Answer: 2000-07-01", "gregorian"),
        ("Answer: 5760-13-01", "hebrew"),
    ],
)
def test_bare_answer_fast_path_agrees_with_the_pipeline(text: str, family: str) -> None:
    assert parse_date_answer(text, family) == parse_date_answer(
        f"Reasoning first.\n{text}\n", family
    )
    assert parse_yes_no("Answer: yes") is parse_yes_no("So...\nAnswer: yes\n") is True
