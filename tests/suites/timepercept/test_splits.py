"""Leak-free location splits: one split per collection, made before any task filter, the same for
every task, every sampling seed and every collection size; split files freeze it."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.suites.timepercept.splits import Split

GAPS = (0, 10, 50, 200, 500, 900)
TASKS = ("tp_isr", "tp_pov", "tp_ice", "tp_tal", "tp_recognition")


def _locs(ds: api.Dataset) -> set[str]:
    return {loc for i in ds.items for loc in i.metadata["facts"]["locations"]}


def short_locations_manifest(root: Path, n_loc: int = 60) -> Path:
    """Every third location has only 2 images (too few for ISR/TAL/SOV/TPL, enough for POV):
    the collection on which the old per-task split leaked."""
    (root / "img").mkdir(parents=True)
    rows = ["location,image,timestamp,category,cloud_cover"]
    t0 = datetime(2012, 1, 1, tzinfo=UTC)
    for loc in range(n_loc):
        k = 2 if loc % 3 == 0 else 6
        for v in range(k):
            name = f"img/s{loc}_{v}.png"
            Image.new("RGB", (32, 32), (loc * 3 % 255, v * 30, 90)).save(root / name)
            ts = (t0 + timedelta(days=loc + GAPS[v])).date().isoformat()
            rows.append(f"site{loc},{name},{ts},{['farm', 'port', 'dam'][loc % 3]},0")
    (root / "m.csv").write_text("\n".join(rows) + "\n")
    return root / "m.csv"


def test_short_locations_never_cross_between_tasks(tmp_path: Path) -> None:
    manifest = short_locations_manifest(tmp_path)
    train: set[str] = set()
    test: set[str] = set()
    for task in ("tp_isr", "tp_pov", "tp_tal", "tp_pic", "tp_recognition"):
        for split, acc in (("train", train), ("test", test)):
            ds = api.import_data(task, manifest, {"n": 12, "split": split, "max_cloud_cover": -1})
            acc |= _locs(ds)
    assert train and test
    assert not train & test


@pytest.mark.parametrize("other", [{"seed": 7}, {"n_locations": 40}, {"n": 5}])
def test_synthetic_split_is_stable_across_seed_n_and_collection_size(other: dict) -> None:
    base = {"n_locations": 60}
    test_locs: set[str] = set()
    train_locs: set[str] = set()
    for task in TASKS:
        test_locs |= _locs(api.generate(task, n=20, seed=1, params={**base, "split": "test"}))
        params = {**base, "split": "train", **other}
        n = int(params.pop("n", 20))
        seed = int(params.pop("seed", 1))
        train_locs |= _locs(api.generate(task, n=n, seed=seed, params=params))
    assert test_locs and train_locs
    assert not test_locs & train_locs, other


def test_hash_rule_is_a_property_of_each_location() -> None:
    small = Split.compute([f"loc{i}" for i in range(40)], split_seed=3)
    big = Split.compute([f"loc{i}" for i in range(400)], split_seed=3)
    assert small.test <= big.test and small.train <= big.train
    other = Split.compute([f"loc{i}" for i in range(400)], split_seed=4)
    assert other.test != big.test  # a different split seed is a different split
    assert 40 <= len(big.test) <= 120  # about 20 %


def test_split_file_is_read_by_every_task(tmp_path: Path) -> None:
    manifest = short_locations_manifest(tmp_path / "c")
    out = tmp_path / "split.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "chronoeval",
            "timepercept",
            "split",
            str(manifest),
            "--out",
            str(out),
            "--split-seed",
            "5",
            "--test-fraction",
            "0.5",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    plan = json.loads(out.read_text())
    assert len(plan["train"]) + len(plan["test"]) == 60
    for task in ("tp_pov", "tp_isr"):
        for split in ("train", "test"):
            ds = api.import_data(
                task,
                manifest,
                {"n": 10, "split": split, "split_file": str(out), "max_cloud_cover": -1},
            )
            assert _locs(ds) <= set(plan[split]), (task, split)
    # a split file for another collection is refused with one clear line
    plan["train"] = plan["train"][1:]
    out.write_text(json.dumps(plan))
    with pytest.raises(DataError, match="neither list of the split file"):
        api.import_data("tp_sov", manifest, {"n": 4, "split": "test", "split_file": str(out)})
    plan["test"].append(plan["train"][0])
    out.write_text(json.dumps(plan))
    with pytest.raises(DataError, match="both train and test"):
        api.import_data("tp_eii", manifest, {"n": 4, "split": "test", "split_file": str(out)})


def test_lora_training_set_avoids_test_locations(tmp_path: Path) -> None:
    from chronoeval.train.lora import training_examples

    manifest = short_locations_manifest(tmp_path / "c")
    test = set()
    for task in ("tp_isr", "tp_pov"):
        test |= _locs(api.import_data(task, manifest, {"n": 10, "split": "test"}))
    ex = training_examples(("tp_isr", "tp_pov"), n=10, seed=3, data=manifest)
    assert len(ex) == 20
    locs = set()
    for e in ex:
        ds_items = api.import_data(e.task, manifest, {"n": 10, "seed": 3, "split": "train"})
        locs |= _locs(ds_items)
    assert locs and not locs & test
