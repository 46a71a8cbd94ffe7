"""server/alarm.py: serve's latency waits wake each coroutine at its own deadline, never before,
on either event loop; a wait cancelled meanwhile (a client gone) leaves the others unharmed."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import time

import pytest

from chronoeval.engine import event_loop
from chronoeval.server.alarm import Alarm

LOOPS = ["asyncio"] + (["uvloop"] if importlib.util.find_spec("uvloop") else [])


@pytest.mark.parametrize("loop", LOOPS)
def test_many_deadlines_each_woken_never_early(loop: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loop.ENV, loop)
    alarm = Alarm()
    rng = random.Random(0)

    async def main() -> list[tuple[float, float]]:
        start = time.monotonic()
        # deadlines out of order, some equal, some already past, some within 0.1 ms
        deadlines = [start + rng.choice([0.0, 0.00005, 0.01, 0.03, 0.05]) for _ in range(60)]
        deadlines += [start - 1.0, start + 0.02, start + 0.02]

        async def one(deadline: float) -> tuple[float, float]:
            await alarm.until(deadline)
            return deadline, time.monotonic()

        return await asyncio.gather(*(one(d) for d in deadlines))

    woken = event_loop.run(main())
    assert len(woken) == 63
    assert all(at >= deadline for deadline, at in woken)


def test_a_cancelled_wait_leaves_the_others() -> None:
    alarm = Alarm()

    async def main() -> float:
        now = time.monotonic()
        gone = asyncio.ensure_future(alarm.until(now + 0.02))
        kept = asyncio.ensure_future(alarm.until(now + 0.04))
        await asyncio.sleep(0.005)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        await kept
        return time.monotonic() - now

    assert asyncio.run(main()) >= 0.04
