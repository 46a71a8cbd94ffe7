"""A run's stamp-covered image checks, made when each item's request is made instead of at load.

A warm load of a dataset whose verify-once stamp applies (core/verified.py: ``items.jsonl`` and
``manifest.json`` unchanged since a load that checked every image) still looks at every image
file: one ``stat`` per image to see that its identity is the one the stamp vouches for, and the
full check (bytes, sha256, decoding) of any image whose file changed. For 2,000 images that was
~25 ms before a run's first request, every run.

Inside :func:`collecting` (``api.run`` around its datasets' loads), a load that finds its stamp
applying and complete (it vouches for every image of the dataset: ``Stamp.complete``, written by a
load that found every image settled) records each item's images instead of looking at them, and :meth:`Deferral.check` makes
exactly those checks for one item, when the item's job is made (engine/job_list.py: as a worker
takes it, right before its request is built and sent; a resumed run makes every job, so checks
every item, before its first request). The guarantee is the same one, per item: no request is
built from an image whose file is not the one the stamp vouches for, or that fails the full check.
A changed image that fails stops the run with the load's own one-line error (file, line, item,
field) before that item's request is sent; what was answered before is committed to the store.
A changed image that passes is asked, and after the asking (:meth:`Deferral.record`) the stamp
vouches for it too once its file is settled, as a full load would have recorded it. Without a
complete stamp (a dataset's first load; the next one, when images were too fresh to vouch for), with ``$CHRONOEVAL_VERIFY_ALWAYS=1``, and for every load outside
:func:`collecting` (verify, export, score, serve), nothing changes: every image is checked during
the load.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from chronoeval.core import verified
from chronoeval.core.image_checks import ImageChecks
from chronoeval.core.items import ImagePart, Item
from chronoeval.core.verified import Stamp

_current: ContextVar[Deferral | None] = ContextVar("chronoeval_deferred_images", default=None)


class DeferredLoad:
    """One load's deferred images: its root, stamp and items file, and the full check to run on
    an image the stamp does not cover (core/dataset.py ``_check_image``)."""

    def __init__(
        self,
        root: Path,
        items_path: Path,
        stamp: Stamp,
        base: str,
        full_check: Callable[..., None],
        content_hash: str,
        deferral: Deferral,
    ) -> None:
        self.root, self.items_path, self.stamp, self.base = root, items_path, stamp, base
        self.deferral = deferral
        self.full_check = full_check
        self.content_hash = content_hash
        self.passed: dict[str, list[int] | None] = {}  # checked in full here, and passed

    def defer(self, item: Item, lineno: int) -> None:
        """Leave ``item``'s checks (on line ``lineno``) to the run's :class:`Deferral`."""
        self.deferral.defer(self, item, lineno)

    def check(self, item: Item, lineno: int) -> None:
        """The checks the load skipped for ``item`` (on line ``lineno``); a DataError if one fails."""
        covers = self.stamp.covers
        uncovered = None  # the common case, every image covered: no list, no Item.images
        i = -1
        for m in item.messages:
            for part in m.content:
                if isinstance(part, ImagePart):
                    i += 1  # the image's index in Item.images (the order of the load's checks)
                    if not covers(part.path, part.sha256):
                        if uncovered is None:
                            uncovered = []
                        uncovered.append((i, part))
        if uncovered is None:
            return
        # the load's own checker (a bomb is an error, the first failure raised in order)
        with ImageChecks(self.full_check, threads=1) as checks:
            for i, part in uncovered:
                checks.add(self.root, part, self.items_path, lineno, item.id, i, self.base)
            checks.drain()
        now = time.time_ns()
        for _, part in uncovered:
            key = part.path + "\0" + part.sha256  # Stamp.covers' key; its identity noted there
            ident = self.stamp.checked.get(key)
            # settled when checked (verified.RACY_NS), as a load decides it right after its
            # reads: a file rewritten within its timestamp's tick must not be vouched for
            self.passed[key] = ident if verified._settled(ident, now) else None


class Deferral:
    """The items whose image checks a run's loads deferred, each checked once by :meth:`check`."""

    def __init__(self) -> None:
        self._pending: dict[int, tuple[Item, DeferredLoad, int]] = {}
        self._loads: dict[int, DeferredLoad] = {}

    def defer(self, load: DeferredLoad, item: Item, lineno: int) -> None:
        # by identity: the item object the run asks with (kept alive here until checked)
        self._pending[id(item)] = (item, load, lineno)
        self._loads[id(load)] = load

    def check(self, item: Item) -> None:
        """Make the checks deferred for ``item`` (none if its load checked its images); raises the
        load's DataError for an image that fails. Each item is checked once."""
        entry = self._pending.pop(id(item), None)
        if entry is None or entry[0] is not item:
            return
        try:
            entry[1].check(item, entry[2])
        except BaseException:
            self._pending[id(item)] = entry  # still unchecked: asked again, checked again
            raise

    def record(self) -> None:
        """Let each stamp vouch for the images checked in full here that passed (a dataset's
        fresh or touched images), so that the next run looks at them with a stat only, as a full
        load would have recorded them (core/verified.py ``extend``)."""
        for load in self._loads.values():
            if load.passed:
                passed, load.passed = load.passed, {}
                verified.extend(load.stamp, load.content_hash, passed)

    def __len__(self) -> int:
        return len(self._pending)


def for_load(
    root: Path,
    items_path: Path,
    stamp: Stamp,
    base: str,
    full_check: Callable[..., None],
    content_hash: str,
) -> DeferredLoad | None:
    """The load's deferred checks: inside :func:`collecting` and with a complete stamp; else None
    (the load checks every image the stamp does not cover, as before)."""
    deferral = _current.get()
    if deferral is None or not stamp.complete:
        return None
    return DeferredLoad(root, items_path, stamp, base, full_check, content_hash, deferral)


@contextmanager
def collecting() -> Iterator[Deferral]:
    """Loads inside this block defer the stamp-covered image checks to :meth:`Deferral.check`."""
    deferral = Deferral()
    token = _current.set(deferral)
    try:
        yield deferral
    finally:
        _current.reset(token)
