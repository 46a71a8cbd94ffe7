"""Leak-free train/test splits of a TimePerceptBench collection, by location.

A location's side is a function of its id and the *split seed* only:
``sha256("timepercept-split:{split_seed}:{location}")`` read as a number in [0, 1) below
``test_fraction`` → test, else train. Consequences, each tested:

- one split per collection, made before any task filter (cloud limit, minimum images): every task
  sees the same assignment, so a location is never in train for one task and in test for another;
- stable whatever ``n`` (items), the sampling seed or the number of locations: growing a collection
  from 40 to 120 locations moves none of the 40 across the line;
- a split file (``chronoeval timepercept split``) freezes the assignment; tasks (``--param
  split_file=PATH``) and the LoRA recipe read it, and refuse a collection that has locations the
  file does not assign.

The paper (TimePerceptBench §IV) says only that the splits are disjoint by location; the hash rule,
its seed and the 20 % test fraction are our decision (docs/suites/timepercept.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoeval.core.errors import DataError

FORMAT = "chronoeval-timepercept-split/1"
TEST_FRACTION = 0.2


def location_unit(location: str, split_seed: int) -> float:
    """The location's position in [0, 1) for this split seed (first 8 bytes of a SHA-256)."""
    digest = hashlib.sha256(f"timepercept-split:{split_seed}:{location}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def side(location: str, split_seed: int, test_fraction: float = TEST_FRACTION) -> str:
    """``"test"`` or ``"train"`` for one location."""
    return "test" if location_unit(location, split_seed) < test_fraction else "train"


@dataclass(frozen=True)
class Split:
    """Location ids on each side, with where they came from."""

    train: frozenset[str]
    test: frozenset[str]
    split_seed: int
    test_fraction: float
    source: str = ""

    @classmethod
    def compute(
        cls,
        locations: Iterable[str],
        split_seed: int = 0,
        test_fraction: float = TEST_FRACTION,
        source: str = "",
    ) -> Split:
        if not 0 < test_fraction < 1:
            raise DataError(
                f"test_fraction must be between 0 and 1, got {test_fraction}",
                field="test_fraction",
            )
        train: set[str] = set()
        test: set[str] = set()
        for loc in locations:
            (test if side(loc, split_seed, test_fraction) == "test" else train).add(loc)
        return cls(frozenset(train), frozenset(test), split_seed, test_fraction, source)

    def locations(self, which: str) -> frozenset[str]:
        if which == "train":
            return self.train
        if which == "test":
            return self.test
        raise DataError(f"split must be train, test or all, got {which!r}", field="split")

    def check_covers(self, locations: Iterable[str], where: str) -> None:
        """Every location of the collection must be assigned (else the file is for another one)."""
        unknown = sorted(set(locations) - self.train - self.test)
        if unknown:
            raise DataError(
                f"{len(unknown)} locations of the collection are in neither list of the split "
                f"file (made for another collection?), e.g. {', '.join(unknown[:3])}",
                file=where,
                field="train/test",
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "source": self.source,
            "split_seed": self.split_seed,
            "test_fraction": self.test_fraction,
            "rule": "sha256('timepercept-split:{split_seed}:{location}') < test_fraction -> test",
            "train": sorted(self.train),
            "test": sorted(self.test),
        }

    def write(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def read(cls, path: Path) -> Split:
        path = Path(path)
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DataError("split file not found", file=path) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise DataError(f"split file is not JSON ({exc})", file=path) from None
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise DataError(
                f"not a split file (format must be {FORMAT!r})", file=path, field="format"
            )
        lists = {}
        for key in ("train", "test"):
            val = obj.get(key)
            if not isinstance(val, list) or not all(isinstance(v, str) for v in val):
                raise DataError("must be a list of location ids", file=path, field=key)
            lists[key] = frozenset(val)
        both = sorted(lists["train"] & lists["test"])
        if both:
            raise DataError(
                f"{len(both)} locations are in both train and test, e.g. {both[0]}",
                file=path,
                field="test",
            )
        return cls(
            lists["train"],
            lists["test"],
            int(obj.get("split_seed", 0)),
            float(obj.get("test_fraction", TEST_FRACTION)),
            str(obj.get("source", "")),
        )
