"""Dated image collections and events files: the input every Seeing Time task can be built from.

A **collection manifest** (``.jsonl``, ``.json`` list, or ``.csv``) has one row per image::

    {"image": "photos/0001.jpg", "year": 1987, "category": "sports", "era": "late 20th c."}

``image`` is relative to ``images_root`` (default: the manifest's folder); ``year`` or ``date``
(``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``) is required, ``category`` defaults to ``all``; ``era``
(optional) is the label the localization and sorting tasks use; ``id`` and ``title`` are optional.

An **events file** (``.jsonl`` or ``.json`` list; the released HistNews layout) has one row per
event: ``year``, ``date``, ``description``, ``source``.

Both can also be synthetic (:func:`synthetic_collection`, :func:`synthetic_events`), so the suite
runs offline. Every problem is one :class:`DataError` naming the file, the row and the field;
missing images are counted and reported together.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoeval.core.errors import DataError
from chronoeval.core.imagecheck import confine, read_image_file
from chronoeval.suites.seeing_time.eras import DYNASTIES
from chronoeval.suites.seeing_time.scenes import ARTIFACT, PHOTO, Kind, render_scene

MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}


@dataclass(frozen=True)
class Entry:
    """One dated image."""

    id: str
    year: int
    category: str
    image: bytes
    ext: str = ".png"
    era: str | None = None
    date: str | None = None
    title: str | None = None
    source: str | None = None

    @property
    def mime(self) -> str:
        return MIME.get(self.ext.lower(), "image/jpeg")


@dataclass(frozen=True)
class Event:
    year: int
    date: str
    description: str
    source: str


_DATE = re.compile(r"^\s*(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?\s*$")


def parse_year(value: Any, *, file: Path, line: int, field: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        m = _DATE.match(value)
        if m:
            return int(m.group(1))
    raise DataError(
        f"expected a year or YYYY[-MM[-DD]] date, got {value!r}", file=file, line=line, field=field
    )


def read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line or row number, row) from a .jsonl, .json (list) or .csv file."""
    path = Path(path)
    if not path.is_file():
        raise DataError("no such file", file=path)
    text = path.read_text(encoding="utf-8-sig")
    rows: list[tuple[int, dict[str, Any]]] = []
    if path.suffix.lower() == ".csv":
        for i, row in enumerate(csv.DictReader(text.splitlines()), start=2):
            rows.append((i, {k: v for k, v in row.items() if v not in (None, "")}))
        return rows
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"not valid JSON ({exc.msg})", file=path, line=exc.lineno) from None
        except RecursionError:
            raise DataError("JSON nested too deeply", file=path) from None
        if not isinstance(data, list):
            raise DataError("expected a JSON list of objects", file=path)
        out = list(enumerate(data, start=1))
    else:
        out = []
        for i, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                out.append((i, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise DataError(f"line is not valid JSON ({exc.msg})", file=path, line=i) from None
            except RecursionError:
                raise DataError("JSON nested too deeply", file=path, line=i) from None
    for i, row in out:
        if not isinstance(row, dict):
            raise DataError("expected a JSON object", file=path, line=i)
    return out


def missing_images_error(missing: list[str], total: int, *, file: Path, root: Path) -> DataError:
    shown = "; ".join(missing[:5]) + ("; …" if len(missing) > 5 else "")
    return DataError(
        f"{len(missing)} of {total} images are missing under images_root {root} ({shown}); "
        "fix images_root, or pass --param allow_missing_images=true to leave those items out "
        "(they are then counted in the warning, never silently)",
        file=file,
        field="image",
    )


def load_collection(path: Path, images_root: str | Path | None = None) -> list[Entry]:
    """Read a collection manifest (see the module docstring); all images must be present."""
    path = Path(path)
    root = Path(images_root) if images_root else path.parent
    entries: list[Entry] = []
    missing: list[str] = []
    rows = read_rows(path)
    seen: set[str] = set()
    for line, row in rows:
        image = row.get("image")
        if not isinstance(image, str) or not image:
            raise DataError("missing image path", file=path, line=line, field="image")
        if "year" in row:
            year = parse_year(row["year"], file=path, line=line, field="year")
        elif "date" in row:
            year = parse_year(row["date"], file=path, line=line, field="date")
        else:
            raise DataError("needs a year or a date", file=path, line=line, field="year")
        file = confine(root, image, file=path, line=line, field="image")
        if not file.exists():
            missing.append(str(file))
            continue
        entry_id = str(row.get("id", f"row{line}"))
        if entry_id in seen:
            raise DataError(f"duplicate id {entry_id!r}", file=path, line=line, field="id")
        seen.add(entry_id)
        entries.append(
            Entry(
                id=entry_id,
                year=year,
                category=str(row.get("category", "all")),
                image=read_image_file(file, file=path, line=line, field="image"),
                ext=file.suffix or ".png",
                era=str(row["era"]) if row.get("era") not in (None, "") else None,
                date=str(row["date"]) if "date" in row else None,
                title=row.get("title"),
                source=str(file),
            )
        )
    if missing:
        raise missing_images_error(missing, len(rows), file=path, root=root)
    if not entries:
        raise DataError("the collection has no rows", file=path)
    return entries


def load_events(path: Path) -> list[Event]:
    """Read an events file (HistNews layout: year, date, description, source)."""
    path = Path(path)
    events = []
    for line, row in read_rows(path):
        year = parse_year(row.get("year", row.get("date")), file=path, line=line, field="year")
        desc = row.get("description")
        if not isinstance(desc, str) or not desc.strip():
            raise DataError("missing description", file=path, line=line, field="description")
        events.append(
            Event(year, str(row.get("date", year)), desc.strip(), str(row.get("source", "")))
        )
    if not events:
        raise DataError("the events file has no rows", file=path)
    return events


# -- synthetic -----------------------------------------------------------------------------------
def _artifact_year(rng: random.Random) -> tuple[int, str]:
    d = rng.choice(DYNASTIES)
    lo, hi = max(d.start, ARTIFACT.start) + 10, min(d.end, ARTIFACT.end - 1) - 10
    return rng.randint(lo, hi), d.key


def synthetic_collection(
    kind: Kind, n: int, seed: int, *, years: Iterable[int] | None = None
) -> list[Entry]:
    """``n`` synthetic scenes of ``kind`` (deterministic for ``seed``).

    Artefacts get a dynasty (era label) and a year inside it; photos a year in 1946–2025 (the
    paper's HistNews span) or, when ``years`` is given, cycle through those years.
    """
    entries = []
    year_list = list(years) if years is not None else None
    for i in range(n):
        rng = random.Random(f"seeing_time:{kind.name}:{seed}:{i}")
        category = kind.categories[i % len(kind.categories)]
        if kind is ARTIFACT:
            year, era = _artifact_year(rng)
        else:
            year = year_list[i % len(year_list)] if year_list else rng.randint(1946, 2025)
            era = None
        entries.append(
            Entry(
                id=f"{kind.name}-{i:05d}",
                year=year,
                category=category,
                image=render_scene(year, category, kind, rng),
                era=era,
                date=f"{year}",
                title=f"synthetic {category} scene",
                source="synthetic",
            )
        )
    return entries


GAMES_FIRST = 1946
"""The synthetic world's one fact, known to the reference agent as a model knows history: the
Chronoeval Games are held every year, the first in 1946, so edition N took place in 1945 + N."""


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def synthetic_events(years: Iterable[int]) -> list[Event]:
    """One event per year, dated only through the edition number (no year in the text)."""
    out = []
    for y in sorted(set(years)):
        n = y - GAMES_FIRST + 1
        out.append(
            Event(
                y,
                f"July 1, {y}",
                f"The {ordinal(n)} Chronoeval Games open with a ceremony in the host city.",
                "synthetic:chronoeval",
            )
        )
    return out


__all__ = ["ARTIFACT", "PHOTO", "Entry", "Event", "load_collection", "load_events"]
