"""Exports: the Hugging Face Parquet dataset loads with `datasets` and round-trips items and
images; the DateTimeQA layout round-trips through the Lost in Time loader."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from chronoeval import api
from chronoeval.cli import app
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.registry import get_task
from helpers import make_clock_dataset


def _pixels(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGB"))


@pytest.mark.parametrize("kind", ["clock", "calendar"])
def test_hf_parquet_round_trips_items_and_images(kind: str, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets", reason="`datasets` (extra hf) is not installed")
    if kind == "clock":
        ds = make_clock_dataset(tmp_path / "ds", n=5)
    else:  # six questions sharing one calendar image
        ds = api.generate("calendarqa", n=6, seed=3, out=tmp_path / "ds")
    api.export(tmp_path / "hf", data=ds.root)
    loaded = datasets.load_dataset(
        "parquet",
        data_files=str(tmp_path / "hf" / "data" / "*.parquet"),
        split="train",
        cache_dir=str(tmp_path / "hf_cache"),
    )
    assert len(loaded) == len(ds.items)
    task = get_task(ds.manifest.task)
    raw = loaded.cast_column("images", datasets.List(datasets.Image(decode=False)))
    for item, row, raw_row in zip(ds.items, loaded, raw, strict=True):
        assert (row["id"], row["suite"], row["task"]) == (item.id, item.suite, item.task)
        assert json.loads(row["target"]) == item.target
        assert row["answer"] == task.gold_text(item)
        assert json.loads(row["metadata"]) == item.metadata
        assert row["choices"] == (list(item.choices) if item.choices is not None else None)
        # messages: image parts index into `images`, whose bytes are the original files
        msgs = json.loads(row["messages"])
        assert [m["role"] for m in msgs] == [m.role for m in item.messages]
        texts = [p["text"] for m in msgs for p in m["content"] if p["type"] == "text"]
        assert texts == [m.text for m in item.messages]
        indices = [p["index"] for m in msgs for p in m["content"] if p["type"] == "image"]
        assert indices == list(range(len(item.images)))
        for part, img in zip(item.images, raw_row["images"], strict=True):
            assert hashlib.sha256(img["bytes"]).hexdigest() == part.sha256
        original = (ds.root / item.images[0].path).read_bytes()
        assert isinstance(row["image"], Image.Image)  # decoded by the `Image` feature
        assert np.array_equal(np.asarray(row["image"].convert("RGB")), _pixels(original))


@pytest.mark.parametrize("task_name", ["clockqa", "calendarqa"])
def test_datetimeqa_layout_round_trips_through_the_loader(task_name: str, tmp_path: Path) -> None:
    ds = api.generate(task_name, n=6, seed=5, out=tmp_path / "ds")
    files = api.export(tmp_path / "dtqa", layout="datetimeqa", data=ds.root)
    split = {"clockqa": "clock", "calendarqa": "calendar"}[task_name]
    assert [f.name for f in files] == [f"{split}-00000-of-00001.parquet"]
    back = api.import_data(task_name, tmp_path / "dtqa")
    key = get_task(task_name).group_by[0]
    assert len(back.items) == len(ds.items)
    for orig, item in zip(ds.items, back.items, strict=True):
        assert item.messages[0].text == orig.messages[0].text
        assert item.target == orig.target
        assert item.metadata[key] == orig.metadata[key]
        assert [p.sha256 for p in item.images] == [p.sha256 for p in orig.images]


def test_export_refuses_a_non_empty_directory_and_unknown_layouts(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=2)
    with pytest.raises(ChronoevalError, match="unknown export layout 'nope'.*datetimeqa, hf"):
        api.export(tmp_path / "x", layout="nope", data=ds.root)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "f").write_text("keep me")
    with pytest.raises(ChronoevalError, match="not empty"):
        api.export(tmp_path / "full", data=ds.root)
    assert (tmp_path / "full" / "f").read_text() == "keep me"


def test_cli_export(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=3)
    args = ["export", "--data", str(ds.root), "--out", str(tmp_path / "out"),
            "--layout", "datetimeqa"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "data" / "clock-00000-of-00001.parquet").is_file()
