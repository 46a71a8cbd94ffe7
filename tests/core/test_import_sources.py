"""What an import was built from outside ``--data`` (core/sources.py): noted files, absent paths,
walked option folders and files, and an unreadable record, each deciding whether to import again."""

from __future__ import annotations

import json
import os
from pathlib import Path

from chronoeval.core import sources


def _record(root: Path, data: Path, options: dict, reads: list[Path]) -> None:  # type: ignore[type-arg]
    with sources.recording(data, options) as body:
        for p in reads:
            sources.note(p)
    root.mkdir(exist_ok=True)
    sources.write(root, body())


def _later(p: Path) -> None:
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def test_noted_files_and_absent_paths_decide(tmp_path: Path) -> None:
    data, images, root = tmp_path / "data", tmp_path / "images", tmp_path / "ds"
    data.mkdir()
    images.mkdir()
    (images / "a.jpg").write_bytes(b"a")
    (images / "other.jpg").write_bytes(b"o")
    _record(root, data, {"images_root": str(images)}, [images / "b.jpg", images / "a.jpg"])
    body = json.loads((root / sources.SOURCES).read_text())
    assert body["walked"] == {}  # the loader noted paths under it: no walk
    assert [p for p, i in body["noted"] if i is None] == [str(images / "b.jpg")]
    assert sources.unchanged(root)
    _later(images / "other.jpg")  # not looked up
    assert sources.unchanged(root)
    _later(images / "a.jpg")
    assert not sources.unchanged(root)
    _record(root, data, {"images_root": str(images)}, [images / "b.jpg", images / "a.jpg"])
    assert sources.unchanged(root)
    (images / "b.jpg").write_bytes(b"b")  # appears where the loader looked first
    assert not sources.unchanged(root)


def test_a_folder_or_file_nothing_was_noted_under_is_walked(tmp_path: Path) -> None:
    data, folder, root = tmp_path / "data", tmp_path / "photos", tmp_path / "ds"
    (folder / "sub").mkdir(parents=True)
    data.mkdir()
    (folder / "sub" / "p.jpg").write_bytes(b"p")
    events = tmp_path / "events.json"
    events.write_text("[]")
    options = {"images_root": str(folder), "events": str(events), "n": 3, "mode": "files"}
    _record(root, data, options, [])
    body = json.loads((root / sources.SOURCES).read_text())
    assert set(body["walked"]) == {str(folder.resolve()), str(events.resolve())}
    assert sources.unchanged(root)
    (folder / "sub" / "new.jpg").write_bytes(b"n")
    assert not sources.unchanged(root)
    _record(root, data, options, [])
    events.write_text('[{"year": 1}]')
    assert not sources.unchanged(root)


def test_an_option_inside_data_is_left_to_the_import_key(tmp_path: Path) -> None:
    data, root = tmp_path / "data", tmp_path / "ds"
    (data / "images").mkdir(parents=True)
    _record(root, data, {"images_root": str(data / "images")}, [])
    assert json.loads((root / sources.SOURCES).read_text())["walked"] == {}


def test_a_missing_or_unreadable_record_imports_again(tmp_path: Path) -> None:
    root = tmp_path / "ds"
    root.mkdir()
    assert not sources.unchanged(root)
    (root / sources.SOURCES).write_text("{not json")
    assert not sources.unchanged(root)
    (root / sources.SOURCES).write_text(json.dumps({"version": 0, "noted": [], "walked": {}}))
    assert not sources.unchanged(root)
    for bad in ({"noted": 3}, {"noted": 3, "walked": {}}, {"noted": [["a"]], "walked": {}}):
        (root / sources.SOURCES).write_text(json.dumps({"version": sources.VERSION, **bad}))
        assert not sources.unchanged(root)


def test_a_file_that_cannot_be_stated_under_a_walked_folder_counts(tmp_path: Path) -> None:
    """A dangling symlink (or a file without permission) is recorded as -1s, not left out: one
    appearing there, or its target appearing, is a change."""
    data, folder, root = tmp_path / "data", tmp_path / "photos", tmp_path / "ds"
    data.mkdir()
    folder.mkdir()
    (folder / "p.jpg").write_bytes(b"p")
    _record(root, data, {"images_root": str(folder)}, [])
    (folder / "q.jpg").symlink_to(tmp_path / "elsewhere.jpg")  # dangling
    assert not sources.unchanged(root)
    _record(root, data, {"images_root": str(folder)}, [])
    assert sources.unchanged(root)
    (tmp_path / "elsewhere.jpg").write_bytes(b"q")
    assert not sources.unchanged(root)
