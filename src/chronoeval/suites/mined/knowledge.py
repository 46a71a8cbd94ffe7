"""MINED's knowledge quadruple (S, H, P, A) and a tolerant parser for the released ``answers``.

Each released ``answers`` entry is ``Name |S: +YYYY-MM-DDT00:00:00Z |E: +YYYY-MM-DDT00:00:00Z``
(Wikidata's time format; paper §3, "a1 = Paris Saint Germain F.C. — S:+2021-08-00 — E:+2023-06-30").
In the released files the spacing varies (``|S:+2003-…``, ``|E +2023-…``), months and days are
``00`` when unknown, the current holder has no ``E``, a few entries have no ``S`` and one has a
``P`` (point in time). :func:`parse_attribute` accepts all of these; anything else is a DataError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from chronoeval.core.errors import DataError

_FIELD = re.compile(r"\|\s*([A-Za-z])\s*:?\s*([+-]?\d{1,4})-(\d{1,2})-(\d{1,2})(?:T[0-9:]*Z?)?\s*")


@dataclass(frozen=True, order=True)
class PartialDate:
    """A date whose month and/or day may be unknown (``00`` in the release)."""

    year: int
    month: int | None = None
    day: int | None = None

    def __str__(self) -> str:
        out = f"{self.year:04d}"
        if self.month:
            out += f"-{self.month:02d}"
            if self.day:
                out += f"-{self.day:02d}"
        return out

    def key(self) -> tuple[int, int, int]:
        """Sort key: unknown month/day sort first within their year/month."""
        return (self.year, self.month or 0, self.day or 0)

    def to_release(self) -> str:
        return f"+{self.year:04d}-{self.month or 0:02d}-{self.day or 0:02d}T00:00:00Z"

    @classmethod
    def parse(cls, text: str) -> PartialDate:
        m = re.fullmatch(r"\s*\+?(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T[0-9:]*Z?)?\s*", text)
        if not m:
            raise ValueError(f"not a date: {text!r}")
        return cls._from_parts(m.group(1), m.group(2) or "0", m.group(3) or "0")

    @classmethod
    def _from_parts(cls, y: str, mo: str, d: str) -> PartialDate:
        year, month, day = int(y), int(mo), int(d)
        if not 1 <= abs(year) <= 9999 or not 0 <= month <= 12 or not 0 <= day <= 31:
            raise ValueError(f"date out of range: {y}-{mo}-{d}")
        return cls(year, month or None, (day or None) if month else None)


@dataclass(frozen=True)
class Attribute:
    """One value of the property over time: ``name`` held from ``start`` to ``end``.

    ``end`` None means still current (no ``E`` in the release); ``start`` None means unknown."""

    name: str
    start: PartialDate | None = None
    end: PartialDate | None = None

    def to_release(self) -> str:
        out = self.name
        if self.start is not None:
            out += f" |S: {self.start.to_release()}"
        if self.end is not None:
            out += f" |E: {self.end.to_release()}"
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "start": str(self.start) if self.start else None,
            "end": str(self.end) if self.end else None,
        }

    @classmethod
    def from_json(cls, obj: Any) -> Attribute:
        if isinstance(obj, str):
            return parse_attribute(obj)
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            raise ValueError("attribute must be a release string or {name, start, end}")
        return cls(
            obj["name"].strip(),
            PartialDate.parse(obj["start"]) if obj.get("start") else None,
            PartialDate.parse(obj["end"]) if obj.get("end") else None,
        )


def parse_attribute(text: str) -> Attribute:
    """Parse one released ``answers`` entry (tolerant of spacing, ``00`` parts, missing S/E).

    ``P`` (point in time) is read as start = end = that date. Raises ValueError when the text has
    no name or a field cannot be read."""
    if not isinstance(text, str):
        raise ValueError(f"expected a string, got {type(text).__name__}")
    name, bar, rest = text.partition("|")
    name = name.strip()
    if not name:
        raise ValueError(f"no name before the first '|': {text!r}")
    fields: dict[str, PartialDate] = {}
    rest = bar + rest
    pos = 0
    while pos < len(rest):
        m = _FIELD.match(rest, pos)
        if not m:
            raise ValueError(f"cannot read {rest[pos:]!r} in {text!r}")
        key = m.group(1).upper()
        if key not in ("S", "E", "P"):
            raise ValueError(f"unknown field {key!r} in {text!r}")
        fields[key] = PartialDate._from_parts(m.group(2).lstrip("+"), m.group(3), m.group(4))
        pos = m.end()
    if "P" in fields:
        fields.setdefault("S", fields["P"])
        fields.setdefault("E", fields["P"])
    return Attribute(name, fields.get("S"), fields.get("E"))


def parse_answers(values: Any, *, where: dict[str, Any] | None = None) -> list[Attribute]:
    """Every entry of a sample's ``answers``; a DataError names the entry that fails."""
    where = where or {}
    if not isinstance(values, list) or not values:
        raise DataError("must be a non-empty list of strings", field="answers", **where)
    out = []
    for i, v in enumerate(values):
        try:
            out.append(parse_attribute(v))
        except ValueError as exc:
            raise DataError(str(exc), field=f"answers[{i}]", **where) from None
    return out


@dataclass(frozen=True)
class Knowledge:
    """The paper's quadruple: subject, hypernym, property, attribute list (in time order)."""

    subject: str
    hypernym: str
    property: str
    attributes: tuple[Attribute, ...]
    type: str = "unknown"
    """Knowledge type (country, sport, company, university, organization, competition)."""
    completion_property: str | None = None
    """The property as a completion uses it ("plays for" beside "play for"); default: property."""
    question_word: str = "Who"
    """How a question about a value starts ("Who", "Which club")."""
    images: tuple[str, ...] = ()
    """Image paths (relative to an images root) showing the subject, if any."""

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "hypernym": self.hypernym,
            "property": self.property,
            "type": self.type,
            "completion_property": self.completion_property,
            "question_word": self.question_word,
            "images": list(self.images),
            "attributes": [a.to_json() for a in self.attributes],
        }

    @classmethod
    def from_json(cls, obj: Any) -> Knowledge:
        if not isinstance(obj, dict):
            raise ValueError("a knowledge record must be an object")
        for key in ("subject", "hypernym", "property"):
            if not isinstance(obj.get(key), str) or not obj[key].strip():
                raise ValueError(f"{key}: missing or empty string")
        attrs = obj.get("attributes")
        if not isinstance(attrs, list) or not attrs:
            raise ValueError("attributes: must be a non-empty list")
        return cls(
            obj["subject"].strip(),
            obj["hypernym"].strip(),
            obj["property"].strip(),
            tuple(Attribute.from_json(a) for a in attrs),
            str(obj.get("type", "unknown")),
            obj.get("completion_property") or None,
            str(obj.get("question_word") or "Who"),
            tuple(str(p) for p in obj.get("images") or ()),
        )

    @property
    def latest(self) -> Attribute:
        """The most recent value: the last one without an end, else the latest-starting one."""
        current = [a for a in self.attributes if a.end is None]
        pool = current or list(self.attributes)
        return max(pool, key=lambda a: a.start.key() if a.start else (-(10**6), 0, 0))
