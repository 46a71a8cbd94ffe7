"""Collections in their published layouts: fMoW-rgb (train/val/test, per-image JSON as the fMoW
baseline reads it), UC Merced (one image per place), SITSCC-style groups via a manifest; the
recognition control's options come from the collection's own classes without near-synonyms;
exported image names do not reveal the order; TemporalVQA's pooled Overall."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.suites.timepercept.classes import (
    FMOW_CLASSES,
    UCM_CLASSES,
    distractors,
    near_synonyms,
)
from chronoeval.suites.timepercept.collection import load_collection, load_fmow
from chronoeval.suites.timepercept.temporalvqa import pooled_overall
from suites.timepercept.fmow_fixture import make_published_fmow


def test_published_fmow_layout_loads(tmp_path: Path) -> None:
    coll = load_fmow(make_published_fmow(tmp_path / "fmow"))
    assert coll.report.images_seen == 39  # _msrgb files are not fMoW-rgb
    assert len(coll.locations) == 7
    assert coll.locations["train/airport_hangar_101"][0].category == "airport_hangar"
    assert coll.locations["test/0000017"][0].category == ""  # unlabelled, never a class
    assert "" not in coll.categories and len(coll.categories) == 6
    ts = coll.locations["val/zoo_106"][1].timestamp
    assert ts == datetime(2013, 3, 1, 15, 40, 12, tzinfo=UTC) + timedelta(days=12 + 106)


def test_fmow_recognition_uses_own_classes_without_synonyms(tmp_path: Path) -> None:
    root = make_published_fmow(tmp_path / "fmow")
    ds = api.import_data("tp_recognition", root, {"n": 30, "split": "all"})
    own = {c.replace("_", " ") for c in load_fmow(root).categories}
    for item in ds.items:
        assert set(item.choices or ()) <= own
        gold = item.metadata["facts"]["categories"][0]
        others = [o for o in item.metadata["facts"]["options"] if o != gold]
        assert not any(near_synonyms(gold, o) for o in others), item.choices
        # airport_hangar and airport_terminal never appear together
        assert not {"airport hangar", "airport terminal"} <= set(item.choices or ())


def test_near_synonyms_rule() -> None:
    assert near_synonyms("airport", "airport_terminal")
    assert near_synonyms("denseresidential", "mediumresidential")
    assert near_synonyms("runway", "airport")
    assert near_synonyms("storage_tank", "storagetanks")
    assert not near_synonyms("fire_station", "police_station")
    assert not near_synonyms("educational_institution", "recreational_facility")
    rng = random.Random(0)
    for _ in range(200):
        gold = rng.choice(UCM_CLASSES)
        ds = distractors(gold, UCM_CLASSES, 4, rng)
        assert len(ds) == 4
        opts = [gold, *ds]
        assert not any(near_synonyms(a, b) for a in opts for b in opts if a != b), opts
        gold = rng.choice(FMOW_CLASSES)
        assert len(distractors(gold, FMOW_CLASSES, 4, rng)) == 4


def make_ucm(root: Path) -> Path:
    for cls in ("beach", "forest", "harbor", "denseresidential", "sparseresidential", "river"):
        d = root / "Images" / cls
        d.mkdir(parents=True)
        for k in range(3):
            Image.new("RGB", (256, 256), (len(cls) * 9, k * 40, 50)).save(d / f"{cls}{k:02d}.tif")
    return root


def test_ucm_release_folder_serves_recognition_and_order_tasks_refuse(tmp_path: Path) -> None:
    root = make_ucm(tmp_path / "UCMerced_LandUse")
    coll = load_collection(root)
    assert len(coll.locations) == 18
    ds = api.import_data("tp_recognition", root, {"n": 20, "split": "all"})
    for item in ds.items:
        choices = set(item.choices or ())
        assert not {"denseresidential", "sparseresidential"} <= choices
        assert not {"beach", "river"} <= choices  # related scenes are never each other's foil
    with pytest.raises(DataError, match="no usable|no location|fewer than"):
        api.import_data("tp_isr", root, {"n": 2, "split": "all"})


def test_ucm_style_manifest_one_image_per_location(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    rows = ["location,image,timestamp,category"]
    for k, cls in enumerate(("beach", "forest", "runway", "river", "chaparral", "tenniscourt")):
        Image.new("RGB", (64, 64), (k * 30, 90, 90)).save(tmp_path / "img" / f"{k}.png")
        rows.append(f"{cls}{k},img/{k}.png,2010-01-01,{cls}")
    (tmp_path / "m.csv").write_text("\n".join(rows) + "\n")
    ds = api.import_data("tp_recognition", tmp_path / "m.csv", {"n": 8, "split": "all"})
    assert len(ds.items) == 8
    with pytest.raises(DataError):
        api.import_data("tp_pov", tmp_path / "m.csv", {"n": 2, "split": "all"})


def test_exported_image_names_do_not_reveal_order(tmp_path: Path) -> None:
    root = make_published_fmow(tmp_path / "fmow")
    ds = api.import_data("tp_isr", root, {"n": 6, "split": "all"})
    for item in ds.items:
        names = [p.path for p in item.images]
        for n in names:
            stem = Path(n).stem
            assert all(c in "0123456789abcdef" for c in stem) and len(stem) == 20
            assert "_rgb" not in n and "airport" not in n


def test_verify_recognition_through_the_cli(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "chronoeval",
            "verify",
            "--task",
            "tp_recognition",
            "--n",
            "8",
            "--param",
            "n_locations=25",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert "8 items checked, 0 mismatches" in proc.stdout + proc.stderr


def test_temporalvqa_pooled_overall_reproduces_table_4() -> None:
    # TimePerceptBench Table 4: (TOU, TIU, Overall). MiniCPM "Before" is printed 65.90 in the
    # table and 65.92 in the text (the formula gives 65.92); Qwen3-VL "Before" (60.47) repeats its
    # "After" and does not follow from its own columns (61.18) - see docs/suites/timepercept.md.
    for tou, tiu, overall in (
        (0.5, 0.256, 0.4639),
        (0.5861, 0.504, 0.5740),
        (0.5597, 0.40, 0.5361),
        (0.675, 0.568, 0.6592),
        (0.6042, 0.616, 0.6059),
        (0.6083, 0.584, 0.6047),
    ):
        got = pooled_overall({"value": tou, "n": 720}, {"value": tiu, "n": 125})
        assert got["value"] == pytest.approx(overall, abs=6e-5)
        assert got["n"] == 845


def test_random_recognition_answers_among_the_listed_options(tmp_path: Path) -> None:
    root = tmp_path / "UCM"
    for cls in ("beach", "forest", "harbor"):  # three unrelated classes: 3 options per item
        d = root / "Images" / cls
        d.mkdir(parents=True)
        Image.new("RGB", (32, 32), (len(cls) * 20, 40, 50)).save(d / f"{cls}00.tif")
    res = api.run(["tp_recognition"], "random", data=root, params={"split": "all"}, n=30,
                  run_dir=tmp_path / "r", progress=False, plots=False)  # fmt: skip
    assert {len(r.metadata["facts"]["options"]) for r in res.records} == {3}
    assert {r.answer for r in res.records} <= {"A", "B", "C"}
