"""Fonts for the renderers: the TrueType files that ship inside matplotlib (a core dependency), so
generation needs no system fonts and gives the same pixels on every machine with the same wheel."""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache

from PIL import ImageFont


def _font_dir() -> str:
    spec = importlib.util.find_spec("matplotlib")  # located without importing matplotlib
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed; its bundled fonts are needed to render")
    return os.path.join(next(iter(spec.submodule_search_locations)), "mpl-data", "fonts", "ttf")


FONT_DIR = _font_dir()


@lru_cache(maxsize=256)
def truetype(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A cached FreeType font by file name in :data:`FONT_DIR`."""
    path = os.path.join(FONT_DIR, name)
    if not os.path.isfile(path):
        raise ValueError(f"font {name!r} not found in {FONT_DIR}")
    return ImageFont.truetype(path, size)
