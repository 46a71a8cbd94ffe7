"""Parsed items reused within a process: only for unchanged, settled items.jsonl and
manifest.json; images still checked on every load; off with CHRONOEVAL_VERIFY_ALWAYS=1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval.core import dataset as dataset_mod
from chronoeval.core import items as items_mod
from chronoeval.core import parsed_items, verified
from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import DataError
from helpers import age_file, make_clock_dataset


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count item parses; files count as settled at once (RACY_NS = 0), an empty cache."""
    monkeypatch.setattr(verified, "RACY_NS", 0)
    monkeypatch.delenv("CHRONOEVAL_VERIFY_ALWAYS", raising=False)
    monkeypatch.setattr(parsed_items, "_KEPT", {})
    seen: list[str] = []
    real = items_mod.Item.from_json.__func__  # type: ignore[attr-defined]

    def counting(cls, obj):  # type: ignore[no-untyped-def]
        seen.append(obj.get("id"))
        return real(cls, obj)

    monkeypatch.setattr(items_mod.Item, "from_json", classmethod(counting))
    return seen


def test_second_load_reuses_the_parsed_items(tmp_path: Path, parses: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    first = load_dataset(ds.root)
    assert len(parses) == 12
    again = load_dataset(ds.root)
    assert len(parses) == 12  # not parsed again
    assert again.items == first.items and again.items is not first.items
    assert again.content_hash == first.content_hash


def test_an_edited_items_file_is_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    path = ds.root / "items.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[3])
    row["target"] = "9:99:99"  # same file otherwise; the content hash no longer matches
    lines[3] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    age_file(path)
    with pytest.raises(DataError, match="content hash does not match"):
        load_dataset(ds.root)
    assert len(parses) == 24


def test_an_edited_manifest_is_read_again(tmp_path: Path, parses: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    path = ds.root / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["n_items"] = 13
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DataError, match="manifest says 13 items"):
        load_dataset(ds.root)


def test_images_are_still_checked_when_items_are_reused(tmp_path: Path, parses: list[str]) -> None:
    ds = make_clock_dataset(tmp_path / "d")
    load_dataset(ds.root)
    img = ds.root / "images" / "c5.png"
    img.write_bytes(b"\x89PNG garbage")
    age_file(img)
    with pytest.raises(DataError, match=r"jsonl:6, item 'c005'.*do not match"):
        load_dataset(ds.root)
    assert len(parses) == 12  # the items were reused, the image was not


def test_a_racily_fresh_file_is_not_kept(tmp_path: Path, parses: list[str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(verified, "RACY_NS", 2_000_000_000)
    ds = make_clock_dataset(tmp_path / "d")  # written just now
    load_dataset(ds.root)
    load_dataset(ds.root)
    assert len(parses) == 24


def test_verify_always_turns_it_off(tmp_path: Path, parses: list[str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ds = make_clock_dataset(tmp_path / "d")
    monkeypatch.setenv("CHRONOEVAL_VERIFY_ALWAYS", "1")
    load_dataset(ds.root)
    load_dataset(ds.root)
    assert len(parses) == 24
    assert dataset_mod.parsed_items is parsed_items
