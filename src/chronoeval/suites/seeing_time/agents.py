"""Reference agents for the synthetic scenes: they see the prompt text and the pixels only.

Each reads every image with :func:`read_scene` (palette → year in colour; antenna bars → era in
grayscale) and answers in the task's requested format. ``shortcut_agent`` is honest: a grey image
only tells its era, and it compares best estimates. ``gray_prior_agent`` is the paper's shortcut
made explicit — when exactly one image is grey it calls that one older — so the tests can show that
Δ = ACC_1 − ACC_2 exposes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from chronoeval.core.items import ImagePart, Message
from chronoeval.suites.seeing_time.collection import GAMES_FIRST
from chronoeval.suites.seeing_time.eras import DYNASTY_BY_KEY, dynasty_of_year
from chronoeval.suites.seeing_time.reader import Reading, read_scene

Reader = Callable[[str], bytes]


def _readings(messages: Sequence[Message], read_image: Reader) -> list[Reading]:
    return [
        read_scene(read_image(p.path))
        for m in messages
        for p in m.content
        if isinstance(p, ImagePart)
    ]


def _text(messages: Sequence[Message]) -> str:
    return "\n".join(m.text for m in messages)


def localization_agent(messages: Sequence[Message], read_image: Reader) -> str:
    (r,) = _readings(messages, read_image)[:1]
    options = re.findall(r"^([A-Z])\. (.+)$", _text(messages), flags=re.MULTILINE)
    key = dynasty_of_year(r.year) if r.year is not None else None
    for letter, text in options:
        if key and key in DYNASTY_BY_KEY and f"({key} Dynasty)" in text:
            return f"{letter}. {text}"
    return "I cannot tell the period of this item."


def sort_agent(messages: Sequence[Message], read_image: Reader) -> str:
    rs = _readings(messages, read_image)
    if any(r.year is None for r in rs):
        return '{"ans": "unknown"}'
    order = sorted(range(len(rs)), key=lambda i: (rs[i].year, i))
    return json.dumps(
        {
            "thought": "ordered by the era each piece's style shows",
            "ans": ", ".join(map(str, order)),
        }
    )


def _earlier(a: Reading, b: Reading) -> str:
    if a.year is None or b.year is None:
        return "1"
    return "1" if a.year <= b.year else "2"


def shortcut_agent(messages: Sequence[Message], read_image: Reader) -> str:
    a, b = _readings(messages, read_image)[:2]
    return json.dumps(
        {"thinking": f"estimated years {a.year} and {b.year}", "answer": _earlier(a, b)}
    )


def gray_prior_agent(messages: Sequence[Message], read_image: Reader) -> str:
    """The 'grayscale means old' shortcut: a lone grey image is called the earlier one."""
    a, b = _readings(messages, read_image)[:2]
    if a.gray != b.gray:
        return json.dumps(
            {"thinking": "the black-and-white photo looks older", "answer": "1" if a.gray else "2"}
        )
    return shortcut_agent(messages, read_image)


def year_agent(messages: Sequence[Message], read_image: Reader) -> str:
    (r,) = _readings(messages, read_image)[:1]
    return str(r.year) if r.year is not None else "I cannot date this image."


def year_confidence_agent(messages: Sequence[Message], read_image: Reader) -> str:
    (r,) = _readings(messages, read_image)[:1]
    if r.year is None:
        return json.dumps({"year": None, "confidence": 0})
    return json.dumps({"year": r.year, "confidence": 40 if r.gray else 97})


_EDITION = re.compile(r"\b(\d+)(?:st|nd|rd|th) Chronoeval Games\b")


def alignment_agent(messages: Sequence[Message], read_image: Reader) -> str:
    m = _EDITION.search(_text(messages))
    rs = _readings(messages, read_image)
    if not m or any(r.year is None for r in rs):
        return "I cannot tell."
    year = GAMES_FIRST - 1 + int(m[1])
    best = min(range(len(rs)), key=lambda i: (abs((rs[i].year or 0) - year), i))
    return str(best + 1)
