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


@pytest.mark.parametrize("loop", LOOPS)
def test_waits_cancelled_with_their_loop_leave_nothing_for_the_closed_loop(
    loop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loop closed with waits pending (serve stopped: its handlers cancelled, then the loop
    closed): their entries leave the heap with them, so the alarm thread never calls into a
    closed loop (uvloop's call_soon_threadsafe does not check), and a later loop is served."""
    monkeypatch.setenv(event_loop.ENV, loop)
    alarm = Alarm()

    async def stopped() -> None:
        now = time.monotonic()
        for k in range(5):
            asyncio.ensure_future(alarm.until(now + 0.05 + 0.01 * k))
        await asyncio.sleep(0.005)  # returns with the waits pending: the runner cancels them

    event_loop.run(stopped())
    assert alarm._heap == []

    async def later() -> float:
        now = time.monotonic()
        await alarm.until(now + 0.02)
        return time.monotonic() - now

    assert event_loop.run(later()) >= 0.02


def test_serve_counts_the_backends_own_work_inside_the_latency(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A backend that takes WORK seconds behind ``--latency LATENCY`` answers LATENCY after the
    arrival when its work is shorter, and when its work is done when it is longer: never
    LATENCY + WORK (serve's app, in this process, on 127.0.0.1 with a real client)."""
    import aiohttp
    from aiohttp import web

    from chronoeval.models import registry
    from chronoeval.models.local import FunctionBackend
    from chronoeval.server.app import ModelRouter, create_app

    work = {"s": 0.0}

    def slow(arg, task, items, opts):  # type: ignore[no-untyped-def]
        def answer(_request: object) -> str:
            time.sleep(work["s"])
            return "10:10:00"

        return FunctionBackend("slowtest", answer, threaded=True)

    monkeypatch.setitem(registry._FACTORIES, "slowtest", slow)
    log: list[dict[str, object]] = []
    latency = 0.4
    app = create_app(ModelRouter(["slowtest"], "clockqa"), latency_s=latency, on_request=log.append)
    body = {"model": "slowtest", "messages": [{"role": "user", "content": "What time is it?"}]}

    async def main() -> list[float]:
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        took = []
        try:
            async with aiohttp.ClientSession() as session:
                for seconds in (0.2, 0.6):
                    work["s"] = seconds
                    async with session.post(
                        f"http://127.0.0.1:{port}/v1/chat/completions", json=body
                    ) as resp:
                        assert resp.status == 200
                    took.append(log[-1]["answered"] - log[-1]["arrived"])  # type: ignore[operator]
        finally:
            await runner.cleanup()
        return took

    inside, longer = asyncio.run(main())
    assert latency <= inside < latency + 0.2  # old serve: latency + work = 0.6
    assert 0.6 <= longer < latency + 0.6  # old serve: 1.0
