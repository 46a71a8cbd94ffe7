"""Rendered glyph masks kept on disk between processes, so a new process does not have to ask
FreeType again for every glyph the calendar pages need (the "cold start" of issue 21).

A store file holds the masks of one font file at one size:
``$CHRONOEVAL_CACHE/glyphs/<font>-<size>-<key>.glyphs``
(the same cache folder as the datasets, see :func:`chronoeval.api.cache_dir`). The key hashes
the font file's bytes, the Pillow, FreeType and Raqm versions and the caller's own ``kind`` (how it
quantises the masks), so a store written by another version of any of them is never read: what
comes out of the store is exactly what rendering would have given. An unreadable store file is
reported once on the log and then ignored (and rewritten); a store never changes a pixel.
``CHRONOEVAL_GLYPH_STORE=0`` turns the store off (nothing read, nothing written).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import os
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

from chronoeval.core.cache import cache_root

log = logging.getLogger(__name__)

_FORMAT = 1
_LOCK = threading.Lock()
Entry = tuple[np.ndarray, int, int]  # (mask, top, left)


def enabled() -> bool:
    return os.environ.get("CHRONOEVAL_GLYPH_STORE", "1") != "0"


def store_dir() -> Path:
    """``glyphs`` in chronoeval's cache folder (core/cache.py)."""
    return cache_root() / "glyphs"


@lru_cache(maxsize=64)
def _font_key(font_path: str, kind: str) -> str:
    import PIL
    from PIL import features

    h = hashlib.sha256()
    with open(font_path, "rb") as f:
        h.update(f.read())
    versions = (
        _FORMAT,
        kind,
        PIL.__version__,
        features.version("freetype2"),
        features.version("raqm"),
    )
    h.update(json.dumps(versions, default=str).encode())
    return h.hexdigest()[:20]


class GlyphStore:
    """Masks by (font file, size, text) for one ``kind`` of mask. One small file per (font file,
    size), read on the first glyph asked of that pair (a page needs four or five pairs), written back
    (merged with the file as it is then) at exit or on :meth:`save`. Two processes saving the same
    file at once can drop one's additions; that only costs a later render, never a pixel."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.files: dict[tuple[str, int], dict[str, Entry]] = {}
        # where each file was read from: written back there, whatever the environment at exit
        self.paths: dict[tuple[str, int], Path] = {}
        self.dirty: set[tuple[str, int]] = set()
        self._registered = False

    def _path(self, font_path: str, size: int) -> Path:
        name = os.path.basename(font_path)
        return store_dir() / f"{name}-{size}-{_font_key(font_path, self.kind)}.glyphs"

    def _entries(self, font_path: str, size: int) -> dict[str, Entry]:
        entries = self.files.get((font_path, size))
        if entries is None:
            if not os.path.isfile(font_path):
                return {}  # a missing font is the renderer's error to report
            path = self.paths[font_path, size] = self._path(font_path, size)
            entries = self.files[font_path, size] = _read(path)
        return entries

    def get(self, font_path: str, size: int, text: str) -> Entry | None:
        if not enabled():
            return None
        with _LOCK:
            return self._entries(font_path, size).get(text)

    def put(self, font_path: str, size: int, text: str, entry: Entry) -> None:
        if not enabled():
            return
        with _LOCK:
            self._entries(font_path, size)[text] = entry
            self.dirty.add((font_path, size))
            if not self._registered:
                atexit.register(self.save)
                self._registered = True

    def save(self) -> None:
        """Write the files with new masks (atomically: a reader sees the old or the new file)."""
        with _LOCK:
            dirty, self.dirty = self.dirty, set()
            for font_path, size in sorted(dirty):
                path = self.paths[font_path, size]
                merged = _read(path)
                merged.update(self.files[font_path, size])
                try:
                    _write(path, merged)
                except OSError as e:
                    log.warning("glyph store %s not written: %s", path, e)


# A file: one line of JSON {"texts": [...], "boxes": [[top, left, height, width], ...]}, a newline,
# then the masks' bytes one after the other (row-major uint8 levels).


def _read(path: Path) -> dict[str, Entry]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as e:
        log.warning("glyph store %s unreadable (%s); its glyphs are rendered again", path, e)
        return {}
    try:
        end = data.index(b"\n")
        head = json.loads(data[:end])
        pixels = np.frombuffer(data, np.uint8, offset=end + 1)
        out: dict[str, Entry] = {}
        offset = 0
        for text, (top, left, h, w) in zip(head["texts"], head["boxes"], strict=True):
            if not (isinstance(text, str) and h > 0 and w > 0):
                raise ValueError(f"bad entry {text!r}")
            mask = pixels[offset : offset + h * w].reshape(h, w)
            out[text] = (mask, int(top), int(left))
            offset += h * w
        if offset != pixels.size:
            raise ValueError("the byte count does not match the masks")
        return out
    except Exception as e:  # noqa: BLE001 - any damage means: render again, rewrite later
        log.warning("glyph store %s unreadable (%s); its glyphs are rendered again", path, e)
        return {}


def _write(path: Path, entries: dict[str, Entry]) -> None:
    texts = sorted(entries)
    boxes = [[entries[t][1], entries[t][2], *entries[t][0].shape] for t in texts]
    head = json.dumps({"texts": texts, "boxes": boxes}, ensure_ascii=True).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as f:
        f.write(head + b"\n")
        for t in texts:
            f.write(np.ascontiguousarray(entries[t][0], np.uint8).tobytes())
    os.replace(tmp, path)
