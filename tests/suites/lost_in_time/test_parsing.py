"""Tests of the Lost in Time answer parsers (clock readings and weekdays)."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.suites.lost_in_time.answers import WEEKDAYS, ClockTime
from chronoeval.suites.lost_in_time.parsing import (
    clock_mentions,
    extract_clock_time,
    extract_weekday,
    json_clock_components,
    parse_clock_answer,
    parse_weekday_answer,
    weekday_mentions,
    word_to_number,
)

# --------------------------------------------------------------------------------------------------
# Clock readings
# --------------------------------------------------------------------------------------------------

CLOCK_CASES: list[tuple[str, str]] = [
    # digits
    ("10:10:30", "10:10:30"),
    ("10:10", "10:10:00"),
    ("10.10", "10:10:00"),
    ("10.10.30", "10:10:30"),
    ("09:05", "9:05:00"),
    ("12:00", "12:00:00"),
    ("12:55:36", "12:55:36"),
    ("1:02:03", "1:02:03"),
    # AM / PM (dropped: a 12-hour dial cannot show it)
    ("10:10 AM", "10:10:00"),
    ("10:10am", "10:10:00"),
    ("10:10:30 p.m.", "10:10:30"),
    ("The time shown is 11:59:59 PM.", "11:59:59"),
    ("12:00 AM", "12:00:00"),
    ("00:15 am", "12:15:00"),
    ("It is 3 PM", "3:00:00"),
    # 24-hour
    ("22:10:30", "10:10:30"),
    ("13:00", "1:00:00"),
    ("00:15", "12:15:00"),
    ("0:15:00", "12:15:00"),
    ("Time: 2024-01-01T10:10:30Z", "10:10:30"),
    # words
    ("ten past ten", "10:10:00"),
    ("half past three", "3:30:00"),
    ("quarter to four", "3:45:00"),
    ("a quarter to one", "12:45:00"),
    ("quarter past 12", "12:15:00"),
    ("quarter of four", "3:45:00"),
    ("twenty-five to six", "5:35:00"),
    ("twenty five past eleven", "11:25:00"),
    ("10 past 10", "10:10:00"),
    ("25 minutes to 6", "5:35:00"),
    ("It is 3 minutes past 9", "9:03:00"),
    ("The minute hand is at 9, which is 45 minutes past 3.", "3:45:00"),
    ("five o'clock", "5:00:00"),
    ("3 o'clock", "3:00:00"),
    ("twelve oclock", "12:00:00"),
    ("noon", "12:00:00"),
    ("midnight", "12:00:00"),
    ("It is 12 noon", "12:00:00"),
    ("ten twenty-five", "10:25:00"),
    ("ten oh five", "10:05:00"),
    ("twelve fifteen pm", "12:15:00"),
    ("The time is ten past ten and thirty seconds", "10:10:30"),
    ("seven thirty and 15 seconds", "7:30:15"),
    # seconds given separately
    ("The time is approximately 3:45 and 20 seconds", "3:45:20"),
    ("3:45 and 20 seconds", "3:45:20"),
    ("3:45 with 20 secs", "3:45:20"),
    ("3 hours, 45 minutes and 20 seconds", "3:45:20"),
    ("three hours and forty-five minutes", "3:45:00"),
    ("10h10m30s", "10:10:30"),
    ("Hour: 4, Minute: 20, Second: 15", "4:20:15"),
    # structured / marked-up answers
    ('{"time": "4:20:15"}', "4:20:15"),
    ('```json\n{"answer": "9:05:07"}\n```', "9:05:07"),
    ("{'time': '4:20:15'}", "4:20:15"),
    ('{"time": 10.10}', "10:10:00"),
    ('{"hour": 4, "minute": 20, "second": 15}', "4:20:15"),
    ('{"reading": {"hours": 7, "minutes": 5}}', "7:05:00"),
    ('{"reasoning": "looks like 2:50 at first", "time": "10:14:35"}', "10:14:35"),
    ("**4:20:15**", "4:20:15"),
    ("**Time:** 2:35:50", "2:35:50"),
    ("# Reading\nThe clock reads *10:09:41*.", "10:09:41"),
    (r"\boxed{4:20:15}", "4:20:15"),
    (r"$\boxed{\text{4:20:15}}$", "4:20:15"),
    (r"The time is $10{:}10$", "10:10:00"),
    ("<answer>3:15:40</answer>", "3:15:40"),
    ("The time is 4\uff1a20\uff1a15", "4:20:15"),
    # several times in one answer
    ("At first glance 2:50 but actually 10:14:35", "10:14:35"),
    ("The clock shows 10:10.\nFinal answer: 7:05:00\nNote: 12:30 was my first guess", "7:05:00"),
    ("Final answer: 7:05:00. Earlier I wrote 8:05 by mistake.\nCheck: 6:05", "7:05:00"),
    ("**Answer**\n\n6:40:12\n\nThe hour hand is near 7, so not 7:40.", "6:40:12"),
    ("Let me think.\nThe hour hand is near 10.\nTherefore, the time is 10:10:30.", "10:10:30"),
    ("It is 3:45, not 2:50", "3:45:00"),
    ("Approximately 8:20:15 (hour hand slightly past 8, i.e. not 9:20).", "8:20:15"),
    ("In 24-hour time that is 22:10:30, i.e. 10:10:30 PM.", "10:10:30"),
    (r"I first thought 1:00. \boxed{2:00} is my answer. Also 3:00 is close", "2:00:00"),
    ("Sorry for the confusion earlier, the clock shows 4:20.", "4:20:00"),
    ("hour hand at 3.75 so the time is 3:45", "3:45:00"),
    ("10:10 before noon", "10:10:00"),
]


@pytest.mark.parametrize(("response", "expected"), CLOCK_CASES)
def test_parse_clock_answer(response: str, expected: str) -> None:
    assert parse_clock_answer(response) == ClockTime.from_gold(expected)


def test_enough_clock_surface_forms() -> None:
    assert len(CLOCK_CASES) >= 40


CLOCK_NO_ANSWERS: list[tuple[str, str]] = [
    ("", "empty response"),
    ("   \n\t", "empty response"),
    ("13:75:00", "out of range"),
    ("25:10", "out of range"),
    ("10:61", "out of range"),
    ("10:10:75", "out of range"),
    ("24:00", "out of range"),
    ("13:10 PM", "out of range"),
    ("quarter past 13 pm", "out of range"),
    ("65 minutes past 3", "out of range"),
    ('{"hour": 4, "minute": 75}', "out of range"),
    ("I think 10:10. Final answer: 13:75:00", "out of range"),
    ("I cannot determine the time", "refusal"),
    ("I can't determine the time from this image.", "refusal"),
    ("I'm unable to read the clock, sorry.", "refusal"),
    ("It is not possible to read the clock.", "refusal"),
    ("It looks like 10:10.\nFinal answer: I cannot tell.", "refusal"),
    ('{"answer": "N/A", "reasoning": "maybe 10:10"}', "refusal"),
    ("10", "no clock time found"),
    ("the year 2024", "no clock time found"),
    ("Dec 25, 2024", "no clock time found"),
    ("on 12.05.2024", "no clock time found"),
    ("hour hand at 3, minute hand at 9", "no clock time found"),
    ("The dial has numbers from one to twelve", "no clock time found"),
    ("from 10 to 2", "no clock time found"),
    ("It costs $10.50", "no clock time found"),
    ("10:10:5", "no clock time found"),
    ("It's 10:10 or 2:50", "ambiguous"),
    ("either 10:10 / 2:50", "ambiguous"),
    ("somewhere between 10:10 and 10:15", "ambiguous"),
]


@pytest.mark.parametrize(("response", "reason"), CLOCK_NO_ANSWERS)
def test_parse_clock_no_answer(response: str, reason: str) -> None:
    result = parse_clock_answer(response)
    assert isinstance(result, NoAnswer), result
    assert result.reason.startswith(reason), result.reason


def test_out_of_range_reason_names_the_span() -> None:
    assert parse_clock_answer("It is 13:75:00") == NoAnswer("out of range: '13:75:00'")


def test_clock_mentions_are_ordered_and_typed() -> None:
    mentions = clock_mentions("2:50 then ten past ten then 25:10")
    assert [m.value for m in mentions] == [
        ClockTime(2, 50),
        ClockTime(10, 10),
        NoAnswer("out of range: '25:10'"),
    ]


def test_extract_clock_time_none_without_mentions() -> None:
    assert extract_clock_time("no time here") is None


def test_json_clock_components() -> None:
    assert json_clock_components('{"h": 4, "m": 5}') == ["4:05"]
    assert json_clock_components('{"hour": "four", "minute": 5}') == []


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("twenty-five", 25),
        ("twenty five", 25),
        ("Forty", 40),
        ("fifty-nine", 59),
        ("oh five", 5),
        ("eleven", 11),
        ("zero", 0),
        ("07", 7),
        ("ninety", None),
    ],
)
def test_word_to_number(word: str, value: int | None) -> None:
    assert word_to_number(word) == value


# --------------------------------------------------------------------------------------------------
# Weekdays
# --------------------------------------------------------------------------------------------------

WEEKDAY_CASES: list[tuple[str, str]] = [
    ("Monday", "Monday"),
    ("wednesday", "Wednesday"),
    ("SATURDAY", "Saturday"),
    ("Mon", "Monday"),
    ("Tue", "Tuesday"),
    ("Tues.", "Tuesday"),
    ("WED", "Wednesday"),
    ("Thu", "Thursday"),
    ("Thur", "Thursday"),
    ("Thurs", "Thursday"),
    ("Fri", "Friday"),
    ("sat", "Saturday"),
    ("sun.", "Sunday"),
    ("Answer: wed", "Wednesday"),
    ("Christmas 2024 falls on a Wed.", "Wednesday"),
    ("The 100th day is a Sat", "Saturday"),
    ("It was a Thursday.", "Thursday"),
    ("Christmas is on Wednesdays this year", "Wednesday"),
    ("Sundays", "Sunday"),
    ("It's Saturday's date", "Saturday"),
    ("Jan 1 is a Monday, so Christmas is a Wednesday", "Wednesday"),
    ("The answer is Wednesday (since Jan 1 is a Monday).", "Wednesday"),
    ("It is not Monday, it is Tuesday", "Tuesday"),
    ("Tuesday, not Monday", "Tuesday"),
    ("It falls on a Friday rather than a Thursday", "Friday"),
    ("Is it Monday or Tuesday? Counting the days, it is Tuesday.", "Tuesday"),
    ("Mon Tue Wed Thu Fri Sat Sun\n1 2 3 4 5 6 7\nThe answer is Fri", "Friday"),
    ("The week runs Monday, Tuesday, Wednesday and so on; Dec 25 is a Sunday.", "Sunday"),
    ("Final answer: Thursday\n(Thanksgiving is always a Thursday; Friday follows.)", "Thursday"),
    ('{"weekday": "Thu"}', "Thursday"),
    ('{"day": 25, "weekday": "Friday"}', "Friday"),
    ('```json\n{"answer": "sunday"}\n```', "Sunday"),
    ("**Saturday**", "Saturday"),
    (r"\boxed{\text{Tuesday}}", "Tuesday"),
    ("<answer>Monday</answer>", "Monday"),
    ("I sat down and looked at the sun. It is Thursday.", "Thursday"),
    ("c'mon, it's a Sat", "Saturday"),
    ("Sorry for the long reasoning: it is Friday.", "Friday"),
]


@pytest.mark.parametrize(("response", "expected"), WEEKDAY_CASES)
def test_parse_weekday_answer(response: str, expected: str) -> None:
    result = parse_weekday_answer(response)
    assert result == expected
    assert result in WEEKDAYS


def test_enough_weekday_surface_forms() -> None:
    assert len(WEEKDAY_CASES) >= 20


WEEKDAY_NO_ANSWERS: list[tuple[str, str]] = [
    ("", "empty response"),
    ("  ", "empty response"),
    ("I cannot determine the day from this calendar.", "refusal"),
    ("Sorry, I can't tell.", "refusal"),
    ('{"answer": "unknown"}', "refusal"),
    ("The day is 25", "no weekday found"),
    ("monkey", "no weekday found"),
    ("Satisfied", "no weekday found"),
    ("Sunny", "no weekday found"),
    ("satellite", "no weekday found"),
    ("We sat in the sun and they wed in the evening.", "no weekday found"),
    ("Mondayish", "no weekday found"),
    ("Mon Tue Wed Thu Fri Sat Sun", "no weekday found"),
    ("Monday or Tuesday", "ambiguous"),
    ("Final answer: Saturday/Sunday", "ambiguous"),
]


@pytest.mark.parametrize(("response", "reason"), WEEKDAY_NO_ANSWERS)
def test_parse_weekday_no_answer(response: str, reason: str) -> None:
    result = parse_weekday_answer(response)
    assert isinstance(result, NoAnswer), result
    assert result.reason.startswith(reason), result.reason


def test_weekday_mentions_skip_lowercase_english_words() -> None:
    mentions = weekday_mentions("we sat, then Sat. Later fri, finally Sun")
    assert [m.value for m in mentions] == ["Saturday", "Friday", "Sunday"]


def test_extract_weekday_none_without_mentions() -> None:
    assert extract_weekday("no day here") is None
