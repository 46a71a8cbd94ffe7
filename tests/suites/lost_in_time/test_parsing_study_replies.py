"""ClockQA's reply parser on GPT-4o's real replies, released by a clock-reading study
(github.com/aMa2210/LLM_analog_clocks: Excel sheets of GPT-4o's answers to "What time is shown on
the clock in the given image?", each with the study's own extraction of the time).

Nothing here was written the way we imagine models write: the quoted replies are GPT-4o's,
verbatim, chosen where the parser's rule (the model's last time statement, a self-correction
included) and the study's (the first time in the reply) part. The whole comparison (1,200 replies)
runs when ``CHRONOEVAL_STUDY_CLOCKS`` names a checkout of the study (see
``benchmarks/study_clocks.py``); docs/suites/lost_in_time.md records it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.parsing import parse_clock_answer

# (reply, the study's extraction, what the parser reads) — GPT-4o's replies, verbatim
GPT4O_REPLIES: list[tuple[str, str, str]] = [
    # the plain case: one bold time after "The time shown on the clock is"
    ("The time shown on the clock is **11:48:27**.", "11:48:27", "11:48:27"),
    ("The time shown on the clock is approximately 10:10.", "10:10", "10:10:00"),
    (
        "The time shown on the clock is **1:02:23**. \n\n- The hour hand is slightly past 1.\n"
        "- The minute hand is on the 2nd minute mark.\n- The second hand is pointing at the 23rd "
        "second mark.",
        "1:02:23",
        "1:02:23",
    ),
    # a single-digit minute
    (
        "The time shown on the clock is **9:7:36**. \n\n- The hour hand is pointing at 9.\n"
        "- The minute hand is pointing slightly past 1, which represents 7 minutes.\n"
        "- The second hand is pointing at 6, which represents 36 seconds.",
        "9:7:36",
        "9:07:36",
    ),
    # the model restates a different time at the end: its last statement is its answer
    (
        "The time shown on the clock is **4:31:07**. \n\n- The hour hand is pointing slightly "
        "past 4.\n- The minute hand is pointing at 6, which represents 30 minutes.\n- The second "
        "hand is pointing at 2, which represents 10 seconds. \n\nSo the exact time is "
        "approximately **4:30:10**.",
        "4:31:07",
        "4:30:10",
    ),
    (
        "The time shown on the clock is **2:42**. \n\n- The red minute hand is pointing at the 2, "
        "which represents the 10th minute mark (2 × 5 = 10).\n- The black hour hand is between "
        "the 8 and 9, closer to 9, indicating it's 42 minutes past 8. \n\nSo, the time is **8:42**.",
        "2:42",
        "8:42:00",
    ),
    (
        "The time shown on the clock is **6:15**.\n\n- The hour hand (in red) is pointing at 9.\n"
        "- The minute hand (in black) is pointing at 3, which represents 15 minutes.\n\nHowever, "
        "since the hour hand is still pointing directly at 9 and not between 9 and 10, and the "
        "minute hand is at 15 minutes, the correct interpretation is **9:15**. \n\nApologies for "
        "the confusion — the correct time is **9:15**.",
        "6:15",
        "9:15:00",
    ),
    # an impossible reading, its "equivalent", then a correction without the word "time"
    # (read 12:00 before "the correct interpretation is" was a time statement)
    (
        "The time shown on the clock is **11:60**, which is equivalent to **12:00**. The hour "
        "hand is pointing at 12, and the minute hand is pointing at 3, which represents 15 "
        "minutes. However, based on the position of the hands, the correct interpretation is "
        "**12:15**.",
        "11:60",
        "12:15:00",
    ),
]


@pytest.mark.parametrize(("reply", "study", "expected"), GPT4O_REPLIES)
def test_gpt4o_replies(reply: str, study: str, expected: str) -> None:
    got = parse_clock_answer(reply)
    assert isinstance(got, ClockTime), got
    assert str(got) == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # a hypothetical or a negation is not the model's answer (review of session 4)
        (
            "The clock shows 10:10. If the hour and minute hands were swapped, the correct "
            "reading would be 2:50.",
            "10:10:00",
        ),
        (
            "The time shown on the clock is 3:45. A common mistake is 4:45; the correct answer "
            "is not 4:45.",
            "3:45:00",
        ),
        ("The time is 3:45, and the correct interpretation is not 4:45.", "3:45:00"),
    ],
)
def test_only_a_stated_correction_is_an_answer(reply: str, expected: str) -> None:
    assert str(parse_clock_answer(reply)) == expected


def _study_checkout() -> Path | None:
    where = os.environ.get("CHRONOEVAL_STUDY_CLOCKS")
    return Path(where) if where and Path(where, "README.md").exists() else None


@pytest.mark.skipif(_study_checkout() is None, reason="CHRONOEVAL_STUDY_CLOCKS: no study checkout")
def test_the_whole_release_agrees_with_the_study_but_where_documented() -> None:
    pytest.importorskip("openpyxl")
    bench = Path(__file__).parents[3] / "benchmarks" / "study_clocks.py"
    spec = importlib.util.spec_from_file_location("study_clocks", bench)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["study_clocks"] = module
    spec.loader.exec_module(module)
    repo = _study_checkout()
    assert repo is not None
    quoted = {reply for reply, _, _ in GPT4O_REPLIES}
    n = 0
    for sheet in module.reply_sheets(repo):
        for _truth, reply, extracted in module.reply_rows(sheet):
            n += 1
            got = parse_clock_answer(reply)
            ours = (got.hour, got.minute) if isinstance(got, ClockTime) else None
            theirs = module._clock(extracted)
            if ours != (theirs[:2] if theirs else None):
                assert reply in quoted, f"{sheet.name}: {reply!r}: parser {got}, study {extracted}"
    assert n == 1200
