"""Reading SPAN answers: dates in a target calendar as models write them, and yes/no.

Date extraction steps (each a small function, tested one by one):

1. :func:`chronoeval.core.parsing.candidate_segments` (JSON answer values, boxed, ``Answer:``
   segment, then the whole text);
2. in a segment, every date mention: ISO-like numbers (``2000-05-30``, ``2000/5/30``, leap
   ``2033-L11-05`` / ``2033-闰11-05``), month names in each calendar's common transliterations
   (``28 Sivan 5760``, ``Tishri 1, 5761``, ``1 Moharram 1421 AH``), Chinese ordinal months (``day
   9 of the leap 5th month``, ``闰五月初九``), JSON objects with year/month/day keys; with or
   without the year;
3. the last mention wins (:func:`chronoeval.core.parsing.pick_last_mention`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import (
    Mention,
    candidate_segments,
    extract_first,
    json_objects,
    normalize_unicode,
    pick_last_mention,
)


@dataclass(frozen=True)
class ParsedDate:
    year: int | None
    month: int
    day: int
    leap: bool = False

    def __str__(self) -> str:
        y = f"{self.year:04d}" if self.year is not None else "????"
        return f"{y}-{'L' if self.leap else ''}{self.month:02d}-{self.day:02d}"


MONTH_SPELLINGS: dict[str, dict[int, tuple[str, ...]]] = {
    "gregorian": {
        1: ("january", "jan"), 2: ("february", "feb"), 3: ("march", "mar"), 4: ("april", "apr"),
        5: ("may",), 6: ("june", "jun"), 7: ("july", "jul"), 8: ("august", "aug"),
        9: ("september", "sept", "sep"), 10: ("october", "oct"), 11: ("november", "nov"),
        12: ("december", "dec"),
    },
    "hebrew": {
        1: ("nisan", "nissan"), 2: ("iyar", "iyyar", "iyyer"), 3: ("sivan", "siwan"),
        4: ("tammuz", "tamuz", "tamouz"), 5: ("av", "ab", "menachem av"), 6: ("elul",),
        7: ("tishrei", "tishri", "tishrey", "tisri"),
        8: ("cheshvan", "heshvan", "marcheshvan", "marheshvan", "chesvan", "heshwan"),
        9: ("kislev", "kislew", "chislev"), 10: ("tevet", "teves", "tebeth", "teveth"),
        11: ("shevat", "shvat", "shebat", "sh'vat"),
        12: ("adar i", "adar 1", "adar aleph", "adar alef", "adar rishon", "adar"),
        13: ("adar ii", "adar 2", "adar bet", "adar beth", "adar sheni", "veadar"),
    },
    "islamic": {
        1: ("muharram", "moharram", "muharram al-haram"), 2: ("safar", "safar al-muzaffar"),
        3: ("rabi al-awwal", "rabi' al-awwal", "rabi i", "rabi' i", "rabiul awwal",
            "rabi al-awal", "rabi ul awwal", "rabi 1"),
        4: ("rabi al-thani", "rabi' al-thani", "rabi ii", "rabi' ii", "rabi al-akhir",
            "rabi' al-akhir", "rabiul akhir", "rabi ul akhir", "rabi 2", "rabi al-sani"),
        5: ("jumada al-ula", "jumada al-awwal", "jumada i", "jumada al-oola", "jumadal ula",
            "jumada al-awal", "jumada 1"),
        6: ("jumada al-akhirah", "jumada al-thani", "jumada ii", "jumada al-akhira",
            "jumada al-akhir", "jumadal akhirah", "jumada 2"),
        7: ("rajab",), 8: ("shaban", "sha'ban", "shaaban", "sha'aban"),
        9: ("ramadan", "ramazan", "ramzan", "ramadhan"), 10: ("shawwal", "shawal"),
        11: ("dhu al-qidah", "dhu al-qi'dah", "dhul qadah", "dhu al-qadah", "dhul-qa'dah",
             "zulqadah", "dhu'l-qa'dah", "dhu al-qa'dah", "zul qadah"),
        12: ("dhu al-hijjah", "dhul hijjah", "dhu'l-hijjah", "zulhijjah", "dhul-hijjah",
             "zul hijjah", "dhu al-hijja"),
    },
    "persian": {
        1: ("farvardin",), 2: ("ordibehesht", "ordibehest"), 3: ("khordad",), 4: ("tir",),
        5: ("mordad", "amordad"), 6: ("shahrivar",), 7: ("mehr", "mihr"), 8: ("aban",),
        9: ("azar", "adhar"), 10: ("dey", "dei"), 11: ("bahman",), 12: ("esfand", "isfand"),
    },
    "shaka": {
        1: ("chaitra", "caitra", "chaitr"), 2: ("vaishakha", "vaisakha", "vaishakh", "baisakh"),
        3: ("jyaishtha", "jyeshtha", "jyaistha", "jyeshta"), 4: ("ashadha", "asadha", "ashadh"),
        5: ("shravana", "sravana", "shravan"), 6: ("bhadra", "bhadrapada", "bhadrapad"),
        7: ("ashvin", "asvina", "ashwin", "ashvina", "ashwina"), 8: ("kartika", "kartik"),
        9: ("agrahayana", "margashirsha", "agrahayan"), 10: ("pausha", "pausa", "paush"),
        11: ("magha", "magh"), 12: ("phalguna", "phalgun"),
    },
}  # fmt: skip

_ORD_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"]  # fmt: skip
_CN_NUM = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
_CN_MONTH = {"正": 1, "冬": 11, "腊": 12, "臘": 12}


def _cn_number(text: str) -> int | None:
    """一..三十 with 初/廿/卅 (Chinese day and month numerals)."""
    text = text.replace("初", "").replace("廿", "二十").replace("卅", "三十")
    if not text:
        return None
    if text in _CN_MONTH:
        return _CN_MONTH[text]
    if "十" in text:
        tens, _, ones = text.partition("十")
        t = _CN_NUM.get(tens, 1) if tens else 1
        o = _CN_NUM.get(ones, 0) if ones else 0
        return 10 * t + o
    return _CN_NUM.get(text)


def _month_alternation(family: str) -> tuple[re.Pattern[str], dict[str, int]]:
    names = {n: m for m, ns in MONTH_SPELLINGS[family].items() for n in ns}
    alt = "|".join(re.escape(n).replace(r"\ ", r"[\s-]?").replace("'", "'?") for n in
                   sorted(names, key=len, reverse=True))  # fmt: skip
    return re.compile(rf"(?<![a-z])(?:{alt})(?![a-z])", re.IGNORECASE), names


_NAMED = {fam: _month_alternation(fam) for fam in MONTH_SPELLINGS}
_NUMERIC = re.compile(
    r"(?<![\d.])(\d{3,4})\s*[-/.年]\s*(L|闰|閏|leap\s*)?(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)(?!\.\d)",
    re.IGNORECASE,
)
_CN_DATE = re.compile(
    r"(?:(\d{3,4})\s*年)?\s*(闰|閏)?([正一二三四五六七八九十冬腊臘]{1,3})月\s*"
    r"(初[一二三四五六七八九十]|[一二三四五六七八九十廿卅]{1,3})日?"
)
_CN_ENGLISH = re.compile(
    r"(?:day\s+(\d{1,2})\s+of\s+(?:the\s+)?)?(leap\s+)?(?:(\d{1,2})(?:st|nd|rd|th)|("
    + "|".join(_ORD_WORDS)
    + r"))\s+(?:lunar\s+)?month(?:\s*,?\s*day\s+(\d{1,2}))?"
    r"(?:\s*(?:of|,)?\s*(?:the\s+)?(?:chinese\s+)?(?:lunar\s+)?(?:year\s+)?(\d{3,4}))?",
    re.IGNORECASE,
)
_YEAR_AFTER = re.compile(
    r"^\s*,?\s*(?:of\s+)?(?:the\s+year\s+)?(\d{3,4})(?!\d)(?:\s*(?:AH|SH|AM|Saka|Śaka|CE|AD))?",
    re.I,
)
_DAY_BEFORE = re.compile(r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\s*(?:of\s+|day\s+of\s+)?$", re.I)
_DAY_AFTER = re.compile(r"^\s*(\d{1,2})(?:st|nd|rd|th)?(?!\d)", re.I)


def _named_mentions(text: str, family: str) -> list[Mention[ParsedDate]]:
    pattern, names = _NAMED[family]
    out = []
    for m in pattern.finditer(text):
        key = re.sub(r"[\s-]+", " ", m.group(0).lower()).replace("'", "")
        month = next((v for k, v in names.items() if k.replace("'", "") == key), None)
        if month is None:
            month = names.get(m.group(0).lower())
        if month is None:
            continue
        before = _DAY_BEFORE.search(text[max(0, m.start() - 16) : m.start()])
        start, end = m.start(), m.end()
        day = None
        if before:
            day = int(before.group(1))
            start = m.start() - (len(text[max(0, m.start() - 16) : m.start()]) - before.start())
        rest = text[end:]
        if day is None:
            after = _DAY_AFTER.match(rest)
            if after:
                day = int(after.group(1))
                end += after.end()
                rest = text[end:]
        if day is None:
            continue
        year = None
        ya = _YEAR_AFTER.match(rest)
        if ya:
            year = int(ya.group(1))
            end += ya.end()
        out.append(Mention(start, end, ParsedDate(year, month, day)))
    return out


def _chinese_mentions(text: str) -> list[Mention[ParsedDate]]:
    out = []
    for m in _CN_DATE.finditer(text):
        month, day = _cn_number(m.group(3)), _cn_number(m.group(4))
        if month and day:
            year = int(m.group(1)) if m.group(1) else None
            out.append(Mention(m.start(), m.end(), ParsedDate(year, month, day, bool(m.group(2)))))
    for m in _CN_ENGLISH.finditer(text):
        day = m.group(1) or m.group(5)
        if day is None:
            continue
        month = int(m.group(3)) if m.group(3) else _ORD_WORDS.index(m.group(4).lower()) + 1
        year = int(m.group(6)) if m.group(6) else None
        out.append(Mention(m.start(), m.end(), ParsedDate(year, month, int(day), bool(m.group(2)))))
    return out


def date_mentions(text: str, family: str) -> list[Mention[ParsedDate]]:
    """Every date-shaped span of ``text`` read in calendar ``family``."""
    text = normalize_unicode(text)
    out: list[Mention[ParsedDate]] = []
    for m in _NUMERIC.finditer(text):
        leap = bool(m.group(2))
        out.append(
            Mention(
                m.start(),
                m.end(),
                ParsedDate(int(m.group(1)), int(m.group(3)), int(m.group(4)), leap),
            )
        )
    if family == "chinese":
        out += _chinese_mentions(text)
    elif family in _NAMED:
        out += _named_mentions(text, family)
    for obj in json_objects(text):
        found = _from_json(obj)
        if found is not None:
            out.append(Mention(len(text), len(text) + 1, found))
    return sorted(out, key=lambda mm: mm.start)


def _from_json(obj: object) -> ParsedDate | None:
    if not isinstance(obj, dict):
        return None
    low = {str(k).lower(): v for k, v in obj.items()}
    try:
        month, day = int(str(low["month"]).lstrip("Ll")), int(low["day"])
    except (KeyError, TypeError, ValueError):
        return None
    year = low.get("year")
    leap = bool(
        low.get("leap") or low.get("is_leap") or str(low.get("month", "")).upper().startswith("L")
    )
    try:
        return ParsedDate(int(year) if year is not None else None, month, day, leap)
    except (TypeError, ValueError):
        return None


_BARE = re.compile(r"\s*Answer:\s*(yes|no|(\d{3,4})-(L?)(\d{1,2})-(\d{1,2}))\s*\Z", re.IGNORECASE)
"""A response that is only the requested answer line: read directly (what the full pipeline would
give, without its cost)."""


def parse_date_answer(text: str, family: str) -> ParsedDate | NoAnswer:
    """The date a response gives, in calendar ``family``; NoAnswer when there is none."""
    if not text or not text.strip():
        return NoAnswer("empty")
    bare = _BARE.match(text)
    if bare and bare.group(2):
        return ParsedDate(int(bare[2]), int(bare[4]), int(bare[5]), bool(bare[3]))

    def extractor(segment: str) -> ParsedDate | NoAnswer | None:
        return pick_last_mention(segment, date_mentions(segment, family))

    found = extract_first(candidate_segments(text), extractor)
    if found is None:
        # JSON anywhere in the response (candidate segments keep only its string values)
        objs = [p for o in json_objects(normalize_unicode(text)) if (p := _from_json(o))]
        return objs[-1] if objs else NoAnswer("no date found")
    return found


_YES = re.compile(r"\b(yes|true|correct)\b", re.I)
_NO = re.compile(r"\b(no|false|incorrect|not correct)\b", re.I)


def parse_yes_no(text: str) -> bool | NoAnswer:
    """``yes``/``no`` (also true/false, correct/incorrect); the last one said wins, and a segment
    declaring both at the end (``yes or no``) is ambiguous."""

    def extractor(segment: str) -> bool | NoAnswer | None:
        mentions = [Mention(m.start(), m.end(), True) for m in _YES.finditer(segment)]
        mentions += [Mention(m.start(), m.end(), False) for m in _NO.finditer(segment)]
        return pick_last_mention(segment, sorted(mentions, key=lambda m: m.start))

    if not text or not text.strip():
        return NoAnswer("empty")
    bare = _BARE.match(text)
    if bare and not bare.group(2):
        return bare.group(1).lower() == "yes"
    found = extract_first(candidate_segments(text), extractor)
    return NoAnswer("no yes/no found") if found is None else found


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
