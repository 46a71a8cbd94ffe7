"""MINED's released files with images under an images_root outside the data folder: the import
notes the image paths it looked up (core/sources.py), so a changed image imports again and a
file elsewhere under images_root does not."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core import sources
from suites.mined.mined_helpers import PEERS, placeholder_images, placeholder_png

pytestmark = pytest.mark.skipif(not PEERS.is_dir(), reason="released MINED data not present")
FILE = "Dimension1_timestamp.json"


def test_released_images_noted_changed_one_imports_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "mined"
    data.mkdir()
    head = json.loads((PEERS / FILE).read_text())[:2]
    (data / FILE).write_text(json.dumps(head), encoding="utf-8")
    images = tmp_path / "imgs"
    placeholder_images(images, [FILE])
    params = {"images_root": str(images)}
    first = api.import_data("mined_timestamp", data, params)
    body = json.loads((first.root / sources.SOURCES).read_text())
    assert body["walked"] == {} and str((images / head[0]["image"]).resolve()) in dict(
        body["noted"]
    )
    (images / "unrelated.jpg").write_bytes(placeholder_png(99))
    again = api.import_data("mined_timestamp", data, params)
    assert again.root == first.root and again.content_hash == first.content_hash
    assert (again.root / "manifest.json").stat().st_mtime_ns == (
        first.root / "manifest.json"
    ).stat().st_mtime_ns  # not imported again
    img = images / head[0]["image"]
    img.write_bytes(placeholder_png(77))
    st = img.stat()
    os.utime(img, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    changed = api.import_data("mined_timestamp", data, params)
    assert changed.content_hash != first.content_hash
    shas = {p.sha256 for item in changed.items for p in item.images}
    assert hashlib.sha256(placeholder_png(77)).hexdigest() in shas
