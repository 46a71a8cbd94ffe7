"""A dataset load's per-image checks, run on a few threads, their errors raised in item order.

Reading a file, sha256 and Pillow's decoding (zlib, unfiltering) release the GIL, so the first
load of an image set (which checks every image: core/dataset.py, core/verified.py) runs on the
machine's cores instead of one. Nothing about what is checked changes, nor which error is raised:
:meth:`ImageChecks.drain` waits for the checks in the order they were added and raises the first
failure, and the loader drains before raising any error of its own, so an image error on line 5
still comes before a bad line 10, exactly as when the images were checked one by one.

Pillow's ``DecompressionBombWarning`` is made an error from the load's first image check to its
end (``warnings`` filters are process-wide, so the threads must not each change them; the
per-image check used to change them for the length of each check). A load that checks no image
leaves the filters alone.

A failure is raised as soon as every check added before it has passed (at the next
:meth:`ImageChecks.add` after it is known), so a bad image early in a large set stops the load
early, as it did when images were checked one by one.
"""

from __future__ import annotations

import os
import warnings
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import Any

from PIL import Image

MAX_THREADS = 4


def check_threads() -> int:
    """Threads for image checks: the usable cores, at most :data:`MAX_THREADS`; 1 = inline."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))


class ImageChecks:
    def __init__(self, check: Callable[..., None], threads: int | None = None) -> None:
        self.check = check
        self.threads = check_threads() if threads is None else threads
        self._pool: ThreadPoolExecutor | None = None
        self._pending: deque[Future[None]] = deque()
        self._warnings: Any = None

    def __enter__(self) -> ImageChecks:
        return self

    def add(self, *args: Any) -> None:
        """Check one image (``check(*args)``): now, or on a thread with one thread or more."""
        if self._warnings is None:  # the first check: bombs are errors until the load ends
            self._warnings = warnings.catch_warnings()
            self._warnings.__enter__()
            warnings.simplefilter("error", Image.DecompressionBombWarning)
        if self.threads <= 1:
            self.check(*args)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="chronoeval-imgcheck")
        while self._pending and self._pending[0].done():  # the earliest checks, in order
            failed = self._pending.popleft().exception()
            if failed is not None:  # the first failure: what comes after it no longer matters
                for fut in self._pending:
                    fut.cancel()
                self._pending.clear()
                raise failed
        self._pending.append(self._pool.submit(self.check, *args))

    def drain(self) -> None:
        """Wait for every check added so far; raise the first failure in the order added."""
        pending, self._pending = self._pending, deque()
        try:
            for fut in pending:
                fut.result()
        finally:
            for fut in pending:
                fut.cancel()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            for fut in self._pending:  # an error elsewhere: what was not run is not needed
                fut.cancel()
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
        finally:
            self._pending = deque()
            self._pool = None
            if self._warnings is not None:
                self._warnings.__exit__(kind, exc, tb)
                self._warnings = None
