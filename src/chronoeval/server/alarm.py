"""Waking a coroutine at a ``time.monotonic()`` deadline, to well under a millisecond: what
``chronoeval serve --latency`` waits with (server/app.py).

An event loop's own timers are coarse. asyncio rounds epoll's timeout up to whole milliseconds, so
a timer fires 0-1 ms late (0.6 ms at the median, measured in docs/benchmarks.md), and uvloop's
fire to the nearest millisecond of a cached clock, sometimes early. One thread here sleeps until
the earliest deadline with the OS's own timed wait (nanosecond resolution) and hands the wake-up to
the loop (``call_soon_threadsafe``, which wakes its poll at once). No request is ever answered
before its deadline: a coroutine that resumes early sleeps again what is left.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time


class Alarm:
    """One thread waking coroutines at their deadlines (``await alarm.until(deadline)``)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        with self._cond:
            while True:
                if not self._heap:
                    self._cond.wait()
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                _, _, loop, fut = heapq.heappop(self._heap)
                if fut.done() or loop.is_closed():  # nobody waits any more (uvloop's
                    continue  # call_soon_threadsafe must never meet a closed loop)
                # RuntimeError: asyncio's loop closed meanwhile, and nobody waits any more
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_wake, fut)

    async def until(self, deadline: float) -> None:
        """Return once ``time.monotonic() >= deadline``; at once if it is past."""
        while (rest := deadline - time.monotonic()) > 0:
            if rest < 0.0001:  # too short to be worth a thread's wake-up
                await asyncio.sleep(0)
                continue
            loop = asyncio.get_running_loop()
            fut: asyncio.Future[None] = loop.create_future()
            with self._cond:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="chronoeval-serve-alarm", daemon=True
                    )
                    self._thread.start()
                entry = (deadline, next(self._order), loop, fut)
                heapq.heappush(self._heap, entry)
                if self._heap[0] is entry:  # the thread waits for a later one: wake it
                    self._cond.notify()
            try:
                await fut
            except asyncio.CancelledError:  # the entry leaves with its waiter (before the loop
                with self._cond:  # closes: a loop's tasks are cancelled first)
                    if entry in self._heap:
                        self._heap.remove(entry)
                        heapq.heapify(self._heap)
                raise


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():  # a request cancelled meanwhile (the client went away)
        fut.set_result(None)


ALARM = Alarm()
"""The process's one alarm: every app's ``--latency`` waits (it serves several loops)."""
