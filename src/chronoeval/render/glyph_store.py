"""Rendered glyph masks kept on disk between processes, so a new process does not have to ask
FreeType again for every glyph the calendar pages need (the "cold start" of issue 21).

A store file holds the masks of one font file: ``$CHRONOEVAL_CACHE/glyphs/<font>-<key>.npz``
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

log = logging.getLogger(__name__)

_FORMAT = 1
_LOCK = threading.Lock()
Entry = tuple[np.ndarray, int, int]  # (mask, top, left)


def enabled() -> bool:
    return os.environ.get("CHRONOEVAL_GLYPH_STORE", "1") != "0"


def store_dir() -> Path:
    """``glyphs`` in the dataset cache folder (the rule of :func:`chronoeval.api.cache_dir`, not
    imported from there so that rendering does not load the API)."""
    env = os.environ.get("CHRONOEVAL_CACHE")
    root = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return (root if env else root / "chronoeval") / "glyphs"


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
    """Masks by (font file, size, text) for one ``kind`` of mask; loaded per font file on first use
    and written back (merged with what other processes wrote meanwhile) at exit or on
    :meth:`save`."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.fonts: dict[str, dict[tuple[int, str], Entry]] = {}
        self.dirty: set[str] = set()
        self._registered = False

    def _path(self, font_path: str) -> Path:
        name = os.path.basename(font_path)
        return store_dir() / f"{name}-{_font_key(font_path, self.kind)}.npz"

    def _entries(self, font_path: str) -> dict[tuple[int, str], Entry]:
        entries = self.fonts.get(font_path)
        if entries is None:
            if not os.path.isfile(font_path):
                return {}  # a missing font is the renderer's error to report
            entries = self.fonts[font_path] = _read(self._path(font_path))
        return entries

    def get(self, font_path: str, size: int, text: str) -> Entry | None:
        if not enabled():
            return None
        with _LOCK:
            return self._entries(font_path).get((size, text))

    def put(self, font_path: str, size: int, text: str, entry: Entry) -> None:
        if not enabled():
            return
        with _LOCK:
            self._entries(font_path)[(size, text)] = entry
            self.dirty.add(font_path)
            if not self._registered:
                atexit.register(self.save)
                self._registered = True

    def save(self) -> None:
        """Write the fonts with new masks (atomically: a reader sees the old or the new file)."""
        with _LOCK:
            dirty, self.dirty = self.dirty, set()
            for font_path in sorted(dirty):
                path = self._path(font_path)
                merged = _read(path)
                merged.update(self.fonts[font_path])
                try:
                    _write(path, merged)
                except OSError as e:
                    log.warning("glyph store %s not written: %s", path, e)


def _read(path: Path) -> dict[tuple[int, str], Entry]:
    if not path.exists():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            texts = json.loads(bytes(data["texts"]).decode())
            meta, pixels = data["meta"], data["pixels"]
        out: dict[tuple[int, str], Entry] = {}
        offset = 0
        for text, (size, top, left, h, w) in zip(texts, meta.tolist(), strict=True):
            mask = pixels[offset : offset + h * w].reshape(h, w)
            mask.flags.writeable = False
            out[(size, text)] = (mask, top, left)
            offset += h * w
        if offset != pixels.size:
            raise ValueError("pixel count does not match the masks")
        return out
    except Exception as e:  # noqa: BLE001 - any damage means: render again, rewrite later
        log.warning("glyph store %s unreadable (%s); its glyphs are rendered again", path, e)
        return {}


def _write(path: Path, entries: dict[tuple[int, str], Entry]) -> None:
    keys = sorted(entries)
    texts = [text for _, text in keys]
    meta = np.array(
        [(size, entries[size, text][1], entries[size, text][2], *entries[size, text][0].shape)
         for size, text in keys],
        np.int32,
    ).reshape(-1, 5)  # fmt: skip
    masks = [np.ascontiguousarray(entries[k][0], np.uint8).ravel() for k in keys]
    pixels = np.concatenate(masks) if masks else np.zeros(0, np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as f:
        texts_blob = np.frombuffer(json.dumps(texts).encode(), np.uint8)
        np.savez(f, texts=texts_blob, meta=meta, pixels=pixels)
    os.replace(tmp, path)
