"""The files outside ``--data`` that an imported dataset was built from, and whether they changed.

Data in a published layout is imported once into a cached chronoeval dataset (api.import_data),
keyed by the files under ``--data`` and the load options. A load option may name a file or folder
elsewhere (Seeing Time's ``images_root``, an events or split file) whose contents the import
copies in: when one of those files changes, is replaced or removed, the import is made again, so a
run never asks a stale copy. Each import writes ``sources.json`` beside its items:

- ``noted``: each file a loader looked up under such a root (:func:`note`: Seeing Time's
  ``ImageFinder``, every candidate path it tried; MINED's loader, each image path), as looked up
  (a symlink re-pointed there is a change), with its size, mtime, inode and device, or ``null``
  where it was absent (a file appearing there changes what the loader would pick);
- ``walked``: for each such root under which the loader noted nothing, a digest of every file's
  size and mtime under it.

``sources.json`` is written inside the dataset's temporary folder, before it is renamed into place
(core/dataset.py ``write_dataset``): an imported dataset is never in place without it.

A later import finds the dataset current only when every noted file and every walked root is as
recorded (:func:`unchanged`): one stat per noted file (877 for Seeing Time's localisation),
instead of one per file of the whole image tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

SOURCES = "sources.json"
VERSION = 2  # 2: inode and device in each identity

_noted: ContextVar[dict[str, list[int] | None] | None] = ContextVar(
    "chronoeval_import_sources", default=None
)


def _ident(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev]


def ident(path: str | os.PathLike[str]) -> list[int] | None:
    """A file's size, mtime (ns), inode and device, following symlinks; None when there is no file
    there. The inode tells a file replaced by a rename (``rsync -a``, ``tar x``: the same size and
    mtime) or a symlink re-pointed to another file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return None if stat.S_ISDIR(st.st_mode) else _ident(st)


def note(path: str | os.PathLike[str]) -> list[int] | None:
    """Record ``path`` as looked up by the import in progress (if any); its identity, taken before
    the caller reads it (a rewrite after the read then shows as a change)."""
    got = ident(path)
    noted = _noted.get()
    if noted is not None:
        noted[os.path.abspath(path)] = got
    return got


def files(top: str) -> list[tuple[Any, ...]]:
    """Every file under ``top`` (a file: itself) with its :func:`ident`, sorted; one that cannot be
    stat'ed (a dangling symlink, no permission) as ``-1``s, so it counts when it changes."""
    if not os.path.isdir(top):
        return [(top, *(ident(top) or [-1] * 4))]
    entries: list[tuple[Any, ...]] = []
    folders = [top]
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
                    entries.append((entry.path, *_ident(entry.stat())))
                except OSError:
                    entries.append((entry.path, -1, -1, -1, -1))
    return sorted(entries)


def _walk_digest(top: str) -> str:
    """A digest of :func:`files` under ``top``."""
    h = hashlib.sha256()
    for entry in files(top):
        h.update(("\0".join(map(str, entry)) + "\n").encode())
    return h.hexdigest()


def option_roots(path: Path, options: dict[str, Any]) -> list[str]:
    """The files and folders the load options name outside ``path`` (absolute, resolved)."""
    inside = Path(path).resolve()
    roots = []
    for value in options.values():
        if not isinstance(value, str | os.PathLike) or not os.fspath(value):
            continue
        if not os.path.exists(value):
            continue
        top = Path(value).resolve()
        if top != inside and inside not in top.parents:
            roots.append(str(top))
    return sorted(set(roots))


def _under(p: str, root: str) -> bool:
    return p == root or p.startswith(root.rstrip("/") + "/")


@contextmanager
def recording(path: Path, options: dict[str, Any]) -> Iterator[Callable[[], dict[str, Any]]]:
    """Around an import: a function giving what it has read outside ``path`` so far, as
    :data:`SOURCES`' body. Each root is walked before the load, so a change during it shows later."""
    roots = option_roots(path, options)
    walked = {r: _walk_digest(r) for r in roots}
    noted: dict[str, list[int] | None] = {}

    def body() -> dict[str, Any]:
        seen = [*noted, *(os.path.realpath(p) for p in noted)]  # noted as looked up, unresolved
        return {
            "version": VERSION,
            "noted": sorted([p, i] for p, i in noted.items()),
            "walked": {r: d for r, d in walked.items() if not any(_under(p, r) for p in seen)},
        }

    token = _noted.set(noted)
    try:
        yield body
    finally:
        _noted.reset(token)


def dumps(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True) + "\n"


def write(root: Path, body: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{SOURCES}.", dir=root)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(dumps(body))
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
