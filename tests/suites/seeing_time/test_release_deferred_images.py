"""Deferred image checks (core/deferred_images.py) on the released ChronoVision layout, end to end.

A few localisation rows of the release (read in place from ../shared/peers/chronovision), written
in the published tree ``artifacts/localization/<category>.jsonl`` under tmp_path, with small JPEGs
at the rows' Windows paths minus the drive under ``images_root``. ``api.run`` imports the release
into a cached chronoeval dataset (api.import_data), the second run's load stamps its images (the
stamp complete), and from the third run on each item's image checks are made when its job is made.
Then: an image touched with the same bytes, corrupted, replaced or deleted, in the release (the
user's images_root) and in the imported copy, and ``limit``."""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core import verified
from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import DataError

PEERS = Path(__file__).resolve().parents[4] / "shared" / "peers" / "chronovision"
if not PEERS.is_dir():
    PEERS = Path("/work/shared/peers/chronovision")
pytestmark = pytest.mark.skipif(not PEERS.is_dir(), reason="released ChronoVision files not here")

TASK = "seeing_localization"
MODEL = "constant:Qing"
ROWS = {"carving": 3, "fan": 3}  # the first rows of two released files: 6 items


def _jpeg(i: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (30 * i, 120, 200 - 20 * i)).save(buf, format="JPEG")
    return buf.getvalue()


@dataclass
class Release:
    data: Path  # the annotation tree (--data)
    images: Path  # images_root
    files: list[Path]  # each item's image under images_root, in item order
    ids: list[str]

    def run(self, run_dir: Path, **kw):  # type: ignore[no-untyped-def]
        params = {"images_root": str(self.images), **kw.pop("params", {})}
        common = {"progress": False, "plots": False, "concurrency": 1}
        return api.run(
            [TASK], MODEL, data=self.data, params=params, run_dir=run_dir, **common, **kw
        )


@pytest.fixture
def release(tmp_path: Path) -> Release:
    data, images = tmp_path / "chronovision", tmp_path / "images"
    (data / "artifacts" / "localization").mkdir(parents=True)
    files, ids = [], []
    for category, n in ROWS.items():
        src = PEERS / "artifacts" / "localization" / f"{category}.jsonl"
        lines = src.read_text(encoding="utf-8").splitlines()[:n]
        (data / "artifacts" / "localization" / src.name).write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
        for line in lines:
            row = json.loads(line)
            p = images.joinpath(*PureWindowsPath(row["image"]).parts[1:])  # CHA/Qing/carving/1.jpg
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(_jpeg(len(files)))
            files.append(p)
            ids.append(f"{category}-{row['id']}")
    return Release(data, images, files, ids)


def _result(res) -> tuple:  # type: ignore[no-untyped-def]
    """What a run found: the dataset's content hash, each record as scored (what was asked, the
    images by sha256, the reply, the scores) and the headline."""
    recs = []
    for r in sorted(res.records, key=lambda r: r.item_id):
        rec = r.to_json()
        rec.pop("latency_s", None)
        recs.append(rec)
    task = res.results["tasks"][TASK]
    return task["dataset"]["content_hash"], recs, task["counts"], task["metrics"]["overall"]


def _answers(run_dir: Path) -> list[str]:
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        rows = conn.execute("SELECT item_id FROM responses WHERE error IS NULL").fetchall()
    return sorted(r[0] for r in rows)


def _imported(run_dir: Path) -> Path:
    """The imported dataset a run asked from."""
    return Path(json.loads((run_dir / "config.json").read_text())["tasks"][TASK]["dataset"])


def _copy_of(root: Path, item_id: str) -> Path:
    """The imported copy of an item's image."""
    (item,) = [i for i in load_dataset(root).items if i.id == item_id]
    return root / item.images[0].path


def _touch_back(p: Path) -> None:
    st = p.stat()  # the same bytes, an earlier mtime
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))


def _stamped(rel: Release, tmp_path: Path, image_checks: list[str]) -> tuple:
    """Run twice: the import, then a load that checks every image and completes the stamp."""
    rel.run(tmp_path / "r1")
    clean = _result(rel.run(tmp_path / "r2"))
    stamp = json.loads(verified._stamp_path(_imported(tmp_path / "r2")).read_text())
    assert stamp["complete"] is True and len(stamp["images"]) == 6
    assert len(image_checks) == 6  # the second run's load; the import itself wrote them
    return clean


def test_stamped_release_defers_its_checks(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    assert _result(release.run(tmp_path / "r3")) == clean
    assert len(image_checks) == 6  # deferred, each copy unchanged: a stat each, no full check


def test_release_image_touched_same_bytes_same_result(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    _touch_back(release.files[2])
    assert _result(release.run(tmp_path / "r3")) == clean  # imported again: the same dataset
    assert _result(release.run(tmp_path / "r4")) == clean  # and stamped
    root = _imported(tmp_path / "r4")
    assert len(image_checks) == 12  # imported again: its first load checked every image
    # the imported copy touched: checked in full when its item is asked, passes
    copy = _copy_of(root, release.ids[4])
    _touch_back(copy)
    assert _result(release.run(tmp_path / "r5")) == clean
    assert image_checks[12:] == [copy.relative_to(root).as_posix()]


def test_release_image_corrupted_is_one_line_error_and_fixed_resumes(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    victim = release.files[3]
    good = victim.read_bytes()
    victim.write_bytes(b"\xff\xd8\xff garbage, not a JPEG")
    run_dir = tmp_path / "r3"
    with pytest.raises(DataError) as err:
        release.run(run_dir)
    line = str(err.value)
    assert "\n" not in line
    for part in ("fan.jsonl:1", f"item {release.ids[3]!r}", "field 'image'", "CHA/Qing/fan/1.jpg"):
        assert part in line, (part, line)
    victim.write_bytes(good)  # fixed: the same command gives the clean run's results
    assert _result(release.run(run_dir)) == clean


def test_release_image_replaced_is_what_the_run_asks(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    release.files[1].write_bytes(_jpeg(9))  # a valid image, new bytes: new data
    res = release.run(tmp_path / "r3")
    got = _result(res)
    assert got[0] != clean[0]  # another content hash: never the stale copy
    (rec,) = [r for r in res.records if r.item_id == release.ids[1]]
    asked = json.dumps(rec.prompt)
    assert hashlib.sha256(_jpeg(9)).hexdigest() in asked
    with pytest.raises(Exception, match="configuration"):
        release.run(tmp_path / "r2")  # the clean run's directory refuses the changed data


def test_release_image_deleted_is_one_counted_error(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    _stamped(release, tmp_path, image_checks)
    release.files[5].unlink()
    with pytest.raises(DataError) as err:
        release.run(tmp_path / "r3")
    line = str(err.value)
    assert "\n" not in line and "1 of 6 images are missing" in line
    assert "CHA/Qing/fan/3.jpg" in line and "images_root" in line
    res = release.run(tmp_path / "r4", params={"allow_missing_images": True})
    assert sorted(r.item_id for r in res.records) == sorted(release.ids[:5])


def test_imported_copy_corrupted_stops_part_way_and_resumes(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    root = _imported(tmp_path / "r2")
    copy = _copy_of(root, release.ids[3])
    good = copy.read_bytes()
    copy.write_bytes(b"\xff\xd8\xff garbage")
    run_dir = tmp_path / "r3"
    with pytest.raises(DataError) as err:
        release.run(run_dir)  # one worker: items in order
    line = str(err.value)
    assert "\n" not in line
    rel_copy = copy.relative_to(root).as_posix()
    for part in ("items.jsonl:4", f"item {release.ids[3]!r}", rel_copy, "do not match"):
        assert part in line, (part, line)
    assert _answers(run_dir) == sorted(release.ids[:3])  # asked before it: kept
    copy.write_bytes(good)
    assert _result(release.run(run_dir)) == clean


def test_imported_copy_deleted_stops_part_way_and_resumes(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    clean = _stamped(release, tmp_path, image_checks)
    root = _imported(tmp_path / "r2")
    copy = _copy_of(root, release.ids[2])
    good = copy.read_bytes()
    copy.unlink()
    run_dir = tmp_path / "r3"
    with pytest.raises(DataError) as err:
        release.run(run_dir)
    line = str(err.value)
    assert "\n" not in line
    for part in ("items.jsonl:3", f"item {release.ids[2]!r}", copy.relative_to(root).as_posix()):
        assert part in line, (part, line)
    assert _answers(run_dir) == sorted(release.ids[:2])
    copy.write_bytes(good)
    assert _result(release.run(run_dir)) == clean


def test_limit_checks_only_the_items_asked(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    _stamped(release, tmp_path, image_checks)
    root = _imported(tmp_path / "r2")
    copy = _copy_of(root, release.ids[4])
    copy.write_bytes(b"\xff\xd8\xff garbage")
    res = release.run(tmp_path / "r3", limit=2)
    assert sorted(r.item_id for r in res.records) == sorted(release.ids[:2])
    assert len(image_checks) == 6  # item 5's copy never looked at
    with pytest.raises(DataError, match=rf"item {release.ids[4]!r}"):
        release.run(tmp_path / "r4", limit=5)


def test_cli_exit_2_one_line_for_a_corrupted_release_image(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    _stamped(release, tmp_path, image_checks)
    release.files[0].write_bytes(b"not an image")
    cmd = [sys.executable, "-m", "chronoeval", "run", "--task", TASK, "--data", str(release.data)]
    cmd += ["--param", f"images_root={release.images}", "--model", MODEL]
    cmd += ["--out", str(tmp_path / "r3"), "--no-progress"]
    env = {**os.environ, "COLUMNS": "400"}  # the line unwrapped
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    assert got.returncode == 2, got.stdout + got.stderr
    out = got.stdout + got.stderr
    assert "Traceback" not in out
    errors = [x for x in out.splitlines() if release.ids[0] in x]
    assert len(errors) == 1, out
    assert "carving.jsonl:1" in errors[0] and "CHA/Qing/carving/1.jpg" in errors[0]


def test_only_the_files_the_loader_looked_up_decide(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    """The import notes each candidate path it tried (core/sources.py): a file elsewhere under
    images_root changing keeps the import; one appearing at a path tried before the one used
    (``CHA/Qing/carving/1.jpg`` before ``Qing/carving/1.jpg``) makes it again."""
    moved = release.images / "Qing" / "carving" / "1.jpg"
    moved.parent.mkdir(parents=True)
    release.files[0].rename(moved)  # found at the second candidate
    first = _result(release.run(tmp_path / "r1"))
    manifest = _imported(tmp_path / "r1") / "manifest.json"
    before = manifest.stat().st_mtime_ns, manifest.stat().st_ino
    (release.images / "news" / "x.jpg").parent.mkdir()
    (release.images / "news" / "x.jpg").write_bytes(_jpeg(7))  # looked up by no row
    _touch_back(release.files[1].parent)
    assert _result(release.run(tmp_path / "r2")) == first
    assert _imported(tmp_path / "r2") == _imported(tmp_path / "r1")  # not imported again
    assert (manifest.stat().st_mtime_ns, manifest.stat().st_ino) == before
    release.files[0].write_bytes(_jpeg(8))  # appears where the loader looks first
    res = release.run(tmp_path / "r3")
    assert _result(res)[0] != first[0]
    (rec,) = [r for r in res.records if r.item_id == release.ids[0]]
    assert hashlib.sha256(_jpeg(8)).hexdigest() in json.dumps(rec.prompt)


def test_a_collection_with_images_elsewhere_imports_again_when_one_changes(
    tmp_path: Path, image_checks: list[str]
) -> None:
    """A loader that notes nothing (a user collection manifest): the images root named by the
    option is walked, every file's size and mtime, and a changed one imports again."""
    images = tmp_path / "photos"
    images.mkdir()
    rows = []
    for i in range(3):
        (images / f"p{i}.jpg").write_bytes(_jpeg(i))
        rows.append({"image": f"p{i}.jpg", "year": 1990 + i, "category": "sports", "era": "X"})
    manifest = tmp_path / "coll" / "photos.jsonl"
    manifest.parent.mkdir()
    manifest.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    params = {"images_root": str(images)}
    first = api.import_data("seeing_year", manifest, params)
    assert api.import_data("seeing_year", manifest, params).content_hash == first.content_hash
    (images / "p1.jpg").write_bytes(_jpeg(5))
    again = api.import_data("seeing_year", manifest, params)
    assert again.content_hash != first.content_hash
    shas = {p.sha256 for item in again.items for p in item.images}
    assert hashlib.sha256(_jpeg(5)).hexdigest() in shas


def _asked_sha(ds, item_id: str) -> str:  # type: ignore[no-untyped-def]
    (item,) = [i for i in ds.items if i.id == item_id]
    return item.images[0].sha256


def test_a_symlink_re_pointed_inside_images_root_imports_again(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    """``CHA/Qing/carving`` a symlink to ``v1``, re-pointed to ``v2`` (stays inside images_root):
    the path looked up is noted, not its old target, so the new image is what is imported."""
    carving = release.files[0].parent
    v1, v2 = release.images / "v1", release.images / "v2"
    carving.rename(v1)
    v2.mkdir()
    for f in v1.iterdir():
        (v2 / f.name).write_bytes(_jpeg(9) if f.name == "1.jpg" else f.read_bytes())
    carving.symlink_to(v1)
    params = {"images_root": str(release.images)}
    first = api.import_data(TASK, release.data, params)
    assert _asked_sha(first, release.ids[0]) == hashlib.sha256(_jpeg(0)).hexdigest()
    carving.unlink()
    carving.symlink_to(v2)
    again = api.import_data(TASK, release.data, params)
    assert _asked_sha(again, release.ids[0]) == hashlib.sha256(_jpeg(9)).hexdigest()


def test_a_release_image_replaced_by_rename_same_size_and_mtime_imports_again(
    tmp_path: Path, release: Release, image_checks: list[str]
) -> None:
    """``rsync -a`` or ``tar x``: a new file renamed over the old one with the same size and
    mtime. The inode differs, so it imports again."""
    params = {"images_root": str(release.images)}
    first = api.import_data(TASK, release.data, params)
    victim, new = release.files[0], _jpeg(7)
    assert len(new) == victim.stat().st_size
    part = victim.with_name(".1.jpg.part")
    part.write_bytes(new)
    st = victim.stat()
    os.utime(part, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(part, victim)
    assert victim.stat().st_mtime_ns == st.st_mtime_ns
    again = api.import_data(TASK, release.data, params)
    assert again.content_hash != first.content_hash
    assert _asked_sha(again, release.ids[0]) == hashlib.sha256(new).hexdigest()


def test_a_re_import_while_a_run_asks_from_the_folder(
    tmp_path: Path, release: Release, image_checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/architecture.md: another run imports again (an image changed under images_root) while
    this one is asking from the imported folder. This run stops with one line at the item whose
    copy is gone, keeps the answers before it; its directory belongs to the old data, so the same
    command is refused and a new run directory gives the new data's results."""
    from chronoeval.models import registry
    from chronoeval.models.local import FunctionBackend

    _stamped(release, tmp_path, image_checks)
    params = {"images_root": str(release.images)}
    calls: list[int] = []

    def answer(_request) -> str:  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:  # another run, meanwhile: item 5's image replaced, imported again
            release.files[4].write_bytes(_jpeg(9))
            api.import_data(TASK, release.data, params)
        return "Qing"

    def factory(arg, task, items, opts):  # type: ignore[no-untyped-def]
        return FunctionBackend("reimport-meanwhile", answer, threaded=False)

    monkeypatch.setitem(registry._FACTORIES, "reimportmeanwhile", factory)
    run_dir = tmp_path / "r3"
    common = {"progress": False, "plots": False, "concurrency": 1}
    with pytest.raises(DataError) as err:
        api.run(
            [TASK], "reimportmeanwhile", data=release.data, params=params, run_dir=run_dir, **common
        )
    line = str(err.value)
    assert "\n" not in line and f"item {release.ids[4]!r}" in line, line
    assert _answers(run_dir) == sorted(release.ids[:4])
    with pytest.raises(Exception, match="configuration"):
        release.run(run_dir)
    res = release.run(tmp_path / "r4")
    (rec,) = [r for r in res.records if r.item_id == release.ids[4]]
    assert hashlib.sha256(_jpeg(9)).hexdigest() in json.dumps(rec.prompt)
