"""What the Seeing Time tasks share: image parts, the load dispatch (released layout or a user's
collection manifest), seeded shuffles and a few aggregate helpers."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.dataset import BuiltItem, image_part
from chronoeval.core.errors import DataError
from chronoeval.core.items import ImagePart
from chronoeval.core.stats import mean_metric
from chronoeval.core.task import SampleRecord, Task
from chronoeval.suites.seeing_time.collection import (
    MIME,
    Entry,
    Event,
    load_collection,
    load_events,
    read_rows,
)
from chronoeval.suites.seeing_time.release import ImageFinder

SUITE = "seeing_time"
COMMON_LOAD_PARAMS: dict[str, Any] = {
    "images_root": None,
    "allow_missing_images": False,
    "seed": 0,
    "n": 0,
}
"""Options every task's ``load`` takes: where the images are, whether missing images may be left
out (counted), the seed of every shuffle (option order, image order), and ``n``: at most this
many items (0: all; the release's first n in file order)."""


def part_for(data: bytes, ext: str) -> tuple[ImagePart, dict[str, bytes]]:
    """An image part named by its content (the same image in several items is stored once)."""
    ext = ext.lower() if ext else ".png"
    name = hashlib.sha256(data).hexdigest()[:20] + ext
    part, rel, blob = image_part(name, data, MIME.get(ext, "image/jpeg"))
    return part, {rel: blob}


def rng_for(seed: Any, *key: Any) -> random.Random:
    return random.Random(":".join(str(k) for k in ("seeing_time", seed, *key)))


def is_collection_file(path: Path) -> bool:
    """A user's collection manifest: a .jsonl/.json/.csv file whose rows have image + year/date."""
    path = Path(path)
    if not path.is_file() or path.suffix.lower() not in (".jsonl", ".json", ".csv"):
        return False
    try:
        rows = read_rows(path)
    except DataError:
        return False
    return bool(rows) and "image" in rows[0][1] and ("year" in rows[0][1] or "date" in rows[0][1])


class SeeingTask(Task):
    """Base: ``build`` composes items from a synthetic collection, ``load`` from the released files
    or from a collection manifest (+ events file) with the same composer."""

    suite = SUITE
    default_seed = 0
    synthetic_note: ClassVar[str | None] = (
        "Synthetic scenes encode time as arbitrary codes (background palette = year, antenna bars "
        "= era): a harness, parser and metric check. A real VLM cannot read these dating cues, so "
        "its accuracy here measures nothing about dating; use the released files."
    )
    compose_params: ClassVar[dict[str, Any]] = {}
    """Composition options shared by ``build`` (generated) and ``load`` (a user's collection)."""

    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        params = self.with_n(params)
        entries, events = self.synthetic(params, seed)
        yield from self.compose(entries, events, params, seed)

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        path = Path(path)
        seed = params.get("seed", 0)
        if is_collection_file(path):
            entries = load_collection(path, params.get("images_root"))
            ev = params.get("events")
            events = load_events(Path(ev)) if ev else []
            merged = self.with_n({**self.default_params, **params})
            yield from self.compose(entries, events, merged, seed)
            return
        finder = ImageFinder(params.get("images_root"), bool(params.get("allow_missing_images")))
        items = self.load_release(path, finder, seed)
        limit = self.item_limit(int(params.get("n") or 0))
        yield from islice(items, limit) if limit > 0 else items

    def with_n(self, params: dict[str, Any]) -> dict[str, Any]:
        """Map the generic ``n`` (items) onto a task's own counts (sort: intra/cross sets,
        shortcut: pairs); tasks whose count is ``n`` already keep it."""
        return params

    def item_limit(self, n: int) -> int:
        """How many released items ``n`` keeps (shortcut: whole pairs, 3 items each)."""
        return n

    # hooks -----------------------------------------------------------------------------------
    def synthetic(self, params: dict[str, Any], seed: int) -> tuple[list[Entry], list[Event]]:
        raise NotImplementedError

    def compose(
        self, entries: list[Entry], events: list[Event], params: dict[str, Any], seed: Any
    ) -> Iterator[BuiltItem]:
        raise NotImplementedError

    def load_release(self, path: Path, finder: ImageFinder, seed: Any) -> Iterator[BuiltItem]:
        raise DataError(
            f"task {self.name!r} has no released annotation file; give a collection manifest "
            "(.jsonl/.json/.csv with image, year or date, category, era)",
            file=path,
        )


def by_group(
    records: list[SampleRecord], key: str, fn: Any, *, seed: int = 0
) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[SampleRecord]] = {}
    for r in records:
        groups.setdefault(str(r.metadata.get(key, "?")), []).append(r)
    return {g: fn(rs, seed) for g, rs in sorted(groups.items())}


def mean_of(records: list[SampleRecord], key: str, seed: int) -> dict[str, Any]:
    return mean_metric([r.scores[key] for r in records if r.scores.get(key) is not None], seed=seed)


def load_params_for(task_params: dict[str, Any]) -> dict[str, Any]:
    return {**COMMON_LOAD_PARAMS, **task_params}
