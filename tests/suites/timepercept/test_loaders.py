"""Collections from files: an fMoW-layout folder and a plain manifest, built here; bad
timestamps, unreadable images, cloudy images and single-image locations are counted, not used."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.suites.timepercept.collection import load_fmow, load_manifest


def _jpg(path: Path, shade: int) -> None:
    Image.new("RGB", (300, 280), (shade, 120, 60)).save(path, format="JPEG")


def make_fmow(root: Path) -> Path:
    """train/{category}/{category}_{loc}/{category}_{loc}_{view}_rgb.{jpg,json}"""
    t0 = datetime(2014, 1, 1, tzinfo=UTC)
    gaps = [0, 10, 50, 200, 500, 900, 1300]  # covers every interval category
    for split, cat, loc, n in [
        ("train", "airport", 0, 7),
        ("train", "airport", 1, 7),
        ("val", "dam", 2, 7),
        ("val", "dam", 3, 1),
    ]:
        d = root / split / cat / f"{cat}_{loc}"
        d.mkdir(parents=True)
        for v in range(n):
            stem = d / f"{cat}_{loc}_{v}_rgb"
            _jpg(stem.with_suffix(".jpg"), 10 * v + loc)
            meta = {
                "timestamp": (t0 + timedelta(days=gaps[v] + loc))
                .isoformat()
                .replace("+00:00", "Z"),
                "cloud_cover": 0,
                "gsd": 0.5,
            }
            stem.with_suffix(".json").write_text(json.dumps(meta))
    # problems, each of which must be counted
    bad = root / "train" / "airport" / "airport_0"
    (bad / "airport_0_7_rgb.json").write_text(json.dumps({"timestamp": "not a date"}))
    _jpg(bad / "airport_0_7_rgb.jpg", 1)
    (bad / "airport_0_8_rgb.json").write_text(
        json.dumps({"timestamp": "2019-01-01T00:00:00Z", "cloud_cover": 0})
    )
    (bad / "airport_0_8_rgb.jpg").write_bytes(b"\xff\xd8 truncated jpeg")
    (bad / "airport_0_9_rgb.json").write_text(
        json.dumps({"timestamp": "2020-01-01T00:00:00Z", "cloud_cover": 80})
    )
    _jpg(bad / "airport_0_9_rgb.jpg", 2)
    return root


def test_fmow_layout_loads_and_reports(tmp_path: Path) -> None:
    coll = load_fmow(make_fmow(tmp_path / "fmow"))
    r = coll.report
    assert r.images_seen == 25
    assert r.dropped["bad timestamp"] == 1
    assert sum(v for k, v in r.dropped.items() if k.startswith("unreadable image")) == 1
    assert r.images_kept == 23
    assert len(coll.locations) == 4
    assert coll.categories == ["airport", "dam"]
    only_train = load_fmow(tmp_path / "fmow", ["train"])
    assert set(only_train.locations) == {"train/airport_0", "train/airport_1"}
    with pytest.raises(DataError, match="split folder"):
        load_fmow(tmp_path / "fmow", ["test"])


def test_fmow_items_through_the_cli_path(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = make_fmow(tmp_path / "fmow")
    ds = api.import_data("tp_pov", root, {"n": 6, "split": "all", "max_cloud_cover": 20})
    assert len(ds.items) == 6
    used = {loc for i in ds.items for loc in i.metadata["facts"]["locations"]}
    assert "val/dam_3" not in used  # a single-image location is never used
    assert any("cloud cover above 20.0%" in m and "fewer than 2" in m for m in caplog.messages)
    for item in ds.items:
        assert (ds.root / item.images[0].path).is_file()
        with Image.open(ds.root / item.images[0].path) as im:
            assert im.size == (256, 256)  # resized as the paper does
    ice = api.import_data("tp_ice", root, {"n": 10, "split": "all"})
    assert sorted(i.target for i in ice.items) == sorted("ABCDE" * 2)


def test_manifest_problems_are_counted(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    rows = ["location,image,timestamp,category,cloud_cover"]
    for loc in ("x", "y"):
        for k in range(3):
            _jpg(tmp_path / "img" / f"{loc}{k}.jpg", k)
            rows.append(f"{loc},img/{loc}{k}.jpg,2015-0{k + 1}-01,farm,5")
    rows.append("x,img/missing.jpg,2016-01-01,farm,")
    rows.append("y,img/y0.jpg,31/12/2016,farm,")
    (tmp_path / "m.csv").write_text("\n".join(rows) + "\n")
    coll = load_manifest(tmp_path / "m.csv")
    assert coll.report.dropped == {"image file missing": 1, "bad timestamp": 1}
    assert coll.report.images_kept == 6
    (tmp_path / "bad.csv").write_text("location,image,timestamp\nx,a.jpg,2015-01-01\n")
    with pytest.raises(DataError, match="category"):
        load_manifest(tmp_path / "bad.csv")


def test_too_few_locations_is_a_clear_error(tmp_path: Path) -> None:
    root = make_fmow(tmp_path / "fmow")
    with pytest.raises(DataError, match="2 different locations|4 different locations"):
        list(
            api.get_task("tp_eii").load(
                root,
                {
                    "n": 4,
                    "split": "all",
                    "seed": 0,
                    "max_cloud_cover": 20,
                    "fmow_splits": "",
                    "split_seed": 0,
                    "split_file": "",
                },
            )
        )
