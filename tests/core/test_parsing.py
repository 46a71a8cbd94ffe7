"""Tests of the suite-independent answer-extraction steps."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import (
    JsonNumber,
    Mention,
    Segment,
    boxed_contents,
    candidate_segments,
    drop_enumerations,
    drop_overlaps,
    extract_first,
    final_answer_segment,
    in_brackets,
    is_negated,
    is_refusal,
    json_objects,
    json_values,
    normalize_unicode,
    pick_last_mention,
    strip_markup,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("**4:20:15**", "4:20:15"),
        ("*Wednesday*", "Wednesday"),
        ("__Monday__", "Monday"),
        ("~~2:50~~ 10:10", "2:50 10:10"),
        ("`10:10`", "10:10"),
        ("```\n10:10:30\n```", "10:10:30"),
        ("```json\n{}\n```", "{}"),
        ("### Final Answer\n7:05", "Final Answer\n7:05"),
        ("> quoted 3:45", "quoted 3:45"),
        ("- 3:45", "3:45"),
        (r"\boxed{4:20:15}", "4:20:15"),
        (r"\boxed{\text{4:20:15}}", "4:20:15"),
        (r"\(\text{Wednesday}\)", "Wednesday"),
        (r"\[ \mathrm{10{:}10} \]", "10:10"),
        (r"$10\!:\!10$", "10:10"),
        ("$10.50", "$10.50"),
        ("<answer>8:07:45</answer>", "8:07:45"),
        ("<b>Friday</b><br>done", "Friday\ndone"),
        ("it&#39;s 3 &amp; 4", "it's 3 & 4"),
        ("\u201cWednesday\u201d", '"Wednesday"'),
        ("o\u2019clock", "o'clock"),
        ("twenty\u2013five", "twenty-five"),
        ("4\uff1a20\uff1a15", "4:20:15"),
        ("\uff11\uff10:\uff11\uff10", "10:10"),
        ("a\u00a0b", "a b"),
        ("  lots   of\t\tspace \n\n\n next ", "lots of space\nnext"),
        ("final_answer stays", "final_answer stays"),
        ("", ""),
    ],
)
def test_strip_markup(raw: str, expected: str) -> None:
    assert strip_markup(raw) == expected


def test_normalize_unicode_maps_ratio_colon_and_quotes() -> None:
    assert normalize_unicode("10\u223610 \u2018x\u2019") == "10:10 'x'"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"time": "4:20:15"}', ["4:20:15"]),
        ('```json\n{"answer": "Monday"}\n```', ["Monday"]),
        ('Sure! {"reasoning": "x", "weekday": "Friday"} done', ["Friday", "x"]),
        ('{"time": 10.10}', ["10.10"]),
        ('{"Final Answer": "Mon", "confidence": 0.15, "notes": "Tue"}', ["Mon", "Tue"]),
        ('{"day": 25, "weekday": "Wed"}', ["Wed", "25"]),
        ('{"answer": {"time": "1:02:03"}}', ["1:02:03"]),
        ('{"answer": ["Monday"]}', ["Monday"]),
        ('["Sunday"]', ["Sunday"]),
        ("{'time': '4:20:15'}", ["4:20:15"]),
        ("{\u201ctime\u201d: \u201c4:20\u201d}", ["4:20"]),
        ('{"answer": null, "ok": true}', []),
        ("no json {here} or [there]", []),
        (r"\boxed{4:20}", []),
    ],
)
def test_json_values(raw: str, expected: list[str]) -> None:
    assert json_values(raw) == expected


def test_json_values_without_other_keys() -> None:
    raw = '{"reasoning": "maybe 2:50", "time": "10:10"}'
    assert json_values(raw, include_other=False) == ["10:10"]


def test_json_objects_keep_number_spelling() -> None:
    assert json_objects('{"minute": 05}') == []  # leading zero: not JSON, not a Python literal
    objs = json_objects('{"hour": 4, "minute": 20} and {"a": 1.50}')
    assert objs == [{"hour": "4", "minute": "20"}, {"a": "1.50"}]
    assert isinstance(objs[1]["a"], JsonNumber)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"\boxed{4:20}", ["4:20"]),
        (r"first \boxed{1:00} then \boxed{\text{2:00}}", ["1:00", r"\text{2:00}"]),
        (r"\fbox{Monday}", ["Monday"]),
        (r"\boxed{unclosed", []),
        ("nothing", []),
    ],
)
def test_boxed_contents(raw: str, expected: list[str]) -> None:
    assert boxed_contents(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Final answer: 7:05:00", "7:05:00"),
        ("I see 10:10.\nFinal Answer: 7:05:00\nNote: 12:30 was a guess", "7:05:00"),
        ("Answer: Wednesday", "Wednesday"),
        ("**Answer:** Wednesday", "Wednesday"),
        ("**Answer**\n\nWednesday", "Wednesday"),
        ("### Final Answer\n3:45:20", "3:45:20"),
        ("The answer is Friday.", "Friday."),
        ("The correct answer would be: Friday", "Friday"),
        ("The final answer is 3:45", "3:45"),
        ("Answer: 1:00. Then answer: 2:00", "2:00"),
        ("Final answer: 7:05:00. Earlier I wrote 8:05.", "7:05:00."),
        ("Answer: Approx. 3:45 p.m. (hour hand near 4)", "Approx. 3:45 p.m. (hour hand near 4)"),
        ("Therefore, the time is 3:45.", "the time is 3:45."),
        ("Answer: 9:00\nTherefore, 3:45", "9:00"),
        (r"I think 2:50. \boxed{4:20:15}", "4:20:15"),
        (r"\boxed{1} then \boxed{\text{Sunday}}", "Sunday"),
        ("Just 3:45", None),
        ("Final answer:", None),
    ],
)
def test_final_answer_segment(raw: str, expected: str | None) -> None:
    assert final_answer_segment(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   \n ",
        "I can't determine the time from this image.",
        "I cannot tell what time it is.",
        "I'm unable to read the clock.",
        "It is not possible to read the clock.",
        "Sorry, the image is too blurry.",
        "I apologize, but I cannot accurately determine the time.",
        "I don\u2019t know.",
        "The hands are not visible.",
        "N/A",
        "unknown",
        "As an AI, I have no eyes.",
    ],
)
def test_is_refusal_true(raw: str) -> None:
    assert is_refusal(raw)


@pytest.mark.parametrize(
    "raw",
    ["The time is 3:45.", "Wednesday", "I can see the clock clearly: 10:10", "Unknown-free text"],
)
def test_is_refusal_false(raw: str) -> None:
    assert not is_refusal(raw)


def test_candidate_segments_priority_order() -> None:
    raw = '```json\n{"answer": "9:05:07", "reason": "x 10:10"}\n```\nFinal answer: 9:05'
    segments = candidate_segments(raw)
    assert [s.source for s in segments] == ["json", "final_answer", "json_other", "full_text"]
    assert segments[0] == Segment("9:05:07", "json", True)
    assert segments[1].text == "9:05"
    assert segments[2] == Segment("x 10:10", "json_other", False)


def test_candidate_segments_boxed_last_first_and_no_marker_segment() -> None:
    segments = candidate_segments(r"Answer: \boxed{1:00} or rather \boxed{2:00}")
    assert [(s.source, s.text) for s in segments[:2]] == [("boxed", "2:00"), ("boxed", "1:00")]
    assert "final_answer" not in [s.source for s in segments]


def test_candidate_segments_plain_text_is_one_segment() -> None:
    assert candidate_segments("**It is 3:45**") == [Segment("It is 3:45", "full_text", False)]


def test_drop_overlaps_keeps_earliest_longest() -> None:
    mentions = [Mention(0, 4, "a"), Mention(0, 8, "b"), Mention(5, 7, "c"), Mention(9, 10, "d")]
    assert drop_overlaps(mentions) == [Mention(0, 8, "b"), Mention(9, 10, "d")]


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("it is not 2:50", "2:50", True),
        ("it isn't Monday", "Monday", True),
        ("Tuesday rather than Monday", "Monday", True),
        ("it was not on a Friday", "Friday", True),
        ("it is 2:50", "2:50", False),
        ("nothing but Monday", "Monday", False),
    ],
)
def test_is_negated(text: str, word: str, expected: bool) -> None:
    assert is_negated(text, text.index(word)) is expected


def test_in_brackets() -> None:
    text = "Wednesday (Jan 1 is a Monday) [see Friday] Sunday"
    assert not in_brackets(text, text.index("Wednesday"))
    assert in_brackets(text, text.index("Monday"))
    assert in_brackets(text, text.index("Friday"))
    assert not in_brackets(text, text.index("Sunday"))


def _mentions(text: str, words: list[str]) -> list[Mention[str]]:
    """Mentions of each word (first occurrence after the previous one), value = the word."""
    found: list[Mention[str]] = []
    position = 0
    for word in words:
        start = text.index(word, position)
        found.append(Mention(start, start + len(word), word))
        position = start + len(word)
    return found


def test_drop_enumerations() -> None:
    text = "Mon, Tue, Wed and Thu. So it is Fri"
    mentions = _mentions(text, ["Mon", "Tue", "Wed", "Thu", "Fri"])
    assert [m.value for m in drop_enumerations(text, mentions)] == ["Fri"]
    text = "Mon or Tue"
    assert len(drop_enumerations(text, _mentions(text, ["Mon", "Tue"]))) == 2


@pytest.mark.parametrize(
    ("text", "words", "expected"),
    [
        ("first A then B", ["A", "B"], "B"),
        ("it is B, not A", ["B", "A"], "B"),
        ("B (because A)", ["B", "A"], "B"),
        ("(only A)", ["A"], "A"),
        ("A or B", ["A", "B"], NoAnswer("ambiguous: 'A' or 'B'")),
        ("A / B", ["A", "B"], NoAnswer("ambiguous: 'A' or 'B'")),
        ("between A and B", ["A", "B"], NoAnswer("ambiguous: 'A' or 'B'")),
        ("A and B", ["A", "B"], "B"),
        ("A or A", ["A", "A"], "A"),
        ("nothing", [], None),
        ("not A", ["A"], None),
    ],
)
def test_pick_last_mention(text: str, words: list[str], expected: object) -> None:
    assert pick_last_mention(text, _mentions(text, words)) == expected


def _upper_word(segment: str) -> str | None:
    """Toy extractor: the last all-caps word of a segment."""
    words = [w for w in segment.split() if w.isupper() and w.isalpha()]
    return words[-1] if words else None


def test_extract_first_first_hit_wins() -> None:
    segments = [Segment("no caps", "json", True), Segment("X Y", "full_text", False)]
    assert extract_first(segments, _upper_word) == "Y"


def test_extract_first_explicit_refusal_stops() -> None:
    segments = [Segment("we cannot tell", "final_answer", True), Segment("X", "full_text", False)]
    assert extract_first(segments, _upper_word) == NoAnswer("refusal (final_answer)")


def test_extract_first_nothing() -> None:
    assert extract_first([Segment("none", "full_text", False)], _upper_word) is None
