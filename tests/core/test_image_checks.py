"""A dataset's first load checks its images on a few threads: the same checks, the same first
error (in item order, ahead of a later line's own error), bombs in Pillow's warning zone still
refused, and the warning filters given back afterwards."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest
from PIL import Image

from chronoeval.core import image_checks, verified
from chronoeval.core.dataset import BuiltItem, image_part, load_dataset
from chronoeval.core.errors import DataError
from chronoeval.core.imagecheck import plain_path_under
from chronoeval.core.items import Item, TextPart, user_message
from helpers import make_clock_dataset, png_bytes, write_test_dataset


@pytest.fixture(autouse=True)
def four_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads whatever the machine's cores; no stamp, so every load checks every image."""
    monkeypatch.setattr(image_checks, "check_threads", lambda: 4)
    monkeypatch.setenv("CHRONOEVAL_VERIFY_ALWAYS", "1")


_png = png_bytes


def test_the_first_bad_image_in_item_order_is_named(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=40)
    for i in (37, 5, 21):  # bytes that no longer match their sha256
        (ds.root / "images" / f"c{i}.png").write_bytes(b"\x89PNG not this one")
    for _ in range(5):  # the threads finish in any order; the error is always item 5's
        with pytest.raises(DataError, match=r"items.jsonl:6.*item 'c005'.*do not match"):
            load_dataset(ds.root)


def test_an_image_error_comes_before_a_later_lines_error(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=20)
    (ds.root / "images" / "c3.png").write_bytes(b"")
    lines = (ds.root / "items.jsonl").read_text().splitlines()
    lines[15] = "{not json"
    (ds.root / "items.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"items.jsonl:4.*item 'c003'"):
        load_dataset(ds.root)
    (ds.root / "images" / "c3.png").unlink()
    ds2 = make_clock_dataset(tmp_path / "d2", n=20)  # a good image back: now line 16 is named
    (ds.root / "images" / "c3.png").write_bytes((ds2.root / "images" / "c3.png").read_bytes())
    with pytest.raises(DataError, match=r"items.jsonl:16.*not valid JSON"):
        load_dataset(ds.root)


def test_a_bomb_in_the_warning_zone_is_refused_on_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    built = []
    for i in range(12):  # 40 x 40 = 1,600 pixels: Pillow warns (1x-2x the limit), never raises
        data = _png((40, 40), "1") if i == 7 else _png((16, 16))
        part, rel, _ = image_part(f"i{i}.png", data)
        msg = user_message(part, TextPart("What time is shown?"))
        built.append(
            BuiltItem(Item(f"i{i:02d}", "lost_in_time", "clockqa", (msg,), "1:00"), {rel: data})
        )
    ds = write_test_dataset(tmp_path / "b", built)
    before = list(warnings.filters)
    with pytest.raises(DataError, match=r"item 'i07'.*decompression bomb"):
        load_dataset(ds.root)
    assert warnings.filters == before  # the load gives the process's filters back


def test_a_good_dataset_loads_the_same_on_threads_and_inline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=30)
    threaded = load_dataset(ds.root)
    monkeypatch.setattr(image_checks, "check_threads", lambda: 1)
    inline = load_dataset(ds.root)
    assert [i.to_json() for i in threaded.items] == [i.to_json() for i in inline.items]


def test_a_symlink_inside_the_root_is_resolved_and_one_pointing_out_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CHRONOEVAL_VERIFY_ALWAYS")
    monkeypatch.setattr(verified, "RACY_NS", 0)
    ds = make_clock_dataset(tmp_path / "d", n=6)
    img = ds.root / "images" / "c2.png"
    (ds.root / "kept").mkdir()
    os.replace(img, ds.root / "kept" / "c2.png")
    img.symlink_to(ds.root / "kept" / "c2.png")  # inside: allowed, as confine() allows it
    load_dataset(ds.root)
    img.unlink()
    os.replace(ds.root / "kept" / "c2.png", tmp_path / "c2.png")
    img.symlink_to(tmp_path / "c2.png")  # pointing out: refused, stamp or not
    with pytest.raises(DataError, match=r"item 'c002'.*outside its root"):
        load_dataset(ds.root)


def test_plain_path_under(tmp_path: Path) -> None:
    base = str(tmp_path.resolve())
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "images")
    assert plain_path_under(base, "images/a.png") == os.path.join(base, "images", "a.png")
    for rel in (
        "link/a.png",
        "images/../images/a.png",
        "./images/a.png",
        "images//a.png",
        "images\\a.png",
        "~/a.png",
        "/etc/hostname",
        "images/missing.png",
        "",
    ):
        assert plain_path_under(base, rel) is None, rel  # confine() decides these


@pytest.mark.parametrize("bad_line", ["", "{not json", '{"id": "c000"}'])
def test_an_image_error_comes_before_any_later_lines_error(tmp_path: Path, bad_line: str) -> None:
    """Whatever a later line's fault (blank, not JSON, not an item), the earlier image's error is
    the one named (a blank line used to be raised without waiting for the image checks)."""
    ds = make_clock_dataset(tmp_path / "d", n=12)
    for i in (1, 2, 3):
        (ds.root / "images" / f"c{i}.png").write_bytes(b"\x89PNG not this one")
    lines = (ds.root / "items.jsonl").read_text().splitlines()
    lines[8] = bad_line
    (ds.root / "items.jsonl").write_text("\n".join(lines) + "\n")
    for _ in range(3):
        with pytest.raises(DataError, match=r"items.jsonl:2.*item 'c001'.*do not match"):
            load_dataset(ds.root)


def test_a_failure_stops_the_checks_at_the_next_add() -> None:
    """A failed check is raised by the next ``add`` once everything before it passed: a bad image
    early in a large set does not wait for the whole set to be read."""
    ran: list[int] = []

    def check(n: int) -> None:
        ran.append(n)
        if n == 1:
            raise DataError(f"image {n} is bad")

    with image_checks.ImageChecks(check, threads=2) as checks:
        checks.add(0)
        checks.add(1)
        with pytest.raises(DataError, match="image 1 is bad"):
            for n in range(2, 10_000):
                checks.add(n)
        assert len(ran) < 9_000  # stopped long before the end
        checks.drain()  # nothing left to raise: the failure was raised once


def test_a_load_that_checks_nothing_leaves_the_warning_filters_alone(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "d", n=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        filters = list(warnings.filters)
        seen: list[object] = []

        def check(*_: object) -> None:
            seen.append(list(warnings.filters))

        with image_checks.ImageChecks(check, threads=1):
            assert list(warnings.filters) == filters  # nothing added yet: nothing changed
        assert list(warnings.filters) == filters
        load_dataset(ds.root, verify_images=False)
        assert list(warnings.filters) == filters
