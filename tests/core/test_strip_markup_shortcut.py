"""strip_markup's plain-text shortcut gives exactly what its full chain of steps gives."""

from __future__ import annotations

import random
import string

from chronoeval.core.parsing import _MARKUP_CHARS, _strip_markup_steps, strip_markup
from helpers import real_reply_texts

REPLIES = [
    "10:10:00",
    "The time shown is 3:45.",
    "Looking at the clock, the hour hand is near 4 and the minute hand points at 9.\n\nSo 3:45:12",
    "  Answer:\t 7 : 05 \n\n\n  PM  ",
    "It is a quarter past ten (10:15). Final answer: 10:15:00",
    "I cannot tell the time from this image.",
    '{"answer": "10:10"}',
    "**10:10**",
    "- 10:10\n> quoted",
    "\\boxed{10:10}",
    "$10:10$ and 10{:}10",
    "<answer>3:45</answer> &amp;",
    "\u201cten past ten\u201d \u2013 10:10",
    "line one\x0bline two\x0cthree\r\nfour\u2028five",
]


def test_the_shortcut_equals_the_full_steps_on_replies() -> None:
    for text in REPLIES:
        assert strip_markup(text) == _strip_markup_steps(text), text


def test_the_shortcut_equals_the_full_steps_on_random_text() -> None:
    rng = random.Random(0)
    alphabet = string.printable + "\u00a0\u2013\u201c"
    plain = "".join(c for c in string.printable if c not in _MARKUP_CHARS)
    for n in range(3000):
        chars = plain if n % 2 else alphabet
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 60)))
        assert strip_markup(text) == _strip_markup_steps(text), repr(text)


def test_the_shortcut_is_taken_only_for_plain_ascii() -> None:
    assert strip_markup("**10:10**") == "10:10"
    assert strip_markup("10:10\u00a0PM") == "10:10 PM"


def test_the_shortcut_equals_the_full_steps_on_the_reply_corpus_and_released_text() -> None:
    """Every reply of tests/reply_corpus, and every string of MINED's released data (questions
    and answers written by its authors, read in place; skipped where the peers are absent)."""
    texts = real_reply_texts()
    plain = 0
    for text in texts:
        assert strip_markup(text) == _strip_markup_steps(text), repr(text)
        plain += text.isascii() and not _MARKUP_CHARS.intersection(text)
    assert plain > 0  # the shortcut was taken on some of them
