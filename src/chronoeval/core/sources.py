"""The files outside ``--data`` that an imported dataset was built from, and whether they changed.

Data in a published layout is imported once into a cached chronoeval dataset (api.import_data),
keyed by the files under ``--data`` and the load options. A load option may name a file or folder
elsewhere (Seeing Time's ``images_root``, an events or split file) whose contents the import
copies in: when one of those files changes, is replaced or removed, the import is made again, so a
run never asks a stale copy. Each import writes ``sources.json`` beside its items:

- ``noted``: each file a loader looked up under such a root (:func:`note`: Seeing Time's
  ``ImageFinder``, every candidate path it tried; MINED's loader, each image path), with its size
  and mtime, or ``null`` where it was absent (a file appearing there changes what the loader would
  pick);
- ``walked``: for each such root under which the loader noted nothing, a digest of every file's
  size and mtime under it.

A later import finds the dataset current only when every noted file and every walked root is as
recorded (:func:`unchanged`): one stat per noted file (877 for Seeing Time's localisation),
instead of one per file of the whole image tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

SOURCES = "sources.json"
VERSION = 1

_noted: ContextVar[dict[str, list[int] | None] | None] = ContextVar(
    "chronoeval_import_sources", default=None
)


def ident(path: str | os.PathLike[str]) -> list[int] | None:
    """A file's size and mtime (ns); None when there is no file there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return None if stat.S_ISDIR(st.st_mode) else [st.st_size, st.st_mtime_ns]


def note(path: str | os.PathLike[str]) -> list[int] | None:
    """Record ``path`` as looked up by the import in progress (if any); its identity, taken before
    the caller reads it (a rewrite after the read then shows as a change)."""
    got = ident(path)
    noted = _noted.get()
    if noted is not None:
        noted[os.path.abspath(path)] = got
    return got


def _walk_digest(top: str) -> str:
    """A digest of the size and mtime of every file under ``top`` (a file: itself)."""
    entries: list[tuple[str, int, int]] = []
    if not os.path.isdir(top):
        got = ident(top)
        entries.append((top, *(got or [-1, -1])))
    folders = [top] if os.path.isdir(top) else []
    while folders:
        try:
            scan = os.scandir(folders.pop())
        except OSError:
            continue
        with scan:
            for entry in scan:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                    continue
                try:
                    st = entry.stat()
                except OSError:
                    continue
                entries.append((entry.path, st.st_size, st.st_mtime_ns))
    h = hashlib.sha256()
    for p, size, mtime in sorted(entries):
        h.update(f"{p}\0{size}\0{mtime}\n".encode())
    return h.hexdigest()


def option_roots(path: Path, options: dict[str, Any]) -> list[str]:
    """The files and folders the load options name outside ``path`` (absolute, resolved)."""
    inside = Path(path).resolve()
    roots = []
    for value in options.values():
        if not isinstance(value, str) or not value or not os.path.exists(value):
            continue
        top = Path(value).resolve()
        if top != inside and inside not in top.parents:
            roots.append(str(top))
    return sorted(set(roots))


@contextmanager
def recording(path: Path, options: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Around an import: what it reads outside ``path``, as :data:`SOURCES`' body (filled in when
    the block ends). Each root is walked before the load, so a change during it shows later."""
    roots = option_roots(path, options)
    walked = {r: _walk_digest(r) for r in roots}
    noted: dict[str, list[int] | None] = {}
    body: dict[str, Any] = {"version": VERSION}
    token = _noted.set(noted)
    try:
        yield body
    finally:
        _noted.reset(token)
    body["noted"] = sorted([p, i] for p, i in noted.items())
    body["walked"] = {
        r: d
        for r, d in walked.items()
        if not any(p == r or p.startswith(r.rstrip("/") + "/") for p in noted)
    }


def write(root: Path, body: dict[str, Any]) -> None:
    tmp = root / f".{SOURCES}.tmp"
    tmp.write_text(json.dumps(body, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, root / SOURCES)


def unchanged(root: Path) -> bool:
    """Whether the files the import of ``root`` was built from are as it recorded them (False
    when it recorded nothing readable: the import is made again)."""
    try:
        body = json.loads((root / SOURCES).read_text(encoding="utf-8"))
        if body.get("version") != VERSION:
            return False
        for p, recorded in body["noted"]:
            if ident(p) != recorded:
                return False
        return all(_walk_digest(r) == d for r, d in body["walked"].items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
