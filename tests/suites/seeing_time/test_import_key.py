"""What keys an import of a user collection (api.import_data, core/sources.py): two runs
re-importing into the same folder at once, a relative images_root from another directory, and a
``Path``-valued load option."""

from __future__ import annotations

import hashlib
import io
import json
import os
import threading
from pathlib import Path

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core import dataset as dataset_mod
from chronoeval.core import sources

TASK = "seeing_year"


def _jpeg(i: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (30 * i, 120, 200 - 20 * i)).save(buf, format="JPEG")
    return buf.getvalue()


def _collection(tmp_path: Path, images: Path, shift: int = 0) -> Path:
    """Three photos under ``images`` and a collection file naming them (relative to images_root)."""
    images.mkdir(parents=True)
    rows = []
    for i in range(3):
        (images / f"p{i}.jpg").write_bytes(_jpeg(i + shift))
        rows.append({"image": f"p{i}.jpg", "year": 1990 + i, "category": "sports", "era": "X"})
    manifest = tmp_path / "coll" / "photos.jsonl"
    if not manifest.exists():
        manifest.parent.mkdir(exist_ok=True)
        manifest.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return manifest


def _shas(ds) -> set[str]:  # type: ignore[no-untyped-def]
    return {p.sha256 for item in ds.items for p in item.images}


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "cache"))


def test_two_runs_re_importing_at_once_both_get_the_new_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An image changed, then two runs import at once into the same folder: both reach the
    rename together (a barrier). One puts its dataset in place, the other loads it, no OSError;
    each dataset is renamed into place with its sources.json already in it."""
    images = tmp_path / "photos"
    manifest = _collection(tmp_path, images)
    params = {"images_root": str(images)}
    api.import_data(TASK, manifest, params)
    (images / "p1.jpg").write_bytes(_jpeg(5))

    real = os.replace
    barrier = threading.Barrier(2, timeout=20)
    had_sources: list[bool] = []

    def racing(src, dst, *a, **kw):  # type: ignore[no-untyped-def]
        if Path(src).name.startswith(f".{Path(dst).name}.") and Path(src).is_dir():
            had_sources.append((Path(src) / sources.SOURCES).is_file())
            if len(had_sources) <= 2:
                barrier.wait()
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(dataset_mod.os, "replace", racing)
    got: list[object] = [None, None]

    def one(k: int) -> None:
        try:
            got[k] = api.import_data(TASK, manifest, params)
        except BaseException as exc:  # noqa: BLE001 - reported below
            got[k] = exc

    threads = [threading.Thread(target=one, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(isinstance(g, BaseException) for g in got), got
    assert had_sources == [True, True]
    new = hashlib.sha256(_jpeg(5)).hexdigest()
    assert all(new in _shas(g) for g in got)
    (root,) = {g.root for g in got}  # type: ignore[attr-defined]
    assert sources.unchanged(root)
    assert [p.name for p in root.parent.iterdir() if p.name.startswith(".")] == []  # nothing left


def test_a_relative_images_root_from_another_directory_is_another_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    manifest = _collection(tmp_path, a / "imgs")
    _collection(tmp_path, b / "imgs", shift=5)
    monkeypatch.chdir(a)
    first = api.import_data(TASK, manifest, {"images_root": "imgs"})
    monkeypatch.chdir(b)
    other = api.import_data(TASK, manifest, {"images_root": "imgs"})
    assert other.root != first.root
    assert _shas(other) == {hashlib.sha256(_jpeg(i + 5)).hexdigest() for i in range(3)}


def test_a_path_valued_images_root_imports_again_when_an_image_changes(tmp_path: Path) -> None:
    images = tmp_path / "photos"
    manifest = _collection(tmp_path, images)
    params = {"images_root": images}  # a Path, as a Python caller passes it
    first = api.import_data(TASK, manifest, params)
    assert api.import_data(TASK, manifest, params).root == first.root
    (images / "p1.jpg").write_bytes(_jpeg(5))
    again = api.import_data(TASK, manifest, params)
    assert hashlib.sha256(_jpeg(5)).hexdigest() in _shas(again)
