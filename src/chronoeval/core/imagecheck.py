"""Integrity checks for image files referenced by data: confined paths and decodable pixels.

- :func:`confine`: a relative image path must resolve (symlinks followed) inside its root; an
  absolute path, ``..`` escaping the root, or a symlink pointing out is refused, so a dataset or a
  published-layout file can never make chronoeval read (and send to a model) ``/etc/passwd``.
- :func:`check_image_bytes` / :func:`check_image_file`: the bytes decode completely with Pillow
  under its decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``; the warning zone counts as a
  bomb too), so a truncated file, a non-image, a directory or a bomb is refused at load with file,
  item and field named, instead of failing later (in a request or in the report).

Every problem is a :class:`DataError`; callers pass where the reference was (``file``, ``line``,
``item_id``, ``field``). These are plain functions so that a cheaper repeated load (verify once per
dataset version) can call them on the first load.
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from chronoeval.core.errors import DataError


def confine(root: Path, rel: str | os.PathLike[str], **where: Any) -> Path:
    """``root / rel``, refused unless it resolves inside ``root``."""
    text = str(rel).replace("\\", "/")
    if not text or Path(text).is_absolute() or text.startswith("~"):
        raise DataError(f"image path {text!r} is absolute; it must be relative to {root}", **where)
    base = Path(root).resolve()
    path = (base / text).resolve()
    if path != base and base not in path.parents:
        raise DataError(f"image path {text!r} resolves outside its root {base}", **where)
    return path


def plain_path_under(base: str, rel: str) -> str | None:
    """``base/rel`` when ``base`` is already resolved and ``rel`` is a plain relative path (no
    empty, ``.`` or ``..`` component, no backslash, no ``~``) none of whose components below
    ``base`` is a symlink (one ``lstat`` each): such a path cannot lead outside ``base``. None
    in every other case (also when a component is missing): :func:`confine` decides, and names
    the problem."""
    parts = rel.split("/")
    if "\\" in rel or rel.startswith("~") or any(p in ("", ".", "..") for p in parts):
        return None
    cur = base
    for part in parts:
        cur = os.path.join(cur, part)
        try:
            if stat.S_ISLNK(os.lstat(cur).st_mode):
                return None
        except OSError:
            return None
    return cur


def check_image_bytes(data: bytes, **where: Any) -> None:
    """Decode ``data`` completely; a :class:`DataError` says why it cannot be."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        decode_check(data, **where)


def decode_check(data: bytes, **where: Any) -> None:
    """:func:`check_image_bytes` for a caller that has already made Pillow's
    ``DecompressionBombWarning`` an error (``warnings.catch_warnings`` changes the filters of
    the whole process, so threads that check images at once must not each enter it)."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise DataError(
            f"image refused as a decompression bomb ({exc}); Pillow's limit is "
            f"{Image.MAX_IMAGE_PIXELS} pixels",
            **where,
        ) from None
    except UnidentifiedImageError:
        raise DataError("not an image (Pillow cannot identify it)", **where) from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise DataError(f"image cannot be decoded ({exc})", **where) from None


def read_image_file(path: Path, **where: Any) -> bytes:
    """The bytes of an image file; a directory, a missing or unreadable file is a DataError."""
    path = Path(path)
    if path.is_dir():
        raise DataError(f"image path {path} is a directory, not an image file", **where)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"image file is missing: {path}", **where) from None
    except OSError as exc:
        raise DataError(f"image file {path} is not readable ({exc.strerror})", **where) from None


def check_image_file(path: Path, **where: Any) -> bytes:
    """Read and decode an image file; returns its bytes."""
    data = read_image_file(path, **where)
    check_image_bytes(data, **where)
    return data
