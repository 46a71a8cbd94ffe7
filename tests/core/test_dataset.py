from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import DataError, UnknownNameError
from chronoeval.core.items import Item
from chronoeval.core.registry import get_task
from helpers import make_clock_dataset


def test_roundtrip_and_content_hash(tmp_path: Path) -> None:
    a = make_clock_dataset(tmp_path / "a")
    b = make_clock_dataset(tmp_path / "b")
    assert a.content_hash == b.content_hash  # deterministic
    loaded = load_dataset(tmp_path / "a")
    assert [i.to_json() for i in loaded.items] == [i.to_json() for i in a.items]
    assert loaded.manifest.n_items == 12
    assert (tmp_path / "a" / "images" / "c0.png").is_file()


def test_line_not_json_names_file_and_line(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    path = ds.root / "items.jsonl"
    lines = path.read_text().splitlines()
    lines[3] = lines[3][:-5]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as exc:
        load_dataset(ds.root)
    assert "items.jsonl:4" in str(exc.value) and "not valid JSON" in str(exc.value)


def test_missing_field_names_item_and_field(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    path = ds.root / "items.jsonl"
    lines = path.read_text().splitlines()
    obj = json.loads(lines[2])
    del obj["target"]
    lines[2] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as exc:
        load_dataset(ds.root)
    msg = str(exc.value)
    assert "items.jsonl:3" in msg and "'c002'" in msg and "'target'" in msg


def test_missing_and_corrupt_images(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    (ds.root / "images" / "c5.png").unlink()
    with pytest.raises(DataError, match=r"item 'c005'.*c5.png.*missing"):
        load_dataset(ds.root)
    ds = make_clock_dataset(tmp_path / "e")
    (ds.root / "images" / "c7.png").write_bytes(b"\x89PNG garbage")
    with pytest.raises(DataError, match=r"item 'c007'.*do not match"):
        load_dataset(ds.root)


def test_edited_items_fail_content_hash(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    path = ds.root / "items.jsonl"
    path.write_text(path.read_text().replace('"3:14:26"', '"3:14:27"'))
    with pytest.raises(DataError, match="content hash"):
        load_dataset(ds.root)


def test_wrong_gold_type_is_a_clear_error(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=3)
    task = get_task("clockqa")
    bad = Item.from_json({**ds.items[1].to_json(), "target": 1234})
    with pytest.raises(DataError) as exc:
        task.validate(bad)
    assert "'c001'" in str(exc.value) and "'target'" in str(exc.value)
    bad = Item.from_json({**ds.items[1].to_json(), "target": "13:75:00"})
    with pytest.raises(DataError, match="target"):
        task.validate(bad)


def test_prepare_dataset_reports_the_line(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=4)
    path = ds.root / "items.jsonl"
    lines = path.read_text().splitlines()
    obj = json.loads(lines[1])
    obj["target"] = ["not", "a", "time"]
    lines[1] = json.dumps(obj, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")
    import hashlib

    manifest = json.loads((ds.root / "manifest.json").read_text())
    manifest["content_hash"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (ds.root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError) as exc:
        api.prepare_dataset(get_task("clockqa"), data=ds.root)
    assert "items.jsonl:2" in str(exc.value) and "'target'" in str(exc.value)


def test_unknown_task_lists_known() -> None:
    with pytest.raises(UnknownNameError, match="clockqa"):
        get_task("clock-qa")
