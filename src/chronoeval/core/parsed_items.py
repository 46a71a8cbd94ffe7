"""Parsed items kept per process, reused by a later load of the same unchanged items.jsonl.

A process that evaluates several models on one dataset (``chronoeval run`` with several models,
the Python API in a notebook, a benchmark) loads the dataset once per run. Parsing and validating
items.jsonl and hashing its bytes gives the same items every time the file is unchanged, so the
items of a successful load are kept with the identities (size, mtime, ctime, inode, device) of
items.jsonl and manifest.json taken *before* the file was read. A later load reuses them only when
both files still have those identities and had them settled before the first load started (a file
changed less than 2 s before cannot be vouched for: :data:`chronoeval.core.verified.RACY_NS`).
Images are still checked on every load (the stamp's per-image identities, or their bytes), and
``CHRONOEVAL_VERIFY_ALWAYS=1`` turns this off as it turns off the stamp.

Items are frozen dataclasses; the lists handed out are fresh copies.
"""

from __future__ import annotations

import time
from pathlib import Path

from chronoeval.core.items import Item
from chronoeval.core.verified import _ident, _settled, verify_always

_KEPT: dict[str, tuple[list[list[int] | None], str, tuple[Item, ...]]] = {}
_MAX_KEPT = 8


def _off() -> bool:
    return verify_always()


def identities(items_path: Path, manifest_path: Path) -> list[list[int] | None]:
    """The identities of the two files, taken before items.jsonl is read."""
    return [_ident(items_path), _ident(manifest_path)]


def lookup(items_path: Path, manifest_path: Path) -> tuple[str, list[Item]] | None:
    """(content hash, a copy of the items) of an earlier load of these unchanged files, or None."""
    if _off():
        return None
    kept = _KEPT.get(str(items_path))
    if kept is None or kept[0] != identities(items_path, manifest_path):
        return None
    return kept[1], list(kept[2])


def remember(
    items_path: Path,
    manifest_path: Path,
    before: list[list[int] | None],
    started_ns: int,
    content_hash: str,
    items: list[Item],
) -> None:
    """Keep the items of a successful load when both files were settled before it started and
    did not change while it read them."""
    if _off() or None in before or not all(_settled(i, started_ns) for i in before):
        return
    if identities(items_path, manifest_path) != before:
        return
    if len(_KEPT) >= _MAX_KEPT:
        del _KEPT[next(iter(_KEPT))]
    _KEPT[str(items_path)] = (before, content_hash, tuple(items))


def now_ns() -> int:
    return time.time_ns()
