"""The exact-format shortcut of the clock reader gives what the full reader gives, wherever it is
taken: on a grid of every value and padding, on replies written the way real models write, and
on the released MINED strings (text by other authors)."""

from __future__ import annotations

import json
import random

import pytest

from chronoeval.suites.lost_in_time import parsing
from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.exact_reply import exact_clock_reply
from helpers import REPLY_CORPUS, real_reply_texts


def full_reader(text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """parse_clock_answer with the shortcut switched off: the whole chain of steps."""
    with monkeypatch.context() as m:
        m.setattr(parsing, "exact_clock_reply", lambda _text: None)
        return parsing.parse_clock_answer(text)


REPLIES = [
    "10:10:00",
    "10:10:00.",
    " 3:45\n",
    "03:07:09",
    "0:00:00",
    "00:30",
    "12:00:00",
    "13:05:59",
    "23:59:59",
    "24:00:00",
    "10:60:00",
    "10:10:60",
    "99:99",
    "7:5",
    "7:5:00",
    "10:10:00 AM",
    "10:10 pm",
    "10:10:00..",
    "10:10:00!",
    "**10:10:00**",
    "`10:10:00`",
    "10.10.00",
    "10:10:00:00",
    "10:10:0",
    "1:2:3",
    "\u0661\u0660:\u0661\u0660",  # Arabic-Indic digits
    "10:10\u00a0",
    "\t10:10:00\r\n",
    "Answer: 10:10:00",
    "10:10:00\n\nThe hour hand points at 10.",
    '{"time": "10:10:00"}',
    "",
    "   ",
]


def test_the_shortcut_equals_the_full_reader_on_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = 0
    for text in REPLIES:
        full = full_reader(text, monkeypatch)
        fast = exact_clock_reply(text)
        if fast is not None:
            taken += 1
            assert fast == full, text
        assert parsing.parse_clock_answer(text) == full, text
    assert taken >= 8


def test_the_shortcut_equals_the_full_reader_on_a_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hour 0..25 and a spread of minutes/seconds, with and without padding and seconds."""
    rng = random.Random(0)
    for hour in range(26):
        for minute in (0, 5, 9, 10, 30, 59, 60, 75):
            for second in (None, 0, 7, 59, 60):
                for h in {str(hour), f"{hour:02d}"}:
                    text = f"{h}:{minute:02d}" + ("" if second is None else f":{second:02d}")
                    text = rng.choice(["", " ", "\n"]) + text + rng.choice(["", ".", " \n"])
                    fast = exact_clock_reply(text)
                    full = full_reader(text, monkeypatch)
                    if fast is not None:
                        assert fast == full, text
                    assert parsing.parse_clock_answer(text) == full, text
    assert exact_clock_reply("7:05") == ClockTime(7, 5, 0)
    assert exact_clock_reply("13:05:59") == ClockTime(1, 5, 59)
    assert exact_clock_reply("24:00") is None  # out of range: the full reader names it


def test_the_shortcut_equals_the_full_reader_on_the_corpus_and_released_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every reply of tests/reply_corpus (every task's replies are clock-reader input too), and
    every string of MINED's released data (skipped where the peers are absent)."""
    texts = real_reply_texts()
    taken = 0
    for text in texts:
        fast = exact_clock_reply(text)
        if fast is not None:
            taken += 1
            assert fast == full_reader(text, monkeypatch), repr(text)
    assert taken >= 3  # the corpus's terse replies take the shortcut
    # the corpus's own expectations still hold through the shortcut
    for line in (REPLY_CORPUS / "clockqa.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        got = parsing.parse_clock_answer(case["reply"])
        assert (str(got) if isinstance(got, ClockTime) else "NoAnswer") == case["expected"], case
