"""The cyclic garbage collector, relaxed while a run asks and scores.

A run allocates many short-lived containers per item (requests, records, parsed replies); with
CPython's default first-generation threshold (700) the collector runs every few items and walks
every young object each time, and every few of those runs it walks the older generations too,
which hold the whole dataset. Measured in one process, alternating runs of 2,000 ClockQA items
with the in-process ``constant`` backend: a first-generation threshold of 50,000 made a run 10–16%
faster; freezing the objects alive at the start (``gc.freeze``) added a little more in a large
heap (docs/benchmarks.md, "Session 3: the collector during a run").

Nothing is leaked: reference counting frees acyclic garbage as before; cyclic garbage waits at most
50,000 container allocations for a collection; at the end the thresholds are restored and the
frozen objects are handed back to the collector (``gc.unfreeze``). Runs in several threads at once
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
            gc.freeze()
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
                gc.unfreeze()


F = TypeVar("F", bound=Callable[..., Any])


def relaxing(fn: F) -> F:
    """Decorate a function so that its calls run under :func:`relaxed` (signature kept)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with relaxed():
            return fn(*args, **kwargs)

    return cast(F, wrapper)
