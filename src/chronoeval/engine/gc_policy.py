"""The cyclic garbage collector, relaxed while a run asks and scores.

A run allocates many short-lived containers per item (requests, records, parsed replies); with
CPython's default first-generation threshold (700) the collector runs every few items and walks
every young object each time, and every few of those runs it walks the older generations too,
which hold the whole dataset. Measured in one process, alternating runs of 2,000 ClockQA items
with the in-process ``constant`` backend: a first-generation threshold of 50,000 made a run about
15% faster (docs/benchmarks.md, "Session 3, all branches merged"). Freezing the objects alive at
the start (``gc.freeze``) added nothing measurable, and ``gc.unfreeze`` hands them back to the
oldest generation, which delays the collection of any cycle through them: not done.

Nothing is leaked: reference counting frees acyclic garbage as before; cyclic garbage waits at most
50,000 container allocations for a collection; at the end the thresholds are restored, and the
next young collection takes what the run left. Runs in several threads at once
share one relaxation (a depth count): the settings come back when the last one ends.
``CHRONOEVAL_GC=default`` leaves the collector alone.
"""

from __future__ import annotations

import functools
import gc
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

FIRST_GENERATION_THRESHOLD = 50_000
ENV = "CHRONOEVAL_GC"

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] | None = None


@contextmanager
def relaxed() -> Iterator[None]:
    """Relax the collector for the duration of the block (see the module's docstring)."""
    global _depth, _saved
    if os.environ.get(ENV, "") == "default":
        yield
        return
    with _lock:
        _depth += 1
        if _depth == 1:
            _saved = gc.get_threshold()
            gen0, *rest = _saved
            gc.set_threshold(max(gen0, FIRST_GENERATION_THRESHOLD), *rest)
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None


F = TypeVar("F", bound=Callable[..., Any])


def relaxing(fn: F) -> F:
    """Decorate a function so that its calls run under :func:`relaxed` (signature kept)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with relaxed():
            return fn(*args, **kwargs)

    return cast(F, wrapper)
