"""Answer parsers on answers written the way models write them."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.suites.timepercept.parsing import (
    parse_bool,
    parse_index,
    parse_letter,
    parse_permutation,
)
from chronoeval.suites.timepercept.samplers import ICE_LABELS


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("True", True),
        ("false.", False),
        ('{"answer": "False", "reasoning": "the roads appear later"}', False),
        ("Looking at the buildings, the development grows. Answer: True", True),
        ("**False** — image 3 shows fewer buildings than image 2.", False),
        ("The sequence is not chronological.", False),
        ("Yes", True),
    ],
)
def test_bool(text: str, want: bool) -> None:
    assert parse_bool(text) is want


def test_bool_unreadable() -> None:
    assert isinstance(parse_bool("I cannot tell from these images."), NoAnswer)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("3", 3),
        ("Image 4", 4),
        ("The anomalous image is the second image.", 2),
        ("Comparing images 1 to 5, the anomaly is image 5.", 5),
        ("{'Answer': 1}", 1),
    ],
)
def test_index(text: str, want: int) -> None:
    assert parse_index(text, 5) == want


def test_index_out_of_range_is_no_answer() -> None:
    assert isinstance(parse_index("Image 7", 5), NoAnswer)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("C", "C"),
        ("(B)", "B"),
        ("Answer: D. 1-2 Years (366-730 days)", "D"),
        ("The interval is about 1-3 Months (31-90 days).", "B"),
        ("Group A has the longest span.", "A"),
    ],
)
def test_letter(text: str, want: str) -> None:
    assert parse_letter(text, "ABCDE", ICE_LABELS) == want


@pytest.mark.parametrize(
    ("text", "labels", "want"),
    [
        ("2, 4, 1, 5, 3", "12345", list("24153")),
        ("Image 3 -> Image 1 -> Image 5 -> Image 2 -> Image 4", "12345", list("31524")),
        ("The order is [2, 1, 3, 5, 4].", "12345", list("21354")),
        ("B < A < C", "ABC", list("BAC")),
        ("Shortest to longest: Group C, Group A, Group B", "ABC", list("CAB")),
        ("1, 1, 3, 4, 5", "12345", list("11345")),  # returned as written; scored invalid
    ],
)
def test_permutation(text: str, labels: str, want: list[str]) -> None:
    assert parse_permutation(text, list(labels)) == want


def test_permutation_unreadable() -> None:
    assert isinstance(parse_permutation("They all look the same.", list("12345")), NoAnswer)
