"""Regression tests for the parsing flaws listed in issue 14; each fails if its flaw returns."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import Mention, is_approximate, marker_segment, pick_last_mention
from chronoeval.suites.lost_in_time.parsing import parse_clock_answer, time_statement_segment
from chronoeval.suites.mined.judge import parse_judge
from chronoeval.suites.seeing_time.parsing import (
    parse_confidence,
    parse_earlier,
    parse_earlier_lenient,
    parse_image_strict,
    parse_order,
    parse_year,
)
from chronoeval.suites.seeing_time.rag import strip_time_terms

# GPT-4o's shape of DateTimeQA clock replies (the published clock-reading study's examples).
CLOCK = [
    (
        "The time shown on the clock is **2:59:14**.\n\n- The hour hand is slightly before the 3"
        ", the minute hand is just before the 12, so it is almost 3 o'clock.",
        "2:59:14",
    ),
    (
        "The time shown is **11:43:24**.\n- The hour hand is pointing slightly before 12, so it "
        "is just before 12 o'clock.\n- The minute hand is at 43.",
        "11:43:24",
    ),
    ("The time shown on the clock is **9:7:36**.", "9:07:36"),
    ("It reads 2:59:14, almost 3 o'clock.", "2:59:14"),  # no marker: approximation loses
    ("Time:10:10:30.", "10:10:30"),
    ("approx.10:10", "10:10:00"),
    ("The time is 2:50. Wait, actually the hour hand is past 3, so it is 3:10.", "3:10:00"),
]


@pytest.mark.parametrize(("reply", "expected"), CLOCK)
def test_clock_flaws(reply: str, expected: str) -> None:
    assert str(parse_clock_answer(reply)) == expected


def test_clock_digits_inside_longer_times_stay_out() -> None:
    assert str(parse_clock_answer("10:10:30")) == "10:10:30"  # not 10:30 from the tail
    assert str(parse_clock_answer("It costs $3.50; the clock shows 12:30")) == "12:30:00"


def test_core_marker_and_approximation_steps() -> None:
    assert is_approximate("it is almost ", len("it is almost "))
    assert not is_approximate("it is ", len("it is "))
    text = "a 1 b almost 2"
    mentions = [Mention(2, 3, 1), Mention(13, 14, 2)]
    assert pick_last_mention(text, mentions) == 1
    assert time_statement_segment("Sure. The clock reads 4:05. Then 6 o'clock.") == "4:05."
    import re

    assert marker_segment("x is 1. Wait, 2", re.compile(r"is"), re.compile("Wait")) is None


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("0.85.", 0.85),
        ("The score is 0.9.", 0.9),
        ("The score is 0.5. The prediction names 1 of the 2 facts.", 0.5),
        ("The prediction names 1 of the 2 facts. Score: 0.5", 0.5),
        ("0.85,", 0.85),
    ],
)
def test_judge_sentence_final_number(reply: str, expected: float) -> None:
    assert parse_judge(reply) == expected


def test_seeing_time_sentence_final_numbers() -> None:
    assert parse_image_strict("2.") == 2
    assert parse_image_strict("The answer is 4.") == 4
    assert parse_image_strict("The answer is 4. Image 2 shows an older car.") == 4
    assert parse_order("2, 0, 3, 1.", 4) == (2, 0, 3, 1)
    assert parse_order('{"ans": "3, 1, 2."}', 3) == (2, 0, 1)
    assert not parse_order("0.5, 1, 2", 3)  # a decimal is not an index
    assert parse_confidence("Year: 1990. Confidence: 0.85.") == 85
    assert parse_confidence("Confidence: 85%.") == 85
    assert parse_confidence('{"year": 1990, "confidence": 70}') == 70


def test_news_year_is_the_released_chunk_rule() -> None:
    assert parse_year("19521953", 1900, 2025) == 1952
    assert parse_year("12345 or 1990", 1900, 2025) == 1990  # "1234" out of range, then 1990
    assert parse_year("c.1960s", 1900, 2025) == 1960
    assert isinstance(parse_year("the 1880s", 1900, 2025), NoAnswer)


@pytest.mark.parametrize(
    ("reply", "released", "lenient"),
    [
        ('{"thinking": "cars", "answer": "2"}', 2, 2),
        ('```json\n{"thinking": "cars", "answer": 1}\n```', None, 1),  # regex needs a quoted digit
        ('```json\n{"thinking": "cars", "answer": "1"}\n```', 1, 1),  # regex fallback
        ("{'thinking': 'cars', 'answer': '2'}", None, 2),  # Python-style dict
        ("1", None, 1),  # a bare digit is JSON but not an object: the release raises
        ("Image 2", None, 2),
        ('{"thinking": "x", "Answer": "2"}', None, 2),  # key case
        ('{"answer": "Image 2 (Image 1 is newer)"}', 1, None),  # the release's "1" in answer
        ('{"answer": 2}', 2, 2),
    ],
)
def test_shortcut_released_rule_and_lenient(reply: str, released: int | None, lenient) -> None:
    got = parse_earlier(reply)
    assert (None if isinstance(got, NoAnswer) else got) == released
    got = parse_earlier_lenient(reply)
    assert (None if isinstance(got, NoAnswer) else got) == lenient


@pytest.mark.parametrize(
    ("text", "kept"),
    [("Taken c.1900 in Paris", "Taken c. in Paris"), ("ca.1950s fashion", "ca. fashion"),
     ("Paris,1990, a street", "Paris,, a street"), ("price 1,990 dollars", "price 1,990 dollars")],
)  # fmt: skip
def test_rag_strips_years_after_punctuation(text: str, kept: str) -> None:
    assert strip_time_terms(text) == kept


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            "So the time is 10:10. The second hand is at 6, i.e. 30 seconds. Final: 10:10:30",
            "10:10:30",
        ),
        ("the time is 10:10. The second hand is at 6, so 10:10:30.", "10:10:30"),  # refinement
        ("Time: 4:40:15, near 5 o'clock", "4:40:15"),
        ("The time shown is 6:15:00. The hour hand points toward 7 o'clock.", "6:15:00"),
    ],
)
def test_clock_statement_refinements(reply: str, expected: str) -> None:
    assert str(parse_clock_answer(reply)) == expected
