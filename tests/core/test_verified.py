"""The verify-once stamp: images are checked on the first load of a dataset version only, and
anything that changes a file (or the checks) brings the checks back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from chronoeval.core import verified
from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import DataError
from helpers import age_file, make_clock_dataset


def test_second_load_skips_image_checks(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    assert len(checks) == 12
    again = load_dataset(ds.root)
    assert len(checks) == 12  # nothing re-read
    assert [i.to_json() for i in again.items] == [i.to_json() for i in ds.items]


def test_rewritten_image_is_checked_again(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    img = ds.root / "images" / "c7.png"
    img.write_bytes(b"\x89PNG garbage")
    age_file(img)
    with pytest.raises(DataError, match=r"item 'c007'.*do not match"):
        load_dataset(ds.root)
    assert checks[12:] == ["images/c7.png"]


def test_replaced_image_same_size_and_times_is_caught(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    img = ds.root / "images" / "c3.png"
    st = img.stat()
    data = bytearray(img.read_bytes())
    data[-20] ^= 0xFF
    tmp = img.with_name("swap")
    tmp.write_bytes(bytes(data))
    os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))  # forged mtime; a new inode and ctime
    os.replace(tmp, img)
    with pytest.raises(DataError, match=r"item 'c003'.*do not match"):
        load_dataset(ds.root)


def test_edited_items_ignore_the_stamp(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    items = ds.root / "items.jsonl"
    items.write_text(items.read_text())  # same bytes, rewritten: another file version
    age_file(items)
    load_dataset(ds.root)
    assert len(checks) == 24


def test_copied_dataset_is_checked_in_full(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    shutil.copytree(ds.root, tmp_path / "copy")
    load_dataset(tmp_path / "copy")
    assert len(checks) == 24
    assert not any(
        p.name.endswith(".json") and p.name != "manifest.json"
        for p in (tmp_path / "copy").iterdir()
    )  # no stamp inside a dataset


def test_fresh_files_are_not_vouched_for(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verified, "RACY_NS", 3600 * 10**9)
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    load_dataset(ds.root)
    assert len(checks) == 24


def test_new_checks_version_checks_again(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    monkeypatch.setattr(verified, "CHECKS_VERSION", "test-next")
    load_dataset(ds.root)
    assert len(checks) == 24


def test_verify_always_env(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    monkeypatch.setenv("CHRONOEVAL_VERIFY_ALWAYS", "1")
    load_dataset(ds.root)
    assert len(checks) == 24


def test_a_fully_vouched_load_leaves_the_stamp_alone_and_a_change_still_counts(
    tmp_path: Path, checks: list[str]
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    stamp_file = verified._stamp_path(ds.root.resolve())
    body = stamp_file.read_bytes()
    os.utime(stamp_file, ns=(1, 1))
    load_dataset(ds.root)  # every image vouched for: nothing to write
    assert stamp_file.stat().st_mtime_ns == 1 and stamp_file.read_bytes() == body
    _same_bytes_new_file(ds.root / "images" / "c5.png")
    load_dataset(ds.root)
    assert checks[12:] == ["images/c5.png"]
    assert stamp_file.stat().st_mtime_ns != 1  # the new identity is vouched for from now on
    load_dataset(ds.root)
    assert checks[12:] == ["images/c5.png"]


def test_a_stamp_rewritten_on_disk_is_read_again(tmp_path: Path, checks: list[str]) -> None:
    import json

    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    load_dataset(ds.root)  # the parsed stamp is kept in this process now
    assert len(checks) == 12
    stamp_file = verified._stamp_path(ds.root.resolve())
    body = json.loads(stamp_file.read_text())
    body["images"] = {}  # another process's stamp, vouching for nothing
    new = stamp_file.with_name("other.tmp")
    new.write_text(json.dumps(body))
    os.replace(new, stamp_file)
    load_dataset(ds.root)
    assert len(checks) == 24  # every image checked again: the new file was read
    stamp_file.write_text("[1, 2]")  # not a stamp at all: ignored, every image checked
    load_dataset(ds.root)
    assert len(checks) == 36


def test_a_shared_image_does_not_hide_another_images_change(
    tmp_path: Path, checks: list[str]
) -> None:
    # two items on one image: the stamp's check counts images, not calls (a review found a count
    # of calls that let the shared image's two hits stand in for a changed image's miss)
    import hashlib
    import json

    ds = make_clock_dataset(tmp_path / "d")
    items = ds.root / "items.jsonl"
    rows = [json.loads(line) for line in items.read_text().splitlines()]
    rows[1]["messages"][0]["content"][0] = dict(rows[0]["messages"][0]["content"][0])
    items.write_text("".join(json.dumps(r) + "\n" for r in rows))
    manifest = ds.root / "manifest.json"
    meta = json.loads(manifest.read_text())
    meta["content_hash"] = hashlib.sha256(items.read_bytes()).hexdigest()
    manifest.write_text(json.dumps(meta))
    (ds.root / "images" / "c1.png").unlink()
    load_dataset(ds.root)
    assert len(checks) == 12  # each item's image part checked, the shared one twice
    _same_bytes_new_file(ds.root / "images" / "c5.png")
    load_dataset(ds.root)
    assert checks[12:] == ["images/c5.png"]
    load_dataset(ds.root)  # the new identity was vouched for: nothing checked again
    assert checks[12:] == ["images/c5.png"]


def _same_bytes_new_file(img: Path) -> None:
    """Replace ``img`` by a copy of its bytes: the same content in another file (another inode)."""
    new = img.with_name(img.stem + ".new")
    new.write_bytes(img.read_bytes())
    os.replace(new, img)
