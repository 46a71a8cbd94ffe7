"""Answer extraction for TimePerceptBench: indices, True/False, letters, permutations of image
numbers and of group letters, as models write them.

Each parser runs the core pipeline (:func:`chronoeval.core.parsing.candidate_segments` →
extractor → :func:`extract_first`): JSON answer values, boxed answers and "final answer" segments
first, then the whole text, where the last mention wins. A long free-text segment yields a bare
number or letter only in an explicit phrase ("image 3", "answer: B", "(C)"), never from the
reasoning's incidental numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import (
    Mention,
    candidate_segments,
    extract_first,
    is_negated,
    pick_last_mention,
)

SHORT = 24
"""A segment at most this long may be a bare answer ("3", "B", "True")."""

_WORD_NUM = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}


def _finish(result: object) -> object:
    return NoAnswer("no answer found") if result is None else result


# -- True / False --------------------------------------------------------------------------------
_BOOL_RE = re.compile(r"\b(true|false|yes|no|correct|incorrect)\b", re.IGNORECASE)
_BOOL_VALUE = {
    "true": True,
    "yes": True,
    "correct": True,
    "false": False,
    "no": False,
    "incorrect": False,
}
_CHRONO_RE = re.compile(r"\b(not|n't|never)?\s*(?:in\s+)?(?:a\s+)?(chronological)\b", re.IGNORECASE)


_LEADING_VERDICT = re.compile(r"^\W*(yes|no)(?:\s*[,.!:;]|\s+-)", re.IGNORECASE)


def _bool_extract(text: str) -> bool | NoAnswer | None:
    mentions = []
    for m in _BOOL_RE.finditer(text):
        word = m.group(1).lower()
        if word == "no" and len(text) > SHORT:
            continue  # "no" in prose is rarely the verdict ("no change", "no clouds")
        mentions.append(Mention(m.start(), m.end(), _BOOL_VALUE[word]))
    if len(text) > SHORT:
        firm = [m for m in mentions if text[m.start : m.end].lower() in ("true", "false")]
        mentions = firm or mentions
        lead = _LEADING_VERDICT.match(text)
        if not mentions and lead:  # "No — image 1 was taken after image 2."
            return lead.group(1).lower() == "yes"
    if mentions:
        return pick_last_mention(text, mentions)
    chrono = list(_CHRONO_RE.finditer(text))
    if chrono:  # "the order is (not) chronological" as the verdict; the last statement wins
        return chrono[-1].group(1) is None and not is_negated(text, chrono[-1].start(2))
    return None


def parse_bool(text: str) -> bool | NoAnswer:
    return _finish(extract_first(candidate_segments(text), _bool_extract))  # type: ignore[return-value]


# -- one index (1..k) --------------------------------------------------------------------------------
def _index_extract(k: int, nouns: str) -> object:
    explicit = re.compile(
        rf"\b(?:{nouns}|answer(?: is)?|index)\s*(?:#|no\.?|number)?\s*[:=]?\s*\(?([1-9])\)?\b"
        rf"|\b(first|second|third|fourth|fifth|sixth)\s+(?:{nouns})\b",
        re.IGNORECASE,
    )
    bare = re.compile(r"^\W*([1-9])\W*$")

    def extract(text: str) -> int | NoAnswer | None:
        mentions = []
        for m in explicit.finditer(text):
            v = int(m.group(1)) if m.group(1) else _WORD_NUM[m.group(2).lower()]
            mentions.append(
                Mention(
                    m.start(),
                    m.end(),
                    v if 1 <= v <= k else NoAnswer(f"index {v} out of range 1-{k}"),
                )
            )
        if not mentions:
            b = bare.match(text)
            if b:
                v = int(b.group(1))
                return v if 1 <= v <= k else NoAnswer(f"index {v} out of range 1-{k}")
            return None
        return pick_last_mention(text, mentions)

    return extract


def parse_index(text: str, k: int, nouns: str = "image|position|picture|frame") -> int | NoAnswer:
    return _finish(extract_first(candidate_segments(text), _index_extract(k, nouns)))  # type: ignore[return-value]


# -- one letter ----------------------------------------------------------------------------------
def _letter_extract(letters: str, labels: Sequence[str]) -> object:
    cls = f"[{letters}]"
    keyworded = re.compile(
        rf"\b(?:option|choice|group|pair|answer(?: is)?|category)\s*[:=]?\s*\(?({cls})\)?(?![\w-])",
        re.IGNORECASE,
    )
    marked = re.compile(
        rf"\(({cls})\)|^\s*({cls})[.):](?:\s|$)|(?<![\w'])({cls})\.(?:\s|$)", re.MULTILINE
    )
    bare = re.compile(rf"^\W*({cls})\W*$", re.IGNORECASE)

    def extract(text: str) -> str | NoAnswer | None:
        mentions = [
            Mention(m.start(), m.end(), m.group(1).upper()) for m in keyworded.finditer(text)
        ]
        mentions += [
            Mention(m.start(), m.end(), next(g for g in m.groups() if g))
            for m in marked.finditer(text)
        ]
        if mentions:
            return pick_last_mention(text, mentions)
        b = bare.match(text)
        if b:
            return b.group(1).upper()
        low = text.lower()
        hits = [(low.rfind(lab.lower()), chr(65 + i)) for i, lab in enumerate(labels) if lab]
        hits = [h for h in hits if h[0] >= 0]
        if hits:
            return max(hits)[1]
        return None

    return extract


def parse_letter(text: str, letters: str, labels: Sequence[str] = ()) -> str | NoAnswer:
    """One of ``letters`` (e.g. "ABCDE"); ``labels``: the options' texts, matched when no letter
    is written (the last option text mentioned wins)."""
    return _finish(extract_first(candidate_segments(text), _letter_extract(letters, labels)))  # type: ignore[return-value]


# -- permutations ------------------------------------------------------------------------------
_SEP = r"\s*(?:,|;|->|→|=>|>|<|\bthen\b|\band\b|\s)\s*"


def _perm_extract(tokens: str, k: int, prefix: str) -> object:
    tok = rf"(?:{prefix}\s*)?({tokens})"
    run = re.compile(rf"(?<![\w]){tok}(?:{_SEP}{tok}){{1,{k + 3}}}(?![\w])", re.IGNORECASE)
    one = re.compile(tok, re.IGNORECASE)

    def extract(text: str) -> list[str] | NoAnswer | None:
        mentions = []
        for m in run.finditer(text):
            seq = [t.group(1).upper() for t in one.finditer(m.group(0))]
            mentions.append(Mention(m.start(), m.end(), seq))
        if not mentions:
            return None
        seq = mentions[-1].value
        return seq  # validity (length, duplicates, range) is the task's scorer's business

    return extract


def parse_permutation(text: str, labels: Sequence[str]) -> list[str] | NoAnswer:
    """The last run of ≥ 2 labels (digits or letters) separated by commas, arrows, ``<``/``>`` or
    spaces, optionally prefixed ("Image 3, Image 1, …", "Group B < Group A < Group C").

    The run is returned as written (upper-case); :func:`valid_permutation` decides validity."""
    digits = all(lab.isdigit() for lab in labels)
    tokens = "[1-9]" if digits else f"[{''.join(labels)}]"
    prefix = "(?:image|img|picture|#)" if digits else "(?:group|pair|option)"
    return _finish(
        extract_first(candidate_segments(text), _perm_extract(tokens, len(labels), prefix))
    )  # type: ignore[return-value]


def valid_permutation(seq: Sequence[str], labels: Sequence[str]) -> bool:
    return len(seq) == len(labels) and sorted(seq) == sorted(labels)
