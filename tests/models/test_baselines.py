"""Chance baselines: seeded random, constant and majority, scored like any model."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.core.registry import get_task
from chronoeval.models.local import majority_answer
from helpers import make_clock_dataset


def test_majority_is_the_most_frequent_gold(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=12)
    task = get_task("clockqa")
    items = ds.items[:3] + [ds.items[1]]  # c001's gold appears twice
    assert majority_answer(task, items) == ds.items[1].target
    res = api.run(
        ["clockqa"], "majority", data=ds.root, run_dir=tmp_path / "run", progress=False, plots=False
    )
    # all 12 golds are distinct: the tie is broken by the answer text, and exactly one is right
    assert res.results["tasks"]["clockqa"]["metrics"]["overall"]["em"]["value"] == 1 / 12


def test_random_baseline_is_seeded_and_independent_of_order(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=12)
    a = api.run(
        ["clockqa"],
        "random",
        data=ds.root,
        run_dir=tmp_path / "a",
        progress=False,
        plots=False,
        concurrency=1,
    )
    b = api.run(
        ["clockqa"],
        "random",
        data=ds.root,
        run_dir=tmp_path / "b",
        progress=False,
        plots=False,
        concurrency=8,
    )
    c = api.run(
        ["clockqa"], "random:7", data=ds.root, run_dir=tmp_path / "c", progress=False, plots=False
    )
    ra, rb, rc = (api.read_records(r.run_dir) for r in (a, b, c))
    assert [r.response for r in ra] == [r.response for r in rb]
    assert [r.response for r in ra] != [r.response for r in rc]


def test_calendar_year_outside_range_is_a_clear_error() -> None:
    with pytest.raises(
        DataError, match=r"1\.\.9999.*'year_min/year_max'|'year_min/year_max'.*1\.\.9999"
    ):
        api.generate("calendarqa", params={"year_min": 0, "year_max": 10})
    with pytest.raises(DataError, match="9999"):
        api.generate("calendarqa", params={"year_min": 9990, "year_max": 10000})
