"""Answer parsers of the Lost in Time suite: a clock reading and a weekday.

Both parsers are the same pipeline (see :mod:`chronoeval.core.parsing`): candidate segments in
priority order (JSON answer, boxed, final-answer line, other JSON strings, whole text); in each
segment every mention is found and the last one is chosen; the first segment with a mention
decides. Nothing is ever clamped, rounded or guessed: an out-of-range reading, a hedge ("10:10 or
2:50") or a refusal is a :class:`NoAnswer` with a reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import (
    Mention,
    Segment,
    candidate_segments,
    drop_enumerations,
    drop_overlaps,
    extract_first,
    is_refusal,
    json_objects,
    marker_segment,
    pick_last_mention,
)
from chronoeval.suites.lost_in_time.answers import WEEKDAYS, ClockTime
from chronoeval.suites.lost_in_time.exact_reply import exact_clock_reply

__all__ = [
    "clock_mentions",
    "extract_clock_time",
    "extract_weekday",
    "parse_clock_answer",
    "parse_weekday_answer",
    "weekday_mentions",
    "word_to_number",
]

# --------------------------------------------------------------------------------------------------
# Number words
# --------------------------------------------------------------------------------------------------

_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = (
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50}
_SMALL = {word: value for value, word in enumerate(("zero", *_UNITS), start=0)}
_SMALL.update({word: value for value, word in enumerate(_TEENS, start=10)})

_UNIT_RE = "|".join(_UNITS)
_TEEN_RE = "|".join(sorted(_TEENS, key=len, reverse=True))
_TENS_RE = "|".join(_TENS)
_COMPOUND_RE = rf"(?:{_TENS_RE})(?:[\s-]?(?:{_UNIT_RE})\b)?"
_OH_RE = rf"(?:oh|o)[\s-](?:{_UNIT_RE})"
_WORD_GE10 = rf"(?:{_COMPOUND_RE}|{_TEEN_RE})"
_WORD_0_59 = rf"(?:{_COMPOUND_RE}|{_TEEN_RE}|{_UNIT_RE}|zero)"
_WORD_HOUR = r"(?:twelve|eleven|ten|one|two|three|four|five|six|seven|eight|nine)"


def word_to_number(word: str) -> int | None:
    """Read a number 0..59 written as digits or English words ("twenty-five", "oh five")."""
    word = re.sub(r"[\s-]+", " ", word.strip().lower())
    if word.isdigit():
        return int(word)
    if word.startswith(("oh ", "o ")):
        rest = word.split(" ", 1)[1]
        return _SMALL[rest] if rest in _UNITS else None
    if word in _SMALL:
        return _SMALL[word]
    parts = word.split(" ")
    if parts[0] in _TENS:
        if len(parts) == 1:
            return _TENS[parts[0]]
        if len(parts) == 2 and parts[1] in _UNITS:
            return _TENS[parts[0]] + _SMALL[parts[1]]
    if len(parts) == 1:  # "twentyfive"
        for tens_word, tens in _TENS.items():
            if word.startswith(tens_word) and word[len(tens_word) :] in _UNITS:
                return tens + _SMALL[word[len(tens_word) :]]
    return None


# --------------------------------------------------------------------------------------------------
# Clock mentions
# --------------------------------------------------------------------------------------------------

_MERIDIEM = r"(?P<mer>[ap]\.?\s?m\.?)(?![a-z])"
_SECONDS_SUFFIX = (
    rf"(?:\s*,?\s*(?:and|with|plus|&)?\s*(?P<sfx>\d{{1,2}}|{_WORD_0_59})\s*(?:seconds?|secs?)\b)"
)
_NUM_OR_WORD_HOUR = rf"(?:\d{{1,2}}|{_WORD_HOUR})"
_NUM_OR_WORD_MIN = rf"(?:\d{{1,2}}|{_WORD_0_59})"

_NUMERIC_RE = re.compile(
    r"(?<![\d$\u20ac\u00a3])(?<!\d[.:])(?P<h>\d{1,2})(?P<sep>[:.])"
    r"(?P<m>\d{2}|\d(?=(?P=sep)\d{2}))"
    r"(?:(?P=sep)(?P<s>\d{2}))?(?!\d|[:.]\d|\s*%)"
    rf"(?:\s*{_MERIDIEM})?{_SECONDS_SUFFIX}?",
    re.IGNORECASE,
)
_RELATIVE_RE = re.compile(
    rf"(?<![\w:.])(?:a\s+)?(?P<min>(?>quarter|half|{_NUM_OR_WORD_MIN}))"
    r"(?P<unit>\s+minutes?)?\s+(?P<dir>past|after|to|before|till|til|of)\s+"
    rf"(?P<h>{_NUM_OR_WORD_HOUR})(?!\w|[:.]\d)"
    rf"(?:\s*o'?\s?clock\b)?(?:\s*{_MERIDIEM})?{_SECONDS_SUFFIX}?",
    re.IGNORECASE,
)
_OCLOCK_RE = re.compile(
    rf"(?<![\w:.])(?P<h>{_NUM_OR_WORD_HOUR})\s*o'?\s?clock\b(?:\s*{_MERIDIEM})?{_SECONDS_SUFFIX}?",
    re.IGNORECASE,
)
_HOUR_MERIDIEM_RE = re.compile(rf"(?<![\w:.])(?P<h>\d{{1,2}})\s*{_MERIDIEM}", re.IGNORECASE)
_WORDS_RE = re.compile(
    rf"(?<![\w-])(?P<h>{_WORD_HOUR})[\s-]+(?P<min>(?>{_WORD_GE10}|{_OH_RE}))\b"
    rf"(?!\s+(?:minutes?|past|after|to|before|till|of|hours?)\b)"
    rf"(?:\s*{_MERIDIEM})?{_SECONDS_SUFFIX}?",
    re.IGNORECASE,
)
_UNITS_RE = re.compile(
    rf"(?<![\w:.])(?P<h>{_NUM_OR_WORD_HOUR})\s*(?:hours?|hrs?|h)(?![a-z])\s*,?\s*"
    rf"(?:and\s+)?(?P<min>{_NUM_OR_WORD_MIN})\s*(?:minutes?|mins?|m)(?![a-z])"
    rf"(?:\s*,?\s*(?:and\s+)?(?P<sfx>{_NUM_OR_WORD_MIN})\s*(?:seconds?|secs?|s)(?![a-z]))?",
    re.IGNORECASE,
)
_LABELLED_RE = re.compile(
    rf"(?<![\w-])(?:hours?|hrs?)\s*[:=]\s*(?P<h>{_NUM_OR_WORD_HOUR})\s*[,;]?\s*(?:and\s+)?"
    rf"(?:minutes?|mins?)\s*[:=]\s*(?P<min>{_NUM_OR_WORD_MIN})(?!\w)"
    rf"(?:\s*[,;]?\s*(?:and\s+)?(?:seconds?|secs?)\s*[:=]\s*(?P<sfx>{_NUM_OR_WORD_MIN})(?!\w))?",
    re.IGNORECASE,
)
_NOON_RE = re.compile(r"(?<![\w:.-])(?:12\s*)?(?P<word>noon|midday|midnight)\b", re.IGNORECASE)
_NOON_EXCLUDED_BEFORE = re.compile(
    r"\b(?:before|after|past|until|till|since|from|than|to|toward|towards)\s+$", re.IGNORECASE
)
_RANGE_BEFORE = re.compile(r"\b(?:from|between)\s+$", re.IGNORECASE)


def _clock_value(
    hour: int | None, minute: int | None, second: int | None, meridiem: bool
) -> ClockTime | NoAnswer:
    """Validate a reading and fold it onto the 12-hour dial (never clamps).

    Without AM/PM the hour may be 0..23 (24-hour: 13..23 -> 1..11, 0 -> 12); with AM/PM it must be
    0..12 (AM/PM carries no information on a 12-hour dial and is dropped). Minutes and seconds must
    be 0..59.
    """
    second = 0 if second is None else second
    if hour is None or minute is None:
        return NoAnswer("unreadable clock value")
    max_hour = 12 if meridiem else 23
    if not (0 <= hour <= max_hour and 0 <= minute <= 59 and 0 <= second <= 59):
        return NoAnswer("out of range (hour > 12 with AM/PM)" if meridiem else "out of range")
    return ClockTime(hour % 12 or 12, minute, second)


def _number(text: str | None) -> int | None:
    """:func:`word_to_number` that passes None through."""
    return None if text is None else word_to_number(text)


def clock_mentions(segment: str) -> list[Mention[ClockTime]]:
    """Every clock-reading-shaped span of a (markup-stripped) segment, in text order.

    Shapes: ``H:MM``, ``H:MM:SS``, ``H.MM``, ``H.MM.SS`` (optional AM/PM, optional "and SS
    seconds"); "ten past ten", "quarter to four", "twenty-five to six", "25 minutes to 6";
    "five o'clock"; "3 PM"; "ten twenty-five", "ten oh five"; "3 hours, 45 minutes and 20 seconds",
    "10h10m30s"; "Hour: 4, Minute: 20, Second: 15"; "noon"/"midnight". Invalid values give a
    NoAnswer mention, except for the dot-separated form, where an out-of-range value is taken to be
    a decimal and skipped.
    """
    mentions: list[Mention[ClockTime]] = []

    def add(match: re.Match[str], value: ClockTime | NoAnswer) -> None:
        if isinstance(value, NoAnswer):  # name the offending span in the reason
            value = NoAnswer(f"{value.reason}: {match.group(0).strip()!r}")
        mentions.append(Mention(match.start(), match.end(), value))

    for match in _NUMERIC_RE.finditer(segment):
        seconds = match["s"] if match["s"] is not None else match["sfx"]
        value = _clock_value(
            int(match["h"]), int(match["m"]), _number(seconds), match["mer"] is not None
        )
        if isinstance(value, NoAnswer) and match["sep"] == ".":
            continue  # "3.75" is a decimal, not a malformed time
        add(match, value)

    for match in _RELATIVE_RE.finditer(segment):
        value = _relative_value(segment, match)
        if value is not None:
            add(match, value)

    for match in _OCLOCK_RE.finditer(segment):
        add(match, _clock_value(_number(match["h"]), 0, _number(match["sfx"]), bool(match["mer"])))

    for match in _HOUR_MERIDIEM_RE.finditer(segment):
        hour = int(match["h"])
        add(match, _clock_value(hour, 0, 0, True) if hour >= 1 else NoAnswer("out of range"))

    for match in _WORDS_RE.finditer(segment):
        add(
            match,
            _clock_value(
                _number(match["h"]),
                _number(match["min"]),
                _number(match["sfx"]),
                bool(match["mer"]),
            ),
        )

    for match in _UNITS_RE.finditer(segment):
        add(
            match,
            _clock_value(_number(match["h"]), _number(match["min"]), _number(match["sfx"]), False),
        )

    for match in _LABELLED_RE.finditer(segment):
        add(
            match,
            _clock_value(_number(match["h"]), _number(match["min"]), _number(match["sfx"]), False),
        )

    for match in _NOON_RE.finditer(segment):
        if not _NOON_EXCLUDED_BEFORE.search(segment[max(0, match.start() - 20) : match.start()]):
            add(match, ClockTime(12, 0, 0))

    return sorted(mentions, key=lambda m: (m.start, -(m.end - m.start)))


def _relative_value(segment: str, match: re.Match[str]) -> ClockTime | NoAnswer | None:
    """Value of a "<minutes> past/to <hour>" match; None when the match is not a time.

    Without the word "minutes" the minute count must be a multiple of five ("ten past", "twenty-five
    to"), which keeps "one to twelve" or "from 10 to 2" from reading as times; "to" forms preceded
    by "from"/"between" are ranges, not times. "half" only goes with past/after, "of" only with
    quarter.
    """
    minute_word = match["min"].lower()
    direction = match["dir"].lower()
    minute = {"quarter": 15, "half": 30}.get(minute_word)
    if minute is None:
        minute = word_to_number(minute_word)
    if minute is None:
        return None
    if minute_word == "half" and direction not in ("past", "after"):
        return None
    if direction == "of" and minute_word != "quarter":
        return None
    if match["unit"] is None and minute_word not in ("quarter", "half") and minute % 5:
        return None
    before = segment[max(0, match.start() - 20) : match.start()]
    if direction not in ("past", "after") and _RANGE_BEFORE.search(before):
        return None
    hour = word_to_number(match["h"])
    if hour is None:
        return None
    meridiem = match["mer"] is not None
    seconds = _number(match["sfx"])
    if not 1 <= minute <= 59:
        return NoAnswer("out of range")
    if direction in ("past", "after"):
        return _clock_value(hour, minute, seconds, meridiem)
    base = _clock_value(hour, 0, 0, meridiem)
    if isinstance(base, NoAnswer):
        return base
    if seconds is not None and not 0 <= seconds <= 59:
        return NoAnswer("out of range")
    previous_hour = base.hour - 1 or 12
    return ClockTime(previous_hour, 60 - minute, seconds or 0)


_TIME_STATEMENT_RE = re.compile(
    r"\b(?:the\s+)?(?:current\s+|exact\s+|approximate\s+)?time\s+"
    r"(?:(?:shown|displayed|indicated|depicted|it\s+shows|on\s+(?:the|this)\s+(?:analog\s+)?"
    r"(?:clock|watch|dial)(?:\s+face)?|in\s+the\s+image)\s+)*(?:is|reads|=)\s*:?"
    r"|\b(?:the\s+)?(?:clock|watch)\s+(?:shows|reads|displays|indicates)\b(?:\s+the\s+time)?\s*:?"
    r"|\b(?:final|time|reading)\s*[:=]"
    # a model's own correction: "However, ... the correct interpretation is **12:15**"
    r"|\bthe\s+correct\s+interpretation\s+is(?!\s+not\b)\s*:?",
    re.IGNORECASE,
)
_CORRECTION_RE = re.compile(
    r"\b(?:wait|actually|correction|on\s+second\s+thought|I\s+misread|let\s+me\s+re-?"
    r"(?:check|examine|read|look|consider)|re-?examin\w*|upon\s+closer)\b",
    re.IGNORECASE,
)


def time_statement_segment(text: str) -> str | None:
    """The sentence after the last "the time (shown on the clock) is" / "the clock reads", unless
    the model corrects itself after it (see :func:`chronoeval.core.parsing.marker_segment`)."""
    return marker_segment(text, _TIME_STATEMENT_RE, _CORRECTION_RE)


def extract_clock_time(segment: str) -> ClockTime | NoAnswer | None:
    """The clock reading a segment settles on (last mention), a NoAnswer, or None if none."""
    return pick_last_mention(segment, clock_mentions(segment))


_HOUR_KEYS = ("hour", "hours", "h", "hh")
_MINUTE_KEYS = ("minute", "minutes", "min", "mins", "m", "mm")
_SECOND_KEYS = ("second", "seconds", "sec", "secs", "s", "ss")


def _component_dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict (recursively) holding both an hour and a minute key."""
    if isinstance(value, dict):
        keys = {str(k).lower() for k in value}
        if keys & set(_HOUR_KEYS) and keys & set(_MINUTE_KEYS):
            yield value
        for item in value.values():
            yield from _component_dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _component_dicts(item)


def _first_present(mapping: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    """The stripped string value of the first of ``keys`` present (and not null) in ``mapping``."""
    for key in keys:
        if mapping.get(key) is not None:
            return str(mapping[key]).strip()
    return None


def json_clock_components(text: str) -> list[str]:
    """``{"hour": 4, "minute": 20, "second": 15}`` -> ``"4:20:15"`` (zero-padded for the extractor).

    A dict whose components are not all 1-2 digit integers is skipped; out-of-range values are kept
    so that the extractor reports them.
    """
    readings: list[str] = []
    for obj in json_objects(text):
        for parts in _component_dicts(obj):
            lowered = {str(k).lower(): v for k, v in parts.items()}
            hour = _first_present(lowered, _HOUR_KEYS)
            minute = _first_present(lowered, _MINUTE_KEYS)
            second = _first_present(lowered, _SECOND_KEYS)
            if hour is None or minute is None:
                continue
            numbers = [x for x in (hour, minute, second) if x is not None]
            if not all(x.isdigit() and len(x) <= 2 for x in numbers):
                continue
            reading = f"{int(hour)}:{int(minute):02d}"
            if second is not None:
                reading += f":{int(second):02d}"
            readings.append(reading)
    return readings


def _refines(later: ClockTime | NoAnswer | None, stated: ClockTime | NoAnswer) -> bool:
    """True when the later reading only adds seconds to a stated ``H:MM`` ("the time is 10:10 …
    the second hand is at 6, so 10:10:30")."""
    return (
        isinstance(later, ClockTime)
        and isinstance(stated, ClockTime)
        and (later.hour, later.minute) == (stated.hour, stated.minute)
        and stated.second == 0
    )


def parse_clock_answer(text: str) -> ClockTime | NoAnswer:
    """Read a model's free-text clock answer as a :class:`ClockTime` or a :class:`NoAnswer`.

    Pipeline: JSON answer values, then JSON ``{"hour", "minute", "second"}`` components, then
    boxed, final-answer line; then the model's last time statement (:func:`time_statement_segment`,
    unless a later reading only adds its seconds), else other JSON strings and the whole text; within a segment the last clock
    mention wins (see :func:`clock_mentions` and :func:`chronoeval.core.parsing.pick_last_mention`).
    Missing seconds read as 0. Reasons: ``empty response``, ``refusal``, ``no clock time found``,
    ``out of range: ...``, ``ambiguous: ...``.
    """
    if not text or not text.strip():
        return NoAnswer("empty response")
    exact = exact_clock_reply(text)  # only a time, as asked: the one reading the steps would find
    if exact is not None:
        return exact
    segments = candidate_segments(text)
    components = [Segment(r, "json", True) for r in json_clock_components(text)]
    n_json = sum(1 for s in segments if s.source == "json")
    segments = segments[:n_json] + components + segments[n_json:]
    explicit = [s for s in segments if s.explicit]
    result = extract_first(explicit, extract_clock_time)
    if result is None:
        rest = extract_first([s for s in segments if not s.explicit], extract_clock_time)
        statement = time_statement_segment(text)
        stated = extract_clock_time(statement) if statement is not None else None
        result = rest if stated is None or _refines(rest, stated) else stated
    if result is None:
        return NoAnswer("refusal" if is_refusal(text) else "no clock time found")
    return result


# --------------------------------------------------------------------------------------------------
# Weekdays
# --------------------------------------------------------------------------------------------------

_FULL_RE = re.compile(
    r"(?<![a-z])(?P<name>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'?s)?(?![a-z])",
    re.IGNORECASE,
)
_ABBREVIATIONS = {
    "mon": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "wed": "Wednesday",
    "weds": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "fri": "Friday",
    "sat": "Saturday",
    "sun": "Sunday",
}
_ENGLISH_WORD_ABBREVIATIONS = frozenset({"mon", "wed", "sat", "sun"})
_ABBREVIATION_RE = re.compile(
    r"(?<![a-z'])(?P<name>" + "|".join(sorted(_ABBREVIATIONS, key=len, reverse=True)) + r")\.?"
    r"(?![a-z'])",
    re.IGNORECASE,
)
_ALONE_RE = re.compile(r"^[\s\"'(\[{:,.!-]*(?P<word>[a-z]+)[\s\"')\]}.,!?;]*$", re.IGNORECASE)


def weekday_mentions(segment: str) -> list[Mention[str]]:
    """Every weekday mention of a (markup-stripped) segment, in text order.

    Full names in any case, also plural/possessive ("Wednesdays", "Monday's"); not inside other
    words ("monkey", "Sunny", "Satisfied", "satellite"). Abbreviations Mon, Tue(s), Wed(s),
    Thu(r)(s), Fri, Sat, Sun with an optional dot; "mon", "wed", "sat", "sun" are also English
    words, so in running text they count only when Capitalised or UPPER-CASE ("Sat" yes, "sat"
    no). Runs of three or more weekdays separated only by punctuation/"and"/"or" are listings
    (a calendar header) and are dropped.
    """
    alone = _ALONE_RE.match(segment)
    if alone and alone["word"].lower() in _ABBREVIATIONS:
        return [
            Mention(alone.start("word"), alone.end("word"), _ABBREVIATIONS[alone["word"].lower()])
        ]
    mentions: list[Mention[str]] = [
        Mention(m.start(), m.end(), m["name"].capitalize()) for m in _FULL_RE.finditer(segment)
    ]
    for match in _ABBREVIATION_RE.finditer(segment):
        word = match["name"]
        if word.lower() in _ENGLISH_WORD_ABBREVIATIONS and not (word.istitle() or word.isupper()):
            continue
        mentions.append(Mention(match.start(), match.end(), _ABBREVIATIONS[word.lower()]))
    ordered = drop_overlaps(mentions)
    return drop_enumerations(segment, ordered)


def extract_weekday(segment: str) -> str | NoAnswer | None:
    """The weekday a segment settles on (last mention), a NoAnswer, or None if none."""
    return pick_last_mention(segment, weekday_mentions(segment))


def parse_weekday_answer(text: str) -> str | NoAnswer:
    """Read a model's free-text weekday answer as a name from ``WEEKDAYS`` or a :class:`NoAnswer`.

    Pipeline: JSON answer values, boxed, final-answer line, other JSON strings, whole text; within
    a segment the last weekday mention wins ("Jan 1 is a Monday, so Christmas is a Wednesday" ->
    Wednesday). Reasons: ``empty response``, ``refusal``, ``no weekday found``, ``ambiguous: ...``.
    """
    if not text or not text.strip():
        return NoAnswer("empty response")
    result = extract_first(candidate_segments(text), extract_weekday)
    if result is None:
        return NoAnswer("refusal" if is_refusal(text) else "no weekday found")
    assert isinstance(result, NoAnswer) or result in WEEKDAYS
    return result
