"""The synthetic time-lapse generator: deterministic, development only grows, seasons cycle, the
schedule spans days to years, and the manifest round-trips."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np

from chronoeval.suites.timepercept.collection import (
    load_manifest,
    synthetic_collection,
    write_manifest,
)
from chronoeval.suites.timepercept.samplers import ice_category, span_days
from chronoeval.suites.timepercept.scenes import CATEGORIES, SIZE, Scene, season_greenness


def test_render_is_deterministic_and_256px() -> None:
    when = datetime(2014, 5, 3, 10, tzinfo=UTC)
    a, ca = Scene("s", "airport", date(2012, 1, 1), 2000).render(when)
    b, cb = Scene("s", "airport", date(2012, 1, 1), 2000).render(when)
    assert a.shape == (SIZE, SIZE, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and ca == cb


def test_development_only_grows() -> None:
    """Same calendar day in successive years (same season): the area that differs from the first
    year's image never shrinks (beyond 1% of pixels: vehicles, illumination) and grows overall."""
    for i, cat in enumerate(CATEGORIES):
        scene = Scene(i, cat, date(2012, 1, 1), 7 * 365)
        first = scene.render(datetime(2012, 6, 1, 10, tzinfo=UTC), clouds=False)[0].astype(int)
        changed = []
        for year in range(2013, 2019):
            img = scene.render(datetime(year, 6, 1, 10, tzinfo=UTC), clouds=False)[0]
            changed.append(float((np.abs(img.astype(int) - first).max(-1) > 30).mean()))
        assert changed[-1] > changed[0] + 0.1, (cat, changed)
        assert all(b >= a - 0.01 for a, b in zip(changed, changed[1:], strict=False)), cat


def test_seasons_cycle() -> None:
    july = season_greenness(datetime(2015, 7, 15, tzinfo=UTC))
    jan = season_greenness(datetime(2015, 1, 15, tzinfo=UTC))
    assert july > 0.95 and jan < 0.05
    assert season_greenness(datetime(2015, 1, 15, tzinfo=UTC), hemisphere=-1) > 0.95


def test_schedules_cover_every_interval_category() -> None:
    coll = synthetic_collection(3, 10)
    cats = set()
    for obs in coll.locations.values():
        assert len(obs) >= 5
        for i, a in enumerate(obs):
            for b in obs[i + 1 :]:
                if span_days(a, b) >= 1:
                    cats.add(ice_category(span_days(a, b)))
    assert cats == {"A", "B", "C", "D", "E"}


def test_clouds_are_recorded_and_visible() -> None:
    scene = Scene(7, "residential", date(2012, 1, 1), 2000)
    days = [scene.start + timedelta(days=d) for d in range(60)]
    cloudy = [d for d in days if scene.clouds(d) is not None]
    assert cloudy, "30% of days are cloudy"
    img, cover = scene.render(cloudy[0])
    clear, cover0 = scene.render(cloudy[0], clouds=False)
    assert cover0 == 0.0 and (cover > 0) == (np.abs(img.astype(int) - clear).max() > 100)


def test_manifest_round_trip(tmp_path: Path) -> None:
    coll = synthetic_collection(5, 3)
    path = write_manifest(coll, tmp_path / "m", fmt="csv")
    back = load_manifest(path)
    assert back.report.images_kept == sum(len(v) for v in coll.locations.values())
    for loc, obs in coll.locations.items():
        assert [o.timestamp for o in back.locations[loc]] == [o.timestamp for o in obs]
    jl = load_manifest(write_manifest(coll, tmp_path / "j", fmt="jsonl"))
    assert sorted(jl.locations) == sorted(coll.locations)
