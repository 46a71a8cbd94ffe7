"""The event loop that network-bound asking runs on: uvloop when it is installed (the ``fast``
extra: ``pip install 'chronoeval[fast]'``), asyncio's own otherwise.

uvloop (libuv) runs the same coroutines with a faster loop and faster socket transports; what a
run asks, stores and scores does not depend on which loop ran it (tests/engine/test_event_loop.py
compares a run's files with and without it). ``CHRONOEVAL_EVENT_LOOP=asyncio`` keeps asyncio's
loop even where uvloop is installed; ``=uvloop`` requires it (an error names the extra when it is
missing). Used by ``chronoeval serve`` and by runs whose backend talks to a server
(``OpenAIBackend``): where the answers are computed in this process, asyncio's loop is kept.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from chronoeval.core.errors import ChronoevalError

T = TypeVar("T")

ENV = "CHRONOEVAL_EVENT_LOOP"


def loop_name() -> str:
    """``uvloop`` or ``asyncio``: the loop :func:`run` would use now."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted not in ("", "uvloop", "asyncio"):
        raise ChronoevalError(f"{ENV}={wanted!r}: use uvloop or asyncio (or leave it unset)")
    if wanted == "asyncio":
        return "asyncio"
    if importlib.util.find_spec("uvloop") is not None:
        return "uvloop"
    if wanted == "uvloop":
        raise ChronoevalError(
            f"{ENV}=uvloop but uvloop is not installed: pip install 'chronoeval[fast]'"
        )
    return "asyncio"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or None for asyncio's default loop."""
    if loop_name() != "uvloop":
        return None
    import uvloop

    return uvloop.new_event_loop


def run(coro: Coroutine[Any, Any, T], *, fast: bool = True) -> T:
    """``asyncio.run(coro)``, on uvloop's loop when ``fast`` and :func:`loop_name` says so."""
    try:
        factory = loop_factory() if fast else None
    except ChronoevalError:
        coro.close()  # never awaited: no "coroutine was never awaited" warning on top
        raise
    if factory is None:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)
