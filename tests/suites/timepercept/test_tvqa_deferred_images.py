"""Deferred image checks (core/deferred_images.py) on TemporalVQA's released layout, end to end.

The Hugging Face layout of ``fazliimam/temporal-vqa`` (../shared/peers/temporalvqa/prompts.json:
parquet under ``temporal_order/`` with columns image_1, image_2, label) built in tmp_path with
three rows; ``api.run`` imports it into a cached chronoeval dataset, the second run's load stamps
its images, and from the third run on each item's image checks are made when its job is made.
The images live inside the parquet file: touching it imports again (the same items), a corrupted
or missing cell is one error at the import naming the file, row, item and field."""

from __future__ import annotations

import io
import json
import os
import sqlite3
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core import verified
from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import DataError

TASK = "tvqa_order"
MODEL = "constant:{'Answer': 'First image'}"


def _png(shade: int) -> dict:
    buf = io.BytesIO()
    Image.new("RGB", (12, 9), (shade, 40, 200 - shade)).save(buf, format="PNG")
    return {"bytes": buf.getvalue(), "path": None}


def _write(root: Path, cells: dict[tuple[int, str], object] | None = None) -> Path:
    """Three temporal-order rows (labels First, Second, First); ``cells`` overrides image cells."""
    rows = [
        {"image_1": _png(20 * i), "image_2": _png(20 * i + 10), "label": lab}
        for i, lab in enumerate(("First", "Second", "First"))
    ]
    for (i, col), cell in (cells or {}).items():
        rows[i][col] = cell
    f = root / "temporal_order" / "test-00000-of-00001.parquet"
    f.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), f)
    return f


def _run(data: Path, run_dir: Path, **kw):  # type: ignore[no-untyped-def]
    common = {"progress": False, "plots": False, "concurrency": 1}
    return api.run([TASK], MODEL, data=data, run_dir=run_dir, **common, **kw)


def _result(res) -> tuple:  # type: ignore[no-untyped-def]
    recs = []
    for r in sorted(res.records, key=lambda r: r.item_id):
        rec = r.to_json()
        rec.pop("latency_s", None)
        recs.append(rec)
    task = res.results["tasks"][TASK]
    return task["dataset"]["content_hash"], recs, task["counts"], task["metrics"]["overall"]


def _imported(run_dir: Path) -> Path:
    return Path(json.loads((run_dir / "config.json").read_text())["tasks"][TASK]["dataset"])


def _stamped(data: Path, tmp_path: Path, image_checks: list[str]) -> tuple:
    _run(data, tmp_path / "r1")  # the import
    clean = _result(_run(data, tmp_path / "r2"))  # its first load: every image checked, stamped
    stamp = json.loads(verified._stamp_path(_imported(tmp_path / "r2")).read_text())
    assert stamp["complete"] is True and len(image_checks) == 12  # 3 rows x 2 orders x 2 images
    return clean


def test_parquet_touched_same_bytes_same_result_and_checks_deferred(
    tmp_path: Path, image_checks: list[str]
) -> None:
    f = _write(tmp_path / "tvqa")
    clean = _stamped(tmp_path / "tvqa", tmp_path, image_checks)
    assert _result(_run(tmp_path / "tvqa", tmp_path / "r3")) == clean
    assert len(image_checks) == 12  # deferred: unchanged copies, a stat each
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))
    assert _result(_run(tmp_path / "tvqa", tmp_path / "r4")) == clean  # imported again, same


def test_corrupted_cell_is_one_line_error_and_fixed_resumes(
    tmp_path: Path, image_checks: list[str]
) -> None:
    f = _write(tmp_path / "tvqa")
    clean = _stamped(tmp_path / "tvqa", tmp_path, image_checks)
    good = f.read_bytes()
    _write(tmp_path / "tvqa", {(1, "image_2"): {"bytes": b"\x89PNG garbage", "path": None}})
    run_dir = tmp_path / "r3"
    with pytest.raises(DataError) as err:
        _run(tmp_path / "tvqa", run_dir)
    line = str(err.value)
    assert "\n" not in line
    for part in (f"{f.name}:1", "item 'tvqa-order-test-00000-of-00001-00001'", "field 'image_2'"):
        assert part in line, (part, line)
    f.write_bytes(good)
    assert _result(_run(tmp_path / "tvqa", run_dir)) == clean


def test_missing_cell_is_one_line_error(tmp_path: Path, image_checks: list[str]) -> None:
    _write(tmp_path / "tvqa")
    _stamped(tmp_path / "tvqa", tmp_path, image_checks)
    _write(tmp_path / "tvqa", {(2, "image_1"): None})
    with pytest.raises(DataError, match=r":2, item '[^']*-00002', field 'image_1': no image bytes"):
        _run(tmp_path / "tvqa", tmp_path / "r3")


def test_imported_copy_corrupted_stops_part_way_limit_checks_only_asked(
    tmp_path: Path, image_checks: list[str]
) -> None:
    _write(tmp_path / "tvqa")
    clean = _stamped(tmp_path / "tvqa", tmp_path, image_checks)
    root = _imported(tmp_path / "r2")
    items = load_dataset(root).items
    victim = items[4]  # row 2, first order
    copy = root / victim.images[1].path
    good = copy.read_bytes()
    copy.write_bytes(b"\x89PNG garbage")
    res = _run(tmp_path / "tvqa", tmp_path / "r3", limit=4)  # item 5 not asked: not checked
    assert len(res.records) == 4 and len(image_checks) == 12
    run_dir = tmp_path / "r4"
    with pytest.raises(DataError) as err:
        _run(tmp_path / "tvqa", run_dir)
    line = str(err.value)
    for part in ("items.jsonl:5", f"item {victim.id!r}", victim.images[1].path, "do not match"):
        assert part in line, (part, line)
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        kept = sorted(r[0] for r in conn.execute("SELECT item_id FROM responses"))
    assert kept == sorted(i.id for i in items[:4])
    copy.write_bytes(good)
    assert _result(_run(tmp_path / "tvqa", run_dir)) == clean
