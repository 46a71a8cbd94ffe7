"""The on-disk glyph store: a new process reads the masks an earlier one rendered, gets the same
pages byte for byte, never reads a store of another kind, and survives a damaged store file."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chronoeval.render.fonts import FONT_DIR
from chronoeval.render.glyph_store import GlyphStore, store_dir

_PAGES = """
import hashlib, random, sys
from chronoeval.render import calendar as cal
renders = [0]
_render = cal._text_mask
def counted(*args):
    renders[0] += 1
    return _render(*args)
cal._text_mask = counted
rng = random.Random(5)
h = hashlib.sha256()
for i in range(6):
    style = cal.sample_calendar_style(rng, week_start="monday" if i % 2 else "sunday")
    h.update(cal.render_year_calendar_png(rng.randint(1, 9999), style))
print(h.hexdigest(), renders[0], cal._mask.cache_info().misses)
"""


def _run(env: dict[str, str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PAGES], env={**os.environ, **env}, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_new_process_reads_the_store_and_draws_the_same_bytes(tmp_path: Path) -> None:
    env = {"CHRONOEVAL_CACHE": str(tmp_path)}
    off = _run({**env, "CHRONOEVAL_GLYPH_STORE": "0"})
    assert not (tmp_path / "glyphs").exists()  # switched off: nothing written
    first = _run(env)  # renders every glyph, writes the store at exit
    files = sorted((tmp_path / "glyphs").glob("*.glyphs"))
    assert files and all(f.stat().st_size > 0 for f in files)
    second = _run(env)  # reads them back: FreeType renders nothing
    assert off[0] == first[0] == second[0]
    assert int(off[1]) == int(first[1]) == int(first[2]) > 0
    assert int(second[1]) == 0 and int(second[2]) == int(first[2])
    stamps = [f.stat().st_mtime_ns for f in files]
    assert sorted((tmp_path / "glyphs").glob("*.glyphs")) == files  # nothing new to write
    assert [f.stat().st_mtime_ns for f in files] == stamps


def _font() -> str:
    return os.path.join(FONT_DIR, "DejaVuSans.ttf")


def test_store_of_another_kind_is_not_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path))
    monkeypatch.delenv("CHRONOEVAL_GLYPH_STORE", raising=False)
    mask = np.arange(12, dtype=np.uint8).reshape(3, 4)
    a = GlyphStore("kind-a")
    a.put(_font(), 17, "Mo", (mask, -11, 1))
    a.save()
    assert GlyphStore("kind-b").get(_font(), 17, "Mo") is None
    got = GlyphStore("kind-a").get(_font(), 17, "Mo")
    assert got is not None
    assert np.array_equal(got[0], mask) and got[1:] == (-11, 1)
    assert GlyphStore("kind-a").get(_font(), 18, "Mo") is None


def test_damaged_store_is_reported_and_rewritten(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path))
    monkeypatch.delenv("CHRONOEVAL_GLYPH_STORE", raising=False)
    mask = np.ones((2, 2), np.uint8)
    first = GlyphStore("k")
    first.put(_font(), 9, "7", (mask, -2, 0))
    first.save()
    (path,) = (tmp_path / "glyphs").glob("*.glyphs")
    path.write_bytes(path.read_bytes()[:40])  # cut short
    with caplog.at_level(logging.WARNING, logger="chronoeval.render.glyph_store"):
        reader = GlyphStore("k")
        assert reader.get(_font(), 9, "7") is None
    assert any(
        str(path) in r.getMessage() and "unreadable" in r.getMessage() for r in caplog.records
    )
    reader.put(_font(), 9, "7", (mask, -2, 0))
    reader.save()
    got = GlyphStore("k").get(_font(), 9, "7")
    assert got is not None and np.array_equal(got[0], mask)


def test_store_lives_in_the_dataset_cache_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from chronoeval.api import cache_dir

    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "c"))
    assert store_dir() == cache_dir() / "glyphs"
    monkeypatch.delenv("CHRONOEVAL_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert store_dir() == cache_dir() / "glyphs"


def test_written_back_where_it_was_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A process whose cache folder setting changes before exit (as in tests) writes its masks to
    the folder they were read from, not to the new one."""
    monkeypatch.delenv("CHRONOEVAL_GLYPH_STORE", raising=False)
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "first"))
    store = GlyphStore("k")
    store.put(_font(), 11, "3", (np.ones((1, 1), np.uint8), -1, 0))
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "second"))
    store.save()
    assert list((tmp_path / "first" / "glyphs").glob("*.glyphs"))
    assert not (tmp_path / "second").exists()
