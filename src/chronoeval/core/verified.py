"""Verify a dataset's images once per dataset version, not on every load.

The first full load of a dataset directory (``load_dataset(root)``) checks every image (present,
bytes matching the sha256 its item names, and whatever further checks ``core/dataset.py`` makes).
When that load succeeds, a *stamp* records what was checked: the ``items.jsonl`` and
``manifest.json`` file identities (size, mtime and ctime in ns, inode, device) and each image
file's identity.
A later load that finds the same ``items.jsonl`` and ``manifest.json`` skips the per-image checks
for every image whose file identity is unchanged; any image whose file was rewritten, replaced
or touched is checked again, and a changed ``items.jsonl`` ignores the stamp altogether. Items are
always parsed and validated and the content hash always recomputed: only the image reading and
hashing — most of the cost for image sets — is saved.

Stamps live in the cache (``$CHRONOEVAL_CACHE/verified``), never inside the dataset directory, so a
dataset copied from elsewhere cannot bring a stamp that vouches for it. They are keyed by the
resolved path and by :data:`CHECKS_VERSION`, which must be bumped whenever the image checks
become stricter, so that every dataset is checked once by the new rules.

``$CHRONOEVAL_VERIFY_ALWAYS=1`` disables the stamp (every load checks every image).

In ``api.run``, a load whose stamp applies leaves even the per-image identity checks to the moment
each item is asked (core/deferred_images.py); every other load makes them during the load.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from chronoeval.core.cache import cache_root

CHECKS_VERSION = "2"  # 2: paths confined to the dataset root, images decoded (issue 16)
"""Bump when the per-image checks in core/dataset.py change (stamps of older checks are ignored)."""


RACY_NS = 2_000_000_000
"""A file changed less than this long before a stamp is written is not vouched for (file times
have a coarse granularity, so a rewrite within the same tick could keep size and times; as in
git's "racily clean" rule, such files are simply checked again on the next load)."""


def _ident(path: str | os.PathLike[str]) -> list[int] | None:
    """A file's identity (size, mtime and ctime in ns, inode, device), None if it is absent."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def verify_always() -> bool:
    """``$CHRONOEVAL_VERIFY_ALWAYS=1``: no stamp is read or written (nor parsed items reused)."""
    return os.environ.get("CHRONOEVAL_VERIFY_ALWAYS") == "1"


def _settled(ident: list[int] | None, now_ns: int) -> bool:
    return ident is not None and now_ns - max(ident[1], ident[2]) >= RACY_NS


def _stamp_path(root: Path) -> Path:
    key = hashlib.sha256(f"{CHECKS_VERSION}\0{root}".encode()).hexdigest()[:32]
    return cache_root() / "verified" / f"{key}.json"


class Stamp:
    """What an earlier successful load of ``root`` checked (empty when there is none)."""

    def __init__(
        self, root: Path, images: dict[str, list[int]] | None = None, complete: bool = False
    ) -> None:
        self.root = root
        # the stamp names every image of the dataset (its load found them all settled): only
        # then does ``api.run`` leave the per-image looks to the asking (core/deferred_images.py)
        self.complete = complete
        # the identities of items.jsonl and manifest.json it was looked up with (lookup)
        self.files: list[list[int] | None] | None = None
        self._root_str = str(root)  # joined as a string per image: pathlib's joins cost more
        # os.path.join(root, rel) for a relative rel, without its call per image
        self._prefix = self._root_str if self._root_str.endswith("/") else self._root_str + "/"
        self.images = images or {}
        self.checked: dict[str, list[int] | None] = {}

    def covers(self, rel: str, sha256: str) -> bool:
        """Whether the image at ``rel`` was verified, as ``sha256``, in its present file."""
        if type(rel) is str and self._root_str and not rel.startswith("/"):
            ident = _ident(self._prefix + rel)
        else:
            ident = _ident(os.path.join(self._root_str, rel))
        key = rel + "\0" + sha256
        self.checked[key] = ident
        return ident is not None and self.images.get(key) == ident


_read: dict[Path, tuple[list[int] | None, dict[str, Any]]] = {}
"""Stamps this process parsed, by path, with the stamp file's identity then: a load that finds the
same file (size, times, inode) takes the parsed stamp instead of parsing 2,000 entries again. A
stamp is replaced by a new file (``os.replace``), so a rewrite changes the identity; and any
version of a stamp vouches only for file identities a successful load checked."""


def _read_stamp(path: Path) -> dict[str, Any]:
    ident = _ident(path)
    hit = _read.get(path)
    if ident is not None and hit is not None and hit[0] == ident:
        return hit[1]
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError("not a stamp")
    if ident is not None and ident == _ident(path):  # unchanged while it was read
        if len(_read) > 64:
            _read.clear()
        _read[path] = (ident, raw)
    return raw


def lookup(root: Path, verify_images: bool) -> Stamp:
    """The stamp to consult during a load of ``root`` (empty if none applies)."""
    resolved = Path(root).resolve()
    if not verify_images or verify_always():
        return Stamp(resolved)
    try:
        raw: dict[str, Any] = _read_stamp(_stamp_path(resolved))
    except (OSError, ValueError):
        return Stamp(resolved)
    files = [_ident(resolved / "items.jsonl"), _ident(resolved / "manifest.json")]
    if raw.get("checks") != CHECKS_VERSION or raw.get("files") != files or None in files:
        return Stamp(resolved)
    images = raw.get("images")
    if not isinstance(images, dict):
        return Stamp(resolved)
    stamp = Stamp(resolved, images, complete=raw.get("complete") is True)
    stamp.files = files
    return stamp


def record(stamp: Stamp, content_hash: str) -> None:
    """After a successful load that checked images: remember what was checked (best effort)."""
    if verify_always():
        return
    if stamp.images and stamp.checked == stamp.images and stamp.complete:
        # every image was vouched for and the stamp names no other: the stamp would be written
        # again as it is (each vouched identity was settled when written)
        return
    root = stamp.root
    now = time.time_ns()
    files = [_ident(root / "items.jsonl"), _ident(root / "manifest.json")]
    images = {k: v for k, v in stamp.checked.items() if _settled(v, now)}
    complete = len(images) == len(stamp.checked)  # every image of this load vouched for
    if not all(_settled(f, now) for f in files) or (
        stamp.images and images == stamp.images and complete == stamp.complete
    ):
        return
    _write(root, content_hash, files, images, complete)


def extend(stamp: Stamp, content_hash: str, passed: dict[str, list[int] | None]) -> None:
    """After a run checked in full images its stamp did not cover (core/deferred_images.py), and
    they passed: the stamp vouches for them too, where their files are settled (best effort).
    Every entry is a file identity that passed the checks for its path and sha256, so what the
    stamp vouched for before stays true beside the new entries."""
    if verify_always():
        return
    now = time.time_ns()
    new = {k: v for k, v in passed.items() if _settled(v, now) and stamp.images.get(k) != v}
    if not new:
        return
    root = stamp.root
    files = [_ident(root / "items.jsonl"), _ident(root / "manifest.json")]
    if files != stamp.files or not all(_settled(f, now) for f in files):
        return  # the dataset's files changed since the load (or were never looked up with)
    _write(root, content_hash, files, {**stamp.images, **new}, stamp.complete)


def _write(
    root: Path,
    content_hash: str,
    files: list[list[int] | None],
    images: dict[str, Any],
    complete: bool,
) -> None:
    path = _stamp_path(root)
    body = {
        "checks": CHECKS_VERSION,
        "root": str(root),
        "content_hash": content_hash,
        "files": files,
        "images": images,
        "complete": complete,
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(body), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:  # a read-only cache only costs the saving, never the checks
        pass
