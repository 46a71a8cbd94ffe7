"""A run's stamp-covered image checks, made as each item is asked (core/deferred_images.py):
the same guarantee per item, an image changed after the load stops the run with the load's one-line
error before that item is asked, and the answers already in hand are kept."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core import deferred_images, verified
from chronoeval.core.dataset import BuiltItem, image_part, load_dataset
from chronoeval.core.errors import DataError
from chronoeval.core.items import ImagePart, Item, Message, TextPart, user_message
from chronoeval.models.registry import BackendOptions
from helpers import age_file, make_clock_dataset, tiny_clock_png, write_test_dataset


def _touch_back(img: Path) -> None:
    st = img.stat()  # the same bytes, an earlier mtime (a new ctime): not what the stamp names
    os.utime(img, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))


def _stamp(root: Path) -> tuple[Path, dict]:  # type: ignore[type-arg]
    """The verify-once stamp of ``root``: its path and its JSON body."""
    path = verified._stamp_path(root.resolve())
    return path, json.loads(path.read_text())


def _corrupt(img: Path) -> None:
    img.write_bytes(b"\x89PNG garbage")
    age_file(img)


def test_first_load_checks_everything_even_when_collecting(
    tmp_path: Path, checks: list[str]
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    with deferred_images.collecting() as deferral:
        load_dataset(ds.root)
    assert len(checks) == 12 and len(deferral) == 0  # no stamp: nothing deferred


def test_stamped_load_defers_and_check_finds_a_changed_image(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    assert len(checks) == 12
    _corrupt(ds.root / "images" / "c7.png")
    stats: list[str] = []
    real_ident = verified._ident
    monkeypatch.setattr(verified, "_ident", lambda p: (stats.append(str(p)), real_ident(p))[1])
    with deferred_images.collecting() as deferral:
        again = load_dataset(ds.root)  # the load itself looks at no image
    assert len(checks) == 12 and len(deferral) == 12
    assert not [s for s in stats if s.endswith(".png")]
    for item in again.items[:7]:
        deferral.check(item)  # unchanged: a stat each, no full check
    assert len(checks) == 12
    with pytest.raises(DataError) as err:
        deferral.check(again.items[7])
    assert checks[12:] == ["images/c7.png"]
    line = str(err.value)
    assert "\n" not in line
    for part in ("items.jsonl:8", "c007", "images/c7.png", "do not match"):
        assert part in line
    with pytest.raises(DataError):  # still unchecked: checked again, never passed
        deferral.check(again.items[7])
    deferral.check(again.items[0])  # checked once: nothing more
    assert len(checks) == 14


def test_outside_collecting_a_stamped_load_checks_as_before(
    tmp_path: Path, checks: list[str]
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    _corrupt(ds.root / "images" / "c3.png")
    with pytest.raises(DataError, match=r"item 'c003'.*do not match"):
        load_dataset(ds.root)


def test_a_deferred_load_leaves_the_stamp_as_it_was(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    stamp = verified._stamp_path(ds.root.resolve())
    before = stamp.read_bytes()
    with deferred_images.collecting():
        load_dataset(ds.root)
    assert stamp.read_bytes() == before
    load_dataset(ds.root)  # and it still vouches for every image
    assert len(checks) == 12


def _answers(run_dir: Path) -> list[str]:
    with sqlite3.connect(run_dir / "store.sqlite") as conn:
        rows = conn.execute("SELECT item_id FROM responses WHERE error IS NULL").fetchall()
    return sorted(r[0] for r in rows)


def test_an_image_changed_after_the_load_stops_the_run_and_keeps_earlier_answers(
    tmp_path: Path, checks: list[str], serve
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    opts = BackendOptions(base_url=server.url)
    common = {"data": ds.root, "progress": False, "plots": False, "backend_options": opts}
    api.run(["clockqa"], "openai:constant:10:10:00", run_dir=tmp_path / "r1", **common)
    assert len(checks) == 12  # the first load checked every image and wrote the stamp
    img = ds.root / "images" / "c7.png"
    good = img.read_bytes()
    _corrupt(img)
    # one worker: items in order, so c000..c006 are asked and answered before c007's job is made
    run_dir = tmp_path / "r2"
    with pytest.raises(DataError) as err:
        api.run(["clockqa"], "openai:constant:10:10:00", run_dir=run_dir, concurrency=1, **common)
    assert "c007" in str(err.value) and "images/c7.png" in str(err.value)
    assert _answers(run_dir) == [f"c{i:03d}" for i in range(7)]  # kept; c007 never asked
    asked = [json.loads(x) for x in server.log.read_text().splitlines()]
    assert len(asked) == 12 + 7
    # the image put back, the run resumes: only the five left are asked
    img.write_bytes(good)
    age_file(img)
    res = api.run(["clockqa"], "openai:constant:10:10:00", run_dir=run_dir, **common)
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == 12
    assert len(server.log.read_text().splitlines()) == 12 + 7 + 5


def test_cli_prints_one_line_for_an_image_changed_after_the_load(tmp_path: Path, serve) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    base = [sys.executable, "-m", "chronoeval", "run", "--task", "clockqa", "--data", str(ds.root)]
    base += ["--model", "openai:constant:10:10:00", "--base-url", server.url]
    time.sleep(2.1)  # the images settled (verified.RACY_NS), so the first run's load stamps them
    first = subprocess.run([*base, "--out", str(tmp_path / "r1")], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    img = ds.root / "images" / "c5.png"
    img.write_bytes(b"\x89PNG garbage")
    age_file(img, seconds=100)  # past the racy window (the stamp was written by another process)
    got = subprocess.run([*base, "--out", str(tmp_path / "r2")], capture_output=True, text=True)
    assert got.returncode != 0
    out = got.stdout + got.stderr
    assert "Traceback" not in out
    errors = [x for x in out.splitlines() if "c005" in x]
    assert len(errors) == 1 and "images/c5.png" in errors[0] and "do not match" in errors[0]


def test_a_touched_image_checked_while_asking_is_stamped_for_the_next_run(
    tmp_path: Path, checks: list[str], serve
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    opts = BackendOptions(base_url=server.url)
    common = {"data": ds.root, "progress": False, "plots": False, "backend_options": opts}
    api.run(["clockqa"], "openai:constant:10:10:00", run_dir=tmp_path / "r1", **common)
    assert len(checks) == 12
    _touch_back(ds.root / "images" / "c4.png")
    api.run(["clockqa"], "openai:constant:10:10:00", run_dir=tmp_path / "r2", **common)
    assert checks[12:] == ["images/c4.png"]  # checked in full when c004 was asked, and passed
    api.run(["clockqa"], "openai:constant:10:10:00", run_dir=tmp_path / "r3", **common)
    assert checks[12:] == ["images/c4.png"]  # the stamp now vouches for it: a stat only
    load_dataset(ds.root)  # and a plain load agrees
    assert len(checks) == 13


def test_a_stamp_missing_images_defers_nothing_and_is_completed_by_the_load(
    tmp_path: Path, checks: list[str]
) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    path, body = _stamp(ds.root)
    assert body["complete"] is True
    (gone,) = [k for k in body["images"] if k.startswith("images/c9.png")]
    del body["images"][gone]  # as for an image too fresh to vouch for at the first load
    body["complete"] = False
    path.write_text(json.dumps(body))
    with deferred_images.collecting() as deferral:
        load_dataset(ds.root)
    assert checks[12:] == ["images/c9.png"] and len(deferral) == 0  # all looked at, as before
    body = json.loads(path.read_text())
    assert gone in body["images"] and body["complete"] is True
    with deferred_images.collecting() as deferral:
        load_dataset(ds.root)
    assert len(deferral) == 12 and len(checks) == 13


def test_an_old_stamp_without_the_flag_is_completed_once(tmp_path: Path, checks: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    path, body = _stamp(ds.root)
    del body["complete"]  # a stamp written before the flag
    path.write_text(json.dumps(body))
    with deferred_images.collecting() as deferral:
        load_dataset(ds.root)
    assert len(deferral) == 0 and len(checks) == 12  # a stat each, no image read
    assert json.loads(path.read_text())["complete"] is True


def test_an_image_too_fresh_when_checked_is_not_vouched_for_later(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Settledness is decided when the image is checked, as a load decides it right after its
    reads: a file could still be rewritten within its timestamp's tick, so a run that ends an
    hour later must not vouch for what it saw then."""
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    _touch_back(ds.root / "images" / "c4.png")
    monkeypatch.setattr(verified, "RACY_NS", 3600 * 1_000_000_000)  # every file looks fresh now
    with deferred_images.collecting() as deferral:
        again = load_dataset(ds.root)
        for item in again.items:
            deferral.check(item)
    assert checks[12:] == ["images/c4.png"]
    monkeypatch.setattr(verified, "RACY_NS", 0)  # the run ends "an hour later"
    deferral.record()
    load_dataset(ds.root)  # the stamp does not vouch for c4: checked in full again
    assert checks[12:] == ["images/c4.png", "images/c4.png"]


def test_a_dataset_changed_during_the_run_is_not_stamped_by_it(
    tmp_path: Path, checks: list[str]
) -> None:
    """The stamp is extended only for the items file it was looked up with: one edited or
    replaced while the run asked is not vouched for (with a complete flag) by this run."""
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    stamp = verified._stamp_path(ds.root.resolve())
    _touch_back(ds.root / "images" / "c4.png")
    with deferred_images.collecting() as deferral:
        again = load_dataset(ds.root)
        for item in again.items:
            deferral.check(item)
    assert checks[12:] == ["images/c4.png"]
    before = stamp.read_bytes()
    age_file(ds.root / "items.jsonl", seconds=-10)  # edited while the run asked
    deferral.record()
    assert stamp.read_bytes() == before


def test_the_deferred_check_finds_a_changed_image_among_several_in_its_messages(
    tmp_path: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items with an image in each of two messages (text between): one changed image, the
    second of its item, is the one checked in full and named, as the load would name it."""
    built = []
    for i in range(3):
        first, rel1, data1 = image_part(f"a{i}.png", tiny_clock_png(i))
        second, rel2, data2 = image_part(f"b{i}.png", tiny_clock_png(10 + i))
        messages = (
            user_message(first, TextPart("the first clock")),
            Message("assistant", (TextPart("seen"),)),
            user_message(TextPart("and this one?"), second),
        )
        built.append(BuiltItem(Item(f"m{i}", "lost_in_time", "clockqa", messages, "1:00:00"),
                               {rel1: data1, rel2: data2}))  # fmt: skip
    ds = write_test_dataset(tmp_path / "d", built)
    load_dataset(ds.root)
    assert len(checks) == 6
    _corrupt(ds.root / "images" / "b1.png")
    with deferred_images.collecting() as deferral:
        again = load_dataset(ds.root)
    assert len(checks) == 6 and len(deferral) == 3
    deferral.check(again.items[0])  # both covered: no full check
    assert len(checks) == 6
    with pytest.raises(DataError) as err:
        deferral.check(again.items[1])
    assert checks[6:] == ["images/b1.png"]  # only the changed one, the item's second image
    monkeypatch.setenv("CHRONOEVAL_VERIFY_ALWAYS", "1")  # a full load: the same one line
    with pytest.raises(DataError) as full:
        load_dataset(ds.root)
    assert str(err.value) == str(full.value)


def test_the_deferred_walk_gives_the_loads_image_indices(monkeypatch: pytest.MonkeyPatch) -> None:
    """DeferredLoad.check walks an item's messages itself (no Item.images list): for an item
    mixing roles, texts and images, the (index, part) pairs it checks are
    ``enumerate(item.images)``, the indices the load's checks use (core/dataset.py)."""
    img = [ImagePart(f"images/{n}.png", f"{n:064x}") for n in range(4)]
    messages = (
        Message("system", (TextPart("read clocks"),)),
        user_message(img[0], TextPart("this one"), img[1]),
        Message("assistant", (TextPart("seen"),)),
        user_message(TextPart("and")),
        user_message(TextPart("these?"), img[2], TextPart("then"), img[3]),
    )
    item = Item("m", "lost_in_time", "clockqa", messages, "1:00:00")
    added: list[tuple[int, ImagePart]] = []

    class Recording:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def __enter__(self) -> Recording:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def add(self, root, part, items_path, lineno, item_id, i, base) -> None:  # type: ignore[no-untyped-def]
            added.append((i, part))

        def drain(self) -> None:
            pass

    class CoversNothing:
        checked: dict[str, object] = {}

        def covers(self, path: str, sha256: str) -> bool:
            return False

    monkeypatch.setattr(deferred_images, "ImageChecks", Recording)
    load = deferred_images.DeferredLoad(
        Path("/d"), Path("/d/items.jsonl"), CoversNothing(), "", print, "h",  # type: ignore[arg-type]
        deferred_images.Deferral(),
    )  # fmt: skip
    load.check(item, 1)
    assert added == list(enumerate(item.images)) and len(added) == 4
